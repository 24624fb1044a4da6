// Date order inside a row and after a parent (dateRange `afterField`, `gap`): a value not earlier
// than another date of the row, or that date plus a gap of an observed distribution, so a learned
// pair keeps its order and its spread (returned 1–9 days after rented).
import type { FieldType } from '../../model/config-types.ts';
import type { RowValue } from '../../model/row-value.ts';
import type { ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';
import type { LowerBound } from './date-shapes.ts';
import { storedDay, storedInstant } from './date-shapes.ts';
import { quantileFunction } from './distributions.ts';
import { DAY_MS, formatDay, formatInstant, localDay, wallToInstant } from './dates.ts';

/** The row's own date or datetime field at `index` as a lower bound. */
export function rowBound(index: number, date: boolean): LowerBound {
  const read = date ? storedDay : storedInstant;
  return { deps: [index], date, value: (values: readonly RowValue[]) => read(values[index] ?? null) };
}

/**
 * `inner`'s value kept at or after `bound`: with `gapSeconds` quantiles, the bound plus a drawn gap;
 * without, an earlier value becomes the bound. Where the bound is null, `inner` alone.
 */
export function orderedDateProgram(stream: RandomStream, type: FieldType, zone: string, bound: LowerBound, inner: ValueProgram, gapSeconds: readonly number[] | undefined): ValueProgram {
  const date = type === 'date';
  const gap = gapSeconds && quantileFunction(gapSeconds);
  const read = date ? storedDay : storedInstant;
  /** The bound in this field's unit: a local day for dates, an instant for datetimes. */
  const floorOf = (value: number): number => (bound.date === date ? value : date ? localDay(value, zone) : wallToInstant(value * DAY_MS, zone));
  const deps = [...new Set([...bound.deps, ...(inner.deps ?? [])])];
  return {
    at: (row, values, attempt) => {
      const value = bound.value(values);
      if (value === undefined || !Number.isFinite(value)) return inner.at(row, values, attempt);
      const floor = floorOf(value);
      if (gap) {
        const seconds = Math.max(0, gap(stream.float53(row, attempt)));
        return date ? formatDay(floor + Math.floor(seconds / 86_400)) : formatInstant(floor + Math.round(seconds * 1000));
      }
      const drawn = inner.at(row, values, attempt);
      const own = read(typeof drawn === 'string' ? drawn : null);
      if (Number.isFinite(own) && own >= floor) return drawn;
      return date ? formatDay(floor) : formatInstant(floor);
    },
    typed: true,
    deps,
  };
}
