// Nulls in nullable columns (generator version 4, null-shares.ts): shares by name, the default share,
// and the columns that always get values; versions 1–3 leave every nullable column filled.
import { describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { defaultNullShare } from '../../../src/generation/null-shares.ts';
import { CoherenceAudit } from '../../../src/generation/coherence/report.ts';
import { config, entity, expectRate, generate } from '../../helpers/generate-in-memory.ts';

const ROWS = 2000;
const schema = () =>
  config(
    entity('people', ROWS, [
      { id: 'first_name', type: 'string' },
      { id: 'middle_name', type: 'string', nullable: true },
      { id: 'nickname_text', type: 'string', nullable: true },
      { id: 'deleted_at', type: 'datetime', nullable: true },
      { id: 'hired_at', type: 'datetime', nullable: true },
      { id: 'code', type: 'string', nullable: true, generation: { strategy: { kind: 'literal', value: 'x' } } },
      { id: 'badge', type: 'string', nullable: true, generation: { emptyRate: 0 } },
      { id: 'subtotal', type: 'number', nullable: true },
      { id: 'tax', type: 'number', nullable: true },
      { id: 'total', type: 'number', nullable: true },
      { id: 'team_id', type: 'integer', nullable: true, references: { entity: 'teams', field: 'id' } },
    ]),
    entity('teams', 5, [{ id: 'lead_email', type: 'string', nullable: true }]),
  );
const nulls = (values: unknown[]) => values.filter((value) => value === null).length;

describe('null shares of nullable columns (version 4)', () => {
  const run = generate(schema(), { generatorVersion: 4 });

  it('leaves a share of rows null by the column’s name, else one in ten', () => {
    expectRate(nulls(run.column('people', 'middle_name')), ROWS, 0.6);
    expectRate(nulls(run.column('people', 'deleted_at')), ROWS, 0.9);
    expectRate(nulls(run.column('people', 'nickname_text')), ROWS, 0.1);
  });

  it('fills keys, references, strategies, emptyRate 0, formulas and their inputs, and other times', () => {
    for (const field of ['id', 'first_name', 'hired_at', 'code', 'badge', 'subtotal', 'tax', 'total', 'team_id']) expect(nulls(run.column('people', field)), field).toBe(0);
  });

  it('versions 1–3 fill every column', () => {
    for (const version of [1, 2, 3] as const) {
      expect(nulls(generate(schema(), { generatorVersion: version }).column('people', 'middle_name'))).toBe(0);
    }
  });

  it.each<[string, { field: Field; want: number }]>([
    ['not nullable', { field: { id: 'middle_name', type: 'string' }, want: 0 }],
    ['a key', { field: { id: 'id', type: 'integer', nullable: true }, want: 0 }],
    ['a unique field', { field: { id: 'notes', type: 'text', nullable: true, generation: { uniqueValues: true } }, want: 0 }],
    ['notes', { field: { id: 'notes', type: 'text', nullable: true }, want: 0.5 }],
    ['addressLine2', { field: { id: 'addressLine2', type: 'string', nullable: true }, want: 0.7 }],
  ])('%s', (_name, { field, want }) => {
    const table = entity('t', 1, field.id === 'id' ? [] : [field]);
    const target = table.fields.find((candidate) => candidate.id === field.id)!;
    expect(defaultNullShare(4, field.id === 'id' ? { ...table, fields: [{ ...target, nullable: true }] } : table, [table], field.id === 'id' ? { ...target, nullable: true } : target)).toBe(want);
    expect(defaultNullShare(3, table, [table], target)).toBe(0);
  });

  it('the report counts the nulls of each column it left empty', () => {
    const audit = new CoherenceAudit(schema(), run.plan);
    for (const id of ['teams', 'people']) {
      const observe = audit.observer(id);
      for (const row of run.rows.get(id)!) observe?.(row);
    }
    const counts = audit.report().filter((count) => count.rule === 'null-share');
    expect(counts.map(({ entity, field, against, rows, holding }) => ({ entity, field, against, rows, holding }))).toEqual([
      { entity: 'teams', field: 'lead_email', against: '10% null', rows: 5, holding: nulls(run.column('teams', 'lead_email')) },
      { entity: 'people', field: 'middle_name', against: '60% null', rows: ROWS, holding: nulls(run.column('people', 'middle_name')) },
      { entity: 'people', field: 'nickname_text', against: '10% null', rows: ROWS, holding: nulls(run.column('people', 'nickname_text')) },
      { entity: 'people', field: 'deleted_at', against: '90% null', rows: ROWS, holding: nulls(run.column('people', 'deleted_at')) },
    ]);
  });
});
