// `onDelete: "set-null"` on a composite reference, on both engines: validation wants every field of it
// nullable; the tables sds creates declare ON DELETE SET NULL; a runtime DELETE of the parent row sets
// both fields of its children to null (and only theirs); introspection maps the foreign key back.
// And a composite self reference (an employee's boss, keyed (company_id, emp_no) like the employee):
// filled once every row exists, each pair naming an existing row, set to null when that row is deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { introspectDatabase } from '../../../src/introspection/introspect.ts';
import { dialectTargets, generateSource, type GeneratedSource } from '../../helpers/runtime-source.ts';
import { openInspector, type Inspector } from '../../helpers/dialect-targets.ts';

const DIALECTS = await dialectTargets();
const SLOW = 120_000;

function config(nullable = true, onUpdate?: 'set-null'): SchemaConfig {
  return {
    formatVersion: 1,
    entities: [
      {
        id: 'sites',
        primaryKey: ['id'],
        uniqueKeys: [['region', 'code']],
        generation: { rowCount: 6 },
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'region', type: 'integer', min: 1, max: 3 },
          { id: 'code', type: 'integer', generation: { strategy: { kind: 'sequence', start: 1, within: ['region'] } } },
        ],
      },
      {
        id: 'visits',
        primaryKey: ['id'],
        generation: { rowCount: 30 },
        references: [{ fields: ['site_region', 'site_code'], entity: 'sites', targetFields: ['region', 'code'], onDelete: 'set-null', ...(onUpdate ? { onUpdate } : {}) }],
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'site_region', type: 'integer', nullable },
          { id: 'site_code', type: 'integer', nullable: true },
        ],
      },
    ],
  } as SchemaConfig;
}

it('validation wants every field of a set-null composite reference nullable', () => {
  expect(validateConfig(config()).errors).toEqual([]);
  expect(validateConfig(config(false)).errors).toEqual([
    {
      path: '/entities/1/references/0/onDelete',
      message: 'references[0] of entity "visits" sets its fields to null when the referenced row is deleted, but site_region is not nullable; make it nullable, or use "restrict" or "cascade"',
    },
  ]);
});

for (const target of DIALECTS) {
  describe(`${target.name}: a composite reference with onDelete set-null`, () => {
    let source: GeneratedSource;
    let inspector: Inspector;
    beforeAll(async () => {
      source = await generateSource(target, config());
      inspector = await openInspector(target);
    }, SLOW);
    afterAll(async () => {
      await inspector?.close();
      await source?.drop();
    });

    it('is declared ON DELETE SET NULL, and deleting the parent row sets both fields of its children to null', async () => {
      const [rule] = await inspector.query(
        `SELECT delete_rule AS r FROM information_schema.referential_constraints WHERE constraint_schema = '${source.namespace}'`,
      );
      expect(rule!.r).toBe('SET NULL');
      const visits = await source.all('visits');
      const pointed = visits.find((visit) => visit.site_region !== null)!;
      expect(pointed).toBeDefined();
      const site = (await source.all('sites')).find((candidate) => candidate.region === pointed.site_region && candidate.code === pointed.site_code)!;
      const children = visits.filter((visit) => visit.site_region === site.region && visit.site_code === site.code).map((visit) => visit.id);
      const others = visits.filter((visit) => !children.includes(visit.id));
      await source.remove('sites', String(site.id));
      const after = await source.all('visits');
      for (const visit of after.filter((row) => children.includes(row.id))) expect([visit.site_region, visit.site_code]).toEqual([null, null]);
      expect(after.filter((row) => !children.includes(row.id))).toEqual(others);
    }, SLOW);

    it('introspection maps the foreign key back as set-null', async () => {
      const { config: mapped } = await introspectDatabase(target.url, { namespace: source.namespace });
      expect(mapped.entities.find((entity) => entity.id === 'visits')!.references).toEqual([
        { fields: ['site_region', 'site_code'], entity: 'sites', targetFields: ['region', 'code'], onDelete: 'set-null' },
      ]);
    }, SLOW);
  });
}

it('onUpdate set-null on a composite reference, as on a one-field one, wants every field nullable too', () => {
  expect(validateConfig(config(true, 'set-null')).errors).toEqual([]);
  expect(validateConfig(config(false, 'set-null')).errors.map((issue) => [issue.path, issue.message])).toContainEqual([
    '/entities/1/references/0/onUpdate',
    'references[0] of entity "visits" sets its fields to null when the referenced key changes, but site_region is not nullable; make it nullable, or use "restrict" or "cascade"',
  ]);
});

for (const target of DIALECTS) {
  describe(`${target.name}: a composite reference with onUpdate set-null`, () => {
    let source: GeneratedSource;
    let inspector: Inspector;
    beforeAll(async () => {
      source = await generateSource(target, config(true, 'set-null'));
      inspector = await openInspector(target);
    }, SLOW);
    afterAll(async () => {
      await inspector?.close();
      await source?.drop();
    });

    it('is declared ON UPDATE SET NULL: changing the parent key sets both fields of its children to null; introspection maps it back', async () => {
      const [rule] = await inspector.query(
        `SELECT update_rule AS r FROM information_schema.referential_constraints WHERE constraint_schema = '${source.namespace}'`,
      );
      expect(rule!.r).toBe('SET NULL');
      const visits = await source.all('visits');
      const pointed = visits.find((visit) => visit.site_region !== null)!;
      const site = (await source.all('sites')).find((candidate) => candidate.region === pointed.site_region && candidate.code === pointed.site_code)!;
      const children = visits.filter((visit) => visit.site_region === site.region && visit.site_code === site.code).map((visit) => visit.id);
      const others = visits.filter((visit) => !children.includes(visit.id));
      const sites = target.name === 'postgres' ? `"${source.namespace}"."sites"` : `\`${source.namespace}\`.\`sites\``;
      await inspector.query(`UPDATE ${sites} SET code = code + 1000 WHERE id = ${Number(site.id)}`);
      const after = await source.all('visits');
      for (const visit of after.filter((row) => children.includes(row.id))) expect([visit.site_region, visit.site_code]).toEqual([null, null]);
      expect(after.filter((row) => !children.includes(row.id))).toEqual(others);
      const { config: mapped } = await introspectDatabase(target.url, { namespace: source.namespace });
      expect(mapped.entities.find((entity) => entity.id === 'visits')!.references).toEqual([
        { fields: ['site_region', 'site_code'], entity: 'sites', targetFields: ['region', 'code'], onDelete: 'set-null', onUpdate: 'set-null' },
      ]);
    }, SLOW);
  });
}

function selfConfig(nullable = true): SchemaConfig {
  return {
    formatVersion: 1,
    entities: [
      { id: 'companies', primaryKey: ['id'], generation: { rowCount: 4 }, fields: [{ id: 'id', type: 'integer' }, { id: 'name', type: 'string', maxLength: 60 }] },
      {
        id: 'employees',
        primaryKey: ['company_id', 'emp_no'],
        generation: { rowCount: 40 },
        references: [{ fields: ['boss_company', 'boss_no'], entity: 'employees', targetFields: ['company_id', 'emp_no'], onDelete: 'set-null' }],
        fields: [
          { id: 'company_id', type: 'integer', references: { entity: 'companies', field: 'id' } },
          { id: 'emp_no', type: 'integer', generation: { strategy: { kind: 'sequence', start: 1, within: ['company_id'] } } },
          { id: 'name', type: 'string', maxLength: 60 },
          { id: 'boss_company', type: 'integer', nullable },
          { id: 'boss_no', type: 'integer', nullable: true },
        ],
      },
    ],
  } as SchemaConfig;
}

it('validation takes a composite self reference through nullable fields, and names a field that is not', () => {
  expect(validateConfig(selfConfig()).errors).toEqual([]);
  expect(validateConfig(selfConfig(false)).errors.map((issue) => issue.message)).toContain(
    'references[0] of entity "employees" points at its own entity, which is filled once every row exists, so its fields must be nullable; make boss_company nullable',
  );
});

for (const target of DIALECTS) {
  describe(`${target.name}: a composite self reference`, () => {
    let source: GeneratedSource;
    beforeAll(async () => {
      source = await generateSource(target, selfConfig());
    }, SLOW);
    afterAll(async () => source?.drop());

    it('fills every pair with an existing row once every row exists; deleting that row sets the pair to null', async () => {
      const employees = await source.all('employees');
      expect(employees).toHaveLength(40);
      const keys = new Set(employees.map((row) => `${row.company_id}/${row.emp_no}`));
      const bosses = employees.filter((row) => row.boss_no !== null);
      expect(bosses.length).toBeGreaterThan(0);
      for (const row of bosses) expect(keys.has(`${row.boss_company}/${row.boss_no}`)).toBe(true);
      const boss = bosses[0]!;
      const reports = employees.filter((row) => row.boss_company === boss.boss_company && row.boss_no === boss.boss_no).map((row) => `${row.company_id}/${row.emp_no}`);
      // The runtime addresses a row of a composite primary key by its key values joined.
      const bossRow = employees.find((row) => row.company_id === boss.boss_company && row.emp_no === boss.boss_no)!;
      await source.remove('employees', `${bossRow.company_id},${bossRow.emp_no}`);
      const after = await source.all('employees');
      for (const row of after.filter((candidate) => reports.includes(`${candidate.company_id}/${candidate.emp_no}`))) expect([row.boss_company, row.boss_no]).toEqual([null, null]);
    }, SLOW);
  });
}

