// The styledText strategy: the text sds's own generator makes for the field (its default program),
// in an observed style: a case, lengths drawn from quantiles, or an email built from the row's
// person in the observed local-part formats at the observed domains. Every draw is a function of
// (seed, entity, field, row, attempt), from a stream of its own.
import type { StrategyOf } from '../../model/config-types.ts';
import type { EntityContext, ValueProgram } from '../program.ts';
import type { RandomStream } from '../random.ts';
import { DRAWS_PER_ATTEMPT } from '../program.ts';
import { RandomCursor } from '../random.ts';
import { rowPerson, personEmail, type Person } from '../coherence/person.ts';

type StyledText = StrategyOf<'styledText'>;
type EmailStyle = NonNullable<StyledText['email']>;
type Format = NonNullable<EmailStyle['formats']>[number]['value'];

/** The program of a styledText strategy over `base`, the field's default program. */
export function styledTextProgram(context: EntityContext, strategy: StyledText, base: ValueProgram, stream: RandomStream): ValueProgram {
  const cursor = new RandomCursor(stream.derive('style'));
  const made = strategy.email ? emailProgram(context, strategy.email, stream.derive('email')) : base;
  const lengths = strategy.email ? undefined : strategy.lengths;
  const cased = caseOf(strategy.case);
  return {
    ...(made.deps && { deps: made.deps }),
    at: (row, values, attempt) => {
      const raw = made.at(row, values, attempt);
      if (typeof raw !== 'string') return raw;
      let value = raw;
      if (lengths && lengths.length >= 2) {
        const target = Math.round(quantile(lengths, cursor.reset(row, attempt * DRAWS_PER_ATTEMPT).float()));
        // Longer text continues with the generator's text of further rows (deterministic, no copying).
        for (let more = 1; value.length < target && more <= 8; more++) {
          const next = made.at(row + more * 1_000_003, values, attempt);
          if (typeof next !== 'string' || next.length === 0) break;
          value = `${value} ${next}`;
        }
        value = cut(value, Math.max(1, target));
      }
      return cased ? cased(value) : value;
    },
  };
}

const title = (text: string) => text.toLowerCase().replace(/(^|[\s\-'’(])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());

function caseOf(style: StyledText['case']): ((text: string) => string) | undefined {
  switch (style) {
    case 'lower':
      return (text) => text.toLowerCase();
    case 'upper':
      return (text) => text.toUpperCase();
    case 'title':
      return title;
    case undefined:
      return undefined;
  }
}

/** Linear interpolation between the quantiles around `u`. */
function quantile(quantiles: readonly number[], u: number): number {
  const position = u * (quantiles.length - 1);
  const i = Math.min(quantiles.length - 2, Math.floor(position));
  return quantiles[i]! + (quantiles[i + 1]! - quantiles[i]!) * (position - i);
}

/** Text cut to at most `length` characters, at the last word boundary when there is one past half of it. */
function cut(text: string, length: number): string {
  if (text.length <= length) return text;
  const head = text.slice(0, length);
  const space = head.lastIndexOf(' ');
  const kept = space >= length / 2 ? head.slice(0, space) : head;
  return kept.replace(/[\s,;:]+$/, '');
}

/** An email of the row's person, in a format drawn from the observed ones, at an observed domain (or sds's own). */
function emailProgram(context: EntityContext, style: EmailStyle, stream: RandomStream): ValueProgram {
  const person = rowPerson(context);
  const cursor = new RandomCursor(stream);
  const own = context.words.emailDomains;
  const domains = style.domains ?? [];
  const domainTotal = domains.reduce((sum, domain) => sum + domain.weight, 0) + (domains.length === 0 ? 1 : (style.otherDomains ?? 0));
  const formats = style.formats ?? [{ value: 'other' as const, weight: 1 }];
  const formatTotal = formats.reduce((sum, format) => sum + format.weight, 0);
  const digits = style.digits ?? 0;
  return {
    at: (row, _values, attempt) => {
      const subject = person(row, 0);
      cursor.reset(row, attempt * DRAWS_PER_ATTEMPT);
      const format = pick(formats, formatTotal, cursor.float());
      let u = cursor.float() * domainTotal;
      let domain: string | undefined;
      for (const entry of domains) if ((u -= entry.weight) < 0 && domain === undefined) domain = entry.value;
      domain ??= own[cursor.index(own.length)] ?? 'example.com';
      const suffix = attempt > 0 ? String(cursor.int(1, 10 ** Math.min(2 + attempt, 9))) : cursor.chance(digits) ? String(cursor.int(1, 99)) : '';
      if (format === 'other') return personEmail(subject, cursor, [domain], attempt);
      return `${localPart(subject, format)}${suffix}@${domain}`;
    },
  };
}

function pick<T>(choices: readonly { value: T; weight: number }[], total: number, u: number): T {
  let left = u * total;
  for (const choice of choices) if ((left -= choice.weight) < 0) return choice.value;
  return choices.at(-1)!.value;
}

function localPart(person: Person, format: Exclude<Format, 'other'>): string {
  const first = person.firstAscii || 'user';
  const last = person.lastAscii || 'mail';
  switch (format) {
    case 'firstDotLast':
      return `${first}.${last}`;
    case 'firstUnderscoreLast':
      return `${first}_${last}`;
    case 'firstLast':
      return `${first}${last}`;
    case 'initialLast':
      return `${first[0]}${last}`;
    case 'first':
      return first;
  }
}
