// Pure parts of the dialects, table-driven: bulk-load text escaping, literal quoting, MySQL
// datetimes, and error mapping from the messages each server writes (MySQL 8 and MariaDB forms).
import { describe, expect, it } from 'vitest';
import type { TableSpec } from '../../../src/model/table-spec.ts';
import { mapMysqlError } from '../../../src/dialects/mysql/mysql-errors.ts';
import { quoteMysqlLiteral } from '../../../src/dialects/mysql/mysql-ddl.ts';
import { escapeLoadDataText, mysqlValue, toMysqlDatetime } from '../../../src/dialects/mysql/mysql-loader.ts';
import { mapPostgresError } from '../../../src/dialects/postgres/postgres-errors.ts';
import { quotePostgresLiteral } from '../../../src/dialects/postgres/postgres-ddl.ts';
import { copyEncoder, escapeCopyText } from '../../../src/dialects/postgres/postgres-loader.ts';
import { StalledError } from '../../../src/dialects/stall-watch.ts';

const users: TableSpec = {
  name: 'users',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'email', type: 'string', nullable: false },
    { name: 'role', type: 'enum', nullable: false, values: ['a', 'b'] },
  ],
  primaryKey: ['id'],
  indexes: [{ name: 'users_email_key', columns: ['email'], unique: true }],
  foreignKeys: [],
};

describe('COPY and LOAD DATA text', () => {
  it.each([
    ['plain', { given: 'plain text', copy: 'plain text', load: 'plain text' }],
    ['tab, newline, carriage return', { given: 'a\tb\nc\rd', copy: 'a\\tb\\nc\\rd', load: 'a\\tb\\nc\\rd' }],
    ['backslashes and \\N', { given: '\\N \\ \\.', copy: '\\\\N \\\\ \\\\.', load: '\\\\N \\\\ \\\\.' }],
    ['NUL (MySQL only; PostgreSQL text cannot hold it)', { given: 'a\0b', copy: 'a\0b', load: 'a\\0b' }],
    ['unicode', { given: 'ünï 🎉', copy: 'ünï 🎉', load: 'ünï 🎉' }],
  ])('%s', (_, { given, copy, load }) => {
    expect(escapeCopyText(given)).toBe(copy);
    expect(escapeLoadDataText(given)).toBe(load);
  });

  it('writes booleans, JSON and bigints the way each database reads them', () => {
    expect(copyEncoder({ name: 'b', type: 'boolean', nullable: false })(true)).toBe('t');
    expect(copyEncoder({ name: 'j', type: 'json', nullable: false })({ a: 'x\ty' })).toBe('{"a":"x\\\\ty"}');
    expect(copyEncoder({ name: 'n', type: 'integer', nullable: false, big: true })(9007199254740993n)).toBe('9007199254740993');
    expect(mysqlValue({ name: 'b', type: 'boolean', nullable: false }, false)).toBe(0);
    expect(mysqlValue({ name: 'j', type: 'json', nullable: false }, 'text')).toBe('"text"');
    expect(mysqlValue({ name: 'n', type: 'integer', nullable: false, big: true }, 9007199254740993n)).toBe('9007199254740993');
  });
});

describe('toMysqlDatetime', () => {
  it.each([
    ['2024-01-31T12:34:56.789Z', '2024-01-31 12:34:56.789'],
    ['2024-01-31T12:34:56Z', '2024-01-31 12:34:56'],
    ['2024-01-31T14:34:56.789+02:00', '2024-01-31 12:34:56.789'],
    ['2024-01-31 12:34:56', '2024-01-31 12:34:56'],
  ])('%s → %s', (given, want) => {
    expect(toMysqlDatetime(given)).toBe(want);
  });

  it('converts Date objects as UTC', () => {
    expect(toMysqlDatetime(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)))).toBe('2024-01-02 03:04:05.006');
  });
});

describe('SQL literals', () => {
  it.each([
    ['plain', "'plain'", "'plain'"],
    ["it's", "'it''s'", "'it''s'"],
    ['back\\slash', "E'back\\\\slash'", "'back\\\\slash'"],
    ["'); DROP TABLE x; --", "'''); DROP TABLE x; --'", "'''); DROP TABLE x; --'"],
  ])('%s', (given, postgres, mysql) => {
    expect(quotePostgresLiteral(given)).toBe(postgres);
    expect(quoteMysqlLiteral(given)).toBe(mysql);
  });

  it('refuses NUL bytes', () => {
    expect(() => quotePostgresLiteral('a\0')).toThrow(/NUL byte/);
    expect(() => quoteMysqlLiteral('a\0')).toThrow(/NUL byte/);
  });
});

describe('mapMysqlError', () => {
  const error = (errno: number, sqlMessage: string) => Object.assign(new Error(sqlMessage), { errno, sqlMessage, code: 'ER_X' });
  it.each([
    ['MariaDB duplicate', error(1062, "Duplicate entry 'x@y.z' for key 'users_email_key'"), { kind: 'unique_violation', constraint: 'users_email_key', columns: ['email'] }],
    ['MySQL 8 duplicate', error(1062, "Duplicate entry 'x@y.z' for key 'users.users_email_key'"), { kind: 'unique_violation', constraint: 'users_email_key', columns: ['email'] }],
    ['duplicate primary key', error(1062, "Duplicate entry '7' for key 'PRIMARY'"), { kind: 'unique_violation', columns: ['id'] }],
    [
      'missing parent',
      error(1452, 'Cannot add or update a child row: a foreign key constraint fails (`db`.`posts`, CONSTRAINT `posts_user_fk` FOREIGN KEY (`userId`, `tenant`) REFERENCES `users` (`id`, `tenant`) ON DELETE CASCADE)'),
      { kind: 'foreign_key_violation', table: 'posts', constraint: 'posts_user_fk', columns: ['userId', 'tenant'] },
    ],
    ['MySQL 8 check', error(3819, "Check constraint 'users_chk_1' is violated."), { kind: 'check_violation', constraint: 'users_chk_1' }],
    ['enum value', error(1265, "Data truncated for column 'role' at row 1"), { kind: 'check_violation', columns: ['role'] }],
    ['wrong value', error(1366, "Incorrect integer value: 'x, y' for column `db`.`users`.`id` at row 1"), { kind: 'invalid_value', columns: ['id'] }],
    ['missing table', error(1146, "Table 'db.nope' doesn't exist"), { kind: 'undefined_table', table: 'nope' }],
    ['deadlock', error(1213, 'Deadlock found when trying to get lock; try restarting transaction'), { kind: 'serialization_failure', code: '1213' }],
    ['lost connection', Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST', fatal: true }), { kind: 'connection' }],
    ['MariaDB max_statement_time', error(1969, 'Query execution was interrupted (max_statement_time exceeded)'), { kind: 'timeout', code: '1969' }],
    ['MySQL max_execution_time', error(3024, 'Query execution was interrupted, maximum statement execution time exceeded'), { kind: 'timeout', code: '3024' }],
    ['lock wait timeout', error(1205, 'Lock wait timeout exceeded; try restarting transaction'), { kind: 'timeout', code: '1205' }],
    ['no answer in time (client)', Object.assign(new Error('Query inactivity timeout'), { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }), { kind: 'timeout' }],
    ['stalled load', new StalledError(30_000), { kind: 'connection', code: 'ESTALLED' }],
  ])('%s', (_, given, want) => {
    const mapped = mapMysqlError(given, users);
    expect(mapped).toMatchObject(want);
    expect(JSON.stringify(mapped)).not.toMatch(/x@y|x, y|'7'/);
  });
});

describe('mapPostgresError', () => {
  const error = (fields: Record<string, string>) => Object.assign(new Error('database says things with values'), fields);
  it.each([
    ['unique, quoted column', error({ code: '23505', constraint: 'users_email_key', detail: 'Key ("userEmail", tenant)=(x@y.z, 1) already exists.' }), { kind: 'unique_violation', columns: ['userEmail', 'tenant'] }],
    ['unique without detail', error({ code: '23505', constraint: 'users_email_key' }), { kind: 'unique_violation', columns: ['email'] }],
    ['not null', error({ code: '23502', column: 'email', table: 'users' }), { kind: 'not_null_violation', columns: ['email'], table: 'users' }],
    ['enum check', error({ code: '23514', constraint: 'users_role_check', table: 'users' }), { kind: 'check_violation', columns: ['role'] }],
    ['too long', error({ code: '22001' }), { kind: 'invalid_value', message: 'Value too long for column' }],
    ['refused', Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {}), { kind: 'connection' }],
    ['lost mid-query', new Error('Connection terminated unexpectedly'), { kind: 'connection' }],
    ['server shutting down', error({ code: '57P01' }), { kind: 'connection', code: '57P01' }],
    ['an internal error of the server (XX000)', error({ code: 'XX000' }), { kind: 'connection', code: 'XX000' }],
    ['a system error of the server (58030)', error({ code: '58030' }), { kind: 'connection', code: '58030' }],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect'), { kind: 'connection' }],
    ['client broken earlier', new Error('Client has encountered a connection error and is not queryable'), { kind: 'connection' }],
    ['deadlock', error({ code: '40P01' }), { kind: 'serialization_failure', code: '40P01' }],
    ['statement timeout', error({ code: '57014' }), { kind: 'timeout', code: '57014' }],
    ['no answer in time (client)', new Error('Query read timeout'), { kind: 'timeout' }],
    ['stalled load', new StalledError(30_000), { kind: 'connection', code: 'ESTALLED' }],
    ['anything else', error({ code: '42883' }), { kind: 'other', message: 'Database error', code: '42883' }],
  ])('%s', (_, given, want) => {
    const mapped = mapPostgresError(given, users);
    expect(mapped).toMatchObject(want);
    expect(JSON.stringify(mapped)).not.toMatch(/x@y|values/);
  });
});
