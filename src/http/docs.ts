// The contract as served: /openapi.json, /openapi.yaml and a human reference page at /docs
// (Swagger UI, whose assets ship inside the npm package, so it works offline).
import express, { type Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import YAML from 'yaml';
import type { OpenApiDocument } from '../contract.ts';

export function docsRouter(document: OpenApiDocument): Router {
  const router = express.Router();
  const json = JSON.stringify(document);
  const yaml = YAML.stringify(document);
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/openapi.yaml', (_req, res) => {
    res.type('text/yaml').send(yaml);
  });
  const page = swaggerUi.generateHTML(undefined, {
    customSiteTitle: `${document.info.title} reference`,
    swaggerOptions: { url: '/openapi.json', docExpansion: 'list', tryItOutEnabled: true, persistAuthorization: true },
  });
  router.use('/docs', swaggerUi.serveFiles(undefined, { swaggerOptions: { url: '/openapi.json' } }));
  router.get('/docs', (_req, res) => {
    res.type('text/html').send(page);
  });
  return router;
}
