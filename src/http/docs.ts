// The contract as served: /openapi.json, /openapi.yaml and a human reference page at /docs
// (Swagger UI, whose assets ship inside the npm package, so it works offline).
import express, { type Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import type { OpenApiDocument } from '../contract.ts';

export function docsRouter(document: OpenApiDocument): Router {
  const router = express.Router();
  // Each text is written on its first request: the YAML (and the yaml package) alone is a third of
  // a second of CPU that start-up need not spend.
  const json = once(() => JSON.stringify(document));
  let yaml: Promise<string> | undefined;
  const page = once(() =>
    swaggerUi.generateHTML(undefined, {
      customSiteTitle: `${document.info.title} reference`,
      swaggerOptions: { url: '/openapi.json', docExpansion: 'list', tryItOutEnabled: true, persistAuthorization: true },
    }),
  );
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json());
  });
  router.get('/openapi.yaml', async (_req, res) => {
    yaml ??= import('yaml').then(({ default: YAML }) => YAML.stringify(document));
    res.type('text/yaml').send(await yaml);
  });
  router.use('/docs', swaggerUi.serveFiles(undefined, { swaggerOptions: { url: '/openapi.json' } }));
  router.get('/docs', (_req, res) => {
    res.type('text/html').send(page());
  });
  return router;
}

function once(make: () => string): () => string {
  let text: string | undefined;
  return () => (text ??= make());
}
