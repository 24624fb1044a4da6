// The studio at /studio: the static files `npm run build:studio` writes into studio/dist (built at
// install time, nothing fetched at run time), under a Content-Security-Policy that allows this
// origin only. The studio talks to the public API like any client; it has no endpoint of its own.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';

const DIST = fileURLToPath(new URL('../../studio/dist/', import.meta.url));

/** Where the page's `<meta name="sds-style-nonce">` takes the nonce of its response (see studio/index.html). */
const NONCE_PLACEHOLDER = '__SDS_STYLE_NONCE__';

/**
 * Scripts, styles, connections and fonts from this origin only; no inline script. The editor
 * (CodeMirror) writes its styles into a `<style>` element: it carries the response's nonce, which
 * the page reads from its meta tag.
 */
export function studioCsp(nonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function studioRouter(dist: string = DIST): Router {
  const router = express.Router();
  router.get(['/studio', '/studio/'], (_req, res) => {
    // Read each time (600 bytes): a rebuild while the server runs is served at once.
    const page = fs.existsSync(`${dist}index.html`) ? fs.readFileSync(`${dist}index.html`, 'utf8') : undefined;
    if (!page) {
      res.status(503).json({ error: 'The studio is not built: run `npm run build:studio` (npm ci builds it)' });
      return;
    }
    const nonce = randomBytes(16).toString('base64');
    res.setHeader('Content-Security-Policy', studioCsp(nonce));
    res.setHeader('Cache-Control', 'no-store');
    res.type('text/html').send(page.replace(NONCE_PLACEHOLDER, nonce));
  });
  // Bundled files carry a content hash in their names: they never change under the same name.
  router.use('/studio/assets', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', studioCsp());
    next();
  });
  router.use('/studio/assets', express.static(`${dist}assets`, { immutable: true, maxAge: '1y', index: false }));
  return router;
}
