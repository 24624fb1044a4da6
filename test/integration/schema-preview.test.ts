// POST /public/v1/schema-config/preview: rows of a config without a database. The rows are the ones a
// source generated with the same seed serves through its runtime API, on both databases, for a config
// with every field type and reference option; bad input answers 400 with the validator's details.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewRows } from '../../src/generation/preview.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { waitForLatestJob } from '../helpers/generation.ts';
import { mysqlTarget } from '../helpers/mysql.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import type { Kind } from '../helpers/target-sql.ts';
import { everyOptionConfig } from '../helpers/every-option-config.ts';

const mysqlUrl = await mysqlTarget();
const KINDS: Kind[] = mysqlUrl ? ['postgres', 'mysql'] : ['postgres'];

let t: TestService;
beforeAll(async () => {
  t = await startTestService('preview', { targetUrls: { mysql: mysqlUrl } });
});
afterAll(() => t?.stop());

/** Bodies the contract refuses too: typed loosely on purpose. */
const preview = (body: Record<string, unknown>) => t.client(t.teamKey).POST('/public/v1/schema-config/preview', { body: body as never });

/** The runtime rows of a table, keyed by their primary key. */
async function runtimeRows(sourceId: string, key: string, table: string, primaryKey: string[]) {
  const response = await fetch(`${t.url}/runtime/${sourceId}/${table}?limit=1000`, { headers: { 'x-api-key': key } });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: Record<string, unknown>[] };
  return new Map(body.data.map((row) => [JSON.stringify(primaryKey.map((field) => row[field])), row]));
}

for (const kind of KINDS) {
  describe(`previews equal what a ${kind} source with the same seed serves`, () => {
    it('for every entity of a config with every field type and reference option', async () => {
      const api = t.client(t.teamKey);
      const config = everyOptionConfig();
      const { data: shown, response } = await api.POST('/public/v1/schema-config/preview', { body: { schema: config, rows: 100, seed: 'studio' } });
      expect(response.status, JSON.stringify(shown)).toBe(200);
      expect(shown!.entities.map((entity) => entity.id)).toEqual(config.entities.map((entity) => entity.id));

      const projectId = (await api.POST('/public/v1/projects', { body: { name: `Preview ${kind}` } })).data!.id;
      const schema = (
        await api.POST('/public/v1/projects/{projectId}/schemas', {
          params: { path: { projectId } },
          body: { name: 'Every option', initialVersion: { schema: config } },
        })
      ).data!;
      const version = (
        await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions/{version}', {
          params: { path: { projectId, schemaId: schema.id, version: 1 } },
        })
      ).data!;
      const source = await api.POST('/public/v1/projects/{projectId}/sources', {
        params: { path: { projectId } },
        body: { name: `Preview ${kind}`, kind, schemaVersionId: version.id, seed: 'studio' },
      });
      expect(source.response.status, JSON.stringify(source.error)).toBe(201);
      const sourceId = source.data!.id;
      const job = await waitForLatestJob(t, projectId, sourceId);
      const key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId } }, body: {} })).data!
        .key;

      for (const entity of shown!.entities) {
        const declared = config.entities.find((candidate) => candidate.id === entity.id)!;
        const inserted = job.entities.find((candidate) => candidate.id === entity.id)!.rowsInserted;
        expect(entity.rowsPlanned, entity.id).toBe(job.entities.find((candidate) => candidate.id === entity.id)!.rowsPlanned);
        expect(entity.seed).toBe('studio');
        // Fewer rows than asked only where the entity has fewer (tags: an exhausted unique pool).
        expect(entity.rows.length, entity.id).toBe(Math.min(100, inserted));
        const stored = await runtimeRows(sourceId, key, entity.id, declared.primaryKey!);
        for (const row of entity.rows) {
          const id = JSON.stringify(declared.primaryKey!.map((field) => row[field]));
          expect(row, `${entity.id} ${id}`).toEqual(stored.get(id));
        }
      }
    });
  });
}

describe('preview', () => {
  it('shows one entity, at most its planned rows, the same rows as `sds preview` rendered as JSON', async () => {
    const { data, response } = await preview({ schema: blogConfig(), entity: 'users', rows: 100 });
    expect(response.status).toBe(200);
    expect(data!.entities).toHaveLength(1);
    const [users] = data!.entities;
    expect(users).toMatchObject({ id: 'users', seed: 'blog', rowsPlanned: 20 });
    expect(users!.rows).toEqual(previewRows(blogConfig(), 'users', 100, { generatorVersion: 5 }));
    // Ten rows when `rows` is left out, a new seed gives new rows, and row counts are honoured.
    const ten = (await preview({ schema: blogConfig(), entity: 'users' })).data!;
    expect(ten.entities[0]!.rows).toEqual(users!.rows.slice(0, 10));
    const other = (await preview({ schema: blogConfig(), entity: 'users', seed: 7, rowCounts: { users: 3 } })).data!;
    expect(other.entities[0]).toMatchObject({ seed: '7', rowsPlanned: 3 });
    expect(other.entities[0]!.rows).toHaveLength(3);
    expect(other.entities[0]!.rows[0]).not.toEqual(users!.rows[0]);
  });

  it("answers an invalid config with 400 and the validator's details, as schema creation does", async () => {
    const config = blogConfig();
    const broken = {
      ...config,
      entities: [{ ...config.entities[0]!, fields: [...config.entities[0]!.fields, { id: 'tier', type: 'enum', values: ['a', 'b'], weights: [1] }] }],
    } as Record<string, unknown>;
    const validated = (await t.client(t.teamKey).POST('/public/v1/schema-config/validate', { body: { schema: broken } })).data!;
    expect(validated.valid).toBe(false);
    const { error, response } = await preview({ schema: broken });
    expect(response.status).toBe(400);
    expect(error!.error).toMatch(/^Invalid schema config \(1 error\): \/entities\/0\/fields\/6\/weights /);
    expect(error!.details).toEqual(validated.errors);
  });

  it.each([
    ['an entity that is not in the config', { entity: 'comments' }, /entity "comments" is not in the config \(entities: users, posts\)/],
    ['more than 100 rows', { rows: 101 }, /rows/],
    ['0 rows', { rows: 0 }, /rows/],
    ['an unknown property', { limit: 5 }, /limit/],
  ])('answers 400 for %s', async (_name, extra, message) => {
    const { error, response } = await preview({ schema: blogConfig(), ...extra });
    expect(response.status).toBe(400);
    expect(error!.error).toMatch(message);
  });

  it('answers 400 instead of producing too many referenced rows first', async () => {
    // posts reference users by email, a key that cannot be computed row by row: every user would be made first.
    const config = blogConfig();
    const users = { ...config.entities[0]!, generation: { rowCount: 250_000 } };
    const posts = {
      ...config.entities[1]!,
      fields: config.entities[1]!.fields.map((field) =>
        field.id === 'authorId' ? { id: 'authorEmail', type: 'string' as const, maxLength: 120, references: { entity: 'users', field: 'email' } } : field,
      ),
    };
    const { error, response } = await preview({ schema: { ...config, entities: [users, posts] }, entity: 'posts' });
    expect(response.status, JSON.stringify(error)).toBe(400);
    expect(error!.error).toMatch(
      /^Preview too large: previewing "posts" needs at least 250000 rows .* over the limit of 200000: preview with smaller rowCounts$/,
    );
    // The users themselves, and posts with fewer users, preview fine.
    expect((await preview({ schema: { ...config, entities: [users, posts] }, entity: 'users', rows: 1 })).response.status).toBe(200);
    const fewer = await preview({ schema: { ...config, entities: [users, posts] }, entity: 'posts', rowCounts: { users: 1000 } });
    expect(fewer.response.status).toBe(200);
    expect(fewer.data!.entities[0]!.rows[0]!.authorEmail).toMatch(/@/);
  });

  it('needs a team key', async () => {
    const { response } = await t.client().POST('/public/v1/schema-config/preview', { body: { schema: blogConfig() } });
    expect(response.status).toBe(401);
  });
});
