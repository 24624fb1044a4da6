// TargetConnection.query and .transaction, used by the runtime engine: bound parameters, rows as
// objects with temporal values as text, commit, rollback with the original error, and pooled
// connections that stay usable after failed transactions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableSpec } from '../../../src/model/table-spec.ts';
import { dialectTargets, openTarget, uniqueNamespace } from '../../helpers/dialect-targets.ts';

const DIALECTS = await dialectTargets();

const table: TableSpec = {
  name: 'items',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'day', type: 'date', nullable: true },
    { name: 'at', type: 'datetime', nullable: true },
    { name: 'clock', type: 'time', nullable: true },
  ],
  primaryKey: ['id'],
  indexes: [],
  foreignKeys: [],
};

for (const target of DIALECTS) {
  describe(`${target.name}: query and transaction`, () => {
    let connection: Awaited<ReturnType<typeof openTarget>>;
    const namespace = uniqueNamespace('query');
    const { dialect } = target;
    const name = () => `${dialect.quoteIdentifier(namespace)}.${dialect.quoteIdentifier('items')}`;
    const p = (index: number) => dialect.placeholder(index);

    beforeAll(async () => {
      connection = await openTarget(target);
      connection.track(namespace);
      await connection.recreateNamespace(namespace);
      await connection.createTables(namespace, [table]);
      await connection.loadRows(namespace, table, [[[1, '2024-01-31', '2024-01-31T12:00:00.500Z', '08:30:00']]]);
    });
    afterAll(() => connection?.cleanup());

    it('binds parameters and returns temporal values as text', async () => {
      const rows = await connection.query(`SELECT ${['id', 'day', 'at', 'clock'].map((column) => dialect.quoteIdentifier(column)).join(', ')} FROM ${name()} WHERE ${dialect.quoteIdentifier('id')} = ${p(1)}`, [1]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id: 1, day: '2024-01-31', clock: '08:30:00' });
      expect(String(rows[0]!.at)).toMatch(/^2024-01-31 12:00:00\.5(00)?(\+00)?$/);
      const hostile = "1' OR '1'='1\\'; --";
      expect(await connection.query(`SELECT ${p(1)} AS echoed`, [hostile])).toEqual([{ echoed: hostile }]);
    });

    it('resolves statements without a result set to []', async () => {
      expect(await connection.query(`UPDATE ${name()} SET ${dialect.quoteIdentifier('clock')} = NULL WHERE ${dialect.quoteIdentifier('id')} = ${p(1)}`, [99])).toEqual([]);
    });

    it('commits, and rolls back rethrowing the original error', async () => {
      const insert = `INSERT INTO ${name()} (${dialect.quoteIdentifier('id')}) VALUES (${p(1)})`;
      expect(await connection.transaction(async (tx) => (await tx.query(insert, [2]), 'done'))).toBe('done');
      const failure = new Error('changed my mind');
      await expect(connection.transaction(async (tx) => {
        await tx.query(insert, [3]);
        throw failure;
      })).rejects.toBe(failure);
      const ids = await connection.query<{ id: number }>(`SELECT ${dialect.quoteIdentifier('id')} AS id FROM ${name()} ORDER BY 1`, []);
      expect(ids.map((row) => Number(row.id))).toEqual([1, 2]);
    });

    it('keeps the pool usable after many failed transactions', async () => {
      const insert = `INSERT INTO ${name()} (${dialect.quoteIdentifier('id')}) VALUES (${p(1)})`;
      for (let attempt = 0; attempt < 15; attempt++) {
        const error = await connection.transaction((tx) => tx.query(insert, [1])).catch((caught: unknown) => caught);
        expect(dialect.mapError(error, table).kind).toBe('unique_violation');
      }
      expect(await connection.transaction((tx) => tx.query(`SELECT COUNT(*) AS n FROM ${name()}`, []))).toHaveLength(1);
    });

    it('reads the same statement again after its table is replaced with other column types (a regeneration)', async () => {
      const other = `${dialect.quoteIdentifier(namespace)}.${dialect.quoteIdentifier('swapped')}`;
      const read = `SELECT ${dialect.quoteIdentifier('v')} FROM ${other} WHERE ${dialect.quoteIdentifier('k')} = ${p(1)}`;
      await connection.query(`CREATE TABLE ${other} (${dialect.quoteIdentifier('k')} integer, ${dialect.quoteIdentifier('v')} integer)`, []);
      await connection.query(`INSERT INTO ${other} VALUES (1, 10)`, []);
      // More reads than the pool has connections, so every pooled connection has prepared it.
      for (let read_ = 0; read_ < 12; read_++) expect(await connection.query(read, [1])).toEqual([{ v: 10 }]);
      await connection.query(`DROP TABLE ${other}`, []);
      await connection.query(`CREATE TABLE ${other} (${dialect.quoteIdentifier('k')} integer, ${dialect.quoteIdentifier('v')} text)`, []);
      await connection.query(`INSERT INTO ${other} VALUES (1, 'ten')`, []);
      const reads = await Promise.all(Array.from({ length: 12 }, () => connection.query(read, [1])));
      expect(reads).toEqual(Array.from({ length: 12 }, () => [{ v: 'ten' }]));
    });

    it('compiles the runtime hooks', () => {
      const column = table.columns[0]!;
      expect(dialect.like('x', p(1), true)).toBe(target.name === 'postgres' ? "x ILIKE $1 ESCAPE '!'" : "LOWER(x) LIKE LOWER(?) ESCAPE '!'");
      expect(dialect.distinctFrom('x', p(1))).toBe(target.name === 'postgres' ? 'x IS DISTINCT FROM $1' : 'NOT (x <=> ?)');
      expect(dialect.typedPlaceholder(2, column)).toBe(target.name === 'postgres' ? '$2::bigint' : '?');
      expect(dialect.orderBy('x', 'desc', true)).toBe(target.name === 'postgres' ? 'x DESC' : 'x IS NULL DESC, x DESC');
      expect(dialect.maxKeyStatements('t', 'k')).toEqual(
        target.name === 'postgres' ? ['LOCK TABLE t IN SHARE ROW EXCLUSIVE MODE', 'SELECT MAX(k) AS max FROM t'] : ['SELECT MAX(k) AS max FROM t FOR UPDATE'],
      );
    });
  });
}
