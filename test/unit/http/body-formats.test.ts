// The contract test's parsers of CSV, JSON Lines and Server-Sent Events, and the problems each reports.
import { describe, expect, it } from 'vitest';
import { csvProblems, ndjsonProblems, parseCsv, parseSse, sseProblems } from '../../../src/http/body-formats.ts';

const TYPES = ['job.started', 'job.succeeded'];
const event = (id: number, type: string) => `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify({ id, type })}\n\n`;

const cases: [string, { given: () => string[]; want: string[] }][] = [
  ['a CSV export', { given: () => csvProblems('id,name\n1,"Ada, Countess"\n2,"say ""hi""\nthere"\n'), want: [] }],
  ['a CSV record with an extra field', { given: () => csvProblems('id,name\n1,Ada\n2,Bob,extra\n'), want: ['CSV record 3 has 3 fields, the header 2'] }],
  ['a CSV with an open quote', { given: () => csvProblems('id,name\n1,"Ada\n'), want: ['CSV does not parse: an unterminated quoted field'] }],
  ['JSON Lines', { given: () => ndjsonProblems('{"id":1}\n{"id":2}\n'), want: [] }],
  ['a JSON Lines line that is not JSON', { given: () => ndjsonProblems('{"id":1}\n{not json\n'), want: ['JSON Lines line 2 is not JSON: {not json'] }],
  ['a JSON Lines line that is not an object', { given: () => ndjsonProblems('{"id":1}\n[2]\n'), want: ['JSON Lines line 2 is not an object'] }],
  ['an event stream', { given: () => sseProblems(`: comment\n\n${event(1, 'job.started')}${event(2, 'job.succeeded')}`, TYPES), want: [] }],
  [
    'an event without id',
    { given: () => sseProblems(`event: job.started\ndata: {"id":1,"type":"job.started"}\n\n`, TYPES), want: ['event 1 has no integer id (id: none)'] },
  ],
  ['an event of an unknown type', { given: () => sseProblems(event(3, 'job.exploded'), TYPES), want: ['event 1 has an unknown type "job.exploded"'] }],
  ['an event whose data is not JSON', { given: () => sseProblems('id: 4\nevent: job.started\ndata: nope\n\n', TYPES), want: ['event 1 data is not JSON'] }],
  [
    'an event whose data names another id',
    { given: () => sseProblems('id: 5\nevent: job.started\ndata: {"id":6,"type":"job.started"}\n\n', TYPES), want: ['event 1 data.id 6 is not its id 5'] },
  ],
];

describe('contract test formats', () => {
  for (const [name, { given, want }] of cases) it(name, () => expect(given()).toEqual(want));

  it('parses CSV records (quotes, doubled quotes, line breaks in a field, CRLF, no final break)', () => {
    expect(parseCsv('a,b\r\n"x,1","say ""hi""\nthere"\r\n,""\nlast,row')).toEqual([['a', 'b'], ['x,1', 'say "hi"\nthere'], ['', ''], ['last', 'row']]);
  });

  it('parses events: multi-line data, comments, a last event without a blank line', () => {
    expect(parseSse(': hi\nid: 1\nevent: e\ndata: a\ndata: b\n\nid: 2\ndata: c')).toEqual([
      { id: '1', event: 'e', data: 'a\nb' },
      { id: '2', event: undefined, data: 'c' },
    ]);
  });
});
