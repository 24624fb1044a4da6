// A generation job's events, live: the SDK's GET of generation-events with Accept: text/event-stream
// (an EventSource cannot send the x-api-key header), read as Server-Sent Events until the job ends;
// and the job resource polled beside it, so a stalled or lost stream never leaves the page behind.
import { errorText } from '../api-errors.ts';
import type { GenerationEvent, ManagementClient } from '../api.ts';

export interface JobRef {
  projectId: string;
  sourceId: string;
  jobId: string;
}

/** Splits SSE text into events and yields each event's `data:` as JSON. */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<GenerationEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        // Comments (": keep-alive") carry no data.
        if (data) yield JSON.parse(data) as GenerationEvent;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** Streams the events of one job (stored ones first, then live) until it succeeds or fails, or `signal` aborts. */
export async function watchJob(
  api: ManagementClient,
  { projectId, sourceId, jobId }: JobRef,
  onEvent: (event: GenerationEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const { data, error, response } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-events', {
    params: { path: { projectId, sourceId }, query: { jobId } },
    headers: { accept: 'text/event-stream' },
    parseAs: 'stream',
    signal,
  });
  if (error || !data) throw new Error(errorText(error, response));
  for await (const event of serverSentEvents(data as ReadableStream<Uint8Array>)) {
    onEvent(event);
    // The job's end is the stream's end, whether or not the server has closed it yet.
    if (event.type === 'job.succeeded' || event.type === 'job.failed') return;
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Reads the job resource every `everyMs` until it has succeeded or failed (or `signal` aborts): the event stream's backstop. */
export async function pollJobEnd(api: ManagementClient, ref: JobRef, signal: AbortSignal, everyMs = 1500): Promise<void> {
  while (!signal.aborted) {
    await sleep(everyMs, signal);
    if (signal.aborted) return;
    const { data } = await api
      .GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}', { params: { path: ref }, signal })
      .catch(() => ({ data: undefined }));
    if (data && (data.status === 'succeeded' || data.status === 'failed')) return;
  }
}
