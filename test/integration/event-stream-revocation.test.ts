// A live generation-event stream ends when its team key is revoked or its source deleted (issue 23,
// item 10): a revoked key (a leaked one, a departed colleague's) must not keep watching a team's
// generations through a stream it opened before, nor a deleted source's stream keep running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForLatestJob } from '../helpers/generation.ts';
import { ADMIN_TOKEN, blogProject, startTestService, type TestService } from '../helpers/service.ts';

let t: TestService;
let projectId: string;
let versionId: string;

beforeAll(async () => {
  t = await startTestService('event_stream_revocation');
  ({ projectId, versionId } = await blogProject(t.client(t.teamKey), 'Streams'));
}, 60_000);
afterAll(() => t?.stop());

async function createSource(name: string): Promise<string> {
  const sourceId = (await t.client(t.teamKey).POST('/public/v1/projects/{projectId}/sources', {
    params: { path: { projectId } },
    body: { name, kind: 'postgres', schemaVersionId: versionId, generatorConfig: { rowCounts: { users: 3, posts: 3 } } },
  })).data!.id;
  await waitForLatestJob(t, projectId, sourceId);
  return sourceId;
}

const admin = (path: string, init: RequestInit = {}) =>
  fetch(`${t.url}${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' } });

/** An open event stream: its text so far, and whether the server has ended it. */
async function openStream(sourceId: string, key: string) {
  const controller = new AbortController();
  const response = await fetch(`${t.url}/public/v1/projects/${projectId}/sources/${sourceId}/generation-events`, {
    headers: { 'x-api-key': key, accept: 'text/event-stream' },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const stream = {
    text: '',
    ended: false,
    /** Reads until `until` holds of the text or the server ends the stream, for at most `ms`. */
    async read(until: (text: string) => boolean, ms: number): Promise<void> {
      const deadline = Date.now() + ms;
      while (!stream.ended && !until(stream.text) && Date.now() < deadline) {
        const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), deadline - Date.now()));
        const chunk = await Promise.race([reader.read(), timer]);
        if (chunk === 'timeout') break;
        if (chunk.done) stream.ended = true;
        else stream.text += new TextDecoder().decode(chunk.value);
      }
    },
    close: () => controller.abort(),
  };
  return stream;
}

describe('a live generation-event stream', () => {
  it('ends when the team key that opened it is revoked, and sees nothing generated after', async () => {
    const sourceId = await createSource('Watched');
    const created = await admin('/api/api-keys', { method: 'POST', body: JSON.stringify({ name: 'leaked' }) });
    expect(created.status).toBe(201);
    const leaked = (await created.json()) as { id: string; key: string };

    const stream = await openStream(sourceId, leaked.key);
    try {
      await stream.read((text) => text.includes('event: job.succeeded'), 10_000);
      expect(stream.text).toMatch(/event: job.succeeded/);
      expect(stream.ended).toBe(false);

      expect((await admin(`/api/api-keys/${leaked.id}`, { method: 'DELETE' })).status).toBe(204);
      await stream.read(() => false, 5_000);
      expect(stream.ended).toBe(true);
      const seen = stream.text;

      // The owner regenerates: the revoked key's stream is gone, and its reconnect is refused.
      const regenerated = await t.client(t.teamKey).POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', {
        params: { path: { projectId, sourceId }, query: { wait: true } },
        body: {},
      });
      expect(regenerated.data!.status).toBe('succeeded');
      expect(stream.text).toBe(seen);
      expect(seen).not.toContain(regenerated.data!.id);
      const again = await fetch(`${t.url}/public/v1/projects/${projectId}/sources/${sourceId}/generation-events`, {
        headers: { 'x-api-key': leaked.key, accept: 'text/event-stream' },
      });
      expect(again.status).toBe(401);
    } finally {
      stream.close();
    }
  }, 60_000);

  it('ends when its source is deleted; another key’s stream of another source goes on', async () => {
    const doomed = await createSource('Doomed');
    const kept = await createSource('Kept');
    const doomedStream = await openStream(doomed, t.teamKey);
    const keptStream = await openStream(kept, t.teamKey);
    try {
      await doomedStream.read((text) => text.includes('event: job.succeeded'), 10_000);
      await keptStream.read((text) => text.includes('event: job.succeeded'), 10_000);
      expect(doomedStream.ended).toBe(false);

      const deleted = await t.client(t.teamKey).DELETE('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId: doomed } } });
      expect(deleted.response.status).toBe(204);
      await doomedStream.read(() => false, 5_000);
      expect(doomedStream.ended).toBe(true);

      // The team's other stream, with an unrevoked key and a live source, keeps sending.
      const before = keptStream.text.length;
      const job = (await t.client(t.teamKey).POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', {
        params: { path: { projectId, sourceId: kept } },
        body: {},
      })).data!;
      await keptStream.read((text) => text.slice(before).includes(`"jobId":"${job.id}"`) && text.slice(before).includes('event: job.succeeded'), 20_000);
      expect(keptStream.ended).toBe(false);
      expect(keptStream.text.slice(before)).toContain('event: job.succeeded');
    } finally {
      doomedStream.close();
      keptStream.close();
    }
  }, 90_000);
});
