// Issue 23, items 1 and 2, as the attacks they prevent: sds owns its namespaces. On the default
// targets a request never names one (another source's staging namespace, an application's schema or
// database), and sds only ever replaces or drops a namespace it created, on any target.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.ts';
import { TeamStore } from '../../src/store/teams.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { mysqlTarget } from '../helpers/mysql.ts';
import { ownServer, type OwnServer } from '../helpers/own-server.ts';
import { blogProject, startTestService, type TestService } from '../helpers/service.ts';
import { countRows, namespaceExists, qualified, tableDigest, withTarget, type Kind } from '../helpers/target-sql.ts';

const mysqlUrl = await mysqlTarget();
const KINDS: Kind[] = mysqlUrl ? ['postgres', 'mysql'] : ['postgres'];
/** Names on the shared MySQL server are unique to this run. */
const run = randomBytes(3).toString('hex');

/** The service with default targets of both kinds: a PostgreSQL database of its own, and MySQL. */
let t: TestService;
let defaultPostgres: TestDatabase;
/** A victim team and an attacker team, each with a project of the blog schema. */
type Team = { key: string; api: ReturnType<TestService['client']>; projectId: string; versionId: string };
let victim: Team;
let attacker: Team;

beforeAll(async () => {
  defaultPostgres = await createTestDatabase('ns_default_target');
  t = await startTestService('namespace_ownership', { targetUrls: { mysql: mysqlUrl, postgres: defaultPostgres.url } });
  const teams = new TeamStore(t.service.db);
  const attackerKey = (await teams.createKey((await teams.createTeam('Attackers')).id)).key;
  for (const [key, name] of [[t.teamKey, 'Victim'], [attackerKey, 'Attacker']] as const) {
    const api = t.client(key);
    const team = { key, api, ...(await blogProject(api, name)) };
    if (name === 'Victim') victim = team;
    else attacker = team;
  }
});
afterAll(async () => {
  await t?.stop();
  await defaultPostgres?.drop();
});

const defaultUrl = (kind: Kind) => (kind === 'postgres' ? defaultPostgres.url : mysqlUrl!);
const namespaceOf = (kind: Kind, source: { config: { schema?: string; database?: string } }) => (kind === 'postgres' ? source.config.schema : source.config.database)!;
const field = (kind: Kind) => (kind === 'postgres' ? 'schema' : 'database');

async function createSource(team: Team, body: Record<string, unknown>) {
  const response = await fetch(`${t.url}/public/v1/projects/${team.projectId}/sources`, {
    method: 'POST',
    headers: { 'x-api-key': team.key, 'content-type': 'application/json' },
    body: JSON.stringify({ schemaVersionId: team.versionId, generatorConfig: { rowCounts: { users: 12, posts: 12 } }, ...body }),
  });
  return { status: response.status, body: (await response.json()) as { id: string; error?: string; details?: { path: string }[]; config: { schema?: string; database?: string } } };
}
/** Waits for the newest job of a team's source to end, and asserts how. */
async function waitForSourceJob(team: Team, sourceId: string, expected: 'succeeded' | 'failed' = 'succeeded') {
  const path = { projectId: team.projectId, sourceId };
  for (const deadline = Date.now() + 60_000; ; ) {
    const { data } = await team.api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', { params: { path } });
    const job = data![0]!;
    if (job.status === 'succeeded' || job.status === 'failed') {
      expect(job.status, job.error ?? '').toBe(expected);
      return job;
    }
    if (Date.now() > deadline) throw new Error(`job ${job.id} still ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const deleteSource = (team: Team, sourceId: string) =>
  team.api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path: { projectId: team.projectId, sourceId } } });

/** A namespace someone else made on a target: one table with one row. */
async function createForeignNamespace(kind: Kind, url: string, namespace: string): Promise<void> {
  await withTarget(kind, url, async (query) => {
    await query(kind === 'postgres' ? `CREATE SCHEMA "${namespace}"` : `CREATE DATABASE \`${namespace}\``);
    await query(`CREATE TABLE ${qualified(kind, namespace, 'invoices')} (id integer PRIMARY KEY, amount integer NOT NULL)`);
    await query(`INSERT INTO ${qualified(kind, namespace, 'invoices')} VALUES (1, 4200)`);
  });
}
async function invoicesOf(kind: Kind, url: string, namespace: string): Promise<unknown[]> {
  return withTarget(kind, url, (query) => query(`SELECT id, amount FROM ${qualified(kind, namespace, 'invoices')} ORDER BY id`));
}
async function dropForeignNamespace(kind: Kind, url: string, namespace: string): Promise<void> {
  await withTarget(kind, url, (query) => query(kind === 'postgres' ? `DROP SCHEMA IF EXISTS "${namespace}" CASCADE` : `DROP DATABASE IF EXISTS \`${namespace}\``));
}

for (const kind of KINDS) {
  describe(`${kind}: the default target's namespaces are sds's`, () => {
    let victimId: string;
    let victimNamespace: string;
    let victimUsers: string;
    const foreign = kind === 'postgres' ? 'app_billing' : `important_db_${run}`;

    beforeAll(async () => {
      const { status, body } = await createSource(victim, { name: `Victim ${run}`, kind, seed: 'victim' });
      expect(status, JSON.stringify(body)).toBe(201);
      victimId = body.id;
      victimNamespace = namespaceOf(kind, body);
      await waitForSourceJob(victim, victimId);
      victimUsers = await tableDigest(kind, defaultUrl(kind), victimNamespace, 'users', 'id');
      await createForeignNamespace(kind, defaultUrl(kind), foreign);
    });
    afterAll(async () => {
      if (victimId) await deleteSource(victim, victimId);
      await dropForeignNamespace(kind, defaultUrl(kind), foreign);
    });

    it("refuses a source in another source's staging namespace, and the victim's regeneration keeps its rows", async () => {
      // Before: 201, and the attacker's runtime writes landed in the victim's next data.
      const { status, body } = await createSource(attacker, { name: 'Shadow', kind, config: { [field(kind)]: `${victimNamespace}__next` } });
      expect(status).toBe(400);
      expect(body.error).toBe(
        `config.${field(kind)} goes with config.connectionString only: on this server's own ${kind} target sds names the source's ${field(kind)} itself (sds_<source slug>_<id>)`,
      );
      expect(body.details).toEqual([{ path: `/body/config/${field(kind)}`, message: 'only with config.connectionString' }]);

      const regenerated = await victim.api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', {
        params: { path: { projectId: victim.projectId, sourceId: victimId }, query: { wait: true } },
        body: {},
      });
      expect(regenerated.data?.status, regenerated.data?.error ?? '').toBe('succeeded');
      expect(await tableDigest(kind, defaultUrl(kind), victimNamespace, 'users', 'id')).toBe(victimUsers);
      expect(await namespaceExists(kind, defaultUrl(kind), `${victimNamespace}__next`)).toBe(false);
    });

    it(`refuses a source naming an existing ${field(kind)} sds did not create (${foreign}), and deleting sources leaves it whole`, async () => {
      // Before: 201, and the job (MySQL) or the source's deletion (PostgreSQL) dropped what was there.
      const { status, body } = await createSource(attacker, { name: 'Takeover', kind, config: { [field(kind)]: foreign } });
      expect(status).toBe(400);
      expect(body.error).toMatch(new RegExp(`^config\\.${field(kind)} goes with config\\.connectionString only`));
      // A source of the attacker's that does exist, deleted: nothing but its own namespace goes.
      const own = await createSource(attacker, { name: `Takeover ${run}`, kind });
      expect(own.status).toBe(201);
      await waitForSourceJob(attacker, own.body.id);
      expect((await deleteSource(attacker, own.body.id)).response.status).toBe(204);
      expect(await namespaceExists(kind, defaultUrl(kind), namespaceOf(kind, own.body))).toBe(false);
      expect(await invoicesOf(kind, defaultUrl(kind), foreign)).toEqual([{ id: 1, amount: 4200 }]);
    });

    it("names namespaces from the source's own identity: no 409, and nothing learnt of other sources' names", async () => {
      // A namespace on the target that sds did not create, named as the old code would name a new source's.
      const taken = `sds_taken_${run}`;
      await createForeignNamespace(kind, defaultUrl(kind), taken);
      try {
        const { status, body } = await createSource(attacker, { name: `Taken ${run}`, kind });
        expect(status, JSON.stringify(body)).toBe(201);
        const namespace = namespaceOf(kind, body);
        expect(namespace).toBe(`sds_taken_${run}_${body.id.slice(0, 8)}`);
        await waitForSourceJob(attacker, body.id);
        expect(await countRows(kind, defaultUrl(kind), namespace, 'users')).toBe(12);
        // The victim's source name, from the other team: a 201 whose namespace depends on nothing but
        // its own id (before: `sds_victim_…_2` told that `sds_victim_…` existed, or a 409 named it).
        const same = await createSource(attacker, { name: `Victim ${run}`, kind });
        expect(same.status, JSON.stringify(same.body)).toBe(201);
        expect(namespaceOf(kind, same.body)).toBe(`sds_victim_${run}_${same.body.id.slice(0, 8)}`);
        expect(namespaceOf(kind, same.body)).not.toBe(victimNamespace);
        await waitForSourceJob(attacker, same.body.id);
        for (const id of [body.id, same.body.id]) expect((await deleteSource(attacker, id)).response.status).toBe(204);
        expect(await invoicesOf(kind, defaultUrl(kind), taken)).toEqual([{ id: 1, amount: 4200 }]);
        expect(await tableDigest(kind, defaultUrl(kind), victimNamespace, 'users', 'id')).toBe(victimUsers);
      } finally {
        await dropForeignNamespace(kind, defaultUrl(kind), taken);
      }
    });
  });
}

describe("bring your own database: sds replaces only what it created there", () => {
  /** A service without default MySQL, so that the MySQL server is only ever a team's own here. */
  let own: TestService;
  let team: Team;
  let byoPostgres: TestDatabase;
  /** The team's PostgreSQL as the service reaches it: through a loopback proxy, so never the service's own server (see own-server.ts). */
  let byoProxy: OwnServer;
  const byoUrl = (kind: Kind) => (kind === 'postgres' ? byoPostgres.url : mysqlUrl!);
  const byoUrlForService = (kind: Kind) => (kind === 'postgres' ? byoProxy.url : mysqlUrl!);
  const foreignNamespaces: [Kind, string][] = [];

  beforeAll(async () => {
    byoPostgres = await createTestDatabase('ns_byo');
    byoProxy = await ownServer(byoPostgres.url);
    own = await startTestService('namespace_ownership_byo', { targetUrls: {} });
    const api = own.client(own.teamKey);
    team = { key: own.teamKey, api, ...(await blogProject(api, 'Own servers')) };
  });
  afterAll(async () => {
    for (const [kind, namespace] of foreignNamespaces) await dropForeignNamespace(kind, byoUrl(kind), namespace).catch(() => {});
    await own?.stop();
    await byoProxy?.close();
    await byoPostgres?.drop();
  });

  const createOwn = async (kind: Kind, name: string, namespace?: string) => {
    const response = await fetch(`${own.url}/public/v1/projects/${team.projectId}/sources`, {
      method: 'POST',
      headers: { 'x-api-key': team.key, 'content-type': 'application/json' },
      body: JSON.stringify({
        name,
        kind,
        schemaVersionId: team.versionId,
        config: { connectionString: byoUrlForService(kind), ...(namespace ? { [field(kind)]: namespace } : {}) },
        generatorConfig: { rowCounts: { users: 7, posts: 7 } },
      }),
    });
    return { status: response.status, body: (await response.json()) as { id: string; error?: string; config: { schema?: string; database?: string } } };
  };
  const foreignOnOwnServer = async (kind: Kind, namespace: string) => {
    foreignNamespaces.push([kind, namespace]);
    await createForeignNamespace(kind, byoUrl(kind), namespace);
  };
  const refusal = (kind: Kind, namespace: string) =>
    `The ${field(kind)} "${namespace}" already exists on the target database and sds did not create it: sds never replaces or drops a ${field(kind)} it did not create (drop or rename it on your server, or create the source with another config.${field(kind)})`;

  for (const kind of KINDS) {
    describe(kind, () => {
      it(`generates into its own config.${field(kind)}, regenerates, and drops it with the source`, async () => {
        const namespace = `shop_${run}`;
        const { status, body } = await createOwn(kind, `Shop ${kind}`, namespace);
        expect(status, JSON.stringify(body)).toBe(201);
        expect(namespaceOf(kind, body)).toBe(namespace);
        await waitForSourceJob(team, body.id);
        expect(await countRows(kind, byoUrl(kind), namespace, 'users')).toBe(7);
        const regenerated = await team.api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', {
          params: { path: { projectId: team.projectId, sourceId: body.id }, query: { wait: true } },
          body: { seed: 'again' },
        });
        expect(regenerated.data?.status, regenerated.data?.error ?? '').toBe('succeeded');
        expect(await countRows(kind, byoUrl(kind), namespace, 'users')).toBe(7);
        expect((await deleteSource(team, body.id)).response.status).toBe(204);
        expect(await namespaceExists(kind, byoUrl(kind), namespace)).toBe(false);
      });

      it(`fails the job and leaves the data whole when config.${field(kind)} exists there and sds did not create it`, async () => {
        const namespace = `billing_${run}`;
        await foreignOnOwnServer(kind, namespace);
        const { status, body } = await createOwn(kind, `Billing ${kind}`, namespace);
        expect(status, JSON.stringify(body)).toBe(201);
        const job = await waitForSourceJob(team, body.id, 'failed');
        expect(job.error).toBe(refusal(kind, namespace));
        const regenerated = await team.api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', {
          params: { path: { projectId: team.projectId, sourceId: body.id }, query: { wait: true } },
          body: {},
        });
        expect(regenerated.data?.status).toBe('failed');
        expect(await invoicesOf(kind, byoUrl(kind), namespace)).toEqual([{ id: 1, amount: 4200 }]);
        // Nor does the source serve the tables it found there, by name (before: read and written).
        const users = qualified(kind, namespace, 'users');
        const name = kind === 'postgres' ? '"firstName"' : '`firstName`';
        await withTarget(kind, byoUrl(kind), async (query) => {
          await query(`CREATE TABLE ${users} (id integer PRIMARY KEY, ${name} varchar(60) NOT NULL)`);
          await query(`INSERT INTO ${users} VALUES (1, 'Ada')`);
        });
        const key = (await team.api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path: { projectId: team.projectId, sourceId: body.id } }, body: {} })).data!.key;
        const read = await fetch(`${own.url}/runtime/${body.id}/users`, { headers: { 'x-api-key': key } });
        expect(read.status).toBe(404);
        expect(await read.json()).toEqual({ error: 'Table "users" not found' });
        const write = await fetch(`${own.url}/runtime/${body.id}/users/1`, {
          method: 'PATCH',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ firstName: 'INJECTED' }),
        });
        expect(write.status).toBe(404);
        expect(await withTarget(kind, byoUrl(kind), (query) => query(`SELECT id, ${name} AS name FROM ${users}`))).toEqual([{ id: 1, name: 'Ada' }]);
        // Before: deleting the source dropped the schema or database with everything in it.
        expect((await deleteSource(team, body.id)).response.status).toBe(204);
        expect(await invoicesOf(kind, byoUrl(kind), namespace)).toEqual([{ id: 1, amount: 4200 }]);
      });

      it('never drops a staging name that exists there and that sds did not create', async () => {
        const namespace = `ledger_${run}`;
        await foreignOnOwnServer(kind, `${namespace}__next`);
        const { status, body } = await createOwn(kind, `Ledger ${kind}`, namespace);
        expect(status, JSON.stringify(body)).toBe(201);
        const job = await waitForSourceJob(team, body.id, 'failed');
        expect(job.error).toBe(refusal(kind, `${namespace}__next`));
        expect((await deleteSource(team, body.id)).response.status).toBe(204);
        expect(await invoicesOf(kind, byoUrl(kind), `${namespace}__next`)).toEqual([{ id: 1, amount: 4200 }]);
        expect(await namespaceExists(kind, byoUrl(kind), namespace)).toBe(false);
      });

      it(`refuses config.${field(kind)} in sds's staging names, even on the team's own server`, async () => {
        for (const namespace of [`victim_${run}__next`, `sds_old_${run}`]) {
          const { status, body } = await createOwn(kind, 'Staging', namespace);
          expect(status).toBe(400);
          expect(body.error).toBe(
            `config.${field(kind)} must not end in "__next" or begin with "sds_old_": sds keeps those names for the ${field(kind)}s it builds and replaces`,
          );
        }
      });

      it(`refuses a config.${field(kind)} that is no identifier or a system ${field(kind)}`, async () => {
        for (const namespace of ['x"; DROP SCHEMA public; --', kind === 'postgres' ? 'public' : 'mysql']) {
          const { status, body } = await createOwn(kind, 'Bad name', namespace);
          expect(status).toBe(400);
          expect(body.error).toBe(
            `config.${field(kind)} must be an identifier of letters, digits and underscores (at most 48 characters) that sds may own, not a system ${field(kind)}`,
          );
        }
      });

      it("keeps a second source off the first one's namespace without naming it, and deleting the second leaves the first's data", async () => {
        const namespace = `shared_${run}`;
        const first = await createOwn(kind, `First ${kind}`, namespace);
        expect(first.status).toBe(201);
        await waitForSourceJob(team, first.body.id);
        const digest = await tableDigest(kind, byoUrl(kind), namespace, 'users', 'id');
        const second = await createOwn(kind, `Second ${kind}`, namespace);
        // Before: the second source's job replaced the first's data, and deleting it dropped them.
        expect(second.status, JSON.stringify(second.body)).toBe(201);
        const job = await waitForSourceJob(team, second.body.id, 'failed');
        expect(job.error).toBe(refusal(kind, namespace));
        expect((await deleteSource(team, second.body.id)).response.status).toBe(204);
        expect(await tableDigest(kind, byoUrl(kind), namespace, 'users', 'id')).toBe(digest);
        expect((await deleteSource(team, first.body.id)).response.status).toBe(204);
        expect(await namespaceExists(kind, byoUrl(kind), namespace)).toBe(false);
      });
    });
  }
});

describe('the migration to recorded namespaces', () => {
  it('records existing sources as owners, and disarms a source made in another source’s staging namespace', async () => {
    const db = t.service.db;
    const first = await createSource(victim, { name: `Existing ${run}`, kind: 'postgres', seed: 'existing' });
    const legacy = await createSource(attacker, { name: `Legacy ${run}`, kind: 'postgres' });
    for (const [team, source] of [[victim, first], [attacker, legacy]] as const) await waitForSourceJob(team, source.body.id);
    const namespace = namespaceOf('postgres', first.body);
    const digest = await tableDigest('postgres', defaultPostgres.url, namespace, 'users', 'id');
    // A source as the old code let one be made: in the victim's staging namespace.
    await db.query('UPDATE sources SET namespace = $2 WHERE id = $1', [legacy.body.id, `${namespace}__next`]);
    await db.query('DROP TABLE owned_namespaces');
    await db.query('DELETE FROM schema_migrations WHERE version = 7');
    expect(await migrate(db)).toEqual(['007_owned_namespaces']);

    const owned = await db.query<{ source_id: string; namespace: string; staging: boolean; created: boolean }>(
      'SELECT source_id, namespace, staging, created_at IS NOT NULL AS created FROM owned_namespaces WHERE source_id = ANY($1) ORDER BY namespace',
      [[first.body.id, legacy.body.id]],
    );
    expect(owned.rows).toEqual([
      { source_id: first.body.id, namespace, staging: false, created: true },
      { source_id: first.body.id, namespace: `${namespace}__next`, staging: true, created: true },
      { source_id: legacy.body.id, namespace: `${namespace}__next__next`, staging: true, created: true },
    ]);

    const regenerate = (team: Team, sourceId: string) =>
      team.api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/regenerate', {
        params: { path: { projectId: team.projectId, sourceId }, query: { wait: true } },
        body: {},
      });
    const refused = await regenerate(attacker, legacy.body.id);
    expect(refused.data?.status).toBe('failed');
    expect(refused.data?.error).toBe(`The schema "${namespace}__next" is not reserved for this source, so sds will not create or replace it`);
    expect((await regenerate(victim, first.body.id)).data?.status).toBe('succeeded');
    expect(await tableDigest('postgres', defaultPostgres.url, namespace, 'users', 'id')).toBe(digest);
    expect((await deleteSource(attacker, legacy.body.id)).response.status).toBe(204);
    expect(await tableDigest('postgres', defaultPostgres.url, namespace, 'users', 'id')).toBe(digest);
    await dropForeignNamespace('postgres', defaultPostgres.url, `sds_legacy_${run}_${legacy.body.id.slice(0, 8)}`);
    expect((await deleteSource(victim, first.body.id)).response.status).toBe(204);
    expect(await namespaceExists('postgres', defaultPostgres.url, namespace)).toBe(false);
  });
});
