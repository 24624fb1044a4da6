// Stage 5 of a runtime read: driver rows → JSON rows, each value rendered by its column
// (src/model/render.ts), and the list envelope.
import { columnReader, type JsonValue } from '../model/render.ts';
import type { RuntimeTable } from '../model/tables.ts';

/** A row as the runtime API answers it: a JSON object by field id. */
export type JsonRow = Record<string, JsonValue>;

export interface ListEnvelope {
  data: JsonRow[];
  meta: { pagination: { offset: number; limit: number; total: number } };
}

/** One driver row → a JSON row with `fields` in order. */
export function shapeRow(table: RuntimeTable, raw: Record<string, unknown>, fields: string[]): JsonRow {
  const row: JsonRow = {};
  for (const field of fields) {
    const column = table.byName.get(field)!;
    row[field] = columnReader(column)(raw[field]);
  }
  return row;
}

export function listEnvelope(data: JsonRow[], offset: number, limit: number, total: number): ListEnvelope {
  return { data, meta: { pagination: { offset, limit, total } } };
}
