// The studio at /studio: the static files `npm run build:studio` writes into studio/dist (built at
// install time, nothing fetched at run time), under a Content-Security-Policy that allows this
// origin only. The studio talks to the public API like any client; it has no endpoint of its own.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';

const DIST = fileURLToPath(new URL('../../studio/dist/', import.meta.url));

/**
 * Scripts, styles, connections and fonts from this origin only. Inline styles are allowed: CodeMirror
 * and the hover docs set some; no inline script is, and no other origin is reachable.
 */
export const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function studioRouter(dist: string = DIST): Router {
  const router = express.Router();
  const index = `${dist}index.html`;
  router.use('/studio', (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', STUDIO_CSP);
    next();
  });
  router.get(['/studio', '/studio/'], (_req, res) => {
    if (!fs.existsSync(index)) {
      res.status(503).json({ error: 'The studio is not built: run `npm run build:studio` (npm ci builds it)' });
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  // Bundled files carry a content hash in their names: they never change under the same name.
  router.use('/studio/assets', express.static(`${dist}assets`, { immutable: true, maxAge: '1y', index: false, fallthrough: true }));
  return router;
}
