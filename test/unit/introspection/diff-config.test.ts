// diffConfigs as a table of examples: one change to a small config at a time, and the difference it
// makes (kind and sentence); type classes, not exact types, and unique keys as sets of columns.
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { diffConfigs, type Difference } from '../../../src/introspection/diff-config.ts';
import { mergeConfigs } from '../../../src/introspection/merge-config.ts';

function base(): SchemaConfig {
  return {
    formatVersion: 1,
    entities: [
      {
        id: 'users',
        primaryKey: ['id'],
        uniqueKeys: [['email'], ['org', 'handle']],
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'email', type: 'string', maxLength: 100 },
          { id: 'org', type: 'integer' },
          { id: 'handle', type: 'text' },
          { id: 'role', type: 'enum', values: ['a', 'b'] },
        ],
      },
      {
        id: 'posts',
        primaryKey: ['id'],
        fields: [
          { id: 'id', type: 'uuid' },
          { id: 'author_id', type: 'integer', references: { entity: 'users', field: 'id', onDelete: 'cascade' } },
          { id: 'body', type: 'text', nullable: true },
        ],
      },
    ],
  };
}

type Case = [string, { change: (config: SchemaConfig) => void; want: Array<Pick<Difference, 'kind' | 'message'>> }];

const cases: Case[] = [
  ['nothing changed', { change: () => {}, want: [] }],
  ['another length (varchar(100) → varchar(200))', { change: (c) => void (c.entities[0]!.fields[1]!.maxLength = 200), want: [{ kind: 'length', message: 'users.email: maxLength 100 in the config, maxLength 200 in the database' }] }],
  ['a length gone (varchar → text)', { change: (c) => void (delete c.entities[0]!.fields[1]!.maxLength, (c.entities[0]!.fields[1]!.type = 'text')), want: [{ kind: 'length', message: 'users.email: maxLength 100 in the config, no maxLength in the database' }] }],
  ['a default added', { change: (c) => void (c.entities[0]!.fields[4]!.default = { value: 'a' }), want: [{ kind: 'default', message: 'users.role: default none in the config, "a" in the database' }] }],
  ['a default function', { change: (c) => void (c.entities[1]!.fields[0]!.default = { function: 'uuid' }), want: [{ kind: 'default', message: 'posts.id: default none in the config, uuid() in the database' }] }],
  ['string and text are one class', { change: (c) => void (c.entities[0]!.fields[1]!.type = 'text'), want: [] }],
  ['unique key columns in another order', { change: (c) => void (c.entities[0]!.uniqueKeys = [['email'], ['handle', 'org']]), want: [] }],
  ['a unique index counts as a unique key', { change: (c) => void (c.entities[0]!.uniqueKeys = [['email']], (c.entities[0]!.indexes = [{ fields: ['org', 'handle'], unique: true }])), want: [] }],
  ['restrict is the default action', { change: (c) => void (c.entities[1]!.fields[1]!.references!.onUpdate = 'restrict'), want: [] }],
  ['a table only in the database', { change: (c) => void c.entities.push({ id: 'tags', fields: [{ id: 'id', type: 'integer' }] }), want: [{ kind: 'table-only-in-database', message: 'table tags is in the database but not in the config' }] }],
  ['a table only in the config', { change: (c) => void c.entities.pop(), want: [{ kind: 'table-only-in-config', message: 'table posts is in the config but not in the database' }] }],
  ['a column only in the database', { change: (c) => void c.entities[1]!.fields.push({ id: 'title', type: 'string' }), want: [{ kind: 'column-only-in-database', message: 'column posts.title is in the database but not in the config' }] }],
  ['a column only in the config', { change: (c) => void c.entities[1]!.fields.pop(), want: [{ kind: 'column-only-in-config', message: 'column posts.body is in the config but not in the database' }] }],
  ['a type class', { change: (c) => void (c.entities[1]!.fields[0]!.type = 'integer'), want: [{ kind: 'type', message: 'posts.id: type uuid in the config, integer in the database' }] }],
  ['enum values', { change: (c) => void (c.entities[0]!.fields[4]!.values = ['a', 'b', 'c']), want: [{ kind: 'type', message: 'users.role: enum values (a, b) in the config, (a, b, c) in the database' }] }],
  ['nullability', { change: (c) => void delete c.entities[1]!.fields[2]!.nullable, want: [{ kind: 'nullable', message: 'posts.body: nullable in the config, NOT NULL in the database' }] }],
  ['the primary key', { change: (c) => void (c.entities[0]!.primaryKey = ['id', 'org']), want: [{ kind: 'primary-key', message: 'users: primary key (id) in the config, (id, org) in the database' }] }],
  [
    'a unique key',
    {
      change: (c) => void (c.entities[0]!.uniqueKeys = [['org', 'handle'], ['handle']]),
      want: [
        { kind: 'unique-key-only-in-database', message: 'users: unique key (handle) is in the database but not in the config' },
        { kind: 'unique-key-only-in-config', message: 'users: unique key (email) is in the config but not in the database' },
      ],
    },
  ],
  [
    'a reference action',
    {
      change: (c) => void (c.entities[1]!.fields[1]!.references!.onDelete = 'restrict'),
      want: [
        {
          kind: 'reference',
          message: 'posts.author_id: references users.id (on delete cascade, on update restrict) in the config, references users.id (on delete restrict, on update restrict) in the database',
        },
      ],
    },
  ],
  [
    'a reference gone',
    {
      change: (c) => void delete c.entities[1]!.fields[1]!.references,
      want: [{ kind: 'reference', message: 'posts.author_id: references users.id (on delete cascade, on update restrict) in the config, no reference in the database' }],
    },
  ],
];

describe('diffConfigs', () => {
  for (const [name, { change, want }] of cases) {
    it(name, () => {
      const database = base();
      change(database);
      expect(diffConfigs(base(), database).map(({ kind, message }) => ({ kind, message }))).toEqual(want);
    });
  }
});

describe('diffConfigs and mergeConfigs agree', () => {
  const withPrice = (precision: number | undefined, defaultValue?: number): SchemaConfig => {
    const config = base();
    config.entities[1]!.fields.push({ id: 'price', type: 'number', ...(precision === undefined ? {} : { precision }), ...(defaultValue === undefined ? {} : { default: { value: defaultValue } }) });
    return config;
  };
  const withDigits = (digits: number): SchemaConfig => {
    const config = withPrice(2);
    config.entities[1]!.fields[3]!.digits = digits;
    return config;
  };
  const altered: Array<[string, SchemaConfig, (c: SchemaConfig) => void]> = [
    ['a length', base(), (c) => void (c.entities[0]!.fields[1]!.maxLength = 200)],
    ['a precision', withPrice(2), (c) => void (c.entities[1]!.fields[3]!.precision = 4)],
    ['a precision gone', withPrice(2), (c) => void delete c.entities[1]!.fields[3]!.precision],
    ['total digits, decimal(5,2) → decimal(7,2)', withDigits(5), (c) => void (c.entities[1]!.fields[3]!.digits = 7)],
    ['a default', withPrice(2, 1), (c) => void (c.entities[1]!.fields[3]!.default = { value: 2.5 })],
    ['nullability', base(), (c) => void (c.entities[0]!.fields[1]!.nullable = true)],
    ['enum values', base(), (c) => void (c.entities[0]!.fields[4]!.values = ['a', 'b', 'c'])],
    ['an action', base(), (c) => void (c.entities[1]!.fields[1]!.references!.onDelete = 'set-null', (c.entities[1]!.fields[1]!.nullable = true))],
    ['everything at once', withPrice(2, 1), (c) => {
      c.entities[0]!.fields[1]!.maxLength = 60;
      c.entities[1]!.fields[3]!.precision = 3;
      c.entities[1]!.fields[3]!.default = { value: 0 };
      c.entities[1]!.fields[2]!.nullable = false;
    }],
  ];
  it('words precision and default differences', () => {
    const database = withPrice(undefined, 3);
    expect(diffConfigs(withPrice(2), database).map((difference) => [difference.kind, difference.message])).toEqual([
      ['precision', 'posts.price: precision 2 in the config, no precision (double) in the database'],
      ['default', 'posts.price: default none in the config, 3 in the database'],
    ]);
  });

  it('words a change of total digits as the column types, and leaves configs without digits alone', () => {
    expect(diffConfigs(withDigits(5), withDigits(7)).map((difference) => [difference.kind, difference.message])).toEqual([
      ['precision', 'posts.price: decimal(5,2) in the config, decimal(7,2) in the database'],
    ]);
    // A config written before digits existed does not drift from a database that reports them.
    expect(diffConfigs(withPrice(2), withDigits(7))).toEqual([]);
    const merged = mergeConfigs(withPrice(2), withDigits(7));
    expect(merged.config.entities[1]!.fields[3]).toMatchObject({ precision: 2, digits: 7 });
  });

  for (const [name, config, alter] of altered) {
    it(`${name}: merge changes exactly the columns diff names, and nothing differs afterwards`, () => {
      const database = structuredClone(config);
      alter(database);
      const differences = diffConfigs(config, database);
      expect(differences.length).toBeGreaterThan(0);
      const merged = mergeConfigs(structuredClone(config), database);
      expect(merged.errors).toEqual([]);
      const changed = merged.changes.filter((change) => change.kind === 'column-changed').map((change) => `${change.entity}.${change.field}`);
      expect(changed).toEqual([...new Set(differences.map((difference) => `${difference.entity}.${difference.field}`))]);
      expect(diffConfigs(merged.config, database)).toEqual([]);
    });
  }
});
