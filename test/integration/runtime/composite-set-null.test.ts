// `onDelete: "set-null"` on a composite reference, on both engines: validation wants every field of it
// nullable; the tables sds creates declare ON DELETE SET NULL; a runtime DELETE of the parent row sets
// both fields of its children to null (and only theirs); introspection maps the foreign key back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { validateConfig } from '../../../src/generation/validate-config.ts';
import { introspectDatabase } from '../../../src/introspection/introspect.ts';
import { dialectTargets, generateSource, type GeneratedSource } from '../../helpers/runtime-source.ts';
import { openInspector, type Inspector } from '../../helpers/dialect-targets.ts';

const DIALECTS = await dialectTargets();
const SLOW = 120_000;

function config(nullable = true): SchemaConfig {
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
        references: [{ fields: ['site_region', 'site_code'], entity: 'sites', targetFields: ['region', 'code'], onDelete: 'set-null' }],
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
