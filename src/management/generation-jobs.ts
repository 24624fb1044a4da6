// Generation observability: jobs of a source, and their events as JSON pages or a live stream.
import { errors } from '../errors.ts';
import type { JobStore } from '../store/jobs.ts';
import type { Source } from '../store/sources.ts';
import { boundedCursor, listReply, pageOf } from './paging.ts';
import type { Operation, BaseContext, ServerSentEvent } from '../operation.ts';

const POLL_MS = 500;
/** How often a live stream checks that its key still works and its source still exists. */
const RECHECK_MS = 1_000;

/**
 * @param keyActive whether a team key (by id) is still unrevoked: a live stream ends once the key
 * that opened it is revoked, or its source is deleted, in whichever process that happens.
 */
export function generationJobOperations(
  jobs: JobStore,
  accessibleSource: (context: BaseContext) => Promise<Source>,
  keyActive: (keyId: string) => Promise<boolean>,
) {
  /** Whether the stream's caller may still read the source: its key unrevoked, the source (and project) still there. */
  const stillAllowed = async (context: BaseContext): Promise<boolean> => {
    if (context.principal && !(await keyActive(context.principal.keyId))) return false;
    try {
      await accessibleSource(context);
      return true;
    } catch {
      return false;
    }
  };

  const listGenerationJobs: Operation<'listGenerationJobs'> = async (context) => {
    const source = await accessibleSource(context);
    return listReply(await jobs.list(source.id, pageOf(context.query)));
  };

  const getGenerationJob: Operation<'getGenerationJob'> = async (context) => {
    const source = await accessibleSource(context);
    const job = await jobs.find(source.id, context.params.jobId!);
    if (!job) throw errors.notFound('Generation job');
    return { status: 200, body: job };
  };

  const listGenerationEvents: Operation<'listGenerationEvents'> = async (context) => {
    const source = await accessibleSource(context);
    const jobId = context.query.jobId as string | undefined;
    if (jobId && !(await jobs.find(source.id, jobId))) throw errors.notFound('Generation job');
    const { limit } = pageOf(context.query);
    const lastEventId = parseLastEventId(context.headers['last-event-id']);
    const after = boundedCursor(typeof context.query.after === 'number' ? context.query.after : (lastEventId ?? 0));
    if (!(context.headers.accept ?? '').includes('text/event-stream')) {
      return { status: 200, body: await jobs.events(source.id, { jobId, after, limit }) };
    }
    return {
      status: 200,
      events: async function* (signal: AbortSignal): AsyncGenerator<ServerSentEvent> {
        let cursor = after;
        let checked = Date.now();
        while (!signal.aborted) {
          // Revoking the key or deleting the source closes the stream; the client's reconnect is refused.
          if (Date.now() - checked >= RECHECK_MS) {
            if (!(await stillAllowed(context))) return;
            checked = Date.now();
          }
          const page = await jobs.events(source.id, { jobId, after: cursor, limit });
          for (const event of page) {
            cursor = event.id;
            yield { id: String(event.id), event: event.type, data: event };
            // The contract: a stream of one job ends after that job's last event.
            if (jobId && (event.type === 'job.succeeded' || event.type === 'job.failed')) return;
          }
          if (page.length < limit) await sleep(POLL_MS, signal);
        }
      },
    };
  };

  return { listGenerationJobs, getGenerationJob, listGenerationEvents };
}

/**
 * The `Last-Event-ID` header as a cursor, or undefined when it is absent. The contract declares it a
 * string (headers are text); it accepts what the integer declaration it replaced accepted (a number
 * that is a non-negative integer: `42`, `1e3`), and anything else is a 400.
 */
export function parseLastEventId(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 0) throw errors.invalidLastEventId();
  return value;
}

/** Waits `ms`, or less when `signal` aborts; leaves no listener behind either way. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
