// Issue 23, items 5 and 9, as the attacks they prevent: one team's preview or validation must not
// stall the service (it runs in a worker, within work limits, a fair share per team), and faker
// arguments that fail are refused by validation with a JSON pointer instead of failing later.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../src/contract.ts';
import { TeamStore } from '../../src/store/teams.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

/**
 * A blog whose posts reference users by email, a key that cannot be computed row by row: previewing
 * posts makes every user first (190,000 users with two faker fields: about 5 s of one core, within
 * the ancestor-row limit).
 */
function heavyConfig(users = 190_000): SchemaConfig {
  const config = blogConfig();
  const [userEntity, postEntity] = config.entities;
  const faker = (method: string, args: number[]) => ({ strategy: { kind: 'faker' as const, method, args } });
  const bio = { id: 'bio', type: 'string' as const, maxLength: 400, generation: faker('lorem.words', [12]) };
  const code = { id: 'code', type: 'string' as const, maxLength: 400, generation: faker('string.alpha', [100]) };
  return {
    ...config,
    entities: [
      { ...userEntity!, generation: { rowCount: users }, fields: [...userEntity!.fields, bio, code] },
      {
        ...postEntity!,
        fields: postEntity!.fields.map((field) =>
          field.id === 'authorId' ? { id: 'authorEmail', type: 'string' as const, maxLength: 120, references: { entity: 'users', field: 'email' } } : field,
        ),
      },
    ],
  };
}

/** One user field filled by a faker strategy. */
function fakerConfig(type: string, strategy: Record<string, unknown>): SchemaConfig {
  return {
    formatVersion: 1,
    entities: [{ id: 'users', primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }, { id: 'x', type, generation: { strategy: { kind: 'faker', ...strategy } } }] }],
  } as SchemaConfig;
}

/** A chain of entities, each referencing the one before. */
function chainConfig(length: number): SchemaConfig {
  return {
    formatVersion: 1,
    entities: Array.from({ length }, (_, i) => ({
      id: `e${i}`,
      primaryKey: ['id'],
      fields: [{ id: 'id', type: 'integer' as const }, ...(i > 0 ? [{ id: 'parentId', type: 'integer' as const, references: { entity: `e${i - 1}`, field: 'id' } }] : [])],
    })),
  };
}

type Answer = { status: number; body: { error?: string; details?: { path: string; message: string }[]; valid?: boolean; errors?: { path: string }[] }; at: number; headers: Headers };

let t: TestService;
let attackerKey: string;
let victimKey: string;
let order: string[];

async function post(key: string, path: string, body: unknown, label?: string): Promise<Answer> {
  const response = await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = { status: response.status, body: (await response.json()) as Answer['body'], at: performance.now(), headers: response.headers };
  if (label) order.push(label);
  return answer;
}

beforeAll(async () => {
  // Long enough that no heavy-but-allowed preview here is cut, whatever the machine's load.
  t = await startTestService('config-work', { configWork: { workers: 2, timeoutMs: 120_000, queuePerTeam: 2, memoryMb: 512 } });
  const teams = new TeamStore(t.service.db);
  attackerKey = t.teamKey;
  victimKey = (await teams.createKey((await teams.createTeam('Victims')).id)).key;
});
afterAll(() => t?.stop());

describe('one request no longer stalls everyone', () => {
  it('refuses a faker value of ten million characters before making it (it took 10.8 s on the event loop)', async () => {
    order = [];
    const schema = fakerConfig('text', { method: 'string.alpha', args: [{ length: 10_000_000 }] });
    const started = performance.now();
    const answer = await post(attackerKey, '/public/v1/schema-config/preview', { schema, rows: 1 });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([expect.objectContaining({ path: '/entities/0/fields/1/generation/strategy/args/0/length' })]);
    expect(answer.body.error).toMatch(/10000000 characters, over the limit of 10000/);
    // Refused by a check, not by the time limit: nowhere near the seconds the value took.
    expect(answer.at - started).toBeLessThan(5_000);
  });

  it('keeps /healthz and another team answering while one team runs heavy previews, and queues that team only so far', { timeout: 120_000 }, async () => {
    order = [];
    const schema = heavyConfig();
    const heavy = [1, 2, 3].map((n) => post(attackerKey, '/public/v1/schema-config/preview', { schema, entity: 'posts', rows: 5 }, `heavy ${n}`));
    // Let the attacker's validations pass so its previews run or wait.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const fourth = await post(attackerKey, '/public/v1/schema-config/preview', { schema: blogConfig(), rows: 1 }, 'attacker fourth');
    const health = fetch(`${t.url}/healthz`).then((response) => (order.push('healthz'), response.status));
    const victimValidate = post(victimKey, '/public/v1/schema-config/validate', { schema: blogConfig() }, 'victim validate');
    const victimPreview = post(victimKey, '/public/v1/schema-config/preview', { schema: blogConfig(), rows: 2 }, 'victim preview');
    const answers = await Promise.all(heavy);

    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fourth.body.error).toMatch(/already has 3 schema-config validations or previews running or waiting/);
    expect(await health).toBe(200);
    expect((await victimValidate).status).toBe(200);
    expect((await victimValidate).body.valid).toBe(true);
    expect((await victimPreview).status).toBe(200);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // Everyone else answered before the first of the attacker's previews was done.
    const firstHeavy = order.findIndex((label) => label.startsWith('heavy'));
    for (const label of ['attacker fourth', 'healthz', 'victim validate', 'victim preview']) expect(order.indexOf(label), order.join(', ')).toBeLessThan(firstHeavy);
  });

  it('answers 400 naming the limit for a chain of 2,500 entities (a 650 KB preview left /healthz unanswered for 10 minutes)', async () => {
    const answer = await post(attackerKey, '/public/v1/schema-config/preview', { schema: chainConfig(2_500), rows: 100 });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([{ path: '/entities', message: expect.stringMatching(/2500 entities, over the limit of 1000/) }]);
  });

  it('previews a chain of 1,000 entities, the limit, making each ancestor once', async () => {
    const answer = await post(attackerKey, '/public/v1/schema-config/preview', { schema: chainConfig(1_000), rows: 2 });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    const entities = (answer.body as unknown as { entities: { id: string; rows: { parentId?: number }[] }[] }).entities;
    expect(entities).toHaveLength(1_000);
    expect(entities[999]!.rows[0]!.parentId).toBeGreaterThanOrEqual(1);
  });
});

describe('a task past its time limit', () => {
  let short: TestService;
  beforeAll(async () => {
    short = await startTestService('config-work-short', { configWork: { workers: 1, timeoutMs: 1_000, queuePerTeam: 2, memoryMb: 512 } });
  });
  afterAll(() => short?.stop());

  it('answers 422 naming the limit, and the next preview is served by a fresh worker', async () => {
    const api = short.client(short.teamKey);
    const { error, response } = await api.POST('/public/v1/schema-config/preview', { body: { schema: heavyConfig(), entity: 'posts', rows: 1 } });
    expect(response.status, JSON.stringify(error)).toBe(422);
    expect(error!.error).toMatch(/^The preview took longer than 1 s, the limit of one request/);
    const next = await api.POST('/public/v1/schema-config/preview', { body: { schema: blogConfig(), rows: 1 } });
    expect(next.response.status).toBe(200);
    expect(next.data!.entities).toHaveLength(2);
  });
});

describe('faker arguments that fail are refused by validation with a pointer (they were 500s or failed jobs)', () => {
  const cases: [string, SchemaConfig, string, RegExp][] = [
    ['number.int with min over max', fakerConfig('integer', { method: 'number.int', args: [{ min: 10, max: 1 }] }), '/entities/0/fields/1/generation/strategy/args', /Max 1 should be greater than min 10/],
    ['helpers.arrayElement of nothing', fakerConfig('string', { method: 'helpers.arrayElement', args: [[]] }), '/entities/0/fields/1/generation/strategy/args', /empty dataset/],
    ['date.between from a non-date', fakerConfig('datetime', { method: 'date.between', args: [{ from: 'x' }] }), '/entities/0/fields/1/generation/strategy/args', /Invalid from date: x/],
    ['helpers.fake reaching a constructor', fakerConfig('string', { method: 'helpers.fake', args: ['{{person.constructor}}'] }), '/entities/0/fields/1/generation/strategy/args/0', /names "constructor"/],
    ['helpers.fake reaching __proto__', fakerConfig('string', { method: 'helpers.fake', args: ['{{person.__proto__.constructor}}'] }), '/entities/0/fields/1/generation/strategy/args/0', /names "__proto__"/],
    ['lorem.word into an integer field', fakerConfig('integer', { method: 'lorem.word' }), '/entities/0/fields/1/generation/strategy/method', /which is not a number/],
  ];

  it.each(cases)('%s: validate reports it', async (_name, schema, path, message) => {
    const answer = await post(attackerKey, '/public/v1/schema-config/validate', { schema });
    expect(answer.status).toBe(200);
    expect(answer.body.valid).toBe(false);
    expect(answer.body.errors).toEqual([{ path, message: expect.stringMatching(message) }]);
  });

  it.each(cases)('%s: creating a schema answers 400 and stores nothing', async (_name, schema, path, message) => {
    const api = t.client(attackerKey);
    const projectId = (await api.POST('/public/v1/projects', { body: { name: `Faker ${_name}` } })).data!.id;
    const { error, response } = await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Bad', initialVersion: { schema } } });
    expect(response.status, JSON.stringify(error)).toBe(400);
    expect(error!.details).toEqual([{ path, message: expect.stringMatching(message) }]);
    const listed = await api.GET('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } } });
    expect(listed.data).toEqual([]);
  });

  it.each(cases)('%s: a preview answers 400', async (_name, schema, path) => {
    const answer = await post(attackerKey, '/public/v1/schema-config/preview', { schema, rows: 1 });
    expect(answer.status).toBe(400);
    expect(answer.body.details!.map((detail) => detail.path)).toEqual([path]);
  });

  it('still accepts faker arguments that work, and previews them', async () => {
    const schema = fakerConfig('integer', { method: 'number.int', args: [{ min: 1, max: 1_000_000_000_000 }] });
    const answer = await post(attackerKey, '/public/v1/schema-config/preview', { schema, rows: 3 });
    expect(answer.status).toBe(200);
    const rows = (answer.body as unknown as { entities: { rows: { x: number }[] }[] }).entities[0]!.rows;
    expect(rows.map((row) => row.x).every((x) => Number.isInteger(x) && x >= 1)).toBe(true);
  });
});
