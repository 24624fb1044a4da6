// The management client (`/public/v1`, team API key) and waiting for generation jobs.
import type { Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi.js';
import { createSdsClient, type BaseClientOptions, type JsonMedia } from './options.js';
import type { SdsResult } from './result.js';

/** The contract's paths without the runtime API (`/runtime/…`, see `createRuntimeClient`). */
export type ManagementPaths = { [P in keyof paths as P extends `/runtime/${string}` ? never : P]: paths[P] };

/** A typed openapi-fetch client of the management API: `GET`, `POST`, `PATCH`, `DELETE`… by path. */
export type ManagementClient = Client<ManagementPaths, JsonMedia>;

export interface ManagementClientOptions extends BaseClientOptions {
  /** API root, e.g. `http://localhost:3000` (no `/public/v1`). */
  baseUrl: string;
  /** A team API key (`svc_api_…`), sent as `x-api-key`. */
  apiKey: string;
}

/**
 * A client of the management API, authenticated with a team API key. Every call resolves to
 * `{data, error, response}` and never throws on an HTTP error; `error` is the API's `{error, details?}`.
 */
export function createManagementClient({ baseUrl, apiKey, ...options }: ManagementClientOptions): ManagementClient {
  return createSdsClient<ManagementPaths>(baseUrl, apiKey, options);
}

export type GenerationJob = components['schemas']['GenerationJob'];

export interface JobRef {
  projectId: string;
  sourceId: string;
  /** The job to wait for; omitted, the source's newest job (e.g. the first one, queued by creating the source). */
  jobId?: string;
}

export interface WaitOptions {
  /** Give up after this long (default 60 000 ms): the result is then an error. */
  timeoutMs?: number;
  /** Time between polls (default 250 ms). */
  intervalMs?: number;
  /** Stops waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/**
 * Polls a generation job until it has finished. Resolves to the finished job as `data`, whether it
 * `succeeded` or `failed` (check `data.status` and `data.error`); to an `error` result when a poll
 * fails or the job is still running after `timeoutMs`.
 */
export async function waitForJob(
  client: Pick<ManagementClient, 'GET'>,
  { projectId, sourceId, jobId }: JobRef,
  { timeoutMs = 60_000, intervalMs = 250, signal }: WaitOptions = {},
): Promise<SdsResult<GenerationJob>> {
  const deadline = Date.now() + timeoutMs;
  let id = jobId;
  for (;;) {
    if (id === undefined) {
      const jobs = await client.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', {
        params: { path: { projectId, sourceId }, query: { limit: 1 } },
        signal,
      });
      if (jobs.error) return { error: jobs.error, response: jobs.response };
      id = jobs.data[0]?.id;
      if (id === undefined && Date.now() >= deadline) {
        return { error: { error: `Source ${sourceId} has no generation job after ${timeoutMs} ms` }, response: jobs.response };
      }
    }
    if (id !== undefined) {
      const job = await client.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}', {
        params: { path: { projectId, sourceId, jobId: id } },
        signal,
      });
      if (job.error) return { error: job.error, response: job.response };
      if (job.data.status === 'succeeded' || job.data.status === 'failed') return { data: job.data, response: job.response };
      if (Date.now() >= deadline) {
        return { error: { error: `Generation job ${id} is still ${job.data.status} after ${timeoutMs} ms` }, response: job.response };
      }
    }
    await sleep(Math.max(0, Math.min(intervalMs, deadline - Date.now())), signal);
  }
}
