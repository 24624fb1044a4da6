// Metrics over HTTP: every answered request is recorded by its route template (src/metrics), runtime
// operations also by source and table; GET /metrics serves them to Prometheus behind SDS_METRICS_TOKEN.
import type { Request, Response } from 'express';
import type { OperationSpec } from '../contract.ts';
import type { RuntimeSource } from '../operation.ts';
import type { Metrics } from '../metrics/metrics.ts';

/**
 * Records a request of the Express application whose answer is finished (requestContext calls it),
 * by its route template. Labels come only from the operation table (route templates, operation ids)
 * and, for runtime requests (runtimeRequestMetrics), from the authenticated source and a table of its
 * config: nothing a client makes up becomes a label, so their number stays bounded.
 */
export function requestMetrics(metrics: Metrics, table: OperationSpec[]) {
  const byRoute = new Map(table.map((operation) => [`${operation.method} ${operation.expressPath}`, operation]));
  return (req: Request, res: Response, seconds: number) => {
    const route = req.route as { path?: unknown } | undefined;
    const operation = typeof route?.path === 'string' ? byRoute.get(`${req.method.toLowerCase()} ${route.path}`) : undefined;
    metrics.httpRequest(req.method, operation?.path, res.statusCode, seconds);
  };
}

/** A finished runtime request, as the runtime router knows it. */
export interface RuntimeRequestRecord {
  method: string;
  /** The operation it was routed to (none for a preflight or a HEAD: they are counted unmatched). */
  operation: OperationSpec | undefined;
  status: number;
  seconds: number;
  /** The source, once its key (or its being open) let the request in. */
  source: RuntimeSource | undefined;
  /** The table of the path, decoded. */
  table: string;
}

/** Records a finished runtime request: by route, and by source and table when the table is one of the source's. */
export function runtimeRequestMetrics(metrics: Metrics) {
  return ({ method, operation, status, seconds, source, table }: RuntimeRequestRecord) => {
    metrics.httpRequest(method, operation?.path, status, seconds);
    if (operation && source && source.config.entities.some((entity) => entity.id === table)) {
      metrics.runtimeQuery(source.source.id, table, operation.operationId, status);
    }
  };
}

/** GET /metrics, after `authenticate` (the metrics bearer token). */
export function metricsEndpoint(metrics: Metrics) {
  return async (_req: Request, res: Response) => {
    const { contentType, text } = await metrics.scrape();
    res.type(contentType).send(text);
  };
}
