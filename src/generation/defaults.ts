// The program of a field without a strategy: the first rule of the field-rules table that makes it
// (rules/choose-rule.ts: by context, format and id, in the rule sets of the run's generator
// version), else a plain value of its type. Integer primary keys count up from 1; uuids are
// deterministic v4.
import type { Field } from '../model/config-types.ts';
import type { EntityContext, ValueProgram } from './program.ts';
import type { RandomStream } from './random.ts';
import { composerProgram, cursorProgram } from './program.ts';
import { numericDefault } from './named-defaults.ts';
import { sequenceProgram } from './values/numbers.ts';
import { booleanProgram, choiceProgram } from './values/choices.ts';
import { dateRangeProgram, timeProgram } from './values/date-programs.ts';
import { jsonObject, uuidProgram } from './values/tokens.ts';
import { paragraphText, wordsText } from './values/strings.ts';
import { ruleChoices } from './rules/choose-rule.ts';
import { CODE_LENGTH, roomOf } from './rules/room.ts';

const CODE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function defaultProgram(context: EntityContext, field: Field, stream: RandomStream): ValueProgram {
  const scope = { entity: context.entity, entities: context.entities, deferred: context.plan.deferredColumns, version: context.version };
  const choices = ruleChoices(scope, field);
  const from = (start: number): ValueProgram => {
    for (let i = start; i < choices.length; i++) {
      const { set, make } = choices[i]!;
      // What the field gets without this rule's set: the next set's choice, else the plain default.
      let next = i + 1;
      while (next < choices.length && choices[next]!.set === set) next++;
      const program = make(context, field, stream, () => from(next));
      if (program) return program;
    }
    return typeDefault(context, field, stream);
  };
  return from(0);
}

/** The default of a field no rule makes, from its type alone (version 1's, which never changes). */
function typeDefault(context: EntityContext, field: Field, stream: RandomStream): ValueProgram {
  switch (field.type) {
    case 'uuid':
      return uuidProgram(stream);
    case 'enum': {
      const values = field.values ?? [];
      const weights = field.weights?.length === values.length ? field.weights : undefined;
      return { ...choiceProgram(stream, values, weights), typed: true };
    }
    case 'boolean':
      return booleanProgram(stream, field.trueRate ?? 0.5);
    case 'json':
      return cursorProgram(stream, jsonObject, true);
    case 'time':
      return timeProgram(stream);
    case 'string':
      if (field.format !== undefined && field.format !== 'plain') return composerProgram(context, 'phone.number', stream);
      return plainStringProgram(context, field, stream);
    case 'text':
      return cursorProgram(stream, (cursor) => paragraphText(context.words.loremWords, cursor, cursor.int(1, 4)));
    case 'integer':
      if (context.entity.primaryKey?.includes(field.id)) return sequenceProgram(Math.ceil(field.min ?? 1), 1, field.min, field.max);
      return numericDefault(field, stream, 0, 1000, 0);
    case 'number':
      return numericDefault(field, stream, 0, 1000, 2);
    case 'date':
    case 'datetime':
      return dateRangeProgram(stream, field.type, { from: '-1y', to: 'now' }, context.referenceMs, context.plan.timezone, field.weekdaysOnly === true);
  }
}

/** Words for roomy fields; for short ones (maxLength ≤ 10), codes of letters and digits that fill the length. */
function plainStringProgram(context: EntityContext, field: Field, stream: RandomStream): ValueProgram {
  const room = roomOf(field);
  if (room <= CODE_LENGTH) {
    const longest = Math.max(1, room);
    const shortest = Math.min(longest, Math.max(1, (field.minLength ?? 0) - (field.prefix?.length ?? 0) - (field.suffix?.length ?? 0), Math.ceil(longest / 2)));
    return cursorProgram(stream, (cursor) => {
      let code = '';
      for (let i = cursor.int(shortest, longest); i > 0; i--) code += CODE_CHARS[cursor.u32() % CODE_CHARS.length];
      return code;
    });
  }
  return cursorProgram(stream, (cursor) => wordsText(context.words.loremWords, cursor, cursor.int(1, 3)));
}
