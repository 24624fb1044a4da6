import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { FIELD_RULES } from '../../../src/generation/rules/field-rules.ts';
import { RULE_SETS, ruleMatch } from '../../../src/generation/rules/field-rule.ts';
import { ruleOf } from '../../../src/generation/rules/choose-rule.ts';
import { CoherenceAudit } from '../../../src/generation/coherence/report.ts';
import type { GeneratorVersion } from '../../../src/generation/versions.ts';
import { config, entity, generate } from '../../helpers/generate-in-memory.ts';
import { FIELD_RULES_DOC, renderFieldRules } from '../../../scripts/field-rules-doc.ts';

const people = entity('people', 5, []);

describe('the field-rules table', () => {
  it('gives every rule a unique id and at least one maker', () => {
    const ids = FIELD_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of FIELD_RULES) expect(Object.keys(rule.make).length, rule.id).toBeGreaterThan(0);
  });

  it('matches each name and ending with one rule per set and type (or rules told apart by `fits`), so the order of the table never decides', () => {
    for (const set of RULE_SETS) {
      const seen = new Map<string, string>();
      for (const rule of FIELD_RULES.filter((candidate) => candidate.make[set])) {
        const match = ruleMatch(rule, set);
        for (const type of match.types) {
          for (const name of [...match.names.map((name) => `=${name}`), ...match.endings.map((ending) => `*${ending}`)]) {
            const key = `${name}:${type}`;
            const other = seen.get(key);
            if (other !== undefined) expect(rule.fits && FIELD_RULES.find((candidate) => candidate.id === other)?.fits, `${set} ${key}: ${rule.id} and ${other}`).toBeTruthy();
            seen.set(key, rule.id);
          }
        }
      }
    }
  });

  // [field, version, rule id the generator uses (undefined: the type's plain default)]
  const cases: [Field, GeneratorVersion, string | undefined][] = [
    [{ id: 'email', type: 'string' }, 1, 'person.email'],
    [{ id: 'contactEmail', type: 'string' }, 1, 'person.email'],
    [{ id: 'contact_email', type: 'string' }, 2, 'person.email'],
    [{ id: 'website', type: 'string', format: 'email' }, 2, 'person.email'],
    [{ id: 'email', type: 'string', format: 'url' }, 2, 'web.url'],
    [{ id: 'email', type: 'integer' }, 2, undefined],
    [{ id: 'billing_city', type: 'string' }, 1, 'place.city'],
    [{ id: 'billingState', type: 'string' }, 1, undefined],
    [{ id: 'billingState', type: 'string' }, 2, 'place.state'],
    [{ id: 'billingCountryCode', type: 'string' }, 1, undefined],
    [{ id: 'billingCountryCode', type: 'string' }, 3, 'place.country-code'],
    [{ id: 'comments', type: 'text' }, 1, undefined],
    [{ id: 'comments', type: 'text' }, 2, 'text.description'],
    [{ id: 'notes_text', type: 'text' }, 2, 'text.words'],
    [{ id: 'code', type: 'string', maxLength: 8 }, 2, undefined],
    [{ id: 'unit_price', type: 'number' }, 1, 'number.money'],
    [{ id: 'line_count', type: 'integer' }, 2, 'number.quantity'],
    [{ id: 'id', type: 'integer' }, 2, undefined],
    [{ id: 'gender', type: 'enum', values: ['F', 'M'] }, 1, undefined],
    [{ id: 'gender', type: 'enum', values: ['F', 'M'] }, 2, 'person.gender'],
    [{ id: 'gender', type: 'enum', values: ['x', 'y'] }, 2, undefined],
    [{ id: 'name', type: 'string' }, 2, 'entity.name'],
    [{ id: 'createdAt', type: 'datetime' }, 2, 'time.created'],
    [{ id: 'email', type: 'string', generation: { strategy: { kind: 'literal', value: 'a' } } }, 2, undefined],
  ];
  it.each(cases)('%j in version %i → %s', (field, version, want) => {
    const scope = { entity: { ...people, fields: [...people.fields, field] }, entities: [people], deferred: [], version };
    expect(ruleOf(scope, field)?.id).toBe(want);
  });

  it('docs/field-rules.md is the rendering of the table and names every rule id', () => {
    const doc = fs.readFileSync(FIELD_RULES_DOC, 'utf8');
    expect(doc, 'run `npx tsx scripts/field-rules-doc.ts`').toBe(renderFieldRules());
    for (const rule of FIELD_RULES) expect(doc).toContain(`\`${rule.id}\``);
  });
});

describe('the coherence report reads the same table', () => {
  const schema = () =>
    config(
      entity('customers', 40, [
        { id: 'firstName', type: 'string' },
        { id: 'lastName', type: 'string' },
        { id: 'contactEmail', type: 'string' },
        { id: 'billing_city', type: 'string' },
        { id: 'billing_state', type: 'string' },
        { id: 'startDate', type: 'date' },
        { id: 'endDate', type: 'date' },
      ]),
    );
  const report = (version: GeneratorVersion) => {
    const run = generate(schema(), { generatorVersion: version });
    const audit = new CoherenceAudit(schema(), run.plan);
    const observe = audit.observer('customers')!;
    for (const row of run.rows.get('customers')!) observe(row);
    return audit.report();
  };

  it('audits contactEmail, which version 2 makes from the row’s names, by its rule id', () => {
    const counts = report(2);
    expect(counts).toContainEqual(expect.objectContaining({ rule: 'names-in-email', ruleId: 'person.email', field: 'contactEmail', against: 'firstName+lastName', rows: 40, holding: 40 }));
    expect(counts).toContainEqual(expect.objectContaining({ rule: 'place-in-reference', ruleId: 'place.state+place.city', field: 'billing_state+billing_city', rows: 40, holding: 40 }));
    expect(counts).toContainEqual(expect.objectContaining({ rule: 'time-pair-ordered', ruleId: 'time.pair-end', field: 'endDate', rows: 40, holding: 40 }));
  });

  it('checks version 1 against the same rules, which its random emails do not hold', () => {
    const email = report(1).find((count) => count.field === 'contactEmail');
    expect(email).toMatchObject({ rule: 'names-in-email', ruleId: 'person.email', rows: 40 });
    expect(email!.holding).toBeLessThan(40);
  });
});
