import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { previewEntities } from '../../../src/generation/preview.ts';
import { planGeneration } from '../../../src/generation/plan.ts';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateFiles } from '../../../src/files/generate-files.ts';

// visits 0; visitLines 1: visitId 0, lineNo 1, amount 2; lineNotes 2: id 0, visitId 1, lineNo 2, text 3
function config(): SchemaConfig {
  return {
    formatVersion: 1,
    entities: [
      { id: 'visits', primaryKey: ['id'], generation: { rowCount: 10 }, fields: [{ id: 'id', type: 'integer' }] },
      {
        id: 'visitLines',
        primaryKey: ['visitId', 'lineNo'],
        generation: { rowCount: 50 },
        fields: [
          { id: 'visitId', type: 'integer', references: { entity: 'visits', field: 'id' } },
          { id: 'lineNo', type: 'integer', min: 1, max: 20, generation: { strategy: { kind: 'sequence', within: ['visitId'] } } },
          { id: 'amount', type: 'number', precision: 2, min: 1, max: 100 },
        ],
      },
      {
        id: 'lineNotes',
        primaryKey: ['id'],
        generation: { rowCount: 30 },
        references: [{ fields: ['visitId', 'lineNo'], entity: 'visitLines', targetFields: ['visitId', 'lineNo'] }],
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'visitId', type: 'integer' },
          { id: 'lineNo', type: 'integer' },
          { id: 'text', type: 'string', maxLength: 40 },
        ],
      },
    ],
  };
}

function edit(change: (config: SchemaConfig) => void): SchemaConfig {
  const changed = config();
  change(changed);
  return changed;
}

const notes = (c: SchemaConfig) => c.entities[2]!;
const ref = (c: SchemaConfig) => notes(c).references![0]!;

type Want = { errors?: { path: string; message: string }[]; warnings?: { path: string; message: string }[] };
const cases: [string, { given: SchemaConfig; want: Want }][] = [
  ['accepts a composite reference to a composite primary key and a sequence within a reference', { given: config(), want: {} }],
  [
    'names an unknown field of the referencing entity',
    {
      given: edit((c) => (ref(c).fields[1] = 'lineNumber')),
      want: { errors: [{ path: '/entities/2/references/0/fields/1', message: 'references[0] of entity "lineNotes" names unknown field "lineNumber"; use one of: id, visitId, lineNo, text' }] },
    },
  ],
  [
    'names an unknown target entity',
    {
      given: edit((c) => (ref(c).entity = 'visitLine')),
      want: { errors: [{ path: '/entities/2/references/0/entity', message: 'entity "visitLine" does not exist (did you mean "visitLines"?); use one of: visits, visitLines, lineNotes' }] },
    },
  ],
  [
    'names an unknown target field',
    {
      given: edit((c) => (ref(c).targetFields[1] = 'line')),
      want: { errors: [{ path: '/entities/2/references/0/targetFields/1', message: 'entity "visitLines" has no field "line"; use one of: visitId, lineNo, amount' }] },
    },
  ],
  [
    'wants as many target fields as fields',
    {
      given: edit((c) => ref(c).targetFields.push('amount')),
      want: { errors: [{ path: '/entities/2/references/0/targetFields', message: 'references[0] of entity "lineNotes" has 2 fields but 3 targetFields; give one target field per field, in the same order' }] },
    },
  ],
  [
    'wants the target fields to be a key of the target',
    {
      given: edit((c) => {
        ref(c).targetFields = ['visitId', 'amount'];
        notes(c).fields[2]!.type = 'number';
      }),
      want: {
        errors: [
          {
            path: '/entities/2/references/0/targetFields',
            message: 'targetFields (visitId, amount) of references[0] of entity "lineNotes" are neither the primary key nor a unique key of "visitLines"; add ["visitId","amount"] to the uniqueKeys of "visitLines"',
          },
        ],
      },
    },
  ],
  [
    'wants the key in its own order',
    {
      given: edit((c) => {
        ref(c).targetFields = ['lineNo', 'visitId'];
      }),
      want: {
        errors: [
          {
            path: '/entities/2/references/0/targetFields',
            message: 'targetFields (lineNo, visitId) of references[0] of entity "lineNotes" are a key of "visitLines" in another order; list them as the key does: ["visitId","lineNo"] (and fields to match)',
          },
        ],
      },
    },
  ],
  [
    'wants each field the type of its target field',
    {
      given: edit((c) => (notes(c).fields[2]!.type = 'string')),
      want: {
        errors: [
          {
            path: '/entities/2/fields/2/type',
            message: 'lineNotes.lineNo is string but the field it references through references[0] of entity "lineNotes", visitLines.lineNo, is integer; change lineNotes.lineNo to "integer"',
          },
        ],
      },
    },
  ],
  [
    'refuses a composite self reference through NOT NULL fields',
    {
      given: edit((c) => {
        ref(c).entity = 'lineNotes';
        ref(c).targetFields = ['id', 'text'];
      }),
      want: { errors: [{ path: '/entities/2/references/0/entity', message: 'references[0] of entity "lineNotes" points at its own entity, which is filled once every row exists, so its fields must be nullable; make visitId, lineNo nullable' }] },
    },
  ],
  [
    'refuses a field in two composite references',
    {
      given: edit((c) => notes(c).references!.push({ fields: ['visitId', 'lineNo'], entity: 'visitLines', targetFields: ['visitId', 'lineNo'] })),
      want: {
        errors: [
          { path: '/entities/2/references/1/fields/0', message: 'field "visitId" is already part of references[0] of entity "lineNotes"; a field takes its value from one composite reference' },
          { path: '/entities/2/references/1/fields/1', message: 'field "lineNo" is already part of references[0] of entity "lineNotes"; a field takes its value from one composite reference' },
        ],
      },
    },
  ],
  [
    'warns that a strategy of a referencing field is not used',
    {
      given: edit((c) => (notes(c).fields[2]!.generation = { strategy: { kind: 'randomInt', min: 1, max: 5 } })),
      want: { warnings: [{ path: '/entities/2/fields/2/generation/strategy', message: 'lineNotes.lineNo takes its values from visitLines through references[0] of entity "lineNotes"; its "randomInt" strategy is not used, remove it' }] },
    },
  ],
  [
    'names an unknown field of within',
    {
      given: edit((c) => (c.entities[1]!.fields[1]!.generation = { strategy: { kind: 'sequence', within: ['visit'] } })),
      want: { errors: [{ path: '/entities/1/fields/1/generation/strategy/within/0', message: 'within names unknown field "visit" of entity "visitLines"; use one of: visitId, amount' }] },
    },
  ],
  [
    'needs at least two fields (JSON Schema)',
    {
      given: edit((c) => (ref(c).fields = ['visitId'] as never)),
      want: { errors: [{ path: '/entities/2/references/0/fields', message: 'entities[2].references[0].fields must have at least 2 items' }] },
    },
  ],
];

describe('composite keys: validation', () => {
  for (const [name, { given, want }] of cases) {
    it(name, () => {
      const result = validateConfig(given);
      expect({ errors: result.errors, warnings: result.warnings }).toEqual({ errors: want.errors ?? [], warnings: want.warnings ?? [] });
    });
  }

  it('reports a cycle through a composite reference as unbreakable', () => {
    const given = edit((c) => {
      c.entities[0]!.fields.push({ id: 'firstNote', type: 'integer', references: { entity: 'lineNotes', field: 'id' } });
    });
    const result = validateConfig(given);
    expect(result.valid).toBe(false);
    expect(result.errors.map((issue) => issue.message).join('\n')).toContain('reference cycle');
  });
});

describe('composite keys: generation', () => {
  it('numbers lines 1…n within each visit, so (visitId, lineNo) is unique and within 1..20, and loads every planned row', () => {
    const lines = previewEntities(config(), ['visitLines'], 50, { generatorVersion: 3 }).get('visitLines')!;
    expect(lines).toHaveLength(50);
    const byVisit = new Map<unknown, number[]>();
    for (const line of lines) byVisit.set(line.visitId, [...(byVisit.get(line.visitId) ?? []), line.lineNo as number]);
    for (const numbers of byVisit.values()) expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(lines.every((line) => (line.lineNo as number) >= 1 && (line.lineNo as number) <= 20)).toBe(true);
  });

  it('gives no parent more children than the position max allows', () => {
    const given = edit((c) => {
      c.entities[0]!.generation = { rowCount: 3 };
      c.entities[1]!.fields[1]!.max = 4;
    });
    const lines = previewEntities(given, ['visitLines'], 50, { generatorVersion: 3 }).get('visitLines')!;
    // 3 visits × 4 lines at most: the entity stops at 12 rows, each line number within 1..4.
    expect(lines).toHaveLength(12);
    expect(new Set(lines.map((line) => `${line.visitId}/${line.lineNo}`)).size).toBe(12);
    expect(Math.max(...lines.map((line) => line.lineNo as number))).toBe(4);
  });

  it('takes every field of a composite reference from one existing parent row', () => {
    const rows = previewEntities(config(), ['visitLines', 'lineNotes'], 50, { generatorVersion: 3 });
    const keys = new Set(rows.get('visitLines')!.map((line) => `${line.visitId}/${line.lineNo}`));
    const noteRows = rows.get('lineNotes')!;
    expect(noteRows).toHaveLength(30);
    for (const note of noteRows) expect(keys).toContain(`${note.visitId}/${note.lineNo}`);
    // Not all from one parent: the picks spread.
    expect(new Set(noteRows.map((note) => `${note.visitId}/${note.lineNo}`)).size).toBeGreaterThan(10);
  });

  it('draws parents without replacement when the composite reference is one-to-one', () => {
    const given = edit((c) => {
      ref(c).relation = 'one-to-one';
      notes(c).generation = { rowCount: 80 };
    });
    const noteRows = previewEntities(given, ['lineNotes'], 80, { generatorVersion: 3 }).get('lineNotes')!;
    expect(noteRows).toHaveLength(50); // one note per line, 50 lines
    expect(new Set(noteRows.map((note) => `${note.visitId}/${note.lineNo}`)).size).toBe(50);
  });

  it('writes the composite foreign key into the table spec and orders the parent first', () => {
    const plan = planGeneration(config());
    expect(plan.entities.map((entity) => entity.id)).toEqual(['visits', 'visitLines', 'lineNotes']);
    const table = plan.entities[2]!.table;
    expect(table.foreignKeys).toEqual([
      { name: 'lineNotes_visitId_lineNo_fkey', columns: ['visitId', 'lineNo'], references: { table: 'visitLines', columns: ['visitId', 'lineNo'] }, onDelete: 'restrict', onUpdate: 'restrict' },
    ]);
    expect(plan.entities[1]!.table.primaryKey).toEqual(['visitId', 'lineNo']);
  });
});

describe('composite keys: files', () => {
  it('writes the same rows with one thread or several, every note on an existing line', async () => {
    const read = async (workers: number) => {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-composite-'));
      try {
        await generateFiles(config(), { out, format: 'jsonl', workers, generatorVersion: 3, referenceDate: '2025-01-01' });
        const rows = (name: string) => fs.readFileSync(path.join(out, `${name}.jsonl`), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
        return { lines: rows('visitLines'), notes: rows('lineNotes') };
      } finally {
        fs.rmSync(out, { recursive: true, force: true });
      }
    };
    const one = await read(1);
    expect(await read(2)).toEqual(one);
    expect(one.lines).toHaveLength(50);
    const keys = new Set(one.lines.map((line) => `${line.visitId}/${line.lineNo}`));
    expect(keys.size).toBe(50);
    for (const note of one.notes) expect(keys).toContain(`${note.visitId}/${note.lineNo}`);
  });
});
