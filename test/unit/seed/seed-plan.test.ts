// The seed's plan from a catalog, no database: which differences refuse a seed (and which do not),
// which columns are loaded and which left to the database, counters, deferred references, and
// tables outside the config that reference it.
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import type { Catalog, CatalogColumn, CatalogTable } from '../../../src/dialects/catalog.ts';
import { planGeneration } from '../../../src/generation/plan.ts';
import { mapCatalog } from '../../../src/introspection/map-config.ts';
import { planSeed, seedDrift } from '../../../src/seed/seed-plan.ts';

const column = (name: string, extra: Partial<CatalogColumn> = {}): CatalogColumn => ({
  name,
  declared: 'integer',
  type: { kind: 'integer', bits: 32 },
  nullable: false,
  autoIncrement: false,
  ...extra,
});
const text = (name: string, extra: Partial<CatalogColumn> = {}) => column(name, { declared: 'text', type: { kind: 'text' }, ...extra });
const table = (name: string, columns: CatalogColumn[], extra: Partial<CatalogTable> = {}): CatalogTable => ({
  name,
  columns,
  primaryKey: { name: `${name}_pkey`, columns: ['id'] },
  indexes: [],
  foreignKeys: [],
  checks: [],
  unsupported: [],
  ...extra,
});
const fk = (name: string, columns: string[], references: string) => ({
  name,
  columns,
  references: { table: references, columns: ['id'] },
  onDelete: 'no-action' as const,
  onUpdate: 'no-action' as const,
  deferrable: false,
});

const catalog: Catalog = {
  engine: 'postgres',
  namespace: 'app',
  exists: true,
  views: [],
  namespaces: ['app'],
  tables: [
    table('owners', [column('id', { autoIncrement: true }), text('name'), column('created_at', { declared: 'timestamptz', type: { kind: 'datetime', timeZone: true }, default: 'now()' })]),
    table('pets', [column('id', { autoIncrement: true }), column('owner_id'), text('name'), text('label', { nullable: true, generated: 'upper(name)' }), text('note', { nullable: true })], {
      foreignKeys: [fk('pets_owner_fkey', ['owner_id'], 'owners')],
    }),
    table('visits', [column('id'), column('pet_id')], { foreignKeys: [fk('visits_pet_fkey', ['pet_id'], 'pets')] }),
  ],
};

/** The config `sds init` writes for the catalog, with some tables and fields left out. */
function config(leaveOut: { tables?: string[]; fields?: string[] } = {}): SchemaConfig {
  const written = structuredClone(mapCatalog(catalog, { rows: 5 }).config);
  written.entities = written.entities.filter((entity) => !leaveOut.tables?.includes(entity.id));
  for (const entity of written.entities) entity.fields = entity.fields.filter((field) => !leaveOut.fields?.includes(`${entity.id}.${field.id}`));
  return written;
}

describe('seedDrift', () => {
  it.each([
    ['the config as init writes it', {}, []],
    ['a table the config leaves out', { tables: ['visits'] }, []],
    ['a column with a default', { fields: ['owners.created_at'] }, []],
    ['a generated column', { fields: ['pets.label'] }, []],
    ['a nullable column', { fields: ['pets.note'] }, []],
    ['a NOT NULL column without a default', { fields: ['pets.name'] }, ['column pets.name is in the database but not in the config']],
  ])('%s', (_name, leaveOut, expected) => {
    expect(seedDrift(config(leaveOut), catalog).map((difference) => difference.message)).toEqual(expected);
  });

  it('takes a config written before defaults were carried over: the database\'s defaults are not drift for the seed', () => {
    const older = config();
    delete older.entities[0]!.fields.find((field) => field.id === 'created_at')!.default;
    expect(seedDrift(older, { ...catalog, tables: catalog.tables.map((each) => (each.name === 'owners' ? { ...each, columns: each.columns.map((c) => (c.name === 'created_at' ? { ...c, defaultValue: { function: 'now' as const } } : c)) } : each)) })).toEqual([]);
  });

  it('refuses a column the database lacks', () => {
    const drifted = config();
    drifted.entities[0]!.fields.push({ id: 'nickname', type: 'string' } as never);
    expect(seedDrift(drifted, catalog).map((difference) => difference.message)).toEqual(['column owners.nickname is in the config but not in the database']);
  });
});

describe('planSeed', () => {
  it('loads the config\'s columns less generated ones, parents first, and names what the database fills', () => {
    const seedConfig = config({ tables: ['visits'], fields: ['owners.created_at', 'pets.note'] });
    const plan = planSeed(catalog, planGeneration(seedConfig, { generatorVersion: 3 }));
    expect(plan.tables.map((entry) => entry.table)).toEqual(['owners', 'pets']);
    const [owners, pets] = plan.tables;
    expect(owners!.load.columns.map((spec) => spec.name)).toEqual(['id', 'name']);
    expect(owners!.leftToDatabase).toEqual([{ column: 'created_at', because: 'default now()' }]);
    expect(owners!.counters).toEqual(['id']);
    expect(pets!.load.columns.map((spec) => spec.name)).toEqual(['id', 'owner_id', 'name']);
    expect(pets!.positions).toEqual([0, 1, 2]);
    expect(pets!.width).toBe(4);
    expect(pets!.leftToDatabase).toEqual([
      { column: 'label', because: 'generated (upper(name))' },
      { column: 'note', because: 'nullable, left null' },
    ]);
    // visits, outside the config, references pets: --truncate must look at its rows.
    expect(plan.referencedFrom).toEqual([{ table: 'visits', references: 'pets' }]);
  });
});
