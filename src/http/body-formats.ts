// Parsers of the non-JSON bodies the contract test reads — CSV (RFC 4180), JSON Lines and
// Server-Sent Events — and the well-formedness problems each can have, as the validator reports them.

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks; CRLF or LF ends a record. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += char;
  }
  if (quoted) throw new Error('an unterminated quoted field');
  // A last record without a line break.
  if (field !== '' || record.length) records.push([...record, field]);
  return records;
}

/** A CSV body must parse and every record must have as many fields as the header row. */
export function csvProblems(text: string): string[] {
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (error) {
    return [`CSV does not parse: ${(error as Error).message}`];
  }
  if (records.length === 0) return ['CSV has no header row'];
  const width = records[0]!.length;
  const bad = records.findIndex((record) => record.length !== width);
  return bad < 0 ? [] : [`CSV record ${bad + 1} has ${records[bad]!.length} fields, the header ${width}`];
}

/** JSON Lines: each non-empty line one JSON value. */
export function parseNdjson(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        throw new Error(`JSON Lines line ${index + 1} is not JSON: ${line.slice(0, 60)}`);
      }
    });
}

export function ndjsonProblems(text: string): string[] {
  try {
    const values = parseNdjson(text);
    const bad = values.findIndex((value) => value === null || typeof value !== 'object' || Array.isArray(value));
    return bad < 0 ? [] : [`JSON Lines line ${bad + 1} is not an object`];
  } catch (error) {
    return [(error as Error).message];
  }
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Server-Sent Events as the HTML standard parses them: blank lines end events, `:` lines are comments. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let current: { id?: string; event?: string; data: string[] } = { data: [] };
  let seen = false;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (seen) events.push({ id: current.id, event: current.event, data: current.data.join('\n') });
      current = { data: [] };
      seen = false;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    seen = true;
    if (name === 'id') current.id = value;
    else if (name === 'event') current.event = value;
    else if (name === 'data') current.data.push(value);
  }
  if (seen) events.push({ id: current.id, event: current.event, data: current.data.join('\n') });
  return events;
}

/**
 * Each event of a generation-event stream: an integer `id`, a known `event` type (when the document
 * lists them), and `data` the event as JSON with the same id and type.
 */
export function sseProblems(text: string, eventTypes?: string[]): string[] {
  const problems: string[] = [];
  for (const [index, event] of parseSse(text).entries()) {
    const at = `event ${index + 1}`;
    if (event.id === undefined || !/^\d+$/.test(event.id)) problems.push(`${at} has no integer id (id: ${event.id ?? 'none'})`);
    if (event.event === undefined) problems.push(`${at} has no event type`);
    else if (eventTypes && !eventTypes.includes(event.event)) problems.push(`${at} has an unknown type "${event.event}"`);
    let data: { id?: unknown; type?: unknown } | undefined;
    try {
      data = JSON.parse(event.data) as { id?: unknown; type?: unknown };
    } catch {
      problems.push(`${at} data is not JSON`);
    }
    if (data && event.id !== undefined && String(data.id) !== event.id) problems.push(`${at} data.id ${String(data.id)} is not its id ${event.id}`);
    if (data && event.event !== undefined && data.type !== event.event) problems.push(`${at} data.type ${String(data.type)} is not its type ${event.event}`);
  }
  return problems.slice(0, 5);
}
