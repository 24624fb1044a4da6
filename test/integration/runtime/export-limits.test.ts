// Exports cannot starve the shared target (issue 23, item 6), as the attack: one team opens a dozen
// exports and never reads them. Before, each held a connection of generation's pool (10) with no
// time limit, so another team's export was cut and its regeneration failed ("timeout exceeded when
// trying to connect"). Now exports have a pool of their own, at most SDS_EXPORTS_PER_SOURCE of a
// source (and SDS_EXPORTS_PER_TEAM of a team) stream at once (429 + Retry-After), and a client that takes nothing for
// SDS_EXPORT_WRITE_TIMEOUT_MS is cut and its connection released. PostgreSQL and MariaDB.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { TeamStore } from '../../../src/store/teams.ts';
import { mysqlTarget } from '../../helpers/mysql.ts';
import { startTestService, type TestService } from '../../helpers/service.ts';
import type { Kind } from '../../helpers/target-sql.ts';

const mysqlUrl = await mysqlTarget();
const KINDS: Kind[] = mysqlUrl ? ['postgres', 'mysql'] : ['postgres'];
const METRICS_TOKEN = 'test-metrics-token-exports-0123456789';
const WRITE_TIMEOUT_MS = 1_500;
const PER_SOURCE = 2;
/** Rows of 4 kB each: about 40 MB, far more than the sockets' buffers hold, so an unread export stalls. */
const BIG_ROWS = 10_000;
const SMALL_ROWS = 50;

let t: TestService;
let teamBKey: string;
beforeAll(async () => {
  t = await startTestService('export-limits', {
    targetUrls: { mysql: mysqlUrl },
    metricsToken: METRICS_TOKEN,
    exportsPerSource: PER_SOURCE,
    exportsPerTeam: 3,
    exportPoolSize: 4,
    exportWriteTimeoutMs: WRITE_TIMEOUT_MS,
  });
  const teams = new TeamStore(t.service.db);
  teamBKey = (await teams.createKey((await teams.createTeam('Team B')).id)).key;
});
afterAll(() => t?.stop());

function blobConfig(): SchemaConfig {
  return {
    formatVersion: 1,
    metadata: { name: 'Blobs' },
    entities: [
      {
        id: 'blobs',
        primaryKey: ['id'],
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'body', type: 'text', generation: { strategy: { kind: 'literal', value: 'x'.repeat(4_000) } } },
        ],
      },
    ],
  };
}

/** A project, the blob schema and a source of `rows` rows made with `key`, generated, with a source key. */
async function blobSource(key: string, kind: Kind, rows: number) {
  const api = t.client(key);
  const projectId = (await api.POST('/public/v1/projects', { body: { name: `Blobs ${kind} ${rows}` } })).data!.id;
  const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Blobs', initialVersion: { schema: blobConfig() } } })).data!;
  const versionId = (await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.id } } })).data![0]!.id;
  const created = await api.POST('/public/v1/projects/{projectId}/sources', {
    params: { path: { projectId } },
    body: { name: `Blobs ${kind}`, kind, schemaVersionId: versionId, generatorConfig: { rowCounts: { blobs: rows } } },
  });
  expect(created.response.status, JSON.stringify(created.error)).toBe(201);
  const sourceId = created.data!.id;
  const job = await waitForJobs(api, projectId, sourceId);
  expect(job.status, job.error ?? '').toBe('succeeded');
  const sourceKey = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId } }, body: {} })).data!.key;
  return { api, projectId, sourceId, sourceKey };
}

async function waitForJobs(api: ReturnType<TestService['client']>, projectId: string, sourceId: string) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', { params: { path: { projectId, sourceId } } });
    const latest = data![0]!;
    if (latest.status === 'succeeded' || latest.status === 'failed') return latest;
    if (Date.now() > deadline) throw new Error(`job still ${latest.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface HeldExport {
  status: number;
  retryAfter: string | undefined;
  body: string;
  /** Resolves when the server ended or cut the answer. */
  closed: Promise<'ended' | 'cut'>;
  isClosed(): boolean;
  /** Starts reading what the server sent (up to where it ended or cut the answer). */
  resume(): void;
  destroy(): void;
}

/** Opens an export and, when it streams, never reads it (the socket's buffers fill and stay full). */
function openUnread(sourceId: string, sourceKey: string): Promise<HeldExport> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${t.url}/runtime/${sourceId}/blobs?format=csv`, { headers: { 'x-api-key': sourceKey } }, (response) => {
      let over = false;
      const closed = new Promise<'ended' | 'cut'>((resolve) => {
        const done = (how: 'ended' | 'cut') => {
          over = true;
          resolve(how);
        };
        response.once('end', () => done('ended'));
        response.once('aborted', () => done('cut'));
        response.once('error', () => done('cut'));
        response.socket.once('close', () => done(response.complete ? 'ended' : 'cut'));
      });
      const held: HeldExport = {
        status: response.statusCode!,
        retryAfter: response.headers['retry-after'] as string | undefined,
        body: '',
        closed,
        isClosed: () => over,
        resume: () => {
          response.on('data', () => {});
          response.resume();
        },
        destroy: () => request.destroy(),
      };
      if (response.statusCode === 200) {
        response.pause();
        resolve(held);
      } else {
        response.setEncoding('utf8');
        response.on('data', (piece: string) => (held.body += piece));
        response.once('end', () => resolve(held));
      }
    });
    request.once('error', reject);
  });
}

/** Connections of a target's export pool checked out now, from GET /metrics. */
async function exportConnectionsInUse(kind: Kind): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (state: string) => {
    const line = text.split('\n').find((row) => row.startsWith('sds_db_pool_connections{') && row.includes(`database="default:${kind}"`) && row.includes('pool="export"') && row.includes(`state="${state}"`));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  return value('total') - value('idle');
}

for (const kind of KINDS) {
  describe(`${kind}: exports held open by a client that never reads`, () => {
    let attacker: Awaited<ReturnType<typeof blobSource>>;
    let victim: Awaited<ReturnType<typeof blobSource>>;

    beforeAll(async () => {
      attacker = await blobSource(t.teamKey, kind, BIG_ROWS);
      victim = await blobSource(teamBKey, kind, SMALL_ROWS);
    });

    it("twelve unread exports of team A: two stream, ten answer 429; team B's export and regeneration still succeed", async () => {
      const held = await Promise.all(Array.from({ length: 12 }, () => openUnread(attacker.sourceId, attacker.sourceKey)));
      try {
        const streaming = held.filter((answer) => answer.status === 200);
        const refused = held.filter((answer) => answer.status === 429);
        expect(streaming).toHaveLength(PER_SOURCE);
        expect(refused).toHaveLength(12 - PER_SOURCE);
        expect(refused[0]!.retryAfter).toMatch(/^\d+$/);
        expect(JSON.parse(refused[0]!.body)).toEqual({ error: expect.stringContaining('SDS_EXPORTS_PER_SOURCE') });

        // Team B, while those two hold their connections: a whole export, then a regeneration.
        const started = Date.now();
        const exported = await fetch(`${t.url}/runtime/${victim.sourceId}/blobs?format=jsonl`, { headers: { 'x-api-key': victim.sourceKey } });
        expect(exported.status).toBe(200);
        const lines = (await exported.text()).split('\n').filter(Boolean);
        expect(lines).toHaveLength(SMALL_ROWS);
        // …while the attacker's two still stream, unread (the write timeout has not cut them yet).
        expect(Date.now() - started).toBeLessThan(WRITE_TIMEOUT_MS);
        expect(streaming.map((answer) => answer.isClosed())).toEqual([false, false]);
        const regenerated = await t.client(teamBKey).POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', {
          params: { path: { projectId: victim.projectId, sourceId: victim.sourceId }, query: { wait: true } },
          body: {},
        });
        expect(regenerated.data?.status, regenerated.data?.error ?? '').toBe('succeeded');
      } finally {
        for (const answer of held) answer.destroy();
      }
    });

    it("a team's unread exports spread over its sources stop at its team limit: the pool's last connection serves team B", { timeout: 60_000 }, async () => {
      await expect.poll(() => exportConnectionsInUse(kind), { timeout: 10_000 }).toBe(0);
      const second = await blobSource(t.teamKey, kind, BIG_ROWS);
      const held = [
        ...(await Promise.all([0, 1].map(() => openUnread(attacker.sourceId, attacker.sourceKey)))),
        ...(await Promise.all([0, 1].map(() => openUnread(second.sourceId, second.sourceKey)))),
      ];
      try {
        expect(held.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 429]);
        expect(JSON.parse(held.find((answer) => answer.status === 429)!.body).error).toContain('SDS_EXPORTS_PER_TEAM');
        const exported = await fetch(`${t.url}/runtime/${victim.sourceId}/blobs?format=jsonl`, { headers: { 'x-api-key': victim.sourceKey } });
        expect(exported.status).toBe(200);
        expect((await exported.text()).split('\n').filter(Boolean)).toHaveLength(SMALL_ROWS);
        expect(held.filter((answer) => answer.status === 200).map((answer) => answer.isClosed())).toEqual([false, false, false]);
      } finally {
        for (const answer of held) answer.destroy();
      }
    });

    it('a slow reader is cut after the write timeout, and its connection and slot are free again', { timeout: 60_000 }, async () => {
      // Earlier tests' exports must be gone first (destroyed clients close their cursors).
      await expect.poll(() => exportConnectionsInUse(kind), { timeout: 10_000 }).toBe(0);
      const slow = await openUnread(attacker.sourceId, attacker.sourceKey);
      expect(slow.status).toBe(200);
      try {
        expect(await exportConnectionsInUse(kind)).toBe(1);
        const started = Date.now();
        // The client still reads nothing; the server gives its connection back all the same.
        await expect.poll(() => exportConnectionsInUse(kind), { timeout: WRITE_TIMEOUT_MS + 5_000, interval: 100 }).toBe(0);
        expect(Date.now() - started).toBeGreaterThanOrEqual(WRITE_TIMEOUT_MS - 300);
        // Reading at last, the client finds the file cut short, not complete.
        slow.resume();
        expect(await slow.closed).toBe('cut');
        // Both of the source's slots are free: two whole exports at once succeed.
        const whole = await Promise.all(
          [0, 1].map(async () => {
            const response = await fetch(`${t.url}/runtime/${attacker.sourceId}/blobs?format=jsonl&limit=20`, { headers: { 'x-api-key': attacker.sourceKey } });
            return { status: response.status, rows: (await response.text()).split('\n').filter(Boolean).length };
          }),
        );
        expect(whole).toEqual([
          { status: 200, rows: 20 },
          { status: 200, rows: 20 },
        ]);
      } finally {
        slow.destroy();
      }
    });
  });
}
