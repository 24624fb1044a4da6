// A team's "own" database server for bring-your-own tests: a real server reached through a loopback
// TCP proxy. The service refuses any database on its control plane's server, and CI's second pass
// runs the control plane on the machine's PostgreSQL, the same server as PG_TARGET_URL: through the
// proxy (another port) it is another server as the service sees it, whichever pass runs.
import { startTcpProxy } from './tcp-proxy.ts';

export interface OwnServer {
  /** `url` with its host and port replaced by the proxy's. */
  url: string;
  /** Any URL of the same server, through the proxy. */
  through(url: string): string;
  close(): Promise<void>;
}

export async function ownServer(url: string): Promise<OwnServer> {
  const parsed = new URL(url);
  const proxy = await startTcpProxy({ host: parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1', port: Number(parsed.port || (parsed.protocol.startsWith('mysql') || parsed.protocol.startsWith('mariadb') ? 3306 : 5432)) });
  const through = (other: string) => {
    const proxied = new URL(other);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    return proxied.toString();
  };
  return { url: through(url), through, close: () => proxy.close() };
}
