// Bad input never becomes a 500 or a data change: every management and runtime operation of the
// contract gets hostile bodies, query strings and path values (fast-check, bounded in time) and
// fixed pathological ones (1 MB deep nesting, oversized bodies, thousands of filters). Each answer
// is a 4xx {error} (2xx only for reads), the server stays up, no table of the control plane or of
// the source's namespace changes, and Object.prototype stays clean.
import { Writable } from 'node:stream';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationTable, type OperationSpec } from '../../src/contract.ts';
import { blogConfig } from '../fixtures/configs.ts';
import { waitForLatestJob } from '../helpers/generation.ts';
import { ADMIN_TOKEN, startTestService, type TestService } from '../helpers/service.ts';
import { digestData, type DataDigest } from '../helpers/fuzz/data-digest.ts';
import { bodySpec, isRead, missingRowUpdate, requestFor, strayRequest, type FuzzWorld } from '../helpers/fuzz/fuzz-requests.ts';
import { OVERSIZED_AND_DEEP } from '../helpers/fuzz/hostile.ts';
import { describeRequest, sendRaw, type RawAnswer, type RawRequest } from '../helpers/fuzz/raw-http.ts';

const OPERATIONS = operationTable();
/** `SDS_FUZZ_SCALE=20 npx vitest run test/fuzz` multiplies requests and time budgets for a longer hunt. */
const SCALE = Number(process.env.SDS_FUZZ_SCALE ?? 1);

let t: TestService;
let world: FuzzWorld;
let before: DataDigest;
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
/** Error lines the service logged (500s carry their cause there). */
const serverErrors: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      serverErrors.push(chunk.toString('utf8'));
      done();
    },
  });
  // A short connect timeout: connection strings that reach a closed port answer 503 no sooner than it.
  // No management budget: a 429 would hide what a request would have done (the source's limit is off too).
  t = await startTestService('fuzz', { connectTimeoutMs: 200, managementRateLimitRpm: 0 }, pino({ level: 'error' }, sink));
  const api = t.client(t.teamKey);
  const projectId = (await api.POST('/public/v1/projects', { body: { name: 'Fuzzed' } })).data!.id;
  const schema = (await api.POST('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId } }, body: { name: 'Blog', initialVersion: { schema: blogConfig() } } })).data!;
  const version = (await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path: { projectId, schemaId: schema.id } } })).data![0]!;
  const source = (await api.POST('/public/v1/projects/{projectId}/sources', {
    params: { path: { projectId } },
    // A limit no fuzz run reaches: a 429 would hide what the request would have done.
    body: { name: 'Fuzzed', kind: 'postgres', schemaVersionId: version.id, rateLimitRpm: 1_000_000, generatorConfig: { rowCounts: { users: 5, posts: 8 } } },
  })).data!;
  const job = await waitForLatestJob(t, projectId, source.id);
  const key = (await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId, sourceId: source.id } }, body: {} })).data!;
  const posts = (await t.client(key.key).GET('/runtime/{sourceId}/{table}', { params: { path: { sourceId: source.id, table: 'posts' } } })).data!;
  const config = blogConfig();
  world = {
    ids: { projectId, schemaId: schema.id, versionId: version.id, sourceId: source.id, jobId: job.id, postId: String(posts.data[0]!.id) },
    keys: { team: t.teamKey, source: key.key, admin: ADMIN_TOKEN },
    columns: Object.fromEntries(config.entities.map((entity) => [entity.id, entity.fields.map((field) => field.id)])),
  };
  await t.service.flushKeyUsage();
  before = await digestData(t.database.url, t.database.url);
});
afterAll(() => t?.stop());

/** What is wrong with an answer, or undefined when it keeps the invariants. */
function violation(method: string, operation: OperationSpec | undefined, answer: RawAnswer): string | undefined {
  if (answer.status >= 500) return `server error ${answer.status}`;
  if (answer.status < 400) {
    const reading = operation ? isRead(operation) : ['GET', 'HEAD', 'OPTIONS'].includes(method);
    if (!reading) return `a write answered ${answer.status}`;
    // A redirect is an answer to a read (GET, or HEAD, which answers as GET does) that says where to go.
    if (answer.status >= 300 && !((method === 'GET' || method === 'HEAD') && answer.headers.location)) return `unexpected ${answer.status}`;
    return undefined;
  }
  if (answer.status >= 500 || answer.status < 400) return `unexpected ${answer.status}`;
  if (method === 'HEAD') return undefined;
  if (!/^application\/json\b/.test(answer.headers['content-type'] ?? '')) return `a ${answer.status} without a JSON body (content-type ${answer.headers['content-type']})`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `a ${answer.status} whose body is no JSON`;
  }
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error !== 'string' || error === '') return `a ${answer.status} without an "error" string`;
  if (/node_modules|\n\s+at .+:\d+:\d+/.test(answer.text)) return `a ${answer.status} with a stack trace`;
  return undefined;
}

/** Sends a request and throws a readable report when the answer breaks an invariant. */
async function check(request: RawRequest, operation?: OperationSpec): Promise<void> {
  const logged = serverErrors.length;
  const answer = await sendRaw(t.url, request);
  const problem = violation(request.method, operation, answer);
  if (problem) {
    const cause = serverErrors.slice(logged).join('').slice(0, 1500);
    throw new Error(`${problem}: ${describeRequest(request)}\n→ ${answer.status} ${answer.text.slice(0, 500)}${cause ? `\nserver log: ${cause}` : ''}`);
  }
}

/** Runs every request and reports all violations at once. */
async function checkAll(cases: [RawRequest, OperationSpec | undefined][]): Promise<string[]> {
  const failures: string[] = [];
  for (const [request, operation] of cases) {
    await check(request, operation).catch((error: Error) => failures.push(error.message));
  }
  return failures;
}

/**
 * Runs a property for `numRuns` requests or until `budgetMs` has passed (a loaded machine gets
 * fewer requests, never a longer run), and fails with fast-check's report, seed and counterexample.
 * The first 20 requests (or `numRuns`, if fewer) are sent whatever the time: a machine too busy to send
 * them within the budget still tries that many, rather than failing for being slow.
 */
async function fuzz<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, numRuns: number, budgetMs: number): Promise<void> {
  const property = fc.asyncProperty(arbitrary, predicate);
  const floor = Math.min(numRuns, 20) * SCALE;
  for (const parameters of [{ numRuns: floor }, { numRuns: numRuns * SCALE - floor, interruptAfterTimeLimit: budgetMs * SCALE }]) {
    if (parameters.numRuns <= 0) continue;
    const details = await fc.check(property, parameters);
    if (details.failed) throw new Error(`${fc.defaultReportMessage(details) ?? 'property failed'}\n${String(details.errorInstance)}`);
  }
}

describe('hostile requests to every operation', () => {
  it('covers every operation of the contract', () => {
    expect(OPERATIONS.length).toBeGreaterThanOrEqual(40);
  });

  it('random requests to every operation answer 4xx {error} (2xx only for reads)', async () => {
    const request = fc.constantFrom(...OPERATIONS).chain((operation) => fc.tuple(fc.constant(operation), requestFor(world, operation)));
    await fuzz(request, ([operation, raw]) => check(raw, operation), 400, 8_000);
  }, 60_000 * SCALE);

  it('schema configs mutated from a valid one, to the validator, the preview and the operations that store configs', async () => {
    const configOperations = OPERATIONS.filter((operation) => ['validateSchemaConfig', 'previewSchemaConfig', 'createSchema', 'createSchemaVersion'].includes(operation.operationId));
    const request = fc.constantFrom(...configOperations).chain((operation) => fc.tuple(fc.constant(operation), requestFor(world, operation)));
    await fuzz(request, ([operation, raw]) => check(raw, operation), 200, 4_000);
  }, 60_000 * SCALE);

  it('faker strategies with hostile methods and arguments, to the validator and the preview', async () => {
    const configOperations = OPERATIONS.filter((operation) => ['validateSchemaConfig', 'previewSchemaConfig'].includes(operation.operationId));
    // Methods whose arguments size or shape their values, names that reach JavaScript's own objects, and nonsense.
    const method = fc.constantFrom(
      'string.alpha', 'string.numeric', 'string.sample', 'lorem.words', 'lorem.paragraphs', 'number.int', 'number.float',
      'date.between', 'date.past', 'helpers.arrayElement', 'helpers.arrayElements', 'helpers.fake', 'helpers.fromRegExp',
      'helpers.multiple', 'person.constructor', 'constructor.constructor', '__proto__.polluted', 'lorem.word', 'internet.email',
    );
    const big = fc.constantFrom(10_000_000, 1e308, -1, Number.MAX_SAFE_INTEGER, 1e5);
    const argument = fc.oneof(
      fc.record({ length: fc.oneof(big, fc.integer()), count: fc.oneof(big, fc.integer()), min: fc.integer(), max: fc.integer() }, { requiredKeys: [] }),
      fc.record({ from: fc.oneof(fc.string(), fc.date().map(String)), to: fc.string() }, { requiredKeys: [] }),
      fc.constantFrom('{{person.constructor}}', '{{__proto__}}', '{{helpers.fake}}', '[a-z]{1,99999999}', '{{lorem.words(100000000)}}'),
      fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 3 }),
      fc.anything({ maxDepth: 2 }),
    );
    const config = fc.tuple(method, fc.array(argument, { maxLength: 2 }), fc.constantFrom('string', 'integer', 'text', 'date')).map(([name, args, type]) => {
      const blog = blogConfig();
      blog.entities[0]!.fields.push({ id: 'fuzzed', type, nullable: true, generation: { strategy: { kind: 'faker', method: name, args } } } as never);
      return blog;
    });
    const request = fc.tuple(fc.constantFrom(...configOperations), config).map(([operation, schema]): [OperationSpec, RawRequest] => [
      operation,
      {
        method: 'POST',
        target: operation.path,
        headers: { 'x-api-key': t.teamKey, 'content-type': 'application/json' },
        body: JSON.stringify(operation.operationId === 'previewSchemaConfig' ? { schema, entity: 'users', rows: 3 } : { schema }),
      },
    ]);
    await fuzz(request, ([operation, raw]) => check(raw, operation), 60, 20_000);
  }, 60_000 * SCALE);

  it('runtime reads with hostile query strings and ids', async () => {
    const reads = OPERATIONS.filter((operation) => operation.operationId === 'listRows' || operation.operationId === 'getRow');
    const request = fc.constantFrom(...reads).chain((operation) => fc.tuple(fc.constant(operation), requestFor(world, operation)));
    await fuzz(request, ([operation, raw]) => check(raw, operation), 300, 5_000);
  }, 60_000 * SCALE);

  it('runtime updates of missing rows with hostile values of known columns', async () => {
    const updateRow = OPERATIONS.find((operation) => operation.operationId === 'updateRow')!;
    await fuzz(missingRowUpdate(world), (raw) => check(raw, updateRow), 200, 4_000);
  }, 60_000 * SCALE);

  it('stray paths and undeclared methods', async () => {
    await fuzz(strayRequest(), (raw) => check(raw), 150, 3_000);
  }, 60_000 * SCALE);
});

describe('pathological requests', () => {
  const target = (operation: OperationSpec, path: Record<string, string> = {}) =>
    operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
      if (path[name]) return path[name]!;
      if (operation.method === 'delete' || operation.operationId === 'regenerateSource') return '00000000-0000-4000-8000-000000000000';
      return { ...world.ids, version: '1', table: 'users', id: '1' }[name] ?? 'x';
    });
  const auth = (operation: OperationSpec): Record<string, string> => {
    const schemes = operation.security.flat();
    if (schemes.includes('sourceApiKey')) return { 'x-api-key': world.keys.source };
    if (schemes.includes('teamApiKey')) return { 'x-api-key': world.keys.team };
    if (schemes.includes('adminToken')) return { authorization: `Bearer ${world.keys.admin}` };
    return {};
  };

  it('bodies of 1 MB nesting, 100k keys and over the limit, to every operation that takes a body', async () => {
    const cases: [RawRequest, OperationSpec][] = [];
    // Every body goes to a few operations of each kind; the rest get the deepest, the widest and one over the limit.
    const everyBody = new Set(['createProject', 'createSchemaVersion', 'validateSchemaConfig', 'createSourceApiKey', 'createRow', 'updateRow']);
    const some = new Set(['arrays 10k deep', 'objects 170k deep (just under 1 MB)', 'a 1.1 MB string']);
    for (const operation of OPERATIONS.filter((candidate) => bodySpec(candidate) || candidate.method === 'delete')) {
      for (const [, body] of OVERSIZED_AND_DEEP.filter(([name]) => everyBody.has(operation.operationId) || some.has(name))) {
        cases.push([{ method: operation.method.toUpperCase(), target: target(operation), headers: { ...auth(operation), 'content-type': 'application/json' }, body }, operation]);
      }
    }
    expect(await checkAll(cases)).toEqual([]);
  }, 60_000 * SCALE);

  it('thousands of filters, long field lists, deep brackets and enormous numbers on list operations', async () => {
    const many = (n: number, piece: (i: number) => string) => Array.from({ length: n }, (_, i) => piece(i)).join('&');
    const queries = [
      many(3_000, (i) => `filters[f${i}][$eq]=${i}`),
      many(900, (i) => `filters[id][$in][${i}]=${i}`),
      `filters[id][$in]=${Array.from({ length: 3_000 }, (_, i) => i).join(',')}`,
      `filters.email.$notIn=${'a,'.repeat(5_000)}b`,
      `fields=${'id,'.repeat(4_000)}id`,
      `fields=${Array.from({ length: 1_500 }, (_, i) => `f${i}`).join(',')}`,
      `sort=${'id:asc,'.repeat(1_500)}id`,
      `populate=${'authorId,'.repeat(1_000)}authorId`,
      many(1_500, () => 'limit=1'),
      `filters${'[a]'.repeat(4_000)}=1`,
      `a${'[b]'.repeat(4_000)}=1`,
      'limit=1e309&offset=1e309',
      'limit=9007199254740993&offset=9007199254740993',
      'limit=-1&offset=-1',
      'offset=99999999999999999999999',
      'offset=2147483648',
      'offset=1e20',
      'filters[id][$eq]=9007199254740993',
      'filters[id][$gt]=2147483648',
      'filters[id][$lt]=-9223372036854775809',
      'filters[email][$eq]=%00',
      'filters[email][$containsi]=%E0%A4%A',
      'filters[createdAt][$gte]=275760-09-13T00:00:00Z',
      'filters[createdAt][$lt]=-271821-04-19T00:00:00Z',
      'filters[publishedOn][$eq]=0000-00-00',
      'filters[price][$gt]=1e309',
      'filters[meta][$eq]={}',
      'filters[authorId][$in]=',
      'filters[__proto__][$eq]=1&filters[constructor][prototype]=1',
      'populate[authorId][fields]=__proto__',
      'after=1e20',
      'after=99999999999999999999999',
      'jobId=%00',
    ];
    const lists = OPERATIONS.filter((operation) => ['listRows', 'getRow', 'listProjects', 'listGenerationEvents', 'listTeamApiKeys'].includes(operation.operationId));
    const cases: [RawRequest, OperationSpec][] = [];
    for (const operation of lists) {
      for (const table of operation.path.startsWith('/runtime/') ? ['users', 'posts'] : ['']) {
        for (const query of queries) {
          cases.push([{ method: 'GET', target: `${target(operation, table ? { table } : {})}?${query}`, headers: auth(operation) }, operation]);
        }
      }
    }
    expect(await checkAll(cases)).toEqual([]);
  }, 60_000 * SCALE);

  it('NUL characters in every text the control plane stores answer 400 and store nothing', async () => {
    const nul = 'a\u0000b';
    const { projectId, schemaId, sourceId, versionId } = world.ids;
    const config = { ...blogConfig(), metadata: { name: nul } };
    const sent: [string, string, string, unknown][] = [
      ['createProject', 'POST', '/public/v1/projects', { name: nul }],
      ['createProject', 'POST', '/public/v1/projects', { name: 'Fine', description: nul }],
      ['updateProject', 'PATCH', `/public/v1/projects/${projectId}`, { icon: nul }],
      ['createSchema', 'POST', `/public/v1/projects/${projectId}/schemas`, { name: nul }],
      ['createSchema', 'POST', `/public/v1/projects/${projectId}/schemas`, { name: 'Fine', initialVersion: { schema: config } }],
      ['updateSchema', 'PATCH', `/public/v1/projects/${projectId}/schemas/${schemaId}`, { description: nul }],
      ['createSchemaVersion', 'POST', `/public/v1/projects/${projectId}/schemas/${schemaId}/versions`, { schema: config }],
      ['createSource', 'POST', `/public/v1/projects/${projectId}/sources`, { name: nul, kind: 'postgres', schemaVersionId: versionId }],
      ['createSource', 'POST', `/public/v1/projects/${projectId}/sources`, { name: 'Fine', kind: 'postgres', schemaVersionId: versionId, seed: nul }],
      ['updateSource', 'PATCH', `/public/v1/projects/${projectId}/sources/${sourceId}`, { seed: nul }],
      ['updateSource', 'PATCH', `/public/v1/projects/${projectId}/sources/${sourceId}`, { description: nul }],
      ['regenerateSource', 'POST', `/public/v1/projects/${projectId}/sources/${sourceId}/regenerate`, { seed: nul }],
      ['createSourceApiKey', 'POST', `/public/v1/projects/${projectId}/sources/${sourceId}/api-keys`, { name: nul }],
      ['adminCreateSourceApiKey', 'POST', `/api/sources/${sourceId}/api-keys`, { name: nul }],
      ['createTeamApiKey', 'POST', '/api/api-keys', { name: nul }],
      ['createTeamApiKey', 'POST', '/api/api-keys', { team: nul }],
      ['listTeamApiKeys', 'GET', '/api/api-keys?team=a%00b', undefined],
    ];
    const cases: [RawRequest, OperationSpec][] = sent.map(([operationId, method, path, body]) => {
      const operation = OPERATIONS.find((candidate) => candidate.operationId === operationId)!;
      const headers = { ...auth(operation), ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
      return [{ method, target: path, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, operation];
    });
    const failures = await checkAll(cases);
    expect(failures).toEqual([]);
  }, 60_000);

  it('hostile connection strings to introspection and bring-your-own sources answer 400 before any connection', async () => {
    const control = new URL(t.database.url);
    const hostile = [
      t.database.url,
      `postgres://${control.username}@localhost:${control.port}/postgres`,
      `postgres://${control.username}@0.0.0.0:${control.port}/x`,
      `postgres://${control.username}@[::1]:${control.port}/x`,
      `postgres://${control.username}@127.9.9.9:${control.port}/x`,
      'postgres://u@%2Fvar%2Frun%2Fpostgresql/x',
      'postgres://u@%2ftmp%2f.s.PGSQL.5432/x',
      'postgres:///x?host=/var/run/postgresql',
      'postgres://u@127.0.0.1:1/x?host=%2Ftmp',
      'postgres://u@127.0.0.1:1/x?sslrootcert=/etc/shadow',
      'postgres://u@127.0.0.1:1/x?sslcert=/etc/passwd&sslkey=/etc/passwd',
      'postgres://u@127.0.0.1:1/x?passfile=/root/.pgpass',
      'postgres://u@127.0.0.1:1/x?service=x&servicefile=/etc/passwd',
      'postgres://u@127.0.0.1:1/x?options=-c%20search_path%3Dpublic',
      'postgres://u@127.0.0.1:1/x?sslmode=require&sslmode=bogus',
      'postgres://u@127.0.0.1:1/x%0D%0ASET%20pwned%201%0D%0A',
      'postgres://u%00@127.0.0.1:1/x',
      'postgres://u:%7F@127.0.0.1:1/x',
      'postgres://u@127.0.0.1:1/x\r\nQUIT',
      'postgres://u@127.0.0.1:1/%E0%A4%A',
      'postgres://u@169.254.169.254:80/latest',
      'postgres://u@[fe80::1]:5432/x',
      'postgres://u@224.0.0.1/x',
      'postgres://u@127.0.0.1:0/x',
      'postgres://u@127.0.0.1:99999/x',
      'postgres://127.0.0.1:1/x',
      'postgres://u@127.0.0.1:1/x#fragment',
      'mysql://root@127.0.0.1:1/x?socketPath=/var/run/mysqld/mysqld.sock',
      'mysql://root@127.0.0.1:1/x?flags=%2BLOCAL_FILES&infileStreamFactory=x',
      'mysql://root@127.0.0.1:1/x?multipleStatements=true',
      'mysql://root@127.0.0.1:1/x?localAddress=10.0.0.1',
      'mariadb://root@%2Fvar%2Frun%2Fmysqld%2Fmysqld.sock/x',
      'socket:/var/run/postgresql?db=x',
      'file:///etc/passwd',
      'redis://127.0.0.1:6379/0',
      'http://169.254.169.254/latest/meta-data/',
    ];
    const introspect = OPERATIONS.find((operation) => operation.operationId === 'introspectSchemaConfig')!;
    const createSource = OPERATIONS.find((operation) => operation.operationId === 'createSource')!;
    const failures: string[] = [];
    for (const connectionString of hostile) {
      const kind = /^(mysql|mariadb):/.test(connectionString) ? 'mysql' : 'postgres';
      const requests: [RawRequest, OperationSpec][] = [
        [{ method: 'POST', target: introspect.path, headers: { ...auth(introspect), 'content-type': 'application/json' }, body: JSON.stringify({ connectionString }) }, introspect],
        [
          {
            method: 'POST',
            target: target(createSource),
            headers: { ...auth(createSource), 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Hostile', kind, schemaVersionId: world.ids.versionId, config: { connectionString } }),
          },
          createSource,
        ],
      ];
      for (const [request, operation] of requests) {
        const answer = await sendRaw(t.url, request);
        if (answer.status !== 400) failures.push(`${describeRequest(request)} → ${answer.status} ${answer.text.slice(0, 300)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000 * SCALE);

  it('random connection strings around a valid one never answer 500', async () => {
    const introspect = OPERATIONS.find((operation) => operation.operationId === 'introspectSchemaConfig')!;
    const part = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('%0D%0A', '%00', '%2F', '/', '@', ':', '?', '&', '=', '#', '[', ']', '%', '..', 'sslmode=require', 'host=/tmp'));
    const url = fc
      .tuple(fc.constantFrom('postgres', 'postgresql', 'mysql', 'mariadb', 'socket', 'pg'), part, part, fc.constantFrom('127.0.0.1', 'localhost', '[::1]', '', '%2Ftmp', '0'), part, part)
      .map(([scheme, user, password, host, database, query]) => `${scheme}://${user}:${password}@${host}:1/${database}?${query}`);
    await fuzz(
      url,
      (connectionString) =>
        check({ method: 'POST', target: introspect.path, headers: { ...auth(introspect), 'content-type': 'application/json' }, body: JSON.stringify({ connectionString }) }, introspect).catch((error: Error) => {
          // A port nothing listens on answers 503 (unreachable) by design: every other 5xx is a failure.
          if (!/^server error 503:/.test(error.message)) throw error;
        }),
      150,
      8_000,
    );
  }, 60_000 * SCALE);

  it('version numbers beyond PostgreSQL integers', async () => {
    const operation = OPERATIONS.find((candidate) => candidate.operationId === 'getSchemaVersion')!;
    const cases: [RawRequest, OperationSpec][] = ['2147483648', '9007199254740993', '99999999999999999999', '1e20', '1e309', '0x10'].map((version) => [
      { method: 'GET', target: target(operation, { version }), headers: auth(operation) },
      operation,
    ]);
    expect(await checkAll(cases)).toEqual([]);
  });

  it('hostile cursors and ids in headers', async () => {
    const events = OPERATIONS.find((operation) => operation.operationId === 'listGenerationEvents')!;
    const headers: Record<string, string>[] = [
      ...['1e20', '99999999999999999999999', '9007199254740993', '-1', 'abc', '', '1.5', '0x10'].map((value) => ({ 'last-event-id': value })),
      { accept: 'application/xml' },
      { accept: '*/*;q=abc' },
      { 'x-request-id': 'x'.repeat(4000) },
      { 'x-request-id': '../../etc/passwd' },
      { 'content-length': '0', 'content-type': 'application/json' },
    ];
    const cases: [RawRequest, OperationSpec][] = headers.map((extra) => [{ method: 'GET', target: target(events), headers: { ...auth(events), ...extra } }, events]);
    expect(await checkAll(cases)).toEqual([]);
  }, 60_000 * SCALE);
});

describe('afterwards', () => {
  it('the server is up, no data changed and Object.prototype is clean', async () => {
    const health = await sendRaw(t.url, { method: 'GET', target: '/healthz', headers: {} });
    expect(health.status).toBe(200);
    await t.service.flushKeyUsage();
    expect(await digestData(t.database.url, t.database.url)).toEqual(before);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
