// The value maker of generator version 4's lifecycle rules (which column is what is lifecycles.ts):
// a time drawn from its stage's window (births 18–90 years back on people, foundings decades back,
// activity over recent years, more of it recent), kept after the latest earlier column of its row
// and after every parent's created time, a short gap after them for stages that follow closely
// (shipped days after ordered), never after the reference date when it is a fact, and null where
// the row's status says the stage has not happened.
import type { RowValue } from '../../model/row-value.ts';
import type { Entity, Field } from '../../model/config-types.ts';
import type { EntityContext, KeyPool, ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';
import type { RuleMaker } from './field-rule.ts';
import { dayOfText, instantOf } from '../coherence/time.ts';
import { rowIndexOf } from '../parent-lookups.ts';
import { DAY_MS, formatDay, formatInstant, localDay, wallToInstant } from '../values/dates.ts';
import { lifecycleOf, peopleLike, type Lifecycle } from './lifecycles.ts';

const YEAR_MS = 365.25 * DAY_MS;
/** Draws per uniqueness attempt (a few per value). */
const DRAWS = 8;

/** The instant a stored date (its local midnight) or datetime stands for, or NaN. */
export function timeMs(value: RowValue | undefined, zone: string): number {
  if (typeof value !== 'string') return Number.NaN;
  if (value.length === 10) return wallToInstant(dayOfText(value) * DAY_MS, zone);
  return instantOf(value);
}

/**
 * The last time each lifecycle column of an entity made, with its instant: later columns of the row
 * read an earlier one's instant from here instead of parsing its text again. A hit needs the very
 * text (`===`), and the instant stored is what timeMs gives for that text, so reading never changes
 * a value; a miss (another program made the column, or a row of another maker) parses as before.
 */
class MadeTimes {
  readonly #texts: (string | undefined)[] = [];
  readonly #days: number[] = [];
  readonly #instants: number[] = [];
  constructor(readonly zone: string) {}

  /** A datetime text made from the whole millisecond `ms` (formatInstant's 24 characters only). */
  instant(index: number, text: string, ms: number): void {
    if (text.length !== 24) return;
    this.#texts[index] = text;
    this.#instants[index] = ms;
  }

  /** A date text of the local `day`; its instant (local midnight) is worked out when first read. */
  day(index: number, text: string, day: number): void {
    if (text.length !== 10) return;
    this.#texts[index] = text;
    this.#days[index] = day;
    this.#instants[index] = Number.NaN;
  }

  timeMs(index: number, value: RowValue | undefined): number {
    if (value === undefined || value === null || this.#texts[index] !== value) return timeMs(value, this.zone);
    let ms = this.#instants[index]!;
    if (Number.isNaN(ms)) this.#instants[index] = ms = wallToInstant(this.#days[index]! * DAY_MS, this.zone);
    return ms;
  }
}

const madeTimes = new WeakMap<EntityContext, MadeTimes>();

/**
 * The instant of the created time of the parent a row references (NaN when none): each parent row's
 * time is read once (children of one parent are many, and rows of several columns read it).
 */
function parentInstants(keys: KeyPool, times: KeyPool, zone: string): (key: RowValue | undefined) => number {
  let rowOf: ((key: RowValue) => number | undefined) | undefined;
  let instants: Float64Array | undefined;
  let known: Uint8Array | undefined;
  return (key) => {
    if (key === null || key === undefined) return Number.NaN;
    // Built on first use: the parent's keys are complete by the time its children are made.
    const row = (rowOf ??= rowIndexOf(keys))(key);
    if (row === undefined) return Number.NaN;
    instants ??= new Float64Array(keys.size);
    known ??= new Uint8Array(keys.size);
    if (known[row] === 0) {
      instants[row] = timeMs(times.at(row), zone);
      known[row] = 1;
    }
    return instants[row]!;
  };
}

/** [from, to] instants of a stage's own window, as offsets back from the reference date. */
export function windowBack(life: Lifecycle, entity: Entity): [number, number] | undefined {
  switch (life.window) {
    case 'birth':
      return peopleLike(entity) ? [18 * YEAR_MS, 90 * YEAR_MS] : [30 * DAY_MS, 20 * YEAR_MS];
    case 'founded':
      return [4 * YEAR_MS, 100 * YEAR_MS];
    case 'activity':
      return [0, (life.stage?.spanYears ?? 5) * YEAR_MS];
    case 'future':
      return undefined;
  }
}

/** How far back a value of the window lies, from a uniform draw: births uniform, foundings log-uniform, activity mostly recent. */
function back(life: Lifecycle, range: [number, number], u: number): number {
  const [low, high] = range;
  if (life.window === 'founded') return Math.exp(Math.log(low) + u * (Math.log(high) - Math.log(low)));
  // u^1.5 (a third of the values in the last of five years), without Math.pow: it runs for every row.
  if (life.window === 'activity') return high * u * Math.sqrt(u);
  return low + u * (high - low);
}

/** Whether the lifecycle rules have anything to say about a column (a window, an earlier column, a parent or a status). */
export function lifecycleApplies(life: Lifecycle | undefined): life is Lifecycle {
  return life !== undefined && (life.window !== 'future' || life.earlier.length > 0 || life.status !== undefined);
}

/** The program of a date column by its lifecycle; declines columns the rules say nothing of. */
export const lifecycleTime: RuleMaker = (context, field, stream, next) => {
  if (field.weekdaysOnly) return undefined;
  const life = lifecycleOf(context.entity, field, context.entities, context.plan.deferredColumns, context.version);
  if (!lifecycleApplies(life)) return undefined;
  return lifecycleProgram(context, field, stream, life, next);
};

function lifecycleProgram(context: EntityContext, field: Field, stream: RandomStream, life: Lifecycle, next: () => ValueProgram): ValueProgram {
  const zone = context.plan.timezone;
  const now = context.referenceMs;
  const range = windowBack(life, context.entity);
  const own = range ? undefined : next();
  const gap = life.gap;
  const afterBirth = (life.stage?.afterBirthDays ?? 0) * DAY_MS;
  const parents = life.parents.flatMap((anchor) => {
    const keys = context.keyPool(anchor.parent, anchor.parentKey);
    const times = context.keyPool(anchor.parent, anchor.parentTime);
    return keys && times ? [{ reference: anchor.reference, time: parentInstants(keys, times, zone) }] : [];
  });
  const status = life.status;
  // What the value reads: earlier times, references, the status, and whatever the program it falls back to reads.
  const deps = [...new Set([...life.earlier, ...parents.map((parent) => parent.reference), ...(status ? [status.index] : []), ...(own?.deps ?? [])])];
  let made = madeTimes.get(context);
  if (!made || made.zone !== zone) madeTimes.set(context, (made = new MadeTimes(zone)));
  const times = made;
  const index = context.entity.fields.findIndex((candidate) => candidate.id === field.id);
  const format =
    field.type === 'date'
      ? (ms: number) => {
          const day = localDay(ms, zone);
          const text = formatDay(day);
          times.day(index, text, day);
          return text;
        }
      : (ms: number) => {
          const text = formatInstant(ms);
          times.instant(index, text, ms);
          return text;
        };

  return {
    at: (row, values, attempt) => {
      if (status && !status.implying.has(String(values[status.index]))) return null;
      const draw = attempt * DRAWS;
      // The latest earlier time of the row or of a parent: the value is not before it.
      let lower = Number.NEGATIVE_INFINITY;
      for (const index of life.earlier) {
        const ms = times.timeMs(index, values[index]);
        if (ms > lower) lower = ms;
      }
      if (afterBirth > 0 && life.birth >= 0) {
        // A day more than the rule asks: a change of clocks in between never brings it a calendar day short.
        const born = times.timeMs(life.birth, values[life.birth]) + afterBirth + DAY_MS;
        if (born > lower) lower = born;
      }
      for (const parent of parents) {
        const ms = parent.time(values[parent.reference]);
        if (ms > lower) lower = ms;
      }
      const bounded = lower > Number.NEGATIVE_INFINITY;
      let ms: number;
      if (bounded && gap) {
        const u = stream.float53(row, draw);
        ms = lower + (gap[0] + u * u * (gap[1] - gap[0])) * DAY_MS;
      } else if (range) {
        ms = now - back(life, range, stream.float53(row, draw));
        if (bounded && ms < lower) ms = lower + stream.float53(row, draw + 1) * Math.max(0, now - lower);
      } else {
        const value = own!.at(row, values, attempt);
        ms = timeMs(value as RowValue, zone);
        if (!bounded || Number.isNaN(ms)) return value;
        if (ms < lower) ms = lower + stream.float53(row, draw + 1) * Math.max(30 * DAY_MS, now - lower);
      }
      // A fact has happened: after its earlier times and never after the reference date (order wins where both cannot hold).
      if (life.past && ms > now) ms = bounded ? (lower <= now ? lower + stream.float53(row, draw + 2) * (now - lower) : lower) : now;
      return format(Math.floor(ms));
    },
    // Values of its own are typed; the fallback's are passed on as they come when nothing bounds them.
    typed: own?.typed ?? true,
    ...(deps.length > 0 ? { deps } : {}),
  };
}
