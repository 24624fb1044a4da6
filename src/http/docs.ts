// The contract as served: /openapi.json, /openapi.yaml and a human reference page at /docs
// (Swagger UI, whose assets ship inside the npm package, so it works offline), under a
// Content-Security-Policy that lets the page load only its own scripts.
import express, { type Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { OpenApiDocument } from '../contract.ts';

/**
 * Scripts from this origin only (Swagger UI's bundle and its init file; the page has no inline
 * script), so nothing injected into the page can run. Styles may be inline: the page's own `<style>`
 * blocks and the style attributes Swagger UI writes (styles cannot run code). "Try it out" may call
 * this origin and the servers the document names; no plugins, no framing, no other base URL.
 */
export function docsCsp(document: OpenApiDocument): string {
  const servers = new Set<string>();
  for (const server of (document.servers ?? []) as { url: string }[]) {
    try {
      const url = new URL(server.url);
      if (url.protocol === 'http:' || url.protocol === 'https:') servers.add(url.origin);
    } catch {
      // A relative server URL is this origin: 'self' covers it.
    }
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    ["connect-src 'self'", ...servers].join(' '),
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function docsRouter(document: OpenApiDocument): Router {
  const router = express.Router();
  // Each text is written on its first request: the YAML (and the yaml package) alone is a third of
  // a second of CPU that start-up need not spend.
  const json = once(() => JSON.stringify(document));
  let yaml: Promise<string> | undefined;
  // No validator badge: it would send the document's address to validator.swagger.io.
  const swaggerOptions = { url: '/openapi.json', docExpansion: 'list', tryItOutEnabled: true, persistAuthorization: true, validatorUrl: null };
  const page = once(() =>
    swaggerUi.generateHTML(undefined, {
      customSiteTitle: `${document.info.title} reference`,
      swaggerOptions,
    }),
  );
  const csp = docsCsp(document);
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json());
  });
  router.get('/openapi.yaml', async (_req, res) => {
    yaml ??= import('yaml').then(({ default: YAML }) => YAML.stringify(document));
    res.type('text/yaml').send(await yaml);
  });
  router.use('/docs', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', csp);
    next();
  });
  router.use('/docs', swaggerUi.serveFiles(undefined, { swaggerOptions }));
  router.get('/docs', (_req, res) => {
    res.type('text/html').send(page());
  });
  return router;
}

function once(make: () => string): () => string {
  let text: string | undefined;
  return () => (text ??= make());
}
