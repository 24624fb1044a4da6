// The acknowledgement rule of the breaking-change gate: a breaking change passes when CHANGELOG.md's
// `## Unreleased` → `### Breaking` section names its key (its operation, `POST /public/v1/projects`,
// or the document part api:diff prints) in backquotes. The convention is written at the top of CHANGELOG.md.
import type { Change } from '../../src/api-changes/classify-changes.ts';

/** The backquoted names in `## Unreleased` → `### Breaking`, HTML comments left out (a placeholder acknowledges nothing). */
export function readAcknowledgements(changelog: string): Set<string> {
  const names = new Set<string>();
  let inUnreleased = false;
  let inBreaking = false;
  for (const line of changelog.replace(/<!--[\s\S]*?-->/g, '').split(/\r?\n/)) {
    const heading = line.match(/^(#{1,3})\s+(.*?)\s*#*\s*$/);
    if (heading) {
      const [, hashes, title] = heading;
      if (hashes!.length <= 2) inUnreleased = hashes!.length === 2 && /^\[?unreleased\]?$/i.test(title!);
      inBreaking = inUnreleased && hashes!.length === 3 && /^breaking\b/i.test(title!);
      continue;
    }
    if (!inBreaking) continue;
    for (const match of line.matchAll(/`([^`]+)`/g)) names.add(normalise(match[1]!));
  }
  return names;
}

const normalise = (name: string) => name.trim().replace(/\s+/g, ' ');

/** The breaking changes no acknowledgement names. */
export function unacknowledged(changes: readonly Change[], acknowledgements: ReadonlySet<string>): Change[] {
  return changes.filter((change) => change.type === 'breaking' && !acknowledgements.has(normalise(change.key)));
}

/** Bullets to paste under `### Breaking`, one per key, for the author to finish. */
export function suggestEntries(changes: readonly Change[]): string[] {
  const keys = [...new Set(changes.filter((change) => change.type === 'breaking').map((change) => change.key))];
  return keys.map((key) => `- \`${key}\`: <what breaks for clients, and what they do about it>`);
}
