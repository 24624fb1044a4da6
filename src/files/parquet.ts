// Parquet: one file per table, written a row group at a time (bounded memory), with column types
// that match the field types: strings, text, enums and uuids as UTF-8 strings, integers as INT32
// (INT64 where the column is big), decimals with a precision as DECIMAL(18 + p, p), other numbers
// as DOUBLE, booleans, dates as DATE, datetimes as TIMESTAMP(millis, UTC), times as TIME(millis),
// json as JSON text. Values come rendered as the runtime API renders them (src/model/render.ts).
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { unhandledFieldType } from '../contract.ts';
import type { ColumnSpec } from '../model/table-spec.ts';
import { parseDate } from '../model/temporal.ts';
import type { JsonValue } from '../model/render.ts';

/** Rows per row group: large enough for good compression, small enough to keep memory flat. */
export const PARQUET_ROW_GROUP = 65_536;

const DAY_MS = 86_400_000;

interface ParquetColumn {
  element: SchemaElement;
  /** A rendered non-null value as the value the writer takes for this column. */
  convert(value: JsonValue): unknown;
}

function parquetColumn(column: ColumnSpec): ParquetColumn {
  const repetition_type = column.nullable ? 'OPTIONAL' : 'REQUIRED';
  const name = column.name;
  switch (column.type) {
    case 'string':
    case 'text':
    case 'enum':
    case 'uuid':
      return { element: { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type }, convert: (value) => String(value) };
    case 'json':
      // A JSON document, kept as its text (null documents of a required column included).
      return { element: { name, type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: 'OPTIONAL' }, convert: (value) => value };
    case 'integer':
      return column.big
        ? { element: { name, type: 'INT64', repetition_type }, convert: (value) => BigInt(value as number | string) }
        : { element: { name, type: 'INT32', repetition_type }, convert: (value) => Number(value) };
    case 'number': {
      if (column.precision === undefined) return { element: { name, type: 'DOUBLE', repetition_type }, convert: (value) => Number(value) };
      const scale = column.precision;
      const factor = 10 ** scale;
      return {
        element: { name, type: 'FIXED_LEN_BYTE_ARRAY', type_length: decimalBytes(18 + scale), converted_type: 'DECIMAL', precision: 18 + scale, scale, repetition_type },
        // A number of at most `scale` places goes as it is: the writer scales it by Math.round(value *
        // 10^scale), exact when dividing back gives the number. Others go as their unscaled digits.
        convert: (value) => (typeof value === 'number' && Math.abs(value) < DECIMAL_DIRECT && Math.round(value * factor) / factor === value ? value : unscaled(value, scale)),
      };
    }
    case 'boolean':
      return { element: { name, type: 'BOOLEAN', repetition_type }, convert: (value) => value === true };
    case 'date':
      return {
        element: { name, type: 'INT32', converted_type: 'DATE', repetition_type },
        convert: (value) => Math.floor(Date.parse(`${parseDate(String(value)) ?? String(value)}T00:00:00Z`) / DAY_MS),
      };
    case 'datetime':
      return {
        element: { name, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' }, converted_type: 'TIMESTAMP_MILLIS', repetition_type },
        convert: (value) => BigInt(Date.parse(String(value))),
      };
    case 'time':
      return {
        element: { name, type: 'INT32', converted_type: 'TIME_MILLIS', repetition_type },
        convert: (value) => {
          const [hours, minutes, seconds] = String(value).split(':').map(Number);
          return ((hours! * 60 + minutes!) * 60 + seconds!) * 1000;
        },
      };
  }
  return unhandledFieldType(column.type);
}

/** Numbers below this magnitude are scaled by the writer (far from 2^53 once scaled). */
const DECIMAL_DIRECT = 1e9;

/** Bytes of a two's-complement integer holding `digits` decimal digits. */
function decimalBytes(digits: number): number {
  return Math.ceil((Math.log2(10) * digits + 1) / 8);
}

/** A decimal's unscaled integer (12.34 at scale 2 → 1234n), exact for the digits the value prints. */
function unscaled(value: JsonValue, scale: number): bigint {
  const text = typeof value === 'number' ? toPlain(value) : String(value);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const digits = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return negative ? -digits : digits;
}

/** A number's decimal text without an exponent. */
function toPlain(value: number): string {
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}

/** Writes a table's rows as Parquet to `write`, a row group at a time. */
export class ParquetTableWriter {
  readonly #columns: ParquetColumn[];
  readonly #specs: readonly ColumnSpec[];
  readonly #writer: ParquetWriter;
  readonly #bytes: ByteWriter;
  readonly #chunks: Uint8Array[] = [];
  #buffered: unknown[][];
  #rows = 0;

  constructor(columns: readonly ColumnSpec[], createdBy: string) {
    this.#specs = columns;
    this.#columns = columns.map(parquetColumn);
    this.#buffered = this.#columns.map(() => []);
    const bytes = (this.#bytes = new ByteWriter(1 << 20));
    // Each row group's bytes are handed out as they are written, so the writer holds one group at most.
    const chunks = this.#chunks;
    (bytes as ByteWriter & { flush(): void }).flush = () => {
      chunks.push(new Uint8Array(bytes.buffer.slice(0, bytes.index)));
      bytes.index = 0;
    };
    const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }, ...this.#columns.map((column) => column.element)];
    this.#writer = new ParquetWriter({ writer: bytes, schema, codec: 'SNAPPY', createdBy });
  }

  /** Adds one row (rendered values in column order); returns bytes ready to be written, if any. */
  add(values: readonly JsonValue[]): Uint8Array[] {
    for (let index = 0; index < this.#columns.length; index++) {
      const value = values[index];
      this.#buffered[index]!.push(value === null || value === undefined ? null : this.#columns[index]!.convert(value));
    }
    if (++this.#rows < PARQUET_ROW_GROUP) return [];
    return this.#flushGroup();
  }

  /** The rest of the file: the last row group, indexes, metadata and footer. */
  finish(): Uint8Array[] {
    const out = this.#rows > 0 ? this.#flushGroup() : [];
    this.#writer.finish();
    (this.#bytes as ByteWriter & { flush(): void }).flush();
    return [...out, ...this.#take()];
  }

  #flushGroup(): Uint8Array[] {
    const columnData = this.#specs.map((column, index) => ({ name: column.name, data: this.#buffered[index]! }));
    void this.#writer.write({ columnData, rowGroupSize: Math.max(1, this.#rows) });
    this.#buffered = this.#columns.map(() => []);
    this.#rows = 0;
    return this.#take();
  }

  #take(): Uint8Array[] {
    return this.#chunks.splice(0, this.#chunks.length);
  }
}
