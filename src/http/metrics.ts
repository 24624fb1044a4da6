// Metrics over HTTP: every answered request is recorded by its route template (src/metrics), runtime
// operations also by source and table; GET /metrics serves them to Prometheus behind SDS_METRICS_TOKEN.
import type { Request, Response } from 'express';
import type { OperationSpec } from '../contract.ts';
import type { RuntimeSource } from '../runtime/runtime-sources.ts';
import type { Metrics } from '../metrics/metrics.ts';

/**
 * Records a request whose answer is finished (requestContext calls it). Labels come only from the
 * operation table (route templates, operation ids) and, for runtime operations, from the authenticated
 * source and a table of its config: nothing a client makes up becomes a label, so their number stays
 * bounded.
 */
export function requestMetrics(metrics: Metrics, table: OperationSpec[]) {
  const byRoute = new Map(table.map((operation) => [`${operation.method} ${operation.expressPath}`, operation]));
  return (req: Request, res: Response, seconds: number) => {
    const route = req.route as { path?: unknown } | undefined;
    const operation = typeof route?.path === 'string' ? byRoute.get(`${req.method.toLowerCase()} ${route.path}`) : undefined;
    metrics.httpRequest(req.method, operation?.path, res.statusCode, seconds);
    const source = res.locals.runtime as RuntimeSource | undefined;
    if (operation && source) {
      // /runtime/{sourceId}/{table}[/{id}]: the source is the authenticated one; the table counts if it
      // is one of its own. Its route's parameters, unless the router took them back on an error.
      const routed = req.params?.table;
      let table = typeof routed === 'string' ? routed : decodedSegment(req.path, 3);
      let operationId = operation.operationId;
      // /runtime/{sourceId}/{table}.csv|.jsonl taken by the listRows route (the runtime lane keeps one
      // route per shape): an export of that table. Table ids hold no dot.
      const exported = /^(.+)\.(?:csv|jsonl)$/i.exec(table);
      if (exported) [table, operationId] = [exported[1]!, 'exportRows'];
      if (source.config.entities.some((entity) => entity.id === table)) metrics.runtimeQuery(source.source.id, table, operationId, res.statusCode);
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

function decodedSegment(path: string, index: number): string {
  try {
    return decodeURIComponent(path.split('/')[index] ?? '');
  } catch {
    return '';
  }
}
