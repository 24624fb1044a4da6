// PostgreSQL loads in binary COPY (copyFormat: 'binary') hold exactly what text COPY loads hold:
// every column type, values that need escaping, generated rows of real configs. Tables are compared
// row by row in PostgreSQL's own text form of each row.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import type { RowValues } from '../../../src/model/row-value.ts';
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
  const noNumeric: TableSpec = { ...everyTypeTable, name: 'every_binary_type', columns: everyTypeTable.columns.filter((column) => column.precision === undefined) };
  const noNumericRows = everyTypeRows.map((row) => row.filter((_, index) => everyTypeTable.columns[index]!.precision === undefined));

  it('every column type with a binary form, values that need escaping: the same rows as text COPY', async () => {
    expect(binaryRowWriter(noNumeric)).toBeDefined();
    const loaded = await loadBothWays([noNumeric], noNumeric, () => [noNumericRows.slice(0, 2), noNumericRows.slice(2)]);
    expect(loaded.binary).toHaveLength(everyTypeRows.length);
    expect(loaded.binary).toEqual(loaded.text);
  });

  it('a table with a numeric column loads as text, the same rows', async () => {
    expect(binaryRowWriter(everyTypeTable)).toBeUndefined();
    const loaded = await loadBothWays([everyTypeTable], everyTypeTable, () => [everyTypeRows]);
    expect(loaded.binary).toEqual(loaded.text);
  });

  it('refuses a value it cannot encode with a message naming it, leaving no rows', async () => {
    const namespace = uniqueNamespace('copy_refused');
    namespaces.push(namespace);
    await binary.recreateNamespace(namespace);
    await binary.createTables(namespace, [noNumeric]);
    const bad = [...noNumericRows[0]!];
    bad[noNumeric.columns.findIndex((column) => column.name === 'createdAt')] = '2024-02-29 23:59:59+02';
    await expect(binary.loadRows(namespace, noNumeric, [[noNumericRows[1]!, bad]])).rejects.toThrow('binary COPY cannot encode "2024-02-29 23:59:59+02" of createdAt (datetime)');
    expect(await binary.countRows(namespace, noNumeric.name)).toBe(0);
  });

  for (const [label, config] of [
    ['blog', blogConfig()],
    ['schemas/examples/shop.json', JSON.parse(fs.readFileSync(new URL('../../../schemas/examples/shop.json', import.meta.url), 'utf8')) as SchemaConfig],
  ] as const) {
    it(`${label}: every generated table holds the same rows either way`, async () => {
      const options = { referenceDate: '2024-06-01', rowCounts: label === 'blog' ? { users: 3_000, posts: 4_000 } : undefined };
      const plan = planGeneration(config, options);
      const tables = plan.entities.map((entity) => entity.table);
      let binaryTables = 0;
      for (const entity of plan.entities) {
        if (binaryRowWriter(entity.table)) binaryTables++;
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
      expect(binaryTables).toBeGreaterThan(0);
    }, 120_000);
  }
});
