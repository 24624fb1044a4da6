// PostgreSQL's binary COPY format (COPY … FROM STDIN (FORMAT binary)): a signature, then each row
// as a field count and each field as its length and its bytes in the type's binary form (send/recv),
// then -1. Measured against the text format (scripts/bench-loaders.ts, docs/benchmarks.md); the
// loader uses it only when asked (`copyFormat: 'binary'`).
//
// Every column type has a binary form here (binaryRowWriter answers undefined for a table that has
// one without: such tables load as text), and values load in the shapes the generator makes:
// any other value (a datetime with an offset, an integer as a string) fails the load with a message
// naming it, where the text format would have let PostgreSQL parse it.
import type { ColumnSpec, TableSpec } from '../../model/table-spec.ts';
import type { RowValue, RowValues } from '../../model/row-value.ts';
import { numberText } from '../bulk-text.ts';

/** The binary COPY header: signature, flags, header extension length. */
export const BINARY_COPY_HEADER = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
/** The trailer: a field count of -1. */
export const BINARY_COPY_TRAILER = Buffer.from([0xff, 0xff]);

/** Chunks are handed out at about this size. */
const CHUNK_BYTES = 64 * 1024;

/** Microseconds and days between 1970-01-01 and PostgreSQL's epoch, 2000-01-01. */
const EPOCH_MS = Date.UTC(2000, 0, 1);
const EPOCH_DAYS = EPOCH_MS / 86_400_000;

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;
const UUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;

/** Bytes being filled: rows are written at `at`, and full chunks taken. */
export class BinaryChunks {
  #buffer = Buffer.allocUnsafe(CHUNK_BYTES * 2);
  #at = 0;
  readonly #full: Buffer[] = [];

  /** Room for `bytes` more bytes at `at`. */
  reserve(bytes: number): void {
    if (this.#at + bytes <= this.#buffer.length) return;
    if (this.#at > 0) this.#full.push(this.#buffer.subarray(0, this.#at));
    this.#buffer = Buffer.allocUnsafe(Math.max(CHUNK_BYTES * 2, bytes));
    this.#at = 0;
  }

  get buffer(): Buffer {
    return this.#buffer;
  }

  get at(): number {
    return this.#at;
  }

  set at(at: number) {
    this.#at = at;
  }

  /** Chunks filled so far (with `all`, the bytes of the current one too). */
  take(all: boolean): Buffer[] {
    if ((all && this.#at > 0) || this.#at >= CHUNK_BYTES) {
      this.#full.push(this.#buffer.subarray(0, this.#at));
      this.#buffer = this.#buffer.length - this.#at >= CHUNK_BYTES ? this.#buffer.subarray(this.#at) : Buffer.allocUnsafe(CHUNK_BYTES * 2);
      this.#at = 0;
    }
    return this.#full.splice(0);
  }
}

/** Writes one non-null value (its length and bytes) into `out`. */
type FieldWriter = (value: RowValue, out: BinaryChunks) => void;

function fixed(bytes: number, write: (buffer: Buffer, at: number, value: RowValue) => void): FieldWriter {
  return (value, out) => {
    out.reserve(4 + bytes);
    const buffer = out.buffer;
    const at = out.at;
    buffer.writeInt32BE(bytes, at);
    write(buffer, at + 4, value);
    out.at = at + 4 + bytes;
  };
}

/** UTF-8 text (text, varchar, and json's text after its version byte). */
function textField(prefix?: number): FieldWriter {
  const extra = prefix === undefined ? 0 : 1;
  return (value, out) => {
    const text = typeof value === 'string' ? value : String(value);
    out.reserve(4 + extra + text.length * 3);
    const buffer = out.buffer;
    const at = out.at;
    if (prefix !== undefined) buffer[at + 4] = prefix;
    const written = buffer.write(text, at + 4 + extra);
    buffer.writeInt32BE(written + extra, at);
    out.at = at + 4 + extra + written;
  };
}

/** An integer of at most 2^53 as a big-endian int64, without a BigInt. */
function writeInt64(buffer: Buffer, at: number, value: number): void {
  const high = Math.floor(value / 4_294_967_296);
  buffer.writeInt32BE(high, at);
  buffer.writeUInt32BE(value - high * 4_294_967_296, at + 4);
}

function refuse(column: ColumnSpec, value: RowValue): never {
  throw new Error(`binary COPY cannot encode ${JSON.stringify(String(value))} of ${column.name} (${column.type})`);
}

function integerOf(column: ColumnSpec, value: RowValue): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value)) return Number(value);
  return refuse(column, value);
}

function fieldWriter(column: ColumnSpec): FieldWriter | undefined {
  switch (column.type) {
    case 'string':
    case 'text':
    case 'enum':
      return textField();
    case 'json': {
      // jsonb's binary form: version 1, then the JSON text.
      const write = textField(1);
      return (value, out) => write(JSON.stringify(value), out);
    }
    case 'boolean':
      return fixed(1, (buffer, at, value) => {
        if (typeof value !== 'boolean') refuse(column, value);
        buffer[at] = value ? 1 : 0;
      });
    case 'integer':
      return column.big
        ? fixed(8, (buffer, at, value) => buffer.writeBigInt64BE(typeof value === 'bigint' ? value : BigInt(integerOf(column, value)), at))
        : fixed(4, (buffer, at, value) => {
            const number = integerOf(column, value);
            if (number < -2_147_483_648 || number > 2_147_483_647) refuse(column, value);
            buffer.writeInt32BE(number, at);
          });
    case 'number': {
      if (column.precision !== undefined) {
        // numeric: the decimal the text format sends, as base-10000 digits; the server rounds it to
        // the column's scale as it rounds text.
        const decimal = numberText(column.precision);
        return (value, out) => {
          const text = typeof value === 'number' ? decimal(value) : typeof value === 'bigint' ? String(value) : typeof value === 'string' ? value : undefined;
          const numeric = text === undefined ? undefined : numericDigits(text);
          if (!numeric) return refuse(column, value);
          const bytes = 8 + numeric.digits.length * 2;
          out.reserve(4 + bytes);
          const buffer = out.buffer;
          let at = out.at;
          buffer.writeInt32BE(bytes, at);
          buffer.writeInt16BE(numeric.digits.length, at + 4);
          buffer.writeInt16BE(numeric.weight, at + 6);
          buffer.writeUInt16BE(numeric.sign, at + 8);
          buffer.writeUInt16BE(numeric.scale, at + 10);
          at += 12;
          for (const digit of numeric.digits) {
            buffer.writeInt16BE(digit, at);
            at += 2;
          }
          out.at = at;
        };
      }
      return fixed(8, (buffer, at, value) => {
        if (typeof value !== 'number') refuse(column, value);
        // The text format sends String(-0), "0": so does this.
        buffer.writeDoubleBE(value === 0 ? 0 : value, at);
      });
    }
    case 'datetime':
      return fixed(8, (buffer, at, value) => {
        // The generator's instants are 'YYYY-MM-DDTHH:mm:ss.sssZ' (24 characters): checked by a glance, others by the pattern.
        const ms =
          typeof value === 'string' && ((value.length === 24 && value.charCodeAt(10) === 84 && value.charCodeAt(23) === 90) || DATETIME.test(value))
            ? Date.parse(value)
            : value instanceof Date
              ? value.getTime()
              : NaN;
        if (Number.isNaN(ms)) refuse(column, value);
        writeInt64(buffer, at, (ms - EPOCH_MS) * 1000);
      });
    case 'date':
      return fixed(4, (buffer, at, value) => {
        const match = typeof value === 'string' ? DATE.exec(value) : null;
        const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : value instanceof Date ? Date.parse(value.toISOString().slice(0, 10)) : NaN;
        // Date.UTC rolls 2024-02-30 over into March, where the text format refuses it.
        if (Number.isNaN(ms) || (match && new Date(ms).toISOString().slice(0, 10) !== value)) refuse(column, value);
        buffer.writeInt32BE(ms / 86_400_000 - EPOCH_DAYS, at);
      });
    case 'time':
      return fixed(8, (buffer, at, value) => {
        const match = typeof value === 'string' ? TIME.exec(value) : null;
        if (!match) return refuse(column, value);
        const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3])];
        if (hours > 24 || minutes > 59 || seconds > 59 || (hours === 24 && (minutes > 0 || seconds > 0 || match[4] !== undefined))) refuse(column, value);
        const micros = Number((match[4] ?? '').padEnd(6, '0'));
        writeInt64(buffer, at, ((hours * 60 + minutes) * 60 + seconds) * 1_000_000 + micros);
      });
    case 'uuid':
      return fixed(16, (buffer, at, value) => {
        if (typeof value !== 'string' || !UUID.test(value)) refuse(column, value);
        buffer.write(value.replaceAll('-', ''), at, 16, 'hex');
      });
  }
  return undefined;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * A decimal's text (`-12.5`, `1e+21`, `NaN`) as numeric's binary fields: base-10000 digits, the
 * weight of the first, the sign, and the display scale (the digits after the point it has).
 */
export function numericDigits(text: string): { digits: number[]; weight: number; sign: number; scale: number } | undefined {
  if (text === 'NaN') return { digits: [], weight: 0, sign: 0xc000, scale: 0 };
  const match = DECIMAL.exec(text);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined;
  const exponent = Number(match[4] ?? 0);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 1000) return undefined;
  let mantissa = match[2]! + (match[3] ?? '');
  let scale = (match[3] ?? '').length - exponent;
  if (scale < 0) {
    mantissa += '0'.repeat(-scale);
    scale = 0;
  }
  const whole = mantissa.length > scale ? mantissa.slice(0, mantissa.length - scale) : '0';
  const fraction = mantissa.length > scale ? mantissa.slice(mantissa.length - scale) : mantissa.padStart(scale, '0');
  const wholeText = whole.padStart(Math.ceil(whole.length / 4) * 4, '0');
  const fractionText = fraction.padEnd(Math.ceil(fraction.length / 4) * 4, '0');
  const digits: number[] = [];
  for (let at = 0; at < wholeText.length; at += 4) digits.push(Number(wholeText.slice(at, at + 4)));
  let weight = digits.length - 1;
  for (let at = 0; at < fractionText.length; at += 4) digits.push(Number(fractionText.slice(at, at + 4)));
  while (digits.length > 0 && digits[0] === 0) {
    digits.shift();
    weight--;
  }
  while (digits.length > 0 && digits[digits.length - 1] === 0) digits.pop();
  // Zero has no digits, and no sign.
  if (digits.length === 0) return { digits, weight: 0, sign: 0, scale };
  return { digits, weight, sign: match[1] === '-' ? 0x4000 : 0, scale };
}

/** Writes a row of the table in binary COPY form; undefined when a column has no binary form here. */
export function binaryRowWriter(table: TableSpec): ((row: RowValues, out: BinaryChunks) => void) | undefined {
  const writers = table.columns.map(fieldWriter);
  if (writers.some((writer) => writer === undefined)) return undefined;
  const fields = writers as FieldWriter[];
  const count = fields.length;
  return (row, out) => {
    out.reserve(2);
    out.buffer.writeInt16BE(count, out.at);
    out.at += 2;
    for (let index = 0; index < count; index++) {
      const value = row[index];
      if (value === null || value === undefined) {
        out.reserve(4);
        out.buffer.writeInt32BE(-1, out.at);
        out.at += 4;
      } else fields[index]!(value, out);
    }
  };
}
