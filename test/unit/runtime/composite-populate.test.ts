// populate of a composite reference: planned under the reference's name with its key columns read
// too, compiled as one query of ORed key tuples for both dialects, and refused names answered.
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../../src/dialects/dialect.ts';
import { mysqlDialect, postgresDialect } from '../../../src/dialects/index.ts';
import { compilePopulate } from '../../../src/runtime/compile.ts';
import { parseQuery } from '../../../src/runtime/parse-query.ts';
import { planRead } from '../../../src/runtime/plan.ts';
import { buildRuntimeTables } from '../../../src/model/tables.ts';
import { plannedRowCounts } from '../../../src/generation/plan.ts';
import { compositeConfig } from '../../fixtures/composite-config.ts';

const tables = buildRuntimeTables(compositeConfig(), plannedRowCounts(compositeConfig()));
const DIALECTS: [string, Dialect, (name: string) => string, (index: number) => string][] = [
  ['postgres', postgresDialect, (name) => `"${name}"`, (index) => `$${index}::bigint`],
  ['mysql', mysqlDialect, (name) => `\`${name}\``, () => '?'],
];

describe('populate of a composite reference', () => {
  const notes = tables.get('lineNotes');
  const plan = planRead(parseQuery('fields=id&populate=visitLines&populate.visitLines.fields=amount'), notes, tables);

  it('plans the row under the referenced entity\'s name and reads the key columns', () => {
    expect(plan.fields).toEqual(['id', 'visitId', 'lineNo']);
    expect(plan.populate).toEqual([
      { field: 'visitLines', table: 'visitLines', key: 'visitId', columns: ['visitId', 'lineNo'], keys: ['visitId', 'lineNo'], composite: true, fields: ['amount'] },
    ]);
  });

  it.each(DIALECTS)('%s: one query for every key tuple of the page', (_kind, dialect, q, typed) => {
    expect(compilePopulate(dialect, 'ns', plan.populate[0]!, tables.get('visitLines'), [[1, 2], [3, 1]])).toEqual({
      sql:
        `SELECT ${q('amount')}, ${q('visitId')}, ${q('lineNo')} FROM ${q('ns')}.${q('visitLines')} ` +
        `WHERE (${q('visitId')} = ${typed(1)} AND ${q('lineNo')} = ${typed(2)}) OR (${q('visitId')} = ${typed(3)} AND ${q('lineNo')} = ${typed(4)})`,
      params: [1, 2, 3, 1],
    });
  });

  it('refuses an unknown name, listing the fields', () => {
    expect(() => planRead(parseQuery('populate=visitLine'), notes, tables)).toThrow(/visitLine/);
  });
});

describe("a source's document with a composite reference", () => {
  it('lists the composite reference among populate names and describes the row it adds', async () => {
    const { sourceOpenApi } = await import('../../../src/management/runtime-docs.ts');
    const source = { id: '5d8f2a3c-1b4e-4c7d-9a6f-3e2b1c0d8a79', schemaVersionId: '9c4e7a1b-3d2f-4b6a-8e5c-7f1a0d2b4c68', name: 'Clinic', slug: 'clinic', requireAuth: true };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const document = sourceOpenApi(source as never, compositeConfig(), 'http://localhost') as any;
    const selection = document.components.schemas.LineNoteSelection;
    expect(selection.properties.visitLines.anyOf).toEqual([{ $ref: '#/components/schemas/VisitLineProjection' }, { type: 'null' }]);
    const parameters = JSON.stringify(document.paths);
    expect(parameters).toContain('populate.visitLines.fields');
  });
});
