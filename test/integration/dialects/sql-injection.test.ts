// Names from configs and requests reach SQL only through quoteIdentifier: anything that is not a
// schema-known identifier is refused before a statement is built, on every dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableSpec } from '../../../src/model/table-spec.ts';
import { dialectFor, mysqlDialect, postgresDialect } from '../../../src/dialects/index.ts';
import { dialectTargets, openTarget, uniqueNamespace } from '../../helpers/dialect-targets.ts';

const DIALECTS = await dialectTargets();

const ATTACKS: Array<[string, string]> = [
  ['a quote that closes the identifier', 'a"; DROP TABLE x; --'],
  ['a backtick that closes the identifier', 'a`; DROP TABLE x; --'],
  ['a space', 'first name'],
  ['a dot', 'schema.table'],
  ['a leading digit', '1table'],
  ['a leading underscore', '_hidden'],
  ['a hyphen', 'a-b'],
  ['unicode letters', 'naïve'],
  ['a NUL byte', 'a\0b'],
  ['the empty string', ''],
  ['too long', `a${'b'.repeat(64)}`],
];

describe('dialectFor', () => {
  it.each([
    ['postgres://u@h/db', postgresDialect],
    ['postgresql://u@h/db', postgresDialect],
    ['mysql://u@h/db', mysqlDialect],
    ['MariaDB://u@h/db', mysqlDialect],
  ])('%s', (url, dialect) => {
    expect(dialectFor(url)).toBe(dialect);
  });

  it('names the scheme it does not support', () => {
    expect(() => dialectFor('sqlite:///tmp/x.db')).toThrow('Unsupported database URL scheme "sqlite:": use postgres://, postgresql://, mysql:// or mariadb://');
    expect(() => dialectFor('no scheme at all')).toThrow('Unsupported database URL scheme (none)');
  });
});

for (const target of DIALECTS) {
  describe(`${target.name}: identifiers`, () => {
    const { dialect } = target;
    let connection: Awaited<ReturnType<typeof openTarget>>;
    const namespace = uniqueNamespace('inject');

    beforeAll(async () => {
      connection = await openTarget(target);
      connection.track(namespace);
      await connection.recreateNamespace(namespace);
    });

    afterAll(async () => {
      await connection?.cleanup();
    });

    it('quotes schema-known identifiers', () => {
      const quote = target.name === 'postgres' ? '"' : '`';
      expect(dialect.quoteIdentifier('firstName')).toBe(`${quote}firstName${quote}`);
      expect(dialect.quoteIdentifier(`a${'b'.repeat(dialect.capabilities.maxIdentifierLength - 1)}`)).toHaveLength(dialect.capabilities.maxIdentifierLength + 2);
    });

    it.each(ATTACKS)('refuses %s', (_, name) => {
      expect(() => dialect.quoteIdentifier(name)).toThrow(/is not a valid identifier/);
    });

    it('refuses bad names in every connection method before running SQL', async () => {
      const bad = 'x"; DROP SCHEMA public CASCADE; --';
      const evil: TableSpec = { name: bad, columns: [{ name: 'id', type: 'integer', nullable: false }], primaryKey: ['id'], indexes: [], foreignKeys: [] };
      const evilColumn: TableSpec = { name: 't', columns: [{ name: 'id`) ; DROP DATABASE mysql; --', type: 'integer', nullable: false }], primaryKey: [], indexes: [], foreignKeys: [] };
      await expect(connection.namespaceExists(bad)).rejects.toThrow(/not a valid identifier/);
      await expect(connection.recreateNamespace(bad)).rejects.toThrow(/not a valid identifier/);
      await expect(connection.dropNamespace(bad)).rejects.toThrow(/not a valid identifier/);
      await expect(connection.createTables(namespace, [evil])).rejects.toThrow(/not a valid identifier/);
      await expect(connection.createTables(namespace, [evilColumn])).rejects.toThrow(/not a valid identifier/);
      await expect(connection.loadRows(namespace, evil, [[[1]]])).rejects.toThrow(/not a valid identifier/);
      await expect(connection.countRows(namespace, bad)).rejects.toThrow(/not a valid identifier/);
      await expect(connection.swapNamespaces(bad, namespace)).rejects.toThrow(/not a valid identifier/);
      expect(await connection.namespaceExists(namespace)).toBe(true);
    });
  });
}
