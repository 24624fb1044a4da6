// Writes docs/field-rules.md from the field-rules table (src/generation/rules/field-rules.ts) and the
// versions table (src/generation/versions.ts), so the page lists exactly the rules the generator
// and the report use. `--check` writes nothing and fails when the page differs
// (test/unit/generation/field-rules.test.ts runs the same comparison).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIELD_RULES } from '../src/generation/rules/field-rules.ts';
import { RULE_SETS, type FieldRule } from '../src/generation/rules/field-rule.ts';
import { ROW_RULES } from '../src/generation/rules/row-rules.ts';
import { GENERATOR_VERSIONS, VERSIONS, versionFeatures, type RuleSetName } from '../src/generation/versions.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIELD_RULES_DOC = path.join(root, 'docs/field-rules.md');

const code = (text: string) => `\`${text}\``;

/** The versions whose rule sets include `set`. */
function versionsOf(set: RuleSetName): string {
  const versions = GENERATOR_VERSIONS.filter((version) => versionFeatures(version).rules.includes(set));
  return versions.length === 0 ? '-' : versions.join(', ');
}

function matches(rule: FieldRule): string {
  const endings = rule.endings ?? [];
  const names = (rule.names ?? []).map((name) => (endings.includes(name) ? `${code(name)}*` : code(name)));
  const parts = [[...names, ...endings.filter((ending) => !rule.names?.includes(ending)).map((ending) => `*${code(ending)}`)].join(', ')].filter(Boolean);
  if (rule.formats?.length) parts.push(`any ${rule.formats.map((format) => code(`format: ${format}`)).join(', ')}`);
  if (rule.when && !rule.names) parts.push('by context (see value)');
  if (rule.fallback) parts.push('when no other rule matches');
  const also = rule.also;
  if (also) {
    const gained = [...(also.names ?? []).map(code), ...(also.endings ?? []).map((ending) => `${code(ending)}*`), ...(also.types ?? []).map((type) => `type ${type}`)];
    parts.push(`from ${also.set} on also ${gained.join(', ')}`);
  }
  return parts.join('; ');
}

function audit(rule: FieldRule): string {
  // A lines sum is counted as a row formula (the report's rule names are the contract's).
  return rule.audit ? code(rule.audit.kind === 'lines-sum' ? 'row-formula' : rule.audit.kind) : '';
}

export function renderFieldRules(): string {
  const lines = [
    '# Field rules',
    '',
    '<!-- Written by `npx tsx scripts/field-rules-doc.ts` from src/generation/rules/field-rules.ts; do not edit by hand. -->',
    '',
    'A field without a strategy gets its values from the first rule of this table that matches it, in the rule sets of',
    "the run's generator version (below). Names are field ids with case, `_` and `-` ignored; a name marked * also",
    'matches at the end of a longer id (`contactEmail`, `billing_city`). Per rule set, context rules come first, then a',
    "rule by the string's `format` (a formatted string matches nothing else), then the whole id, then the longest ending;",
    "after every set, the fallback rules; else the field gets its type's plain value. Integer primary keys always count",
    'up. The coherence report (`sds generate --report`, `generationAudit.coherence`) runs the check of the rule that made',
    'each field and names the rule by its id (`ruleId`).',
    '',
    '## Generator versions',
    '',
    '| version | rule sets | changes |',
    '|---|---|---|',
    ...GENERATOR_VERSIONS.map((version) => `| ${version} | ${VERSIONS[version].rules.join(', ')} | ${VERSIONS[version].changes} |`),
    '',
    '## Rules',
    '',
    '| rule id | matches | types | rule sets (versions) | value | report check |',
    '|---|---|---|---|---|---|',
    ...FIELD_RULES.map((rule) => {
      const sets = RULE_SETS.filter((set) => rule.make[set])
        .map((set) => `${set} (${versionsOf(set)})`)
        .join(', ');
      return `| ${code(rule.id)} | ${matches(rule)} | ${rule.types.join(', ')} | ${sets} | ${rule.what.replaceAll('|', '\\|')} | ${audit(rule)} |`;
    }),
    '',
    '## Rules across fields',
    '',
    'These hold between fields and references of a row rather than make one field; the report counts them by id too.',
    '',
    '| rule id | versions | what it does | report check |',
    '|---|---|---|---|',
    ...ROW_RULES.map((rule) => {
      const versions = GENERATOR_VERSIONS.filter((version) => versionFeatures(version)[rule.feature]).join(', ');
      return `| ${code(rule.id)} | ${versions} | ${rule.what.replaceAll('|', '\\|')} | ${code(rule.audit)} |`;
    }),
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const text = renderFieldRules();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(FIELD_RULES_DOC) ? fs.readFileSync(FIELD_RULES_DOC, 'utf8') : '';
    if (current !== text) {
      console.error('docs/field-rules.md is stale: run `npx tsx scripts/field-rules-doc.ts`');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(FIELD_RULES_DOC, text);
  }
}
