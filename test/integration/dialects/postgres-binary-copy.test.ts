// PostgreSQL loads in binary COPY (copyFormat: 'binary') hold exactly what text COPY loads hold:
// every column type, values that need escaping, generated rows of real configs. Tables are compared
// row by row in PostgreSQL's own text form of each row.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import type { RowValue, RowValues } from '../../../src/model/row-value.ts';
import type { TableSpec } from '../../../src/model/table-spec.ts';
import { connectPostgres, type PostgresConnection } from '../../../src/dialects/postgres/postgres-dialect.ts';
import { binaryRowWriter } from '../../../src/dialects/postgres/postgres-binary-copy.ts';
import { DataGenerator } from '../../../src/generation/generator.ts';
import { planGeneration } from '../../../src/generation/plan.ts';
import { everyTypeRows, everyTypeTable } from '../../helpers/dialect-fixtures.ts';
import { PG_TARGET_URL, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { blogConfig } from '../../fixtures/configs.ts';

let text: PostgresConnection;
let binary: PostgresConnection;
const namespaces: string[] = [];

beforeAll(async () => {
  text = await connectPostgres(PG_TARGET_URL);
  binary = await connectPostgres(PG_TARGET_URL, { copyFormat: 'binary' });
});

afterAll(async () => {
  for (const namespace of namespaces) await text?.dropNamespace(namespace);
  await text?.close();
  await binary?.close();
});

/** Loads `batches()` into a fresh table through each connection; answers each table's rows as PostgreSQL prints them. */
async function loadBothWays(tables: TableSpec[], table: TableSpec, batches: () => Iterable<RowValues[]>): Promise<{ text: string[]; binary: string[] }> {
  const result: Record<'text' | 'binary', string[]> = { text: [], binary: [] };
  for (const [name, connection] of [['text', text], ['binary', binary]] as const) {
    const namespace = uniqueNamespace(`copy_${name}`);
    namespaces.push(namespace);
    await connection.recreateNamespace(namespace);
    await connection.createTables(namespace, tables);
    const written = await connection.loadRows(namespace, table, batches());
    const rows = await connection.query(`SELECT t::text AS row FROM "${namespace}"."${table.name}" t ORDER BY 1`, []);
    expect(rows.length).toBe(written);
    result[name] = rows.map((row) => String(row.row));
  }
  return result;
}

describe('PostgreSQL binary COPY', () => {
  it('every column type, values that need escaping: the same rows as text COPY', async () => {
    expect(binaryRowWriter(everyTypeTable)).toBeDefined();
    const loaded = await loadBothWays([everyTypeTable], everyTypeTable, () => [everyTypeRows.slice(0, 2), everyTypeRows.slice(2)]);
    expect(loaded.binary).toHaveLength(everyTypeRows.length);
    expect(loaded.binary).toEqual(loaded.text);
  });

  it('numeric columns: decimals rounded to the scale as text rounds them, zero, negative zero, NaN, big and tiny values', async () => {
    const decimals: TableSpec = {
      name: 'decimals',
      columns: [
        { name: 'id', type: 'integer', nullable: false },
        { name: 'cents', type: 'number', nullable: true, precision: 2 },
        { name: 'mills', type: 'number', nullable: true, precision: 3 },
        { name: 'fine', type: 'number', nullable: true, precision: 7 },
      ],
      primaryKey: ['id'],
      indexes: [],
      foreignKeys: [],
    };
    const values: RowValue[] = [12.345, -0.005, 0, -0, 99999.995, 123456789012345.67, 0.1 + 0.2, 1e-7, -1e-9, 5e14, 2n ** 40n, '12.5', '-0.0', 'NaN', 1.005, 2.675, 0.0001, 10000, 9999.9999, null];
    const rows: RowValues[] = values.map((value, index) => [index + 1, value, value, value]);
    const loaded = await loadBothWays([decimals], decimals, () => [rows]);
    expect(loaded.binary).toHaveLength(values.length);
    expect(loaded.binary).toEqual(loaded.text);
  });

  it('refuses a value it cannot encode with a message naming it, leaving no rows', async () => {
    const namespace = uniqueNamespace('copy_refused');
    namespaces.push(namespace);
    await binary.recreateNamespace(namespace);
    await binary.createTables(namespace, [everyTypeTable]);
    const bad = [...everyTypeRows[0]!];
    bad[everyTypeTable.columns.findIndex((column) => column.name === 'createdAt')] = '2024-02-29 23:59:59+02';
    await expect(binary.loadRows(namespace, everyTypeTable, [[everyTypeRows[1]!, bad]])).rejects.toThrow('binary COPY cannot encode "2024-02-29 23:59:59+02" of createdAt (datetime)');
    expect(await binary.countRows(namespace, everyTypeTable.name)).toBe(0);
  });

  for (const [label, config] of [
    ['blog', blogConfig()],
    ['schemas/examples/shop.json', JSON.parse(fs.readFileSync(new URL('../../../schemas/examples/shop.json', import.meta.url), 'utf8')) as SchemaConfig],
  ] as const) {
    it(`${label}: every generated table holds the same rows either way`, async () => {
      const options = { referenceDate: '2024-06-01', rowCounts: label === 'blog' ? { users: 3_000, posts: 4_000 } : undefined };
      const plan = planGeneration(config, options);
      const tables = plan.entities.map((entity) => entity.table);
      for (const entity of plan.entities) {
        expect(binaryRowWriter(entity.table), entity.id).toBeDefined();
        // Each load makes the rows afresh from the same plan: the generator yields them in plan order.
        const batches = () => {
          const generator = new DataGenerator(config, plan);
          for (const before of plan.entities.slice(0, plan.entities.indexOf(entity))) for (const batch of generator.rows(before.id, 1_000)) void batch;
          return generator.rows(entity.id, 1_000);
        };
        const loaded = await loadBothWays(tables, entity.table, batches);
        expect(loaded.binary.length, entity.id).toBeGreaterThan(0);
        expect(loaded.binary, entity.id).toEqual(loaded.text);
      }
    }, 120_000);
  }
});
