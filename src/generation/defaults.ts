// The program of a field without a strategy: from its type, format, constraints and id. Integer
// primary keys count up from 1; uuids are deterministic v4; `email`, `city`, `createdAt`… get
// realistic values (named-defaults.ts); everything else a plain value of its type.
import type { Field } from '../model/config-types.ts';
import type { EntityContext, ValueProgram } from './program.ts';
import type { RandomStream } from './random.ts';
import { composerProgram, cursorProgram } from './program.ts';
import { emailText, namedDefault, numericDefault, slugText, urlText } from './named-defaults.ts';
import { sequenceProgram } from './values/numbers.ts';
import { booleanProgram, choiceProgram } from './values/choices.ts';
import { dateRangeProgram, timeProgram } from './values/date-programs.ts';
import { jsonObject, uuidProgram } from './values/tokens.ts';
import { paragraphText, wordsText } from './values/strings.ts';
import { coherentDefault } from './coherence/defaults.ts';
import { englishParagraph, shortPhrase, textWords } from './coherence/text.ts';

/** Plain strings up to this maxLength are codes (letters and digits) rather than words. */
const CODE_LENGTH = 10;
const CODE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function defaultProgram(context: EntityContext, field: Field, stream: RandomStream): ValueProgram {
  if (context.version >= 2) {
    const coherent = coherentDefault(context, field, stream, () => versionOneDefault(context, field, stream));
    if (coherent) return coherent;
    const text = englishDefault(context, field, stream);
    if (text) return text;
  }
  return versionOneDefault(context, field, stream);
}

/** Version 2: English-like words where version 1 wrote lorem (text fields, roomy plain strings); version 3: the locale's words where it has enough; undefined elsewhere. */
function englishDefault(context: EntityContext, field: Field, stream: RandomStream): ValueProgram | undefined {
  if (field.type === 'text' && !namedDefault(context, field, stream)) {
    const words = textWords(context);
    return cursorProgram(stream, (cursor) => englishParagraph(words, cursor, cursor.int(1, 4)));
  }
  if (field.type !== 'string' || (field.format !== undefined && field.format !== 'plain') || namedDefault(context, field, stream)) return undefined;
  const room = (field.maxLength ?? Number.POSITIVE_INFINITY) - (field.prefix?.length ?? 0) - (field.suffix?.length ?? 0);
  if (room <= CODE_LENGTH) return undefined;
  const words = textWords(context);
  return cursorProgram(stream, (cursor) => shortPhrase(words, cursor));
}

/** Version 1's default of a field, which never changes. */
function versionOneDefault(context: EntityContext, field: Field, stream: RandomStream): ValueProgram {
  // uuid, enum, boolean, json and time values never depend on the field's id; the other types get
  // a default by id (namedDefault) when one fits, else a plain value of their type.
  const named = () => namedDefault(context, field, stream);
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
      if (field.format !== undefined && field.format !== 'plain') return formatProgram(context, field, stream);
      return named() ?? plainStringProgram(context, field, stream);
    case 'text':
      return named() ?? cursorProgram(stream, (cursor) => paragraphText(context.words.loremWords, cursor, cursor.int(1, 4)));
    case 'integer':
      if (context.entity.primaryKey?.includes(field.id)) return sequenceProgram(Math.ceil(field.min ?? 1), 1, field.min, field.max);
      return named() ?? numericDefault(field, stream, 0, 1000, 0);
    case 'number':
      return named() ?? numericDefault(field, stream, 0, 1000, 2);
    case 'date':
    case 'datetime':
      return named() ?? dateRangeProgram(stream, field.type, { from: '-1y', to: 'now' }, context.referenceMs, context.plan.timezone, field.weekdaysOnly === true);
  }
}

function formatProgram(context: EntityContext, field: Field, stream: RandomStream): ValueProgram {
  switch (field.format) {
    case 'email':
      return cursorProgram(stream, (cursor) => emailText(cursor, context.words));
    case 'url':
      return cursorProgram(stream, (cursor) => urlText(cursor, context.words));
    case 'slug':
      return cursorProgram(stream, (cursor) => slugText(cursor, context.words));
    default:
      return composerProgram(context, 'phone.number', stream);
  }
}

/** Words for roomy fields; for short ones (maxLength ≤ 10), codes of letters and digits that fill the length. */
function plainStringProgram(context: EntityContext, field: Field, stream: RandomStream): ValueProgram {
  const maxLength = field.maxLength;
  const room = (maxLength ?? Number.POSITIVE_INFINITY) - (field.prefix?.length ?? 0) - (field.suffix?.length ?? 0);
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
