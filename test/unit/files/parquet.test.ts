// Parquet columns of decimals and dates: numbers the writer scales itself and numbers given as
// their unscaled digits, real dates and texts that are not dates, all read back as written.
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import type { ColumnSpec } from '../../../src/model/table-spec.ts';
import { ParquetTableWriter } from '../../../src/files/parquet.ts';
import type { JsonValue } from '../../../src/model/render.ts';

async function roundTrip(columns: ColumnSpec[], rows: JsonValue[][]): Promise<Record<string, unknown>[]> {
  const writer = new ParquetTableWriter(columns, 'test');
  const chunks = [...rows.flatMap((row) => writer.add(row)), ...writer.finish()];
  const bytes = Buffer.concat(chunks);
  return (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), utf8: true })) as Record<string, unknown>[];
}

describe('Parquet columns', () => {
  it('holds each decimal exactly, whether the writer scales it or it goes as its digits', async () => {
    const values = [12.34, -0.05, 0, 1999.99, 0.1 + 0.2, 123456789.5, 1e12 + 0.25, -987654321098.76, '42.10', 5e-7, 0.125, -2.675];
    const rows = await roundTrip([{ name: 'price', type: 'number', precision: 2, nullable: true }], values.map((value) => [value]));
    // Digits past the scale are cut, as the unscaled digits of the number's text always were.
    const want = [12.34, -0.05, 0, 1999.99, 0.3, 123456789.5, 1e12 + 0.25, -987654321098.76, 42.1, 0, 0.12, -2.67];
    expect(rows.map((row) => Number((row.price as number).toFixed(2)))).toEqual(want);
  });

  it('holds each date as its day, real dates and other texts alike', async () => {
    const values = ['2024-02-29', '1970-01-01', '1969-12-31', '9999-12-31', '1000-01-01', '02/29/2024', '2024-03-01 00:00:00'];
    const rows = await roundTrip([{ name: 'day', type: 'date', nullable: true }], values.map((value) => [value]));
    const want = ['2024-02-29', '1970-01-01', '1969-12-31', '9999-12-31', '1000-01-01', '2024-02-29', '2024-03-01'];
    expect(rows.map((row) => new Date(row.day as Date).toISOString().slice(0, 10))).toEqual(want);
  });
});
