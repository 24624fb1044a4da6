// The readable report of `npm run api:diff`: changes grouped by classification, then by side,
// one line per change (operation and JSON pointer), its description under it, and a summary line.
import { CHANGE_TYPES, type Change, type ChangeSide, type ChangeType } from '../../src/api-changes/classify-changes.ts';

const SIDES: readonly ChangeSide[] = ['request', 'response', 'operation', 'document'];

export type Summary = Record<ChangeType, number> & { breakingRequest: number; breakingResponse: number };

export function summarise(changes: readonly Change[]): Summary {
  const summary = Object.fromEntries(CHANGE_TYPES.map((type) => [type, 0])) as Summary;
  summary.breakingRequest = 0;
  summary.breakingResponse = 0;
  for (const change of changes) {
    summary[change.type] += 1;
    if (change.type === 'breaking' && change.side === 'request') summary.breakingRequest += 1;
    if (change.type === 'breaking' && change.side === 'response') summary.breakingResponse += 1;
  }
  return summary;
}

export function summaryLine(changes: readonly Change[]): string {
  const s = summarise(changes);
  const other = s.breaking - s.breakingRequest - s.breakingResponse;
  const sides = `${s.breakingRequest} request, ${s.breakingResponse} response${other ? `, ${other} other` : ''}`;
  return `summary: ${s.breaking} breaking (${sides}), ${s['non-breaking']} non-breaking, ${s.deprecated} deprecated, ${s.annotation} annotation, ${s.unclassified} unclassified`;
}

/** A short rendering of a scalar value, or nothing for objects and long texts. */
function brief(value: unknown): string | undefined {
  if (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value))) return undefined;
  const text = JSON.stringify(value);
  return text.length <= 40 ? text : undefined;
}

function valueNote(change: Change): string {
  const [before, after] = [brief(change.before), brief(change.after)];
  if (change.action === 'replace' && before && after) return ` (${before} → ${after})`;
  if (change.action === 'add' && after) return ` (${after})`;
  if (change.action === 'remove' && before) return ` (${before})`;
  return '';
}

/** Every change, by classification and side; `acknowledged` marks breaking changes the changelog names. */
export function formatChanges(changes: readonly Change[], acknowledged: ReadonlySet<Change> = new Set()): string {
  const lines: string[] = [];
  for (const type of CHANGE_TYPES) {
    const ofType = changes.filter((change) => change.type === type);
    if (!ofType.length) continue;
    lines.push(`${type} (${ofType.length})`);
    for (const side of SIDES) {
      const ofSide = ofType.filter((change) => change.side === side).sort((a, b) => a.key.localeCompare(b.key));
      if (!ofSide.length) continue;
      lines.push(`  ${side} side`);
      for (const change of ofSide) {
        const where = change.operation ? `${change.operation}  ${change.location}` : change.location;
        lines.push(`    ${where}${acknowledged.has(change) ? '  [acknowledged in the changelog]' : ''}`);
        lines.push(`      ${change.description}${valueNote(change)}${change.rule ? ` [sds rule: ${change.rule}]` : ''}`);
      }
    }
  }
  return lines.join('\n');
}
