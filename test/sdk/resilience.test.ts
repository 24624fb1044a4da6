// The SDK against a live sds: a real 429 (with Retry-After) from a source whose budget is 2 requests
// a minute is waited out and retried, error classes carry the server's request id and details, lists
// are iterated past one page, and a regeneration's event stream is followed across a dropped connection.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  createManagementClient,
  createRuntimeClient,
  followGenerationEvents,
  paginate,
  SdsBadRequestError,
  SdsNotFoundError,
  SdsRateLimitError,
  SdsUnauthorizedError,
  unwrap,
  type GenerationEvent,
  type ListItem,
  type ListPath,
  type ManagementClient,
  type Project,
  type Source,
  type RetryEvent,
} from '../../sdk/src/index.ts';
import { waitForLatestJob } from '../helpers/generation.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';

let t: TestService;
let sds: ManagementClient;
let projectId: string;
let sourceId: string;
let sourceKey: string;

beforeAll(async () => {
  t = await startTestService('sdk_resilience');
  sds = createManagementClient({ baseUrl: t.url, apiKey: t.teamKey });
  const blog = await blogProject(t.client(t.teamKey), 'Resilience');
  projectId = blog.projectId;
  sourceId = unwrap(
    await sds.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'Tiny budget', kind: 'postgres', schemaVersionId: blog.versionId, rateLimitRpm: 2, generatorConfig: { rowCounts: { users: 3, posts: 3 } } },
    }),
  ).id;
  await waitForLatestJob(t, projectId, sourceId);
  sourceKey = unwrap(await sds.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId } }, body: { name: 'reader' } })).key;
}, 120_000);
afterAll(() => t?.stop());

const setBudget = async (rateLimitRpm: number) =>
  unwrap(await sds.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId } }, body: { rateLimitRpm } }));

describe('retries against the real rate limit', () => {
  it('waits after a real 429 with Retry-After and retries; off per call, the 429 comes back as an SdsRateLimitError', async () => {
    const retries: RetryEvent[] = [];
    const runtime = createRuntimeClient({
      baseUrl: t.url,
      sourceId,
      apiKey: sourceKey,
      retry: {
        maxDelayMs: 300,
        // While the client waits, the source's owner raises its budget: the retry is then served.
        onRetry: async (retry) => {
          retries.push(retry);
          await setBudget(600);
        },
      },
    });
    await setBudget(2);
    expect((await runtime.list('users')).response.status).toBe(200);
    expect((await runtime.list('users')).response.status).toBe(200);

    // Without retries, the third request of the minute is refused as it comes.
    const refused = await runtime.list('users', {}, { retry: false });
    expect(refused.response.status).toBe(429);
    let thrown: unknown;
    try {
      unwrap(refused);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SdsRateLimitError);
    const limited = thrown as SdsRateLimitError;
    expect(limited.body.error).toMatch(/^Rate limit of 2 requests per minute exceeded for this source; retry in \d+ s$/);
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    expect(limited.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(limited.requestId).toBe(refused.response.headers.get('x-request-id'));
    expect(limited.requestId).toBeTruthy();
    expect(retries).toEqual([]);

    // With retries (the default for GET): the server's 429 is waited out (capped at 300 ms here) and retried.
    const start = performance.now();
    const served = await runtime.list('users');
    const waited = performance.now() - start;
    expect(served.error).toBeUndefined();
    expect(served.data!.data).toHaveLength(3);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.response.status).toBe(429);
    expect(Number(retries[0]!.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(retries[0]!.delayMs).toBe(300);
    expect(waited).toBeGreaterThanOrEqual(290);
  });

  it('gives up after its attempts and resolves to the last 429', async () => {
    await setBudget(1);
    const attempts: number[] = [];
    const counting = async (request: Request) => {
      const response = await fetch(request);
      attempts.push(response.status);
      return response;
    };
    const runtime = createRuntimeClient({ baseUrl: t.url, sourceId, apiKey: sourceKey, fetch: counting, retry: { attempts: 3, maxDelayMs: 50 } });
    const answers: number[] = [];
    runtime.client.use({ onResponse: ({ response }) => void answers.push(response.status) });
    let last = await runtime.list('users');
    if (last.response.status === 200) last = await runtime.list('users');
    expect(last.response.status).toBe(429);
    expect(last.response.headers.get('retry-after')).toMatch(/^\d+$/);
    // Three real 429s were fetched for the last call; middleware saw only its final answer.
    expect(attempts.slice(-3)).toEqual([429, 429, 429]);
    expect(answers.at(-1)).toBe(429);
    expect(answers.length).toBe(attempts.length - 2);
    await setBudget(600);
  });
});

describe('error classes from the real server', () => {
  it('a 404, a 401 and a 400 with details, each with its request id', async () => {
    const missing = await sds.GET('/public/v1/projects/{projectId}', { params: { path: { projectId: '00000000-0000-4000-8000-000000000000' } } });
    expect(() => unwrap(missing)).toThrow(SdsNotFoundError);
    const stranger = createManagementClient({ baseUrl: t.url, apiKey: 'svc_api_not-a-real-key' });
    const refused = await stranger.GET('/public/v1/projects');
    try {
      unwrap(refused);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SdsUnauthorizedError);
      expect((error as SdsUnauthorizedError).requestId).toBe(refused.response.headers.get('x-request-id'));
    }
    const invalid = await sds.POST('/public/v1/projects', { body: { name: '' } });
    try {
      unwrap(invalid);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SdsBadRequestError);
      expect((error as SdsBadRequestError).details?.[0]?.path).toMatch(/^\/body\/name/);
    }
  });
});

describe('paginate', () => {
  it('yields every project across pages, by X-Total-Count', async () => {
    for (let i = 0; i < 7; i++) unwrap(await sds.POST('/public/v1/projects', { body: { name: `Paged ${i}` } }));
    const all = unwrap(await sds.GET('/public/v1/projects', { params: { query: { limit: 1000 } } }));
    expect(all.length).toBeGreaterThanOrEqual(8);
    const offsets: string[] = [];
    const counted = createManagementClient({ baseUrl: t.url, apiKey: t.teamKey });
    counted.use({ onRequest: ({ request }) => void offsets.push(new URL(request.url).searchParams.get('offset')!) });
    const names: string[] = [];
    for await (const project of paginate(counted, '/public/v1/projects', { pageSize: 3 })) names.push(project.name);
    expect(names).toEqual(all.map((project) => project.name));
    expect(offsets).toEqual(Array.from({ length: Math.ceil(all.length / 3) }, (_, page) => String(page * 3)));

    // Path parameters and a starting offset.
    const keys: string[] = [];
    for await (const job of paginate(sds, '/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', { params: { path: { projectId, sourceId } }, pageSize: 1 })) keys.push(job.id);
    expect(keys.length).toBeGreaterThanOrEqual(1);
    const skipped: string[] = [];
    for await (const project of paginate(sds, '/public/v1/projects', { params: { query: { offset: 5 } }, pageSize: 2 })) skipped.push(project.name);
    expect(skipped).toEqual(all.slice(5).map((project) => project.name));
  });

  it('throws the error class of a failed page', async () => {
    const pages = paginate(sds, '/public/v1/projects/{projectId}/schemas', { params: { path: { projectId: '00000000-0000-4000-8000-000000000000' } } });
    await expect(pages.next()).rejects.toBeInstanceOf(SdsNotFoundError);
  });
});

describe('followGenerationEvents', () => {
  it("follows a real regeneration to its end, resuming with Last-Event-ID after the connection drops", async () => {
    const streams: { lastEventId: string | null }[] = [];
    // A fetch that cuts the first event stream after its first event, as a dropped connection would.
    const dropping = async (request: Request) => {
      const response = await fetch(request);
      if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
      streams.push({ lastEventId: request.headers.get('last-event-id') });
      if (streams.length > 1) return response;
      const reader = response.body!.getReader();
      let text = '';
      let cut = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (cut) {
            await reader.cancel();
            return controller.error(new TypeError('terminated'));
          }
          const chunk = await reader.read();
          if (chunk.done) return controller.close();
          text += new TextDecoder().decode(chunk.value);
          const end = text.indexOf('\n\n');
          if (end < 0) return controller.enqueue(chunk.value);
          controller.enqueue(new TextEncoder().encode(text.slice(0, end + 2)));
          cut = true;
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const client = createManagementClient({ baseUrl: t.url, apiKey: t.teamKey, fetch: dropping });
    const job = unwrap(await sds.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: { projectId, sourceId } }, body: {} }));

    const events: GenerationEvent[] = [];
    for await (const event of followGenerationEvents(client, { projectId, sourceId, jobId: job.id }, { reconnectDelayMs: 50 })) events.push(event);

    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(streams[0]!.lastEventId).toBeNull();
    expect(streams[1]!.lastEventId).toBe(String(events[0]!.id));
    const ids = events.map((event) => event.id);
    expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));
    expect(events.every((event) => event.jobId === job.id)).toBe(true);
    expect(events[0]!.type).toBe('job.queued');
    expect(events.at(-1)!.type).toBe('job.succeeded');
    // The same events as the stored list: none lost, none repeated.
    const stored = unwrap(await sds.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-events', { params: { path: { projectId, sourceId }, query: { jobId: job.id } } }));
    expect(ids).toEqual(stored.map((event) => event.id));
  }, 60_000);

  it("follows the source's newest job when no job is named, and throws a 404 class for an unknown source", async () => {
    const events: GenerationEvent[] = [];
    for await (const event of followGenerationEvents(sds, { projectId, sourceId })) events.push(event);
    expect(events.at(-1)!.type).toMatch(/^job\.(succeeded|failed)$/);
    const missing = followGenerationEvents(sds, { projectId, sourceId: '00000000-0000-4000-8000-000000000000' });
    await expect(missing.next()).rejects.toBeInstanceOf(SdsNotFoundError);
  });
});

describe('types', () => {
  it('unwrap gives the success branch of a call, per-call options type-check on the raw clients', () => {
    const typed = async () => {
      const project = unwrap(await sds.GET('/public/v1/projects/{projectId}', { params: { path: { projectId } }, retry: false, timeoutMs: 5 }));
      const name: string = project.name;
      const deleted = unwrap(await sds.DELETE('/public/v1/projects/{projectId}', { params: { path: { projectId } } }));
      const nothing: undefined = deleted;
      return [name, nothing];
    };
    expect(typeof typed).toBe('function');
  });

  it('paginate takes only offset-paged lists and yields their item type; unwrap keeps typed rows', () => {
    expectTypeOf<ListItem<'/public/v1/projects'>>().toEqualTypeOf<Project>();
    expectTypeOf<ListItem<'/public/v1/projects/{projectId}/sources'>>().toEqualTypeOf<Source>();
    // The event list pages by cursor (`after`), not offset: not a ListPath.
    expectTypeOf<'/public/v1/projects/{projectId}/sources/{sourceId}/generation-events'>().not.toExtend<ListPath>();
    expectTypeOf<'/public/v1/projects/{projectId}'>().not.toExtend<ListPath>();
    const typed = async () => {
      const runtime = createRuntimeClient<{ users: { id: number; email: string } }>({ baseUrl: t.url, sourceId });
      const page = unwrap(await runtime.list('users', { fields: ['email'] }, { retry: false, timeoutMs: 1000 }));
      expectTypeOf(page.data[0]!).toEqualTypeOf<{ email: string }>();
      const user = unwrap(await runtime.get('users', 1, {}, { signal: AbortSignal.timeout(1000) }));
      expectTypeOf(user).toEqualTypeOf<{ id: number; email: string }>();
    };
    expect(typeof typed).toBe('function');
  });
});
