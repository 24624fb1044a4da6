// One team cannot hold every generation (issue 23, item 7), as the attacks: a source of 100,000,000
// rows (or of more entities than the server allows) is refused before anything is queued; a team
// cannot queue more than SDS_MAX_JOBS_PER_TEAM jobs, even all at once; and while one team's job runs
// (held here by a lock on its source's row, as a long job would be), another team's job, queued after
// more of the first team's, is claimed by the second worker slot and succeeds.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../src/contract.ts';
import { JobStore } from '../../src/store/jobs.ts';
import { TeamStore } from '../../src/store/teams.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';

type Api = ReturnType<TestService['client']>;

function oneEntity(rowCount: number): SchemaConfig {
  return {
    formatVersion: 1,
    metadata: { name: 'Numbers' },
    entities: [{ id: 'numbers', primaryKey: ['id'], generation: { rowCount }, fields: [{ id: 'id', type: 'integer' }] }],
  };
}

function manyEntities(count: number): SchemaConfig {
  return {
    formatVersion: 1,
    metadata: { name: 'Many' },
    entities: Array.from({ length: count }, (_, index) => ({ id: `e${index}`, primaryKey: ['id'], generation: { rowCount: 1 }, fields: [{ id: 'id', type: 'integer' }] })),
  };
}

async function projectWith(api: Api, name: string, config: SchemaConfig): Promise<{ projectId: string; versionId: string }> {
  const projectId = (await api.POST('/public/v1/projects', { body: { name } })).data!.id;
  const schema = await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name, initialVersion: { schema: config } } });
  expect(schema.response.status, JSON.stringify(schema.error)).toBe(201);
  const versions = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.data!.id } } });
  return { projectId, versionId: versions.data![0]!.id };
}

async function newTeamKey(t: TestService, name: string): Promise<string> {
  const teams = new TeamStore(t.service.db);
  return (await teams.createKey((await teams.createTeam(name)).id)).key;
}

async function jobCount(t: TestService): Promise<number> {
  return Number((await t.service.db.query<{ n: string }>('SELECT count(*) AS n FROM generation_jobs')).rows[0]!.n);
}

async function latestJob(api: Api, projectId: string, sourceId: string) {
  const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', { params: { path: { projectId, sourceId } } });
  return data![0]!;
}

async function jobEnded(api: Api, projectId: string, sourceId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await latestJob(api, projectId, sourceId);
    if (job.status === 'succeeded' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job ${job.id} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('row and entity quotas', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService('quota-rows', { maxRowsPerJob: 1_000, maxEntitiesPerJob: 5 });
  });
  afterAll(() => t?.stop());

  it('a source of 100,000,000 rows is refused with 400 naming the limit, and nothing is created or queued', async () => {
    const api = t.client(t.teamKey);
    const { projectId, versionId } = await projectWith(api, 'Huge', oneEntity(100_000_000));
    const before = await jobCount(t);
    const { response, error } = await api.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId } }, body: { name: 'Huge', kind: 'postgres', schemaVersionId: versionId } });
    expect(response.status).toBe(400);
    expect(error).toEqual({
      error: "Generation of 100,000,000 rows exceeds this server's limit of 1,000 rows per job (SDS_MAX_ROWS_PER_JOB)",
      details: [{ path: '/entities/0/generation/rowCount', message: '100,000,000 rows of numbers, of 100,000,000 in all' }],
    });
    expect((await api.GET('/public/v1/projects/{projectId}/sources', { params: { path: { projectId } } })).data).toEqual([]);
    expect(await jobCount(t)).toBe(before);
  });

  it('row-count overrides count too, on create and on update (which then changes nothing)', async () => {
    const api = t.client(t.teamKey);
    const { projectId, versionId } = await projectWith(api, 'Overrides', blogConfig());
    const before = await jobCount(t);
    const created = await api.POST('/public/v1/projects/{projectId}/sources', {
      params: { path: { projectId } },
      body: { name: 'Big', kind: 'postgres', schemaVersionId: versionId, generatorConfig: { rowCounts: { users: 2_000 } } },
    });
    expect(created.response.status).toBe(400);
    expect(created.error!.error).toBe("Generation of 2,040 rows exceeds this server's limit of 1,000 rows per job (SDS_MAX_ROWS_PER_JOB)");
    expect(created.error!.details).toEqual([{ path: '/body/generatorConfig/rowCounts/users', message: '2,000 rows of users, of 2,040 in all' }]);
    expect(await jobCount(t)).toBe(before);

    const source = await api.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId } }, body: { name: 'Small', kind: 'postgres', schemaVersionId: versionId } });
    expect(source.response.status).toBe(201);
    const sourceId = source.data!.id;
    expect((await jobEnded(api, projectId, sourceId)).status).toBe('succeeded');
    const jobsBefore = await jobCount(t);
    const patched = await api.PATCH('/public/v1/projects/{projectId}/sources/{sourceId}', {
      params: { path: { projectId, sourceId } },
      body: { generatorConfig: { rowCounts: { posts: 5_000 } } },
    });
    expect(patched.response.status).toBe(400);
    expect(patched.error!.error).toContain('SDS_MAX_ROWS_PER_JOB');
    const after = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId } } });
    expect(after.data!.generatorConfig).toEqual(source.data!.generatorConfig);
    expect(await jobCount(t)).toBe(jobsBefore);
  });

  it('a schema version with more entities than allowed cannot become a source', async () => {
    const api = t.client(t.teamKey);
    const { projectId, versionId } = await projectWith(api, 'Wide', manyEntities(6));
    const before = await jobCount(t);
    const { response, error } = await api.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId } }, body: { name: 'Wide', kind: 'postgres', schemaVersionId: versionId } });
    expect(response.status).toBe(400);
    expect(error).toEqual({
      error: "The schema version has 6 entities, more than this server's limit of 5 per source (SDS_MAX_ENTITIES_PER_JOB)",
      details: [{ path: '/entities', message: '6 entities; at most 5' }],
    });
    expect(await jobCount(t)).toBe(before);
  });
});

describe('jobs per team', () => {
  let t: TestService;
  beforeAll(async () => {
    // No worker: queued jobs stay queued, as behind a long job.
    t = await startTestService('quota-jobs', { maxJobsPerTeam: 3, runWorker: false });
  });
  afterAll(() => t?.stop());

  it('past SDS_MAX_JOBS_PER_TEAM queued jobs a team gets 429, even asking all at once; another team is not affected', async () => {
    const api = t.client(t.teamKey);
    const { projectId, versionId } = await blogProject(api, 'Busy');
    const create = (name: string) => api.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId } }, body: { name, kind: 'postgres', schemaVersionId: versionId } });
    const first = await create('One');
    expect(first.response.status).toBe(201);
    const sourceId = first.data!.id;
    const regenerate = () => api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: { projectId, sourceId } }, body: {} });
    // Two places left; five asked at once: exactly two get them.
    const answers = await Promise.all(Array.from({ length: 5 }, regenerate));
    expect(answers.map((answer) => answer.response.status).sort()).toEqual([202, 202, 429, 429, 429]);
    const refused = answers.find((answer) => answer.response.status === 429)!;
    expect(refused.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.error).toEqual({ error: 'This team already has 3 generation jobs queued or running (SDS_MAX_JOBS_PER_TEAM); try again when one finishes' });
    expect((await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', { params: { path: { projectId, sourceId } } })).data).toHaveLength(3);

    // Creating another source (which queues its first job) is refused too, and creates nothing.
    const fourth = await create('Four');
    expect(fourth.response.status).toBe(429);
    expect((await api.GET('/public/v1/projects/{projectId}/sources', { params: { path: { projectId } } })).data!.map((source) => source.name)).toEqual(['One']);
    // A regeneration with a new seed that is refused leaves the seed as it was.
    const reseeded = await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: { projectId, sourceId } }, body: { seed: 'other' } });
    expect(reseeded.response.status).toBe(429);
    expect((await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId, sourceId } } })).data!.seed).toBe(first.data!.seed);

    const other = t.client(await newTeamKey(t, 'Other team'));
    const theirs = await blogProject(other, 'Theirs');
    const created = await other.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId: theirs.projectId } }, body: { name: 'Theirs', kind: 'postgres', schemaVersionId: theirs.versionId } });
    expect(created.response.status).toBe(201);
  });

  it('claims go to the team with the fewest running jobs, and never past its running cap', async () => {
    const jobs = new JobStore(t.service.db);
    // Jobs queued by the test above: three of team default (oldest), one of the other team (newest).
    const queued = await t.service.db.query<{ id: string; team: string }>(
      `SELECT j.id, t.name AS team FROM generation_jobs j JOIN sources s ON s.id = j.source_id JOIN projects p ON p.id = s.project_id JOIN teams t ON t.id = p.team_id
       WHERE j.status = 'queued' ORDER BY j.created_at, j.id`,
    );
    expect(queued.rows.map((row) => row.team)).toEqual(['Default team', 'Default team', 'Default team', 'Other team']);
    const teamOf = new Map(queued.rows.map((row) => [row.id, row.team]));
    const first = await jobs.claim('test-worker', { runningPerTeam: 1 });
    expect(teamOf.get(first!.id)).toBe('Default team');
    // Default's older jobs are of the same source (one runs at a time) — and Default is at its cap anyway.
    const second = await jobs.claim('test-worker', { runningPerTeam: 1 });
    expect(teamOf.get(second!.id)).toBe('Other team');
    expect(await jobs.claim('test-worker', { runningPerTeam: 1 })).toBeUndefined();
  });
});

describe('fair scheduling', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService('fair-jobs', { generationSlots: 2, runningJobsPerTeam: 1 });
  });
  afterAll(() => t?.stop());

  it("while team A's job runs and another of A's waits, team B's job (queued last) is run and succeeds", { timeout: 60_000 }, async () => {
    const a = t.client(t.teamKey);
    const b = t.client(await newTeamKey(t, 'Team B'));
    const projectA = await projectWith(a, 'A', oneEntity(20));
    const createA = async (name: string) => {
      const created = await a.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId: projectA.projectId } }, body: { name, kind: 'postgres', schemaVersionId: projectA.versionId } });
      expect((await jobEnded(a, projectA.projectId, created.data!.id)).status).toBe('succeeded');
      return created.data!.id;
    };
    const [a1, a2] = [await createA('A1'), await createA('A2')];

    // A1's next job cannot finish while this transaction holds its source's row (NO KEY UPDATE: new jobs
    // may still reference it): a long job.
    const holder = new pg.Client({ connectionString: t.database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM sources WHERE id = $1 FOR NO KEY UPDATE', [a1]);
      const regenerate = (sourceId: string) => a.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', { params: { path: { projectId: projectA.projectId, sourceId } }, body: {} });
      expect((await regenerate(a1)).response.status).toBe(202);
      await expect.poll(async () => (await latestJob(a, projectA.projectId, a1)).status, { timeout: 10_000 }).toBe('running');
      expect((await regenerate(a2)).response.status).toBe(202);

      const projectB = await projectWith(b, 'B', oneEntity(20));
      const created = await b.POST('/public/v1/projects/{projectId}/sources', { params: { path: { projectId: projectB.projectId } }, body: { name: 'B1', kind: 'postgres', schemaVersionId: projectB.versionId } });
      expect(created.response.status).toBe(201);
      const finished = await jobEnded(b, projectB.projectId, created.data!.id, 20_000);
      expect(finished.status, finished.error ?? '').toBe('succeeded');
      // …while A's first job still runs and A's second, queued before B's, still waits for A's turn.
      expect((await latestJob(a, projectA.projectId, a1)).status).toBe('running');
      expect((await latestJob(a, projectA.projectId, a2)).status).toBe('queued');
      const rows = await b.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId: projectB.projectId, sourceId: created.data!.id } } });
      expect(rows.data!.lastGenerationAt).not.toBeNull();
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
    }
    // Released, A's jobs both finish.
    expect((await jobEnded(a, projectA.projectId, a1)).status).toBe('succeeded');
    expect((await jobEnded(a, projectA.projectId, a2)).status).toBe('succeeded');
  });
});
