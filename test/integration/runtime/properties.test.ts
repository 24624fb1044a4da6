// Property tests: random filter combinations, sorts and pages over a small generated table give
// the same rows, in the same order, as a plain in-memory evaluation of the same data, on both
// databases. Values come from the data itself (so filters match something) and from random text.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorsFor, operatorSpec, type FilterOperator } from '../../../src/runtime/operators.ts';
import type { JsonRow } from '../../../src/runtime/shape.ts';
import type { RuntimeColumn, RuntimeTable } from '../../../src/model/tables.ts';
import { runtimeConfig } from '../../fixtures/runtime-config.ts';
import { matches, sortRows, type MemoryFilter } from '../../helpers/in-memory-query.ts';
import { dialectTargets, generateSource, ids, type GeneratedSource } from '../../helpers/runtime-source.ts';

const DIALECTS = await dialectTargets();
const config = runtimeConfig({ authors: 80 });
const RUNS = Number(process.env.SDS_PROPERTY_RUNS ?? 80);

/** The operators the server accepts on a column (the operator table; test/unit/runtime/operators.test.ts pins it). */
function operators(column: RuntimeColumn): FilterOperator[] {
  return operatorsFor(column.type);
}

/** Query-string texts for a column: its values in the data (as rendered) and random ones of its type. */
function valueArbitrary(column: RuntimeColumn, rows: JsonRow[]): fc.Arbitrary<string> {
  const present = [...new Set(rows.map((row) => row[column.name]).filter((value) => value !== null).map(String))];
  const random = (() => {
    switch (column.type) {
      case 'integer':
        return fc.integer({ min: -3, max: 90 }).map(String);
      case 'number':
        return fc.integer({ min: -10_000, max: 10_000 }).map((cents) => String(cents / 100));
      case 'boolean':
        return fc.constantFrom('true', 'false', '1', '0');
      case 'date':
        return fc.date({ min: new Date('1940-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
      case 'datetime':
        return fc
          .tuple(fc.date({ min: new Date('2020-01-01'), max: new Date('2025-12-31'), noInvalidDate: true }), fc.constantFrom('Z', '+02:00', '-05:30'))
          .map(([date, offset]) => date.toISOString().slice(0, 19) + offset);
      case 'time':
        return fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([hour, minute]) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);
      case 'uuid':
        return fc.uuid();
      case 'enum':
        return fc.constantFrom(...column.values!);
      default:
        // No trailing blanks: MySQL's utf8mb4_bin compares with PAD SPACE (see the closing note of the runtime).
        return fc.string({ unit: fc.constantFrom('a', 'e', 'M', 'o', '.', '@', '%', '_', '!', ' ', 'é'), maxLength: 4 }).map((text) => text.trimEnd());
    }
  })();
  return present.length > 0 ? fc.oneof(fc.constantFrom(...present), random) : random;
}

/** A piece of an existing text value, for the text operators, in random case for $containsi. */
function textArbitrary(column: RuntimeColumn, rows: JsonRow[], operator: FilterOperator): fc.Arbitrary<string> {
  const present = rows.map((row) => row[column.name]).filter((value): value is string => typeof value === 'string');
  const piece = fc.tuple(fc.constantFrom(...present), fc.nat(), fc.integer({ min: 1, max: 6 })).map(([text, start, length]) => {
    const from = start % Math.max(1, text.length);
    return operator === '$startsWith' ? text.slice(0, length) : operator === '$endsWith' ? text.slice(-length) : text.slice(from, from + length);
  });
  const cased = operator === '$containsi' ? piece.chain((text) => fc.constantFrom(text, text.toUpperCase(), text.toLowerCase())) : piece;
  return fc.oneof({ weight: 4, arbitrary: cased }, { weight: 1, arbitrary: valueArbitrary(column, []) });
}

function filterArbitrary(table: RuntimeTable, rows: JsonRow[]): fc.Arbitrary<MemoryFilter> {
  return fc.constantFrom(...table.columns).chain((column) =>
    fc.constantFrom(...operators(column)).chain((operator): fc.Arbitrary<MemoryFilter> => {
      const field = column.name;
      if (operator === '$null') return fc.constantFrom('true', 'false').map((value) => ({ field, operator, values: [value] }));
      if (operator === '$in' || operator === '$notIn') return fc.array(valueArbitrary(column, rows), { minLength: 1, maxLength: 4 }).map((values) => ({ field, operator, values }));
      const value = operatorSpec(operator).operand === 'text' ? textArbitrary(column, rows, operator) : valueArbitrary(column, rows);
      return value.map((text) => ({ field, operator, values: [text] }));
    }),
  );
}

/** The dot form or the bracket form; lists comma-separated or indexed. */
function queryOf(filters: MemoryFilter[], bracket: boolean[]): string {
  return filters
    .flatMap((filter, index) => {
      const key = bracket[index] ? `filters[${filter.field}][${filter.operator}]` : `filters.${filter.field}.${filter.operator}`;
      const list = filter.operator === '$in' || filter.operator === '$notIn';
      if (list && (bracket[index] || filter.values.some((value) => value.includes(',')))) {
        return filter.values.map((value, position) => `${key}[${position}]=${encodeURIComponent(value)}`);
      }
      return [`${key}=${encodeURIComponent(filter.values.join(','))}`];
    })
    .join('&');
}

for (const target of DIALECTS) {
  describe(`${target.name}: runtime properties`, () => {
    let source: GeneratedSource;
    let rows: JsonRow[];
    let table: RuntimeTable;
    beforeAll(async () => {
      source = await generateSource(target, config);
      rows = await source.all('authors');
      table = source.runtime.tables(config).get('authors');
    });
    afterAll(() => source?.drop());

    it('random filter combinations select the rows an in-memory evaluation selects', async () => {
      await fc.assert(
        fc.asyncProperty(
          // One filter per field and operator: a repeated scalar operator is a 400 by design.
          fc.uniqueArray(filterArbitrary(table, rows), { minLength: 1, maxLength: 3, selector: (filter) => `${filter.field}.${filter.operator}` }),
          fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
          async (filters, bracket) => {
            const page = await source.list('authors', `${queryOf(filters, bracket)}&limit=1000&fields=id`);
            const want = rows.filter((row) => filters.every((filter) => matches(table, row, filter)));
            expect(ids(page.data)).toEqual(ids(want));
            expect(page.meta.pagination.total).toBe(want.length);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('random sorts and pages order rows as an in-memory sort does', async () => {
      const sortable = table.columns.filter((column) => column.type !== 'json').map((column) => column.name);
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.constantFrom(...sortable), { minLength: 1, maxLength: 3 }),
          fc.array(fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), { minLength: 3, maxLength: 3 }),
          fc.option(filterArbitrary(table, rows), { nil: undefined }),
          fc.integer({ min: 0, max: 90 }),
          fc.integer({ min: 0, max: 30 }),
          async (fields, directions, filter, offset, limit) => {
            const sort = fields.map((field, index) => ({ field, direction: directions[index]! }));
            const query = `sort=${sort.map((key) => `${key.field}:${key.direction}`).join(',')}&offset=${offset}&limit=${limit}&fields=id${filter ? `&${queryOf([filter], [false])}` : ''}`;
            const page = await source.list('authors', query);
            const matching = rows.filter((row) => !filter || matches(table, row, filter));
            expect(ids(page.data)).toEqual(ids(sortRows(table, matching, sort).slice(offset, offset + limit)));
            expect(page.meta.pagination).toEqual({ offset, limit, total: matching.length });
          },
        ),
        { numRuns: RUNS },
      );
    });
  });
}
