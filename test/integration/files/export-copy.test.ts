// A CSV export PostgreSQL writes itself (COPY … TO STDOUT) is byte for byte the file the cursor path
// encodes in JavaScript, for every value a column of each type can hold, awkward ones included
// (quotes, commas, line breaks, empty strings, NULL, non-ASCII, integers past 2^53, fractional
// seconds, BC and five-digit years, infinity); exports COPY cannot write go through the cursor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import type { TargetConnection } from '../../../src/dialects/dialect.ts';
import { connectPostgres } from '../../../src/dialects/postgres/postgres-dialect.ts';
import { compileCsvCopy } from '../../../src/runtime/compile.ts';
import { crlfRowEnds, exportTable } from '../../../src/runtime/export.ts';
import { parseQuery } from '../../../src/runtime/parse-query.ts';
import { planExport } from '../../../src/runtime/plan.ts';
import { plannedRowCounts } from '../../../src/generation/plan.ts';
import { buildRuntimeTables, type RuntimeTables } from '../../../src/model/tables.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

const NAMESPACE = 'sds_copy_export';

const config = {
  formatVersion: 1,
  generationDefaults: { rowCount: 10, seed: 'copy' },
  entities: [
    {
      id: 'things',
      primaryKey: ['id'],
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'name', type: 'string', nullable: true },
        { id: 'note', type: 'text', nullable: true },
        { id: 'kind', type: 'enum', values: ['a', 'b,c', 'd"e'], nullable: true },
        { id: 'flag', type: 'boolean', nullable: true },
        { id: 'big', type: 'integer', min: -9223372036854775808, max: 9223372036854775807, nullable: true },
        { id: 'uid', type: 'uuid', nullable: true },
        { id: 'at', type: 'datetime', nullable: true },
        { id: 'day', type: 'date', nullable: true },
        { id: 'slashDay', type: 'date', outputFormat: 'slash', nullable: true },
        { id: 'clock', type: 'time', nullable: true },
        { id: 'price', type: 'number', nullable: true },
      ],
    },
  ],
} as unknown as SchemaConfig;

/** Rows of awkward values (SQL literals, in the column order above). */
const ROWS = [
  `1, 'plain', 'text', 'a', true, 1, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', '2024-01-31 12:00:00.5+00', '2024-01-31', '2024-01-31', '12:34:56.789', 1.5`,
  `2, '', '', 'b,c', false, 9007199254740993, NULL, '2024-02-29 23:59:59.999999+00', '0044-03-15 BC', '0044-03-15 BC', '00:00:00', 0.1`,
  `3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL`,
  `4, 'with, comma', E'line\\nbreak', 'd"e', true, -9223372036854775808, 'ffffffff-ffff-ffff-ffff-ffffffffffff', '0044-03-15 10:00:00+00 BC', '10000-01-01', '10000-01-01', '23:59:59.999999', 1e21`,
  `5, 'quote "inside"', E'carriage\\rreturn', 'a', false, 0, '00000000-0000-0000-0000-000000000000', '10000-01-01 00:00:00+00', 'infinity', '-infinity', '24:00:00', 1e-7`,
  `6, 'naïve café 漢字 🙂', E'"quoted\\r\\nfield",', 'a', true, 42, NULL, 'infinity', '0001-01-01', '0001-01-01', '01:02:03', NULL`,
  `7, E'\\\\.', '\\.', 'a', true, 7, NULL, '-infinity', '9999-12-31', '9999-12-31', '13:14:15', -0.0`,
  `8, '  spaced  ', E'tab\\there', 'a', NULL, 8, NULL, '2000-01-01 00:00:00.000001+00', '2000-01-01', '2000-01-01', '00:00:00.5', 123456789.125`,
  `9, '=1+1', E'\\t@x', 'a', true, -9, NULL, NULL, NULL, NULL, NULL, -1`,
];

let database: TestDatabase;
let connection: TargetConnection;
let tables: RuntimeTables;

beforeAll(async () => {
  database = await createTestDatabase('export_copy');
  connection = await connectPostgres(database.url, { queryTimeoutMs: 10_000 });
  tables = buildRuntimeTables(config, plannedRowCounts(config));
  await connection.query(`CREATE SCHEMA "${NAMESPACE}"`, []);
  await connection.createTables(NAMESPACE, [tables.get('things').spec]);
  // Bigger than one piece of COPY output (64 KiB), so row ends and quoted fields fall on piece boundaries.
  const values = Array.from({ length: 400 }, (_, copy) => ROWS.map((row) => `(${Number(row.split(',')[0]) + copy * 10}${row.slice(row.indexOf(','))})`)).flat();
  await connection.query(`INSERT INTO "${NAMESPACE}"."things" VALUES ${values.join(',\n')}`, []);
}, 60_000);

afterAll(async () => {
  await connection?.close();
  await database?.drop();
});

const context = (withCopy: boolean) => ({
  connection: withCopy ? connection : ({ dialect: connection.dialect, streamRows: connection.streamRows.bind(connection) } as unknown as TargetConnection),
  namespace: NAMESPACE,
  table: tables.get('things'),
  tables,
});

async function exported(query: string, withCopy: boolean): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of exportTable(context(withCopy), parseQuery(query), 'csv').chunks) pieces.push(Buffer.from(piece));
  return Buffer.concat(pieces);
}

const usesCopy = (query: string) =>
  compileCsvCopy(connection.dialect, NAMESPACE, planExport(parseQuery(query), tables.get('things')), tables.get('things'), { formulaEscape: parseQuery(query).csvFormulaEscape !== false }) !==
  undefined;

describe('CSV exports written by COPY', () => {
  const copied = 'fields=id,name,note,kind,flag,big,uid,at,day,clock';

  it('are byte for byte the cursor path\'s file, awkward values included', async () => {
    expect(usesCopy(copied)).toBe(true);
    const [byCopy, byCursor] = [await exported(copied, true), await exported(copied, false)];
    expect(byCursor.length).toBeGreaterThan(200_000);
    expect(byCopy.equals(byCursor)).toBe(true);
    const text = byCopy.toString('utf8');
    expect(text.startsWith('id,name,note,kind,flag,big,uid,at,day,clock\r\n1,plain,text,a,true,1,a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11,2024-01-31T12:00:00.500Z,2024-01-31,12:34:56\r\n')).toBe(true);
    expect(text).toContain('\r\n2,"","","b,c",false,9007199254740993,,2024-02-29T23:59:59.999Z,0044-03-15,00:00:00\r\n');
    expect(text).toContain('\r\n6,naïve café 漢字 🙂,"""quoted\r\nfield"",",a,true,42,,infinity,0001-01-01,01:02:03\r\n');
  });

  it('escape spreadsheet formulas in text cells as the cursor path does, and not with csvFormulaEscape=false', async () => {
    for (const query of [copied, `${copied}&csvFormulaEscape=false`]) {
      expect(usesCopy(query), query).toBe(true);
      expect((await exported(query, true)).equals(await exported(query, false)), query).toBe(true);
    }
    expect((await exported(copied, true)).toString('utf8')).toContain("\r\n9,'=1+1,'\t@x,a,true,-9,,,,\r\n");
    expect((await exported(`${copied}&csvFormulaEscape=false`, true)).toString('utf8')).toContain('\r\n9,=1+1,\t@x,a,true,-9,,,,\r\n');
  });

  it('sorted descending by a column whose text sorts differently (integers): the table\'s order, not the text\'s', async () => {
    const query = `${copied}&sort=big:desc,id:asc`;
    expect(usesCopy(query)).toBe(true);
    expect((await exported(query, true)).equals(await exported(query, false))).toBe(true);
  });

  it('are left to the cursor where COPY would differ: numbers, other date formats, one column, filter values', async () => {
    for (const query of ['', 'fields=id,price', 'fields=id,slashDay', 'fields=name', `${copied}&filters[kind][$eq]=a`, `${copied}&limit=5`]) {
      expect(usesCopy(query), query).toBe(false);
    }
    const text = (await exported('fields=id,price&sort=id', true)).toString('utf8');
    expect(text).toContain('\r\n4,1e+21\r\n');
    expect(text).toContain('\r\n5,1e-7\r\n');
  });
});

describe('crlfRowEnds', () => {
  it('makes row ends CRLF and leaves line breaks inside quoted fields, wherever the pieces are cut', () => {
    const csv = Buffer.from('a,"x\ny"\n"say ""hi""\n",b\n"",\nplain,ü\n', 'utf8');
    const expected = 'a,"x\ny"\r\n"say ""hi""\n",b\r\n"",\r\nplain,ü\r\n';
    for (let first = 0; first <= csv.length; first++) {
      for (let second = first; second <= csv.length; second++) {
        const convert = crlfRowEnds();
        const out = [csv.subarray(0, first), csv.subarray(first, second), csv.subarray(second)].map((piece) => Buffer.from(convert(piece)));
        expect(Buffer.concat(out).toString('utf8'), `cut at ${first}, ${second}`).toBe(expected);
      }
    }
  });
});
