// Headers every answer carries, for the Express application and the runtime router alike: the
// security headers, and CORS (any origin reflected; the headers a browser client may read).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CorsOptions } from 'cors';

export const EXPOSED_HEADERS = ['Location', 'X-Total-Count', 'X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'];

/** The cors middleware's options: preflights (OPTIONS) are answered by it, everywhere. */
export const CORS_OPTIONS: CorsOptions = {
  origin: true,
  allowedHeaders: ['content-type', 'x-api-key', 'authorization', 'x-request-id'],
  exposedHeaders: EXPOSED_HEADERS,
  maxAge: 600,
};

export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

const EXPOSED_HEADER_LIST = EXPOSED_HEADERS.join(',');

/**
 * What the cors middleware writes with CORS_OPTIONS on a request that is not a preflight, without
 * its per-request option resolution: the caller's origin reflected, `Vary: Origin`, the exposed
 * headers (test/integration/runtime-http.test.ts compares the two).
 */
export function setActualRequestCors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (origin) res.setHeader('Access-Control-Allow-Origin', origin);
  const vary = res.getHeader('Vary');
  res.setHeader('Vary', vary ? `${String(vary)}, Origin` : 'Origin');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADER_LIST);
}
