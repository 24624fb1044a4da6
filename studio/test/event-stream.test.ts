// Server-Sent Events as the studio reads them: events split anywhere across chunks, CRLF line ends,
// keep-alive comments and data over several lines.
import { describe, expect, it } from 'vitest';
import type { ManagementClient } from '../src/api.ts';
import { pollJobEnd, serverSentEvents, watchJob } from '../src/generate/event-stream.ts';

function stream(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]) {
  const events: unknown[] = [];
  for await (const event of serverSentEvents(stream(chunks))) events.push(event);
  return events;
}

const event = (id: number, type: string) => ({ id, jobId: 'j', type, message: type, data: {}, createdAt: '2026-01-01T00:00:00.000Z' });
const frame = (value: ReturnType<typeof event>) => `id: ${value.id}\nevent: ${value.type}\ndata: ${JSON.stringify(value)}\n\n`;

describe('serverSentEvents', () => {
  it('yields each event once whatever the chunk boundaries', async () => {
    const text = frame(event(1, 'job.started')) + ': keep-alive\n\n' + frame(event(2, 'job.succeeded'));
    const want = [event(1, 'job.started'), event(2, 'job.succeeded')];
    expect(await collect([text])).toEqual(want);
    // Every split point, including inside a multi-byte character of the keep-alive's neighbour.
    for (let at = 1; at < text.length; at += 7) expect(await collect([text.slice(0, at), text.slice(at)])).toEqual(want);
    expect(await collect([...text])).toEqual(want);
  });

  it('reads CRLF line ends, data over several lines and multi-byte text split across chunks', async () => {
    const value = { ...event(3, 'job.warning'), message: 'naïve – ok' };
    const json = JSON.stringify(value);
    // Split between two members, where a newline is only whitespace.
    const half = json.indexOf(',"type"') + 1;
    const text = `id: 3\r\ndata: ${json.slice(0, half)}\r\ndata: ${json.slice(half)}\r\n\r\n`;
    const bytes = new TextEncoder().encode(text);
    const cut = text.indexOf('ï') + 1; // inside the two bytes of "ï"
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const events: unknown[] = [];
    for await (const item of serverSentEvents(chunks)) events.push(item);
    // Lines of one event's data are joined with a newline, as EventSource does.
    expect(events).toEqual([value]);
  });

  it('ends with the stream, dropping an unfinished event', async () => {
    expect(await collect([frame(event(1, 'job.started')), 'data: {"id"'])).toEqual([event(1, 'job.started')]);
  });
});

/** A management client whose GET answers from `answer` (only what watchJob and pollJobEnd call). */
const fakeApi = (answer: (path: string) => unknown) => ({ GET: async (path: string) => answer(path) }) as unknown as ManagementClient;
const ref = { projectId: 'p', sourceId: 's', jobId: 'j' };

describe('watchJob', () => {
  it('returns at the job.succeeded event even when the server keeps the stream open', async () => {
    const encoder = new TextEncoder();
    // Never closed: the old reader waited here for ever, and the page kept saying "generating".
    const open = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(frame(event(1, 'job.started')) + frame(event(2, 'job.succeeded'))));
      },
    });
    const seen: string[] = [];
    const api = fakeApi(() => ({ data: open, response: new Response(null, { status: 200 }) }));
    await watchJob(api, ref, (item) => seen.push(item.type), new AbortController().signal);
    expect(seen).toEqual(['job.started', 'job.succeeded']);
  });
});

describe('pollJobEnd', () => {
  it('reads the job until it has ended', async () => {
    const statuses = ['queued', 'running', 'succeeded', 'running'];
    let reads = 0;
    const api = fakeApi(() => ({ data: { status: statuses[reads++] } }));
    await pollJobEnd(api, ref, new AbortController().signal, 1);
    expect(reads).toBe(3);
  });

  it('stops when aborted', async () => {
    let reads = 0;
    const api = fakeApi(() => ({ data: { status: (reads++, 'running') } }));
    const abort = new AbortController();
    const done = pollJobEnd(api, ref, abort.signal, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    abort.abort();
    await done;
    const after = reads;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(after).toBeGreaterThan(0);
    expect(reads).toBe(after);
  });
});
