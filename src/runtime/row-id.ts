// Row ids in paths: the primary key value as a string, cast by the key's type. A composite key is
// its values in key order joined by commas, where `\,` stands for a comma and `\\` for a backslash
// inside a value (`/comments/4f1c…,2`). A single-column key is taken verbatim, commas included.
import type { RowValue } from '../model/row-value.ts';
import { castText } from '../model/cast.ts';
import { runtimeErrors } from './runtime-errors.ts';
import type { JsonValue } from '../model/render.ts';
import type { JsonRow } from './shape.ts';
import type { RuntimeTable } from '../model/tables.ts';

export interface RowKey {
  /** Key columns in key order. */
  fields: string[];
  values: RowValue[];
}

/** Casts a path id to the table's key; AppError 400 when it does not fit. */
export function parseRowId(table: RuntimeTable, id: string): RowKey {
  const key = table.primaryKey;
  if (key.length === 0) throw runtimeErrors.noPrimaryKey(table.name);
  const parts = key.length === 1 ? [id] : splitId(id);
  const described = key.length === 1 ? `${key[0]!.type} primary key "${key[0]!.name}"` : `primary key (${key.map((column) => column.name).join(', ')})`;
  if (parts.length !== key.length) {
    throw runtimeErrors.invalidId(id, `the ${described} of table "${table.name}" takes ${key.length} comma-separated values`);
  }
  const values = key.map((column, index) => {
    const value = castText(column, parts[index]!);
    if (value === undefined || value === null) {
      const which = key.length === 1 ? '' : ` (${JSON.stringify(parts[index])} for ${column.type} field "${column.name}")`;
      throw runtimeErrors.invalidId(id, `not a value of the ${described} of table "${table.name}"${which}`);
    }
    return value;
  });
  return { fields: key.map((column) => column.name), values };
}

/** The path id of a (shaped) row: the inverse of parseRowId. */
export function formatRowId(table: RuntimeTable, row: JsonRow): string {
  const parts = table.primaryKey.map((column) => idText(row[column.name] ?? null));
  return parts.length === 1 ? parts[0]! : parts.map((part) => part.replaceAll('\\', '\\\\').replaceAll(',', '\\,')).join(',');
}

function idText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `a\,b,c` → ['a,b', 'c']; a trailing lone backslash stands for itself. */
export function splitId(id: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < id.length; index++) {
    const character = id[index]!;
    if (character === '\\' && index + 1 < id.length) {
      current += id[++index];
    } else if (character === ',') {
      parts.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  parts.push(current);
  return parts;
}
