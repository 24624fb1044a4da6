// Learning, the style of text that identifies or describes: counts of cases, lengths and email
// formats (profile-text.ts) → a styledText strategy, so sds's own generators make the column's text
// in that style. Pure: no database. Only aggregates and domains held by at least k rows go in.
import type { StrategyOf } from '../model/config-types.ts';
import type { CaseCounts, EmailCounts } from './profile-text.ts';
import type { IdentifyingKind } from './identifying.ts';

/** A case is learned when at least this share of the rows holding a letter keep it. */
export const CASE_SHARE = 0.95;

export interface TextFacts {
  kind: IdentifyingKind | undefined;
  minCount: number;
  cases?: CaseCounts;
  /** Quantiles of lengths (free text only). */
  lengths?: number[];
  email?: EmailCounts;
}

export interface FittedText {
  strategy?: StrategyOf<'styledText'>;
  learned: string;
}

const share = (part: number, whole: number) => Math.round((part / whole) * 1e4) / 1e4;

/** The styledText strategy of a text column from its counts; none when no style shows. */
export function fitText(facts: TextFacts): FittedText {
  const strategy: StrategyOf<'styledText'> = { kind: 'styledText' };
  const parts: string[] = [];
  const cases = facts.cases;
  if (cases && cases.lettered >= facts.minCount && !facts.email) {
    const { lettered } = cases;
    // Sentences start with a capital without being title case: only names and contacts are title-cased.
    const style = cases.lower >= CASE_SHARE * lettered ? 'lower' : cases.upper >= CASE_SHARE * lettered ? 'upper' : facts.kind !== 'free text' && cases.capital >= CASE_SHARE * lettered ? 'title' : undefined;
    if (style) {
      strategy.case = style;
      parts.push(`${style} case`);
    }
  }
  if (facts.lengths && facts.lengths.length >= 2 && facts.kind === 'free text') {
    strategy.lengths = facts.lengths as [number, number, ...number[]];
    parts.push(`lengths ${facts.lengths[0]}–${facts.lengths.at(-1)}`);
  }
  const email = facts.email;
  if (email && email.emails >= facts.minCount) {
    const held = email.domains.reduce((sum, domain) => sum + domain.count, 0);
    const formats = Object.entries(email.formats)
      .filter(([, count]) => count > 0)
      .map(([value, count]) => ({ value: value as keyof EmailCounts['formats'], weight: count }));
    strategy.email = {
      ...(email.domains.length > 0 && { domains: email.domains.map(({ value, count }) => ({ value, weight: count })) as [{ value: string; weight: number }, ...{ value: string; weight: number }[]] }),
      ...(email.domains.length > 0 && email.emails > held && { otherDomains: email.emails - held }),
      ...(formats.length > 0 && { formats: formats as [(typeof formats)[number], ...typeof formats] }),
      ...(email.digits > 0 && { digits: share(email.digits, email.emails) }),
    };
    parts.push(`emails: ${email.domains.length} domain${email.domains.length === 1 ? '' : 's'} held by ${facts.minCount}+ rows, formats ${formats.map((format) => format.value).join(', ') || 'none'}`);
  }
  if (parts.length === 0) return { learned: '' };
  return { strategy, learned: `style (${parts.join('; ')})` };
}
