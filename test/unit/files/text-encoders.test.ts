// The text formats' values encoders (csv.ts csvValuesEncoder, jsonl.ts jsonlValuesEncoder) render
// the common types inline: every line must be the one the rendered-row encoders make.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import type { RowValue } from '../../../src/model/row-value.ts';
import { FILE_FORMATS } from '../../../src/files/formats.ts';
import { numberText } from '../../../src/files/number-text.ts';
import { DataGenerator } from '../../../src/generation/generator.ts';
import { planGeneration, plannedRowCounts } from '../../../src/generation/plan.ts';
import { valueRenderer } from '../../../src/model/render.ts';
import { buildRuntimeTables, type RuntimeColumn } from '../../../src/model/tables.ts';
import { blogConfig } from '../../fixtures/configs.ts';

const TEXT_FORMATS = ['csv', 'jsonl'] as const;

/** What the encoders made before: every value rendered, then the rendered row encoded. */
function renderedLine(format: (typeof TEXT_FORMATS)[number], columns: RuntimeColumn[], values: RowValue[]): string {
  const renderers = columns.map(valueRenderer);
  return FILE_FORMATS[format].text(columns).encode(renderers.map((render, index) => render(values[index] ?? null)));
}

describe('numberText', () => {
  it.each<[string, { given: number; want: string }]>([
    ['zero', { given: 0, want: '0' }],
    ['negative zero', { given: -0, want: '0' }],
    ['an integer past a group', { given: 1_000_007, want: '1000007' }],
    ['a negative integer', { given: -42, want: '-42' }],
    ['two places', { given: 1312.91, want: '1312.91' }],
    ['a leading zero in the fraction', { given: 0.05, want: '0.05' }],
    ['a trailing zero dropped', { given: 19.9, want: '19.9' }],
    ['a double that is not its decimal', { given: 0.1 + 0.2, want: '0.30000000000000004' }],
    ['exponent notation', { given: 1e-7, want: '1e-7' }],
    ['beyond 2^53', { given: 2 ** 60, want: '1152921504606847000' }],
    ['NaN', { given: Number.NaN, want: 'NaN' }],
    ['Infinity', { given: -Infinity, want: '-Infinity' }],
  ])('%s', (_, { given, want }) => {
    expect(numberText(given)).toBe(want);
    expect(numberText(given)).toBe(String(given));
  });

  it('is String(number) for 200,000 numbers of every shape', () => {
    // A fixed sequence (a linear congruential generator), so a failure repeats.
    let state = 12345;
    const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const mismatches: number[] = [];
    for (let index = 0; index < 50_000; index++) {
      const places = Math.floor(next() * 7);
      const magnitude = 10 ** Math.floor(next() * 14);
      for (const value of [Math.floor(next() * magnitude) / 10 ** places, -Math.floor(next() * magnitude) / 10 ** places, next() * magnitude, Math.round(next() * 200_000) / 100]) {
        if (numberText(value) !== String(value)) mismatches.push(value);
      }
    }
    expect(mismatches).toEqual([]);
  });
});

describe('values encoders', () => {
  const config: SchemaConfig = {
    formatVersion: 1,
    entities: [
      {
        id: 'everything',
        primaryKey: ['id'],
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'price', type: 'number', precision: 2 },
          { id: 'ratio', type: 'number' },
          { id: 'active', type: 'boolean' },
          { id: 'name', type: 'string' },
          { id: 'body', type: 'text' },
          { id: 'kind', type: 'enum', values: ['a', 'b'] },
          { id: 'day', type: 'date' },
          { id: 'slashDay', type: 'date', outputFormat: 'slash' },
          { id: 'at', type: 'datetime' },
          { id: 'time', type: 'time' },
          { id: 'uuid', type: 'uuid' },
          { id: 'data', type: 'json' },
        ],
      },
    ],
  };
  const columns = buildRuntimeTables(config, plannedRowCounts(config)).get('everything').columns;
  const rows: [string, RowValue[]][] = [
    ['common values', [1, 12.5, 0.1 + 0.2, true, 'Smith', 'plain', 'a', '2024-01-31', '2024-01-31', '2024-01-31T12:00:00.000Z', '12:00:00', 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', { b: 1, a: [2] }]],
    ['nulls', columns.map(() => null)],
    ['undefined', columns.map(() => undefined as unknown as RowValue)],
    ['text to quote and escape', [-7, -0.05, -0, false, 'Doe, "Jr."', 'line\r\nbreak', '', '2024-01-31 00:00:00', '01/31/2024', '2024-01-31 12:00:00.5+02', '12:00:00.123', 'x', 'text, "quoted"']],
    ['values of other types', [2n ** 70n, Number.NaN, Infinity, 1, 42, 7, 'b', new Date(Date.UTC(2024, 0, 31)), new Date(Date.UTC(2024, 0, 31)), new Date(Date.UTC(2024, 0, 31, 12)), 'x', 'y', [1, 'two', null]]],
    ['numbers as strings, booleans as numbers and text', ['12', '3.5', '1e3', 't', 'back\\slash \ud83d\ude00 lone \ud800', 'tab\tbell\u0007', 'z', '2024-02-29', '2024-02-29', '2024-02-29T00:00:00Z', '23:59:59', 'u', 'null']],
    ['booleans as 0 and 1', [9007199254740993n, 1e21, 5e-324, 0, 'a', 'b', 'a', null, null, null, null, null, null]],
  ];
  for (const format of TEXT_FORMATS) {
    it.each(rows)(`${format}: %s`, (_, values) => {
      expect(FILE_FORMATS[format].values(columns)(values)).toBe(renderedLine(format, columns, values));
    });
  }

  it('csv and jsonl of generated rows (the blog config, shop.json): the lines the rendered encoders make', () => {
    const shop = JSON.parse(fs.readFileSync(new URL('../../../schemas/examples/shop.json', import.meta.url), 'utf8')) as SchemaConfig;
    let compared = 0;
    for (const config of [blogConfig(), shop]) {
      const plan = planGeneration(config, { referenceDate: '2025-06-15', rowCounts: Object.fromEntries(config.entities.map((entity) => [entity.id, 300])) });
      const generator = new DataGenerator(config, plan);
      const tables = buildRuntimeTables(config, plannedRowCounts(config));
      for (const entity of plan.entities) {
        const columns = tables.get(entity.id).columns;
        const encoders = TEXT_FORMATS.map((format) => [format, FILE_FORMATS[format].values(columns)] as const);
        for (const values of generator.completeRows(entity.id)) {
          for (const [format, encode] of encoders) expect(encode(values)).toBe(renderedLine(format, columns, values));
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

describe('CSV formula escaping (runtime exports; issue 23)', () => {
  const columns = [
    { name: 'name', type: 'string' },
    { name: 'tier', type: 'enum' },
    { name: 'balance', type: 'integer' },
    { name: 'price', type: 'number' },
    { name: 'meta', type: 'json' },
    { name: 'day', type: 'date' },
  ] as unknown as RuntimeColumn[];
  it.each<[string, { given: (string | number | null | object)[]; want: string }]>([
    ['an equals sign', { given: ['=1+1', 'gold', 1, 1.5, null, '2024-01-01'], want: "'=1+1,gold,1,1.5,,2024-01-01\r\n" }],
    ['plus, minus and at in text; negative numbers stay numbers', { given: ['+1', '-vip', -5, -0.5, -3, '2024-01-01'], want: "'+1,'-vip,-5,-0.5,-3,2024-01-01\r\n" }],
    ['at sign and a quoted cell', { given: ['@SUM(A1),x', '@a', 0, 0, { a: '=x' }, null], want: `"'@SUM(A1),x",'@a,0,0,"{""a"":""=x""}",\r\n` }],
    ['tab and carriage return', { given: ['\tx', '\rx', 0, 0, null, null], want: `'\tx,"'\rx",0,0,,\r\n` }],
    ['not at the start: unchanged', { given: ['a=b', 'x-y', 0, 0, null, null], want: 'a=b,x-y,0,0,,\r\n' }],
    ['empty and NULL: unchanged', { given: ['', null, null, null, null, null], want: '"",,,,,\r\n' }],
  ])('%s', (_, { given, want }) => {
    expect(FILE_FORMATS.csv.text(columns, { formulaEscape: true }).encode(given as never)).toBe(want);
    // Off (the default, and what sds generate --out writes): the values as they are.
    expect(FILE_FORMATS.csv.text(columns).encode(given as never)).toBe(FILE_FORMATS.csv.text(columns, { formulaEscape: false }).encode(given as never));
  });
});
