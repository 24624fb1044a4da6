// Requests sent byte for byte with node:http: no URL normalisation (`..`, `%2e%2e` and broken
// percent-encoding reach the server as written), explicit headers, one connection per request.
import http from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query string exactly as they go on the request line. */
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Sends one request; rejects only when no response arrived (timeout or connection error). */
export function sendRaw(baseUrl: string, request: RawRequest, timeoutMs = 20_000): Promise<RawAnswer> {
  const base = new URL(baseUrl);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers = { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = http.request(
      { host: base.hostname, port: base.port, method: request.method, path: request.target, headers, agent: false },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    // A server that answers early (413) and closes may break the upload; the answer still counts.
    outgoing.on('error', (error) => {
      if (!answered) reject(error);
    });
    outgoing.end(body);
  });
}

/** One line describing a request, with long parts cut, for failure messages. */
export function describeRequest(request: RawRequest): string {
  const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);
  const body = request.body === undefined ? '' : ` body=${cut(String(request.body), 300)}`;
  const headers = Object.entries(request.headers)
    .filter(([name]) => name !== 'x-api-key' && name !== 'authorization')
    .map(([name, value]) => `${name}: ${cut(value, 80)}`)
    .join('; ');
  return `${request.method} ${cut(request.target, 400)} [${headers}]${body}`;
}
