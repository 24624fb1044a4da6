// Template strategies: `{{fieldId}}` inserts another field of the same row (computed before it),
// `{{faker.module.method}}` a faker value drawn from the template field's own stream.
import type { RowValue } from '../model/row-value.ts';
import type { EntityContext, ValueProgram } from './program.ts';
import type { FakerCall } from './faker-pool.ts';
import type { RandomStream } from './random.ts';

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Draw numbers set aside per faker placeholder and per uniqueness attempt. */
const DRAWS_PER_PLACEHOLDER = 1024;
const PLACEHOLDERS_PER_ATTEMPT = 64;

type Part = { text: string } | { field: number } | { faker: FakerCall; slot: number };

export function templateProgram(context: EntityContext, template: string, stream: RandomStream): ValueProgram {
  const parts: Part[] = [];
  const deps: number[] = [];
  let last = 0;
  let slot = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push({ text: template.slice(last, match.index) });
    last = match.index + match[0].length;
    const name = match[1] ?? '';
    if (name.startsWith('faker.')) {
      parts.push({ faker: context.fakers.method(context.plan.locale, name.slice('faker.'.length)), slot: slot++ });
      continue;
    }
    const index = context.fieldIndex(name);
    if (index < 0) throw new Error(`template of entity "${context.entity.id}" names unknown field "${name}"`);
    parts.push({ field: index });
    if (!deps.includes(index)) deps.push(index);
  }
  if (last < template.length) parts.push({ text: template.slice(last) });

  const fakers = context.fakers;
  return {
    at: (row, values, attempt) => {
      let text = '';
      for (const part of parts) {
        if ('text' in part) text += part.text;
        else if ('field' in part) text += renderValue(values[part.field]);
        else {
          const firstDraw = (attempt * PLACEHOLDERS_PER_ATTEMPT + part.slot) * DRAWS_PER_PLACEHOLDER;
          text += renderValue(fakers.call(part.faker, [], stream, row, firstDraw) as RowValue);
        }
      }
      return text;
    },
    deps,
  };
}

/** How a value reads inside text: null and undefined as '', Dates as ISO, objects as JSON. */
export function renderValue(value: RowValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
