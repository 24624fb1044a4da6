// Files hold exactly what a database load holds: the same config and seed generated into each
// database and into every file format (CSV, JSON Lines, Parquet, and the SQL script of each
// dialect, loaded with the engine's own client), compared value by value.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { generateFiles } from '../../../src/files/generate-files.ts';
import { Runtime } from '../../../src/runtime/runtime.ts';
import type { JsonRow } from '../../../src/runtime/shape.ts';
import type { JsonValue } from '../../../src/model/render.ts';
import { plannedRowCounts } from '../../../src/generation/plan.ts';
import { buildRuntimeTables, type RuntimeColumn } from '../../../src/model/tables.ts';
import { blogConfig } from '../../fixtures/configs.ts';
import { everyOptionConfig } from '../../helpers/every-option-config.ts';
import { parseCsv } from '../../helpers/csv.ts';
import { dialectTargets, generateSource, REFERENCE_DATE, type GeneratedSource } from '../../helpers/runtime-source.ts';
import { uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { loadScript } from '../../helpers/load-script.ts';

const TARGETS = await dialectTargets();
/** schemas/examples/shop.json (distributions, fan-out, after, date shapes, formulas) with at most 1,000 rows a table (one page of the API). */
function smallShop(): SchemaConfig {
  const shop = JSON.parse(fs.readFileSync(new URL('../../../schemas/examples/shop.json', import.meta.url), 'utf8')) as SchemaConfig;
  const rows: Record<string, number> = { customers: 100, addresses: 200, products: 30, orders: 400, orderLines: 1000 };
  for (const entity of shop.entities) entity.generation = { ...entity.generation, rowCount: rows[entity.id]! };
  return shop;
}

const CONFIGS: Array<[string, SchemaConfig]> = [
  ['every option', everyOptionConfig('files')],
  ['blog', { ...blogConfig(), generationDefaults: { ...blogConfig().generationDefaults, seed: 'files' } }],
  ['shop', smallShop()],
];
const options = { referenceDate: REFERENCE_DATE };

/** Rows as comparable texts, in a stable order. */
const sorted = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();

/** How a rendered value is written in CSV. */
function csvText(column: RuntimeColumn, value: JsonValue): string {
  if (value === null) return '';
  if (column.type === 'json') return JSON.stringify(value);
  return String(value);
}

/** What hyparquet reads back for a rendered value, by column type. */
function parquetValue(column: RuntimeColumn, value: JsonValue): unknown {
  if (value === null) return null;
  switch (column.type) {
    case 'datetime':
      return new Date(String(value)).toISOString();
    case 'integer':
      return Number(value);
    default:
      return value;
  }
}

for (const [label, config] of CONFIGS) {
  describe(`${label}: files hold what the databases hold`, () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-files-'));
    const tables = buildRuntimeTables(config, plannedRowCounts(config));
    const sources = new Map<string, GeneratedSource>();

    beforeAll(async () => {
      for (const target of TARGETS) sources.set(target.name, await generateSource(target, config));
      for (const format of ['csv', 'jsonl', 'parquet'] as const) await generateFiles(config, { ...options, out: path.join(folder, format), format });
      await generateFiles(config, { ...options, out: path.join(folder, 'gz'), format: 'csv', gzip: true });
    });
    afterAll(async () => {
      for (const source of sources.values()) await source.drop();
      fs.rmSync(folder, { recursive: true, force: true });
    });

    /** Every table's rows as the database answers them (the first target: both hold the same rows, checked below). */
    const databaseRows = async (table: string, target = TARGETS[0]!.name) => sources.get(target)!.all(table);

    it('both databases hold the same rows', async () => {
      if (TARGETS.length < 2) return;
      for (const table of tables.names) expect(sorted(await databaseRows(table, TARGETS[1]!.name))).toEqual(sorted(await databaseRows(table)));
    });

    it('JSON Lines: every row, every value', async () => {
      for (const table of tables.names) {
        const lines = fs.readFileSync(path.join(folder, 'jsonl', `${table}.jsonl`), 'utf8').split('\n').filter(Boolean);
        expect(sorted(lines.map((line) => JSON.parse(line)))).toEqual(sorted(await databaseRows(table)));
        // Keys in field order, as the API answers.
        if (lines[0]) expect(Object.keys(JSON.parse(lines[0]))).toEqual(tables.get(table).columns.map((column) => column.name));
      }
    });

    it('CSV: a header of field ids, then every value as text, NULL as an empty field', async () => {
      for (const table of tables.names) {
        const columns = tables.get(table).columns;
        const text = fs.readFileSync(path.join(folder, 'csv', `${table}.csv`), 'utf8');
        const [header, ...records] = parseCsv(text);
        expect(header!.map((field) => field.value)).toEqual(columns.map((column) => column.name));
        const fromFile = records.map((record) => record.map((field) => (field.quoted || field.value !== '' ? field.value : null)));
        const fromDatabase = (await databaseRows(table)).map((row) => columns.map((column) => (row[column.name] === null ? null : csvText(column, row[column.name]!))));
        expect(sorted(fromFile)).toEqual(sorted(fromDatabase));
        // Compressed, the same bytes.
        expect(gunzipSync(fs.readFileSync(path.join(folder, 'gz', `${table}.csv.gz`))).toString('utf8')).toBe(text);
      }
    });

    it('Parquet: typed columns holding every value', async () => {
      for (const table of tables.names) {
        const columns = tables.get(table).columns;
        const buffer = fs.readFileSync(path.join(folder, 'parquet', `${table}.parquet`));
        const file = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
        const rows = (await parquetReadObjects({ file, utf8: true })) as Record<string, unknown>[];
        const normalise = (value: unknown): unknown =>
          value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? Number(value) : value;
        const fromFile = rows.map((row) =>
          columns.map((column) => {
            const value = normalise(row[column.name] ?? null);
            if (column.type === 'date' && value !== null) return String(value).slice(0, 10);
            if (column.type === 'time' && typeof value === 'number') return new Date(value).toISOString().slice(11, 19);
            if (column.type === 'json' && typeof value === 'string') return JSON.parse(value);
            // DECIMAL holds the exact unscaled integer; hyparquet divides it into a double.
            if (column.type === 'number' && column.precision !== undefined && typeof value === 'number') return Number(value.toFixed(column.precision));
            return value;
          }),
        );
        const fromDatabase = (await databaseRows(table)).map((row) =>
          columns.map((column) => {
            const value = row[column.name] ?? null;
            if (column.type === 'date' && value !== null) return parseRenderedDate(String(value));
            return parquetValue(column, value);
          }),
        );
        expect(sorted(fromFile)).toEqual(sorted(fromDatabase));
      }
    });

    for (const target of TARGETS) {
      it(`SQL script for ${target.name}: loaded with its own client, the same tables and rows`, async () => {
        const namespace = uniqueNamespace('script');
        const summary = await generateFiles(config, { ...options, out: path.join(folder, `sql-${target.name}`), format: 'sql', dialect: target.name, namespace });
        const script = summary.files[0]!.path;
        loadScript(target.name, target.url, script);
        const source = sources.get(target.name)!;
        const runtime = new Runtime();
        const loaded = { id: namespace, connection: source.connection, namespace, config };
        try {
          for (const table of tables.names) {
            const rows: JsonRow[] = (await runtime.list(loaded, table, 'limit=1000')).data;
            expect(sorted(rows)).toEqual(sorted(await source.all(table)));
          }
        } finally {
          await source.connection.dropNamespace(namespace);
        }
      });
    }
  });
}

/** A rendered date in any output format (iso, slash, sql) → YYYY-MM-DD. */
function parseRenderedDate(text: string): string {
  const slash = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  return slash ? `${slash[3]}-${slash[1]}-${slash[2]}` : text.slice(0, 10);
}
