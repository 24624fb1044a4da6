// Table specs and rows shared by the dialect tests, and the normalisation that makes values read
// back from either database comparable with the rows that were loaded.
import type { ColumnSpec, TableSpec } from '../../src/model/table-spec.ts';
import type { RowValues, RowValue } from '../../src/model/row-value.ts';
import type { DialectTarget } from './dialect-targets.ts';

/** Enum values from user configs: quotes, backslashes, control characters, unicode, SQL. */
export const TRICKY_ENUM_VALUES = [
  'plain',
  "it's",
  'say "hi"',
  'back\\slash',
  'trailing backslash\\',
  'tab\tand\nnewline',
  'ünïcødé ß',
  'emoji 🎉',
  "'); DROP TABLE x; --",
  '`backtick`',
  '%_like',
  'Plain',
];

export const everyTypeTable: TableSpec = {
  name: 'every_type',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'shortName', type: 'string', nullable: false, maxLength: 40 },
    { name: 'anyString', type: 'string', nullable: true },
    { name: 'body', type: 'text', nullable: true },
    { name: 'count', type: 'integer', nullable: true },
    { name: 'bigCount', type: 'integer', nullable: true, big: true },
    { name: 'ratio', type: 'number', nullable: true },
    { name: 'price', type: 'number', nullable: true, precision: 2 },
    { name: 'active', type: 'boolean', nullable: true },
    { name: 'birthday', type: 'date', nullable: true },
    { name: 'createdAt', type: 'datetime', nullable: true },
    { name: 'opensAt', type: 'time', nullable: true },
    { name: 'uid', type: 'uuid', nullable: true },
    { name: 'doc', type: 'json', nullable: true },
    { name: 'kind', type: 'enum', nullable: true, values: TRICKY_ENUM_VALUES },
    { name: 'requiredFlag', type: 'boolean', nullable: false },
  ],
  primaryKey: ['id'],
  indexes: [
    { name: 'every_type_shortName_key', columns: ['shortName'], unique: true },
    { name: 'every_type_kind_idx', columns: ['kind', 'createdAt'], unique: false },
  ],
  foreignKeys: [],
};

const TRICKY_TEXT = 'tab\there\nnewline\r\ncrlf back\\slash \\N \\. "double" \'single\' `tick` ünï 🎉🏳️‍🌈 漢字';

export const everyTypeRows: RowValues[] = [
  [1, 'tricky', TRICKY_TEXT, `${TRICKY_TEXT}\n${'long '.repeat(500)}`, 2147483647, 9007199254740993n, 3.141592653589793, 12.5, true, '2024-02-29', '2024-02-29T23:59:59.123Z', '23:59:59', '123e4567-e89b-12d3-a456-426614174000', { nested: { text: TRICKY_TEXT, list: [1, 2.5, null, true] } }, "it's", true],
  [2, 'nulls', null, null, null, null, null, null, null, null, null, null, null, null, null, false],
  [3, '', '', '', 0, -9223372036854775808n, -0.5, -99999.99, false, '1970-01-01', '1999-12-31T00:00:00.000Z', '00:00:00', '00000000-0000-0000-0000-000000000000', 'a JSON string with "quotes" and \\', 'back\\slash', false],
  [4, 'json array', '\\', 'x', -2147483648, 9223372036854775807n, 1e-7, 0, true, '2000-01-01', '2038-01-19T03:14:08.001Z', '12:00:01', 'ffffffff-ffff-ffff-ffff-ffffffffffff', [1, 'two', { three: 3 }], 'emoji 🎉', true],
  [5, 'json scalars', ' leading and trailing ', 'ok', 42, 42, 1e21, 0.01, false, '2024-01-31', '2024-01-31T12:00:00.500Z', '08:30:00', 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', 0, 'tab\tand\nnewline', false],
  [6, 'json null-ish', 'NULL', '\\N', 7, 7n, 2.5, 100, true, '2024-12-31', '2024-12-31T23:59:59.999Z', '23:00:00', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', { empty: {}, emptyList: [], quote: "'" }, "'); DROP TABLE x; --", true],
];

/** A value as loaded, in the comparable form `readBack` produces. */
export function expected(column: ColumnSpec, value: RowValue): unknown {
  if (value === null) return null;
  switch (column.type) {
    case 'integer':
      return String(value);
    case 'number':
      return column.precision === undefined ? Number(value) : Number(value).toFixed(column.precision);
    case 'datetime':
      return new Date(String(value)).toISOString();
    default:
      return value;
  }
}

/** A value read back through the inspector, normalised across databases. */
export function readBack(target: DialectTarget, column: ColumnSpec, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  switch (column.type) {
    case 'boolean':
      return target.name === 'postgres' ? raw === 't' || raw === 'true' : Number(raw) === 1;
    case 'integer':
      return String(raw);
    case 'number':
      return column.precision === undefined ? Number(raw) : String(raw);
    case 'datetime': {
      // PostgreSQL: '2024-02-29 23:59:59.123+00'; MySQL: '2024-02-29 23:59:59.123' (stored as UTC).
      const text = String(raw).replace(' ', 'T').replace(/\+00$/, '');
      return new Date(`${text}Z`).toISOString();
    }
    case 'json':
      // pg hands back text here; mysql2 parses JSON columns itself (MySQL 8, and MariaDB's JSON via its metadata).
      return target.name === 'postgres' ? JSON.parse(String(raw)) : raw;
    default:
      return String(raw);
  }
}

export function parentChildTables(): TableSpec[] {
  return [
    {
      name: 'authors',
      columns: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'email', type: 'string', nullable: false, maxLength: 120 },
        { name: 'name', type: 'string', nullable: true },
        { name: 'mentorId', type: 'integer', nullable: true },
      ],
      primaryKey: ['id'],
      indexes: [
        { name: 'authors_email_key', columns: ['email'], unique: true },
        { name: 'authors_name_idx', columns: ['name'], unique: false },
      ],
      foreignKeys: [{ name: 'authors_mentor_fk', columns: ['mentorId'], references: { table: 'authors', columns: ['id'] }, onDelete: 'set-null', onUpdate: 'restrict' }],
    },
    {
      name: 'posts',
      columns: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'authorId', type: 'integer', nullable: false },
        { name: 'editorId', type: 'integer', nullable: true },
        { name: 'title', type: 'string', nullable: false },
      ],
      primaryKey: ['id'],
      indexes: [],
      foreignKeys: [
        { name: 'posts_author_fk', columns: ['authorId'], references: { table: 'authors', columns: ['id'] }, onDelete: 'cascade', onUpdate: 'cascade' },
        { name: 'posts_editor_fk', columns: ['editorId'], references: { table: 'authors', columns: ['id'] }, onDelete: 'set-null', onUpdate: 'cascade' },
      ],
    },
    {
      name: 'comments',
      columns: [
        { name: 'postId', type: 'integer', nullable: false },
        { name: 'position', type: 'integer', nullable: false },
        { name: 'body', type: 'text', nullable: false },
      ],
      primaryKey: ['postId', 'position'],
      indexes: [],
      foreignKeys: [{ name: 'comments_post_fk', columns: ['postId'], references: { table: 'posts', columns: ['id'] }, onDelete: 'restrict', onUpdate: 'restrict' }],
    },
  ];
}
