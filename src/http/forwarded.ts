// What a request says of its client when it came through proxies, as Express's req.ip and
// req.protocol read it: the peer's own address and protocol, or, when the peer is a proxy the operator
// trusts (SDS_TRUSTED_PROXIES), what it forwarded (X-Forwarded-For read right to left while the hops
// are trusted; X-Forwarded-Proto). For the runtime router, whose requests Express never sees.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** Whether the address at `hop` (0: the peer) is a trusted proxy: Express's compiled 'trust proxy fn'. */
export type TrustProxy = (address: string, hop: number) => boolean;

export function clientAddressOf(req: IncomingMessage, trust: TrustProxy): string {
  const peer = req.socket.remoteAddress;
  const sent = req.headers['x-forwarded-for'];
  const header = Array.isArray(sent) ? sent.join(',') : sent;
  if (!header || peer === undefined) return peer ?? 'unknown';
  const hops = [peer, ...header.split(',').map((address) => address.trim()).filter(Boolean).reverse()];
  let hop = 0;
  while (hop < hops.length - 1 && trust(hops[hop]!, hop)) hop++;
  return hops[hop]!;
}

export function protocolOf(req: IncomingMessage, trust: TrustProxy): string {
  const own = (req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  if (!trust(req.socket.remoteAddress ?? '', 0)) return own;
  const sent = req.headers['x-forwarded-proto'];
  const header = (Array.isArray(sent) ? sent[0] : sent) ?? own;
  return header.split(',')[0]!.trim();
}
