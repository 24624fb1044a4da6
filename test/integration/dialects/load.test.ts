// loadRows and updateRows per dialect: values that need escaping read back identical, streaming
// from generators in bounded memory, MySQL's two loaders and its fallback, deferred references.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowValues } from '../../../src/model/row-value.ts';
import type { TableSpec } from '../../../src/model/table-spec.ts';
import { connectMysql } from '../../../src/dialects/mysql/mysql-dialect.ts';
import { everyTypeRows, everyTypeTable, expected, parentChildTables, readBack } from '../../helpers/dialect-fixtures.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type DialectTarget, type Inspector } from '../../helpers/dialect-targets.ts';

const DIALECTS = await dialectTargets();

function tableName(target: DialectTarget, namespace: string, table: string): string {
  return target.name === 'postgres' ? `"${namespace}"."${table}"` : `\`${namespace}\`.\`${table}\``;
}

const wideTable: TableSpec = {
  name: 'wide',
  columns: [
    { name: 'id', type: 'integer', nullable: false },
    { name: 'label', type: 'string', nullable: false, maxLength: 64 },
    { name: 'note', type: 'text', nullable: true },
    { name: 'score', type: 'number', nullable: true },
    { name: 'at', type: 'datetime', nullable: true },
    { name: 'flag', type: 'boolean', nullable: false },
  ],
  primaryKey: ['id'],
  indexes: [],
  foreignKeys: [],
};

const PAYLOAD = 'x'.repeat(400);

async function expectRowsReadBack(target: DialectTarget, inspector: Inspector, namespace: string, table: TableSpec, rows: RowValues[]): Promise<void> {
  const stored = await inspector.query(`SELECT * FROM ${tableName(target, namespace, table.name)} ORDER BY id`);
  expect(stored.length).toBe(rows.length);
  stored.forEach((storedRow, rowIndex) => {
    table.columns.forEach((column, columnIndex) => {
      const want = expected(column, rows[rowIndex]![columnIndex]!);
      expect(readBack(target, column, storedRow[column.name]), `row ${rowIndex + 1} ${column.name}`).toEqual(want);
    });
  });
}

for (const target of DIALECTS) {
  describe(`${target.name}: loadRows and updateRows`, () => {
    let connection: Awaited<ReturnType<typeof openTarget>>;
    let inspector: Inspector;

    beforeAll(async () => {
      connection = await openTarget(target);
      inspector = await openInspector(target);
    });

    afterAll(async () => {
      await inspector?.close();
      await connection?.cleanup();
    });

    async function freshNamespace(label: string, tables: TableSpec[]): Promise<string> {
      const namespace = connection.track(uniqueNamespace(label));
      await connection.recreateNamespace(namespace);
      await connection.createTables(namespace, tables);
      return namespace;
    }

    it('loads values that need escaping and reads them back identical', async () => {
      const namespace = await freshNamespace('values', [everyTypeTable]);
      const progress: number[] = [];
      const written = await connection.loadRows(namespace, everyTypeTable, [everyTypeRows.slice(0, 2), everyTypeRows.slice(2)], (count) => progress.push(count));
      expect(written).toBe(everyTypeRows.length);
      expect(progress).toEqual([2, everyTypeRows.length]);
      await expectRowsReadBack(target, inspector, namespace, everyTypeTable, everyTypeRows);
      // Empty strings stay empty strings, NULL stays NULL.
      const [empty] = await inspector.query(`SELECT * FROM ${tableName(target, namespace, 'every_type')} WHERE id = 3`);
      expect(empty!.anyString).toBe('');
      const [nulls] = await inspector.query(`SELECT * FROM ${tableName(target, namespace, 'every_type')} WHERE id = 2`);
      expect(nulls!.anyString).toBeNull();
      expect(await connection.countRows(namespace, 'every_type')).toBe(everyTypeRows.length);
    });

    it('accepts async generators and empty input', async () => {
      const namespace = await freshNamespace('async', [everyTypeTable]);
      async function* batches() {
        for (const row of everyTypeRows) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          yield [row];
        }
        yield [];
      }
      expect(await connection.loadRows(namespace, everyTypeTable, batches())).toBe(everyTypeRows.length);
      await expectRowsReadBack(target, inspector, namespace, everyTypeTable, everyTypeRows);
      const empty = await freshNamespace('empty', [everyTypeTable]);
      expect(await connection.loadRows(empty, everyTypeTable, [])).toBe(0);
      expect(await connection.countRows(empty, 'every_type')).toBe(0);
    });

    it('streams 200k rows from a generator, reading a batch only when the database takes it', async () => {
      const namespace = await freshNamespace('stream', [wideTable]);
      const total = 200_000;
      const batchSize = 1_000;
      let produced = 0;
      let reported = 0;
      let maxLead = 0;
      let peakHeap = 0;
      const baseHeap = process.memoryUsage().heapUsed;
      function* batches(): Generator<RowValues[]> {
        for (let start = 0; start < total; start += batchSize) {
          const batch: RowValues[] = [];
          for (let id = start; id < start + batchSize; id++) {
            batch.push([id, `label ${id}`, `${PAYLOAD} ${id}\tescaped\\`, id / 7, new Date(Date.UTC(2024, 0, 1, 0, 0, id % 86_400)).toISOString(), id % 2 === 0]);
          }
          produced += batch.length;
          maxLead = Math.max(maxLead, produced - reported);
          peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
          yield batch;
        }
      }
      const written = await connection.loadRows(namespace, wideTable, batches(), (count) => {
        reported = count;
      });
      expect(written).toBe(total);
      expect(reported).toBe(total);
      expect(await connection.countRows(namespace, 'wide')).toBe(total);
      // Pulled, not drained up front: the generator never runs more than two batches ahead.
      expect(maxLead).toBeLessThanOrEqual(2 * batchSize);
      // ~90 MB of row text passes through; a loader holding it all would need far more heap than this.
      expect(peakHeap - baseHeap).toBeLessThan(80 * 1024 * 1024);
      const [last] = await inspector.query(`SELECT label, note FROM ${tableName(target, namespace, 'wide')} WHERE id = ${total - 1}`);
      expect(last).toEqual({ label: `label ${total - 1}`, note: `${PAYLOAD} ${total - 1}\tescaped\\` });
    });

    it('fails a load whose source throws, leaving no partial rows', async () => {
      const namespace = await freshNamespace('abort', [wideTable]);
      function* batches(): Generator<RowValues[]> {
        yield [[1, 'one', null, null, null, true]];
        throw new Error('generator failed');
      }
      await expect(connection.loadRows(namespace, wideTable, batches())).rejects.toThrow('generator failed');
      expect(await connection.countRows(namespace, 'wide')).toBe(0);
    });

    it('fails a load with bad values instead of dropping or coercing rows', async () => {
      const namespace = await freshNamespace('bad', [wideTable]);
      const failure = await connection.loadRows(namespace, wideTable, [[[1, 'one', null, null, null, true], [2, null, null, null, null, true]]]).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(Error);
      expect(await connection.countRows(namespace, 'wide')).toBe(0);
      const duplicate = await connection.loadRows(namespace, wideTable, [[[1, 'one', null, null, null, true], [1, 'again', null, null, null, true]]]).catch((error: unknown) => error);
      expect(duplicate).toBeInstanceOf(Error);
      expect(await connection.countRows(namespace, 'wide')).toBe(0);
      await expect(connection.loadRows(namespace, wideTable, [[[1, 'short row']]])).rejects.toThrow(/has 2 values, expected 6/);
    });

    it('updateRows fills deferred self references and other column types, in chunks', async () => {
      const [authors] = parentChildTables();
      const namespace = await freshNamespace('update', [authors!, everyTypeTable]);
      const total = 5_500;
      const rows: RowValues[] = Array.from({ length: total }, (_, index) => [index + 1, `author${index + 1}@example.com`, `Author ${index + 1}`, null]);
      await connection.loadRows(namespace, authors!, [rows]);
      function* mentors(): Generator<RowValues[]> {
        for (let start = 1; start <= total; start += 700) {
          const batch: RowValues[] = [];
          for (let id = start; id < Math.min(start + 700, total + 1); id++) batch.push([id, id === 1 ? null : id - 1]);
          yield batch;
        }
      }
      expect(await connection.updateRows(namespace, authors!, ['id'], ['mentorId'], mentors())).toBe(total);
      const [check] = await inspector.query(
        `SELECT COUNT(*) AS matching FROM ${tableName(target, namespace, 'authors')} WHERE ${target.name === 'postgres' ? '"mentorId"' : 'mentorId'} = id - 1`,
      );
      expect(Number(check!.matching)).toBe(total - 1);
      await connection.finalizeTables(namespace, [authors!]);

      // Every settable type goes through the parameter path (casts on PostgreSQL, literals on MySQL).
      await connection.loadRows(namespace, everyTypeTable, [everyTypeRows.map((row) => [row[0]!, row[1]!, ...everyTypeTable.columns.slice(2, -1).map(() => null), false])]);
      const setColumns = everyTypeTable.columns.slice(2).map((column) => column.name);
      const updates = everyTypeRows.map((row) => [row[0]!, ...row.slice(2)]);
      expect(await connection.updateRows(namespace, everyTypeTable, ['id'], setColumns, [updates])).toBe(everyTypeRows.length);
      await expectRowsReadBack(target, inspector, namespace, everyTypeTable, everyTypeRows);
    });

    it('updateRows addresses rows by composite keys', async () => {
      const comments = parentChildTables()[2]!;
      const namespace = await freshNamespace('composite', [comments]);
      await connection.loadRows(namespace, comments, [[[1, 1, 'a'], [1, 2, 'b'], [2, 1, 'c']]]);
      expect(await connection.updateRows(namespace, comments, ['postId', 'position'], ['body'], [[[1, 2, 'B'], [2, 1, "C's \\ 🎉"], [9, 9, 'missing']]])).toBe(2);
      const stored = await inspector.query(`SELECT body FROM ${tableName(target, namespace, 'comments')} ORDER BY ${target.name === 'postgres' ? '"postId", position' : 'postId, position'}`);
      expect(stored.map((row) => row.body)).toEqual(['a', 'B', "C's \\ 🎉"]);
    });
  });
}

const mysqlTarget = DIALECTS.find((target) => target.name === 'mysql');
if (mysqlTarget) {
  describe('mysql: loaders', () => {
    const namespaces: string[] = [];
    let inspector: Inspector;

    beforeAll(async () => {
      inspector = await openInspector(mysqlTarget);
    });

    afterAll(async () => {
      for (const namespace of namespaces) await inspector.query(`DROP DATABASE IF EXISTS \`${namespace}\``);
      await inspector?.close();
    });

    for (const [name, options] of [
      ['multi-row INSERT', { loadMethod: 'insert' as const }],
      ['LOAD DATA refused by the server (local infile off), falling back to INSERT', { clientLocalInfile: false }],
    ] as const) {
      it(`${name} loads the same values`, async () => {
        const connection = await connectMysql(mysqlTarget.url, options);
        try {
          const namespace = uniqueNamespace('mysqlload');
          namespaces.push(namespace);
          await connection.recreateNamespace(namespace);
          await connection.createTables(namespace, [everyTypeTable, wideTable]);
          expect(await connection.loadRows(namespace, everyTypeTable, [everyTypeRows.slice(0, 3), everyTypeRows.slice(3)])).toBe(everyTypeRows.length);
          await expectRowsReadBack(mysqlTarget, inspector, namespace, everyTypeTable, everyTypeRows);
          // Enough rows for several statements (placeholder and byte limits).
          const rows: RowValues[] = Array.from({ length: 12_345 }, (_, id) => [id, `label ${id}`, PAYLOAD, id / 3, '2024-05-06T07:08:09.010Z', id % 3 === 0]);
          expect(await connection.loadRows(namespace, wideTable, [rows.slice(0, 5_000), rows.slice(5_000)])).toBe(rows.length);
          expect(await connection.countRows(namespace, 'wide')).toBe(rows.length);
          const duplicate = await connection.loadRows(namespace, wideTable, [[[1, 'dup', null, null, null, true]]]).catch((error: unknown) => error);
          expect(mysqlTarget.dialect.mapError(duplicate, wideTable)).toMatchObject({ kind: 'unique_violation', columns: ['id'] });
        } finally {
          await connection.close();
        }
      });
    }
  });
}
