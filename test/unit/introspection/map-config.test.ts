// mapCatalog as tables of examples: catalog models written by hand (as the dialects read them) and
// the fields, keys, references and warnings they become. Every result must validate.
import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogColumn, CatalogTable, CatalogType } from '../../../src/dialects/catalog.ts';
import type { Entity, Field } from '../../../src/model/config-types.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { mapCatalog } from '../../../src/introspection/map-config.ts';

function column(name: string, type: CatalogType, extra: Partial<CatalogColumn> = {}): CatalogColumn {
  return { name, declared: type.kind, type, nullable: false, autoIncrement: false, ...extra };
}

function table(name: string, columns: CatalogColumn[], extra: Partial<CatalogTable> = {}): CatalogTable {
  return { name, columns, indexes: [], foreignKeys: [], checks: [], unsupported: [], ...extra };
}

function catalog(tables: CatalogTable[], extra: Partial<Catalog> = {}): Catalog {
  return { engine: 'postgres', namespace: 'public', exists: true, tables, views: [], namespaces: ['public'], ...extra };
}

const int: CatalogType = { kind: 'integer', bits: 32 };
const id = (name = 'id') => column(name, int, { autoIncrement: true });
const keyed = (name: string, columns: CatalogColumn[], extra: Partial<CatalogTable> = {}) => table(name, columns, { primaryKey: { name: `${name}_pkey`, columns: [columns[0]!.name] }, ...extra });

function mapped(tables: CatalogTable[], options: Parameters<typeof mapCatalog>[1] = {}, extra: Partial<Catalog> = {}) {
  const result = mapCatalog(catalog(tables, extra), options);
  expect(validateConfig(result.config).errors).toEqual([]);
  const entity = (name: string) => result.config.entities.find((candidate) => candidate.id === name)!;
  const field = (entityId: string, fieldId: string) => entity(entityId).fields.find((candidate) => candidate.id === fieldId)!;
  return { ...result, entity, field, messages: result.warnings.map((warning) => warning.message) };
}

describe('mapCatalog: column types', () => {
  type Case = [string, { given: CatalogType; want: Partial<Field> | undefined; warning?: RegExp }];
  const cases: Case[] = [
    ['smallint', { given: { kind: 'integer', bits: 16 }, want: { type: 'integer' } }],
    ['bigint unsigned', { given: { kind: 'integer', bits: 64, unsigned: true }, want: { type: 'integer' } }],
    ['numeric(10, 2)', { given: { kind: 'decimal', precision: 10, scale: 2 }, want: { type: 'number', precision: 2, digits: 10 } }],
    ['numeric(9, 0) holds whole numbers', { given: { kind: 'decimal', precision: 9, scale: 0 }, want: { type: 'integer', digits: 9 } }],
    ['numeric(30, 0) is too wide to count in', { given: { kind: 'decimal', precision: 30, scale: 0 }, want: { type: 'number', digits: 30 }, warning: /more digits than sds generates exactly/ }],
    ['numeric without precision', { given: { kind: 'decimal' }, want: { type: 'number' } }],
    ['double precision', { given: { kind: 'float' }, want: { type: 'number' } }],
    ['boolean', { given: { kind: 'boolean' }, want: { type: 'boolean' } }],
    ['varchar(40)', { given: { kind: 'string', length: 40 }, want: { type: 'string', maxLength: 40 } }],
    ['char(2)', { given: { kind: 'string', length: 2, fixed: true }, want: { type: 'string', maxLength: 2 } }],
    ['varchar without length', { given: { kind: 'string' }, want: { type: 'string' } }],
    ['text', { given: { kind: 'text' }, want: { type: 'text' } }],
    ['date', { given: { kind: 'date' }, want: { type: 'date' } }],
    ['timestamp', { given: { kind: 'datetime', timeZone: false }, want: { type: 'datetime' } }],
    ['timestamptz', { given: { kind: 'datetime', timeZone: true }, want: { type: 'datetime' } }],
    ['time', { given: { kind: 'time' }, want: { type: 'time' } }],
    ['timetz loses its zone', { given: { kind: 'time', timeZone: true }, want: { type: 'time' }, warning: /generated as time, without the zone/ }],
    ['uuid', { given: { kind: 'uuid' }, want: { type: 'uuid' } }],
    ['jsonb', { given: { kind: 'json' }, want: { type: 'json' } }],
    ['enum', { given: { kind: 'enum', values: ['a', 'b'] }, want: { type: 'enum', values: ['a', 'b'] } }],
    ['enum without values', { given: { kind: 'enum', values: [] }, want: undefined, warning: /enum type without values; left out/ }],
    ['an array becomes json', { given: { kind: 'unsupported', what: 'array (text[])', nearest: { kind: 'json' } }, want: { type: 'json' }, warning: /^t\.c: array \(text\[\]\) has no schema-config type; generated as json, the nearest$/ }],
    ['bytea is left out', { given: { kind: 'unsupported', what: 'binary data (bytea)' }, want: undefined, warning: /^t\.c: binary data \(bytea\) has no schema-config type; left out$/ }],
  ];
  for (const [name, { given, want, warning }] of cases) {
    it(name, () => {
      const result = mapped([keyed('t', [id(), column('c', given, { declared: name })])]);
      if (want) expect(result.field('t', 'c')).toEqual({ id: 'c', ...want });
      else expect(result.entity('t').fields.map((field) => field.id)).toEqual(['id']);
      if (warning) expect(result.messages).toContainEqual(expect.stringMatching(warning));
      else expect(result.messages).toEqual([]);
    });
  }
});

describe('mapCatalog: columns', () => {
  it('keeps names, order, nullability and comments; renames what is not an identifier', () => {
    const result = mapped([
      keyed('Order Items', [id('ID'), column('Unit Price', { kind: 'float' }, { nullable: true, comment: 'Per unit' }), column('id', int)]),
    ]);
    expect(result.entity('Order_Items').fields).toEqual([
      { id: 'ID', type: 'integer' },
      { id: 'Unit_Price', type: 'number', nullable: true, description: 'Per unit' },
      { id: 'id_2', type: 'integer' },
    ]);
    expect(result.messages).toEqual([
      'Order Items: the name is not an sds identifier (letters, digits, _); the entity is "Order_Items"',
      'Order Items.Unit Price: the name is not an sds identifier (letters, digits, _); the field is "Unit_Price"',
      'Order Items.id: the name is not an sds identifier (letters, digits, _); the field is "id_2"',
    ]);
  });

  it('names that are not identifiers: the nearest identifier, unique ignoring case', () => {
    const result = mapped([keyed('2fa-codes', [id(), column('Größe', int), column('größe', int), column('_hidden', int), column('%', int)])]);
    expect(result.entity('t_2fa_codes').fields.map((field) => field.id)).toEqual(['id', 'Grosse', 'grosse_2', 'hidden', 'c']);
  });

  it('passes on what validation warns about, on the table and column', () => {
    const result = mapped([table('log', [column('line', { kind: 'text' })]), keyed('flags', [id(), column('on', { kind: 'boolean' })], { indexes: [{ name: 'u', columns: ['on'], unique: true }] })]);
    expect(result.warnings).toEqual([
      { table: 'log', message: expect.stringMatching(/^log: entity "log" has no primaryKey/) },
      { table: 'flags', column: 'on', message: expect.stringMatching(/^flags\.on: flags\.on must be unique but has only 2 distinct values/) },
    ]);
  });

  it('counts up an auto-increment column outside the primary key; carries literal and function defaults over, warns about other defaults and generated columns', () => {
    const result = mapped([
      keyed('t', [
        id(),
        column('seq', int, { autoIncrement: true }),
        column('status', { kind: 'text' }, { default: "'new'::text", defaultValue: { literal: 'new' } }),
        column('level', int, { default: '(-1)', defaultValue: { literal: '-1' } }),
        column('flag', { kind: 'boolean' }, { default: '1', defaultValue: { literal: '1' } }),
        column('prefs', { kind: 'json' }, { default: "'{\"a\": 1}'::jsonb", defaultValue: { literal: '{"a": 1}' } }),
        column('day', { kind: 'date' }, { default: 'now()', defaultValue: { function: 'now' } }),
        column('code', { kind: 'text' }, { default: "upper('x'::text)" }),
        column('count', int, { default: "'many'", defaultValue: { literal: 'many' } }),
        column('stamp', { kind: 'datetime', timeZone: false }, { default: 'current_timestamp() ON UPDATE current_timestamp()', defaultValue: { function: 'now' } }),
        column('total', { kind: 'float' }, { generated: 'price * 2' }),
      ]),
    ]);
    expect(result.field('t', 'seq').generation).toEqual({ strategy: { kind: 'sequence', start: 1, step: 1 } });
    expect(result.field('t', 'id').generation).toBeUndefined();
    expect(['status', 'level', 'flag', 'prefs', 'day', 'code', 'count', 'stamp'].map((name) => result.field('t', name).default)).toEqual([
      { value: 'new' },
      { value: -1 },
      { value: true },
      { value: { a: 1 } },
      { function: 'current_date' },
      undefined,
      undefined,
      { function: 'now' },
    ]);
    expect(result.messages).toEqual([
      "t.code: default upper('x'::text) is not carried over: sds declares literals and the functions now, current_date and uuid; runtime inserts must give a value",
      "t.count: default 'many' is not carried over: sds declares literals and the functions now, current_date and uuid; runtime inserts must give a value",
      't.stamp: ON UPDATE current_timestamp() is not carried over: runtime updates change only the fields they name',
      't.total: generated column (price * 2): its values are generated like any number, not computed',
    ]);
  });

  it('leaves out a default that the CHECKs make out of bounds, with a warning', () => {
    const result = mapped([
      keyed('t', [id(), column('level', int, { default: '11', defaultValue: { literal: '11' } })], {
        checks: [{ expression: 'CHECK (level <= 10)', rules: [{ column: 'level', op: '<=', value: 10 }] }],
      }),
    ]);
    expect(result.field('t', 'level')).toMatchObject({ max: 10 });
    expect(result.field('t', 'level').default).toBeUndefined();
    expect(result.messages).toEqual(['t.level: default 11 of level must be at most 10: the default is not carried over']);
  });

  it('leaves out a table none of whose columns has a type, and names views', () => {
    const result = mapped([keyed('t', [id()]), table('blobs', [column('data', { kind: 'unsupported', what: 'binary data (blob)' })])], {}, { views: ['t_view'] });
    expect(result.config.entities.map((entity) => entity.id)).toEqual(['t']);
    expect(result.messages).toEqual([
      't_view: a view, not a table; left out',
      'blobs.data: binary data (blob) has no schema-config type; left out',
      'blobs: no column has a schema-config type; the table is left out',
    ]);
  });
});

describe('mapCatalog: CHECK constraints', () => {
  const withCheck = (columns: CatalogColumn[], rules: NonNullable<CatalogTable['checks'][number]['rules']> | undefined, expression = 'CHECK (…)') =>
    mapped([keyed('t', [id(), ...columns], { checks: [{ name: 'c', expression, ...(rules ? { rules } : {}) }] })]);

  it('IN on text makes an enum', () => {
    const result = withCheck([column('carrier', { kind: 'string', length: 40 })], [{ column: 'carrier', op: 'in', values: ['ups', 'dhl'] }]);
    expect(result.field('t', 'carrier')).toEqual({ id: 'carrier', type: 'enum', values: ['ups', 'dhl'] });
  });
  it('IN on an enum keeps the values it allows', () => {
    const result = withCheck([column('s', { kind: 'enum', values: ['a', 'b', 'c'] })], [{ column: 's', op: 'in', values: ['c', 'a'] }]);
    expect(result.field('t', 's').values).toEqual(['a', 'c']);
  });
  it('IN on an integer becomes its choices', () => {
    const result = withCheck([column('level', int)], [{ column: 'level', op: 'in', values: [1, 2, 3] }]);
    expect(result.field('t', 'level').generation?.strategy).toEqual({ kind: 'weightedChoice', choices: [1, 2, 3].map((value) => ({ value, weight: 1 })) });
  });
  it('bounds: inclusive, strict on integers, strict on numbers by their precision', () => {
    const result = withCheck(
      [column('qty', int), column('price', { kind: 'decimal', precision: 10, scale: 2 }), column('ratio', { kind: 'float' })],
      [
        { column: 'qty', op: '>', value: 0 },
        { column: 'qty', op: '<=', value: 100 },
        { column: 'price', op: '>', value: 0 },
        { column: 'price', op: '<', value: 1000 },
        { column: 'ratio', op: '>=', value: 0 },
        { column: 'ratio', op: '<=', value: 1 },
      ],
    );
    expect(result.field('t', 'qty')).toMatchObject({ min: 1, max: 100 });
    expect(result.field('t', 'price')).toMatchObject({ min: 0.01, max: 999.99 });
    expect(result.field('t', 'ratio')).toMatchObject({ min: 0, max: 1 });
  });
  it('IS NOT NULL makes the field required', () => {
    const result = withCheck([column('email', { kind: 'text' }, { nullable: true })], [{ column: 'email', op: 'not-null' }]);
    expect(result.field('t', 'email').nullable).toBeUndefined();
  });
  it('anything else is a warning naming the clause', () => {
    const result = withCheck([column('a', int), column('b', int)], undefined, 'CHECK ((b > a))');
    expect(result.messages).toEqual(['t: CHECK ((b > a)): this CHECK cannot be expressed in the config; generated rows are not checked against it']);
  });
  it('bounds on a date are a warning on the column', () => {
    const result = withCheck([column('born', { kind: 'date' })], [{ column: 'born', op: '>=', value: 1900 }], 'CHECK ((born >= 1900))');
    expect(result.messages).toEqual(['t.born: CHECK ((born >= 1900)): bounds on a date field cannot be expressed; generated rows are not checked against it']);
  });
});

describe('mapCatalog: keys and indexes', () => {
  it('primary key, unique keys (not twice, not the primary key again), indexes with their names where they can keep them', () => {
    const columns = [id(), column('email', { kind: 'string', length: 100 }), column('org', int), column('code', { kind: 'string', length: 10 })];
    const result = mapped([
      keyed('a', columns, {
        indexes: [
          { name: 'a_email_key', columns: ['email'], unique: true },
          { name: 'a_email_idx', columns: ['email'], unique: true },
          { name: 'a_id_key', columns: ['id'], unique: true },
          { name: 'a_org_code_key', columns: ['org', 'code'], unique: true },
          { name: 'by_org', columns: ['org'], unique: false },
          { name: 'by_code', columns: ['code'], unique: false, unsupported: 'partial' },
          { name: 'lower_email', columns: [], unique: true, unsupported: 'expression' },
        ],
      }),
      keyed('b', [id(), column('org', int)], { indexes: [{ name: 'by_org', columns: ['org'], unique: false }] }),
    ]);
    expect(result.entity('a')).toMatchObject({ primaryKey: ['id'], uniqueKeys: [['email'], ['org', 'code']], indexes: [{ id: 'by_org', fields: ['org'] }] });
    expect(result.entity('b').indexes).toEqual([{ fields: ['org'] }]);
    expect(result.messages).toEqual([
      'a: index by_code (code) is partial (WHERE …), which the config cannot express; left out',
      'a: unique index lower_email (…) is on an expression, which the config cannot express; left out',
    ]);
  });
  it('a key over a column that is left out goes too', () => {
    const blob: CatalogType = { kind: 'unsupported', what: 'binary data (bytea)' };
    const result = mapped([table('t', [column('hash', blob), column('n', int)], { primaryKey: { name: 'p', columns: ['hash'] }, indexes: [{ name: 'u', columns: ['hash', 'n'], unique: true }] })]);
    expect(result.entity('t').primaryKey).toBeUndefined();
    expect(result.messages).toContain('t: primary key (hash) has a column that is left out; the entity has no primary key');
    expect(result.messages).toContain('t: unique index u (hash, n) has a column that is left out; the index is left out too');
  });
});

describe('mapCatalog: foreign keys', () => {
  const fk = (name: string, columns: string[], target: string, targetColumns: string[], extra: Partial<CatalogTable['foreignKeys'][number]> = {}) => ({
    name,
    columns,
    references: { table: target, columns: targetColumns, namespace: 'public' },
    onDelete: 'no-action' as const,
    onUpdate: 'no-action' as const,
    deferrable: false,
    ...extra,
  });

  it('references with actions; one-to-one when the column is unique on its own', () => {
    const result = mapped([
      keyed('users', [id()]),
      keyed('profiles', [column('user_id', int)], { foreignKeys: [fk('p_user', ['user_id'], 'users', ['id'], { onDelete: 'cascade', onUpdate: 'cascade' })] }),
      keyed('posts', [id(), column('author_id', int, { nullable: true })], { foreignKeys: [fk('p_author', ['author_id'], 'users', ['id'], { onDelete: 'set-null', onUpdate: 'restrict' })] }),
    ]);
    expect(result.field('profiles', 'user_id').references).toEqual({ entity: 'users', field: 'id', relation: 'one-to-one', onDelete: 'cascade', onUpdate: 'cascade' });
    expect(result.field('posts', 'author_id').references).toEqual({ entity: 'users', field: 'id', onDelete: 'set-null' });
    expect(result.messages).toEqual([]);
  });

  type Case = [string, { tables: CatalogTable[]; field: [string, string]; reference: boolean; warning: string }];
  const cases: Case[] = [
    [
      'another schema',
      {
        tables: [keyed('t', [id(), column('u', int)], { foreignKeys: [fk('t_u', ['u'], 'users', ['id'], { references: { table: 'users', columns: ['id'], namespace: 'auth' } })] })],
        field: ['t', 'u'],
        reference: false,
        warning: 't.u: foreign key t_u (u) → users(id) points into auth, outside the introspected namespace; its columns stay plain fields, not references',
      },
    ],
    [
      'a table that is not introspected',
      {
        tables: [keyed('t', [id(), column('u', int)], { foreignKeys: [fk('t_u', ['u'], 'users', ['id'])] })],
        field: ['t', 'u'],
        reference: false,
        warning: 't.u: foreign key t_u (u) → users(id): the referenced table is not introspected; the field stays a plain integer',
      },
    ],
    [
      'SET DEFAULT becomes restrict',
      {
        tables: [keyed('users', [id()]), keyed('t', [id(), column('u', int)], { foreignKeys: [fk('t_u', ['u'], 'users', ['id'], { onDelete: 'set-default' })] })],
        field: ['t', 'u'],
        reference: true,
        warning: 't.u: onDelete SET DEFAULT cannot be expressed; restrict instead',
      },
    ],
    [
      'SET NULL on a NOT NULL column becomes restrict',
      {
        tables: [keyed('users', [id()]), keyed('t', [id(), column('u', int)], { foreignKeys: [fk('t_u', ['u'], 'users', ['id'], { onUpdate: 'set-null' })] })],
        field: ['t', 'u'],
        reference: true,
        warning: 't.u: onUpdate SET NULL on a NOT NULL column cannot be expressed; restrict instead',
      },
    ],
  ];
  for (const [name, { tables, field, reference, warning }] of cases) {
    it(name, () => {
      const result = mapped(tables);
      expect(result.field(...field).references !== undefined).toBe(reference);
      expect(result.messages).toEqual([warning]);
    });
  }

  it('a NOT NULL self reference stays NOT NULL, filled after insert', () => {
    const result = mapped([keyed('staff', [id(), column('boss', int)], { foreignKeys: [fk('s_boss', ['boss'], 'staff', ['id'])] })]);
    const boss = result.field('staff', 'boss');
    expect(boss.nullable ?? false).toBe(false);
    expect(boss.references).toEqual({ entity: 'staff', field: 'id', fillAfterInsert: true });
    expect(result.messages).toEqual([]);
  });

  it('a NOT NULL cycle stays NOT NULL: the DEFERRABLE side is filled after insert', () => {
    const cycle = (deferrable: 'store' | 'staff') => [
      keyed('staff', [id('staff_id'), column('store_id', int)], { foreignKeys: [fk('f1', ['store_id'], 'store', ['store_id'], { deferrable: deferrable === 'staff' })] }),
      keyed('store', [id('store_id'), column('manager_id', int)], { foreignKeys: [fk('f2', ['manager_id'], 'staff', ['staff_id'], { deferrable: deferrable === 'store' })] }),
    ];
    for (const side of ['staff', 'store'] as const) {
      const result = mapped(cycle(side));
      expect(result.config.entities.flatMap((entity: Entity) => entity.fields.filter((field) => field.nullable))).toEqual([]);
      const filled = result.config.entities.flatMap((entity: Entity) => entity.fields.filter((field) => field.references?.fillAfterInsert).map((field) => `${entity.id}.${field.id}`));
      expect(filled).toEqual([side === 'staff' ? 'staff.store_id' : 'store.manager_id']);
      expect(validateConfig(result.config).errors).toEqual([]);
      expect(result.messages).toEqual([]);
    }
  });

  it('a foreign key of several columns becomes a composite reference, in the order of the referenced key', () => {
    const result = mapped([
      keyed('orders', [id()]),
      table('lines', [column('o', int), column('n', int), column('qty', int)], {
        primaryKey: { name: 'p', columns: ['o', 'n'] },
        foreignKeys: [fk('l_o', ['o'], 'orders', ['id'], { onDelete: 'cascade' })],
        checks: [{ expression: 'n BETWEEN 1 AND 20', rules: [{ column: 'n', op: '>=', value: 1 }, { column: 'n', op: '<=', value: 20 }] }],
      }),
      keyed('ships', [id(), column('o', int), column('n', int)], { foreignKeys: [fk('s_line', ['n', 'o'], 'lines', ['n', 'o'], { onDelete: 'cascade' })] }),
    ]);
    expect(result.entity('ships').references).toEqual([{ fields: ['o', 'n'], entity: 'lines', targetFields: ['o', 'n'], onDelete: 'cascade' }]);
    // The position within its order: (o, n) with n in 1..20 numbers each order's lines 1…n.
    expect(result.field('lines', 'n')).toEqual({ id: 'n', type: 'integer', min: 1, max: 20, generation: { strategy: { kind: 'sequence', start: 1, within: ['o'] } } });
    expect(result.messages).toEqual([]);
  });

  it('a foreign key of several columns to columns that are no key stays plain fields, with a warning', () => {
    const result = mapped([
      keyed('lines', [id(), column('o', int), column('n', int)]),
      keyed('ships', [id(), column('o', int), column('n', int)], { foreignKeys: [fk('s_line', ['o', 'n'], 'lines', ['o', 'n'])] }),
    ]);
    expect(result.entity('ships').references).toBeUndefined();
    expect(result.messages).toEqual(['ships: foreign key s_line (o, n) → lines(o, n): the referenced columns are not a primary or unique key in the config; its columns stay plain fields']);
  });

  it('a cycle through primary-key columns only loses a reference', () => {
    const result = mapped([
      keyed('a', [column('id', int)], { foreignKeys: [fk('a_b', ['id'], 'b', ['id'])] }),
      keyed('b', [column('id', int)], { foreignKeys: [fk('b_a', ['id'], 'a', ['id'])] }),
    ]);
    const references = result.config.entities.map((entity) => entity.fields[0]!.references?.entity);
    expect(references.filter(Boolean)).toHaveLength(1);
    expect(result.messages).toEqual([expect.stringMatching(/closes the reference cycle (a → b → a|b → a → b) through primary-key columns only; the reference is left out$/)]);
  });
});

describe('mapCatalog: row counts', () => {
  const tables = () => [keyed('big', [id()], { estimatedRows: 9000 }), keyed('small', [id()], { estimatedRows: 1000 }), keyed('empty', [id()], { estimatedRows: 0 })];
  it('one count for every entity', () => {
    const result = mapped(tables(), { rows: 25 });
    expect(result.config.generationDefaults).toEqual({ rowCount: 25 });
    expect(result.config.entities.every((entity) => entity.generation === undefined)).toBe(true);
  });
  it('a total shared out by the statistics, at least one row each', () => {
    const result = mapped(tables(), { rowsFromStatistics: 500 });
    expect(result.config.entities.map((entity) => [entity.id, entity.generation?.rowCount])).toEqual([
      ['big', 450],
      ['small', 50],
      ['empty', 1],
    ]);
  });
  it('without statistics, the default count and a warning', () => {
    const result = mapped([keyed('t', [id()])], { rowsFromStatistics: 500 });
    expect(result.config.entities[0]!.generation).toBeUndefined();
    expect(result.messages).toEqual(['t: the database has no row statistics for these tables (run ANALYZE first); every entity gets 100 rows']);
  });
});

describe('mapCatalog: work limits', () => {
  it('refuses a namespace of more tables than a config may have entities with a 4xx kind, not as a bug in sds', () => {
    const tables = Array.from({ length: 1_001 }, (_, i) => keyed(`t${i}`, [id()]));
    expect(() => mapCatalog(catalog(tables))).toThrow(expect.objectContaining({ kind: 'invalid', message: expect.stringMatching(/1001 entities, over the limit of 1000.*introspect fewer tables$/) }));
  });
});
