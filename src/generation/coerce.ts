// Turns raw program output into the stored value of a field type (dialect.ts conventions): strings
// get prefix, suffix and lengths; numbers their bounds and precision; faker Dates become
// 'YYYY-MM-DD' (local day) or ISO instants. Output that cannot fit the type fails loudly.
import type { RowValue } from '../model/row-value.ts';
import type { Field } from '../model/config-types.ts';
import type { ValueProgram } from './program.ts';
import type { RandomStream } from './random.ts';
import { renderValue } from './templates.ts';
import { fieldBounds, numberFinisher } from './values/numbers.ts';
import { stringFinisher } from './values/strings.ts';
import { boundInstant } from './values/date-programs.ts';
import { DAY_MS, formatDay, formatInstant, formatTimeOfDay, localDay } from './values/dates.ts';

/** Makes the stored value from a raw one; `tag` is a uniqueness suffix for strings ('' for none). */
export type Finisher = (raw: unknown, row: number, tag: string) => RowValue;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_PREFIX = /^\d{4}-\d{2}-\d{2}/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?/;

// ISO text without an offset is a wall-clock time of the entity's zone, as dateRange bounds are.
function parseInstant(text: string, zone: string): number {
  if (!ISO_DATETIME.test(text)) return Date.parse(text);
  try {
    return boundInstant(text, 0, zone, false);
  } catch {
    return Date.parse(text);
  }
}

/** `unique`: the field must stay distinct, so a distinct program (a sequence) is never clamped into repeats. */
export function valueFinisher(field: Field, program: ValueProgram, padStream: RandomStream, zone: string, name: string, unique = false): Finisher {
  if (program.reference) return (raw) => raw as RowValue;
  const typed = program.typed === true;
  const fail = (raw: unknown, what: string): never => {
    throw new Error(`${name} got ${JSON.stringify(renderValue(raw as RowValue))}, which is not ${what}`);
  };
  switch (field.type) {
    case 'string':
    case 'text': {
      const finish = stringFinisher(field, padStream);
      return (raw, row, tag) => finish(typeof raw === 'string' ? raw : renderValue(raw as RowValue), row, tag);
    }
    case 'integer':
    case 'number': {
      if (typed) {
        // Typed programs already round; a strategy's own bounds may still reach past the field's.
        // Clamping would repeat values of a unique sequence: past its bounds, distinct values win.
        // A field's digits (the column's numeric(p, s)) bound it like min and max do.
        if ((field.min === undefined && field.max === undefined && field.digits === undefined) || (program.distinct && unique)) return (raw) => raw as number;
        const integer = field.type === 'integer';
        const [low, high] = fieldBounds(field);
        const min = integer ? Math.ceil(low) : low;
        const max = integer ? Math.floor(high) : high;
        return (raw) => ((raw as number) < min ? min : (raw as number) > max ? max : (raw as number));
      }
      const finish = numberFinisher(field);
      return (raw) => {
        const value = finish(raw, Number.NaN);
        return Number.isFinite(value) ? value : fail(raw, 'a number');
      };
    }
    case 'boolean':
      return typed ? (raw) => raw as boolean : (raw) => raw === true || raw === 'true' || raw === 1;
    case 'date':
      if (typed) return (raw) => raw as string;
      return (raw) => {
        if (raw instanceof Date) return formatDay(localDay(raw.getTime(), zone));
        if (typeof raw === 'number') return formatDay(Math.floor(raw / DAY_MS));
        if (typeof raw === 'string' && DATE_PREFIX.test(raw)) return raw.slice(0, 10);
        return fail(raw, 'a date');
      };
    case 'datetime':
      if (typed) return (raw) => raw as string;
      return (raw) => {
        const ms = raw instanceof Date ? raw.getTime() : typeof raw === 'number' ? raw : typeof raw === 'string' ? parseInstant(raw, zone) : Number.NaN;
        return Number.isFinite(ms) ? formatInstant(ms) : fail(raw, 'a datetime');
      };
    case 'time':
      if (typed) return (raw) => raw as string;
      return (raw) => {
        if (raw instanceof Date) return formatTimeOfDay(Math.floor((raw.getTime() % DAY_MS) / 1000));
        const text = typeof raw === 'string' ? (raw.includes('T') ? raw.slice(raw.indexOf('T') + 1) : raw) : '';
        const match = TIME.exec(text);
        return match ? `${match[1]}:${match[2]}:${match[3] ?? '00'}` : fail(raw, 'a time');
      };
    case 'uuid':
      return (raw) => (typeof raw === 'string' && UUID.test(raw) ? raw.toLowerCase() : fail(raw, 'a uuid'));
    case 'enum': {
      const values = new Set(field.values ?? []);
      return (raw) => (typeof raw === 'string' && values.has(raw) ? raw : fail(raw, `one of ${[...values].join(', ')}`));
    }
    case 'json':
      return (raw) => (raw === undefined ? null : raw instanceof Date ? raw.toISOString() : (raw as RowValue));
  }
}
