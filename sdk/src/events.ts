// Following a generation job's event stream (`GET …/generation-events`, Server-Sent Events): events
// as they come, resuming with Last-Event-ID after a dropped connection, ending when the job ends.
import { SdsNetworkError, toRequestError } from './errors.js';
import type { GenerationJob, JobRef, ManagementClient } from './management.js';
import type { GenerationEvent } from './resources.js';
import type { CallOptions } from './transport.js';

export interface FollowOptions extends Pick<CallOptions, 'signal'> {
  /** Start after this event id (default 0: the job's stored events first, then live ones). */
  after?: number;
  /** Reconnections allowed in a row without an event in between (default 5). */
  reconnects?: number;
  /** Wait before reconnecting, unless the stream sent `retry:` (default 1000 ms). */
  reconnectDelayMs?: number;
}

const TERMINAL = new Set<GenerationEvent['type']>(['job.succeeded', 'job.failed']);

/**
 * A generation job's events, in order, until its `job.succeeded` or `job.failed` event (yielded
 * last). Without `jobId`, the source's newest job. When the connection drops it reconnects with
 * `Last-Event-ID` (the last id seen), so no event is lost or repeated. An error answer (a 404, a
 * revoked key) throws an `SdsRequestError` subclass; an abort rejects with the signal's reason.
 */
export async function* followGenerationEvents(
  client: Pick<ManagementClient, 'GET'>,
  { projectId, sourceId, jobId }: JobRef,
  { after = 0, reconnects = 5, reconnectDelayMs = 1000, signal }: FollowOptions = {},
): AsyncGenerator<GenerationEvent, void, undefined> {
  const get = client.GET as unknown as (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const path = { projectId, sourceId };
  let job = jobId;
  if (job === undefined) {
    const newest = await get('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', { params: { path, query: { limit: 1 } }, signal });
    if (newest.error !== undefined) throw toRequestError(newest.response, newest.error);
    job = (newest.data as GenerationJob[])[0]?.id;
    if (job === undefined) throw toRequestError(newest.response, { error: `Source ${sourceId} has no generation job` });
  }
  let lastId = after;
  let delayMs = reconnectDelayMs;
  for (let failures = 0; ; ) {
    const stream = await get('/public/v1/projects/{projectId}/sources/{sourceId}/generation-events', {
      params: { path, query: { jobId: job }, header: lastId > 0 ? { 'Last-Event-ID': String(lastId) } : {} },
      headers: { Accept: 'text/event-stream' },
      parseAs: 'stream',
      signal,
    });
    if (stream.error !== undefined || !stream.data) throw toRequestError(stream.response, stream.error);
    try {
      for await (const message of readEvents(stream.data as ReadableStream<Uint8Array>)) {
        if (message.retry !== undefined) delayMs = message.retry;
        if (message.data === undefined) continue;
        const event = JSON.parse(message.data) as GenerationEvent;
        lastId = message.id !== undefined && /^\d+$/.test(message.id) ? Number(message.id) : event.id;
        failures = 0;
        yield event;
        if (TERMINAL.has(event.type) && event.jobId === job) return;
      }
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof SyntaxError) throw error;
      // The connection broke mid-stream: reconnect below.
    }
    if (signal?.aborted) throw signal.reason;
    if (++failures > reconnects) throw new SdsNetworkError(`The event stream of job ${job} dropped ${failures} times without an event; giving up after event ${lastId}`);
    await sleep(delayMs, signal);
  }
}

interface Message {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
}

/** Server-Sent Events parsing (the WHATWG rules that matter here): fields up to a blank line, comments skipped. */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<Message> {
  const decoder = new TextDecoder();
  let buffer = '';
  let message: Message = {};
  for await (const bytes of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop()!;
    for (const line of lines) {
      if (line === '') {
        if (message.data !== undefined || message.retry !== undefined) yield message;
        message = {};
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') message.data = message.data === undefined ? value : `${message.data}\n${value}`;
      else if (field === 'id') message.id = value;
      else if (field === 'event') message.event = value;
      else if (field === 'retry' && /^\d+$/.test(value)) message.retry = Number(value);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => (signal?.removeEventListener('abort', abort), resolve());
    const timer = setTimeout(done, ms);
    const abort = () => (clearTimeout(timer), reject(signal!.reason));
    signal?.addEventListener('abort', abort, { once: true });
  });
}
