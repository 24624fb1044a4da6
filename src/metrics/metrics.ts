// The service's Prometheus metrics (prom-client), one registry per running service: HTTP requests by
// route template, method and status with their latency; runtime API operations by source and table;
// generation jobs by status with the rows they wrote and their rate; connection pool use; rate-limit
// rejections; and prom-client's process defaults (CPU, memory, event loop lag, GC, handles). Served at
// GET /metrics (src/http/metrics.ts). Other layers record through the plain methods below and never
// see prom-client.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SourceKind } from '../contract.ts';

/** Connections of one pool, as TargetConnection.poolStats and the control plane's Db report them. */
export interface PoolUse {
  /** Which database: `control-plane`, or a target (`default:postgres`, `default:mysql`, a source's secret id). */
  database: string;
  /** Which pool of it: `control-plane`, `runtime`, `generation`, or `shared` (runtime and generation alike). */
  pool: string;
  /** Connections open, idle among them, and requests waiting for one. */
  total: number;
  idle: number;
  waiting: number;
}

/** A finished generation job, as the worker reports it. */
export interface FinishedJob {
  status: 'succeeded' | 'failed';
  kind: SourceKind;
  rowsInserted: number;
  durationMs: number;
}

/** Latency buckets (seconds): from a cached runtime read to a slow management call. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly runtimeQueries: Counter<'source' | 'table' | 'operation' | 'status'>;
  private readonly rateLimited: Counter<'surface'>;
  private readonly jobs: Counter<'status' | 'kind'>;
  private readonly rows: Counter<'kind'>;
  private readonly rowsPerSecond: Gauge<'kind'>;
  private readonly jobDuration: Histogram<'status' | 'kind'>;
  private readonly httpSeries = new Map<string, { count: { inc(): void }; duration: { observe(seconds: number): void }; rejections?: { inc(): void } }>();
  private readonly runtimeSeries = new Map<string, { inc(): void }>();

  /** `pools` is asked at each scrape for the connection pools to report. */
  constructor(pools: () => PoolUse[] = () => []) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'sds_http_requests_total',
      help: 'HTTP requests answered, by route template (the OpenAPI path; "unmatched" for none), method and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'sds_http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to finishing its answer, by route template, method and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.runtimeQueries = new Counter({
      name: 'sds_runtime_queries_total',
      help: "Runtime API operations on a source's table (each its query, with its count or populate queries), by source id, table, operation and status",
      labelNames: ['source', 'table', 'operation', 'status'],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'sds_rate_limit_rejections_total',
      help: 'Requests answered 429 by a request budget (a source rateLimitRpm, a team key budget, failed authentications), by surface',
      labelNames: ['surface'],
      registers,
    });
    this.jobs = new Counter({
      name: 'sds_generation_jobs_total',
      help: 'Generation jobs this process ran to their end, by status (succeeded, failed) and target kind',
      labelNames: ['status', 'kind'],
      registers,
    });
    this.rows = new Counter({
      name: 'sds_generation_rows_total',
      help: 'Rows generation jobs of this process wrote into their targets (succeeded jobs), by target kind',
      labelNames: ['kind'],
      registers,
    });
    this.rowsPerSecond = new Gauge({
      name: 'sds_generation_rows_per_second',
      help: 'Rows per second of the last generation job this process completed, by target kind',
      labelNames: ['kind'],
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'sds_generation_job_duration_seconds',
      help: 'Duration of the generation jobs this process ran, by status and target kind',
      labelNames: ['status', 'kind'],
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
      registers,
    });
    new Gauge({
      name: 'sds_db_pool_connections',
      help: 'Database connections of each pool: open (total), idle, and requests waiting for one, by database and pool',
      labelNames: ['database', 'pool', 'state'],
      registers,
      collect() {
        this.reset();
        for (const use of pools()) {
          for (const state of ['total', 'idle', 'waiting'] as const) this.set({ database: use.database, pool: use.pool, state }, use[state]);
        }
      },
    });
  }

  /** An answered HTTP request; `route` is its OpenAPI path template, undefined when no route matched. */
  httpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    // The series of each label set, looked up by one string: prom-client would hash the labels anew on every call.
    const key = `${method} ${route} ${status}`;
    let series = this.httpSeries.get(key);
    if (!series) {
      const labels = { method, route: route ?? 'unmatched', status: String(status) };
      const rejections = status === 429 ? this.rateLimited.labels({ surface: surfaceOf(labels.route) }) : undefined;
      series = { count: this.httpRequests.labels(labels), duration: this.httpDuration.labels(labels), rejections };
      this.httpSeries.set(key, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
    series.rejections?.inc();
  }

  /** An answered runtime API operation. */
  runtimeQuery(source: string, table: string, operation: string, status: number): void {
    const key = `${source} ${table} ${operation} ${status}`;
    let series = this.runtimeSeries.get(key);
    if (!series) this.runtimeSeries.set(key, (series = this.runtimeQueries.labels({ source, table, operation, status: String(status) })));
    series.inc();
  }

  jobFinished(job: FinishedJob): void {
    this.jobs.inc({ status: job.status, kind: job.kind });
    this.jobDuration.observe({ status: job.status, kind: job.kind }, job.durationMs / 1000);
    if (job.status !== 'succeeded') return;
    this.rows.inc({ kind: job.kind }, job.rowsInserted);
    if (job.durationMs > 0) this.rowsPerSecond.set({ kind: job.kind }, (job.rowsInserted * 1000) / job.durationMs);
  }

  /** The text a scrape answers, and its content type. */
  async scrape(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

function surfaceOf(route: string): string {
  if (route.startsWith('/runtime/')) return 'runtime';
  if (route.startsWith('/public/v1/')) return 'management';
  if (route.startsWith('/api/')) return 'admin';
  return 'other';
}
