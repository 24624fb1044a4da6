// JSON pointers (the validator's paths) → the text the editor marks, as a table of cases.
import { json } from '@codemirror/lang-json';
import { syntaxTree } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { locate } from '../src/design/pointers.ts';

const doc = JSON.stringify(
  {
    formatVersion: 1,
    metadata: { tags: ['a', 'b'], 'a/b': 'slash', 'a~b': 'tilde' },
    entities: [
      {
        id: 'users',
        fields: [
          { id: 'id', type: 'integer' },
          { id: 'role', type: 'enum', values: ['x', 'y'], weights: [1] },
        ],
      },
    ],
  },
  null,
  2,
);

// A fresh state, parsed only as far as its creation's time budget went: locate finishes the parse.
const state = (text: string) => EditorState.create({ doc: text, extensions: [json()] });

const cases: [string, { pointer: string; want: string; exact: boolean }][] = [
  ['the root: its opening brace', { pointer: '', want: '{', exact: true }],
  ['a scalar property: its value', { pointer: '/formatVersion', want: '1', exact: true }],
  ['an object property: its name', { pointer: '/metadata', want: '"metadata"', exact: true }],
  ['an array property: its name', { pointer: '/entities/0/fields/1/weights', want: '"weights"', exact: true }],
  ['an array item object: its opening brace', { pointer: '/entities/0', want: '{', exact: true }],
  ['a string in an array', { pointer: '/metadata/tags/1', want: '"b"', exact: true }],
  ['a nested scalar', { pointer: '/entities/0/fields/1/type', want: '"enum"', exact: true }],
  ['"/" escaped as ~1', { pointer: '/metadata/a~1b', want: '"slash"', exact: true }],
  ['"~" escaped as ~0', { pointer: '/metadata/a~0b', want: '"tilde"', exact: true }],
  ["a missing array item: the array's name", { pointer: '/entities/0/fields/7', want: '"fields"', exact: false }],
  ["a missing property: its object's brace", { pointer: '/entities/0/fields/0/nullable', want: '{', exact: false }],
  ["a missing property under a property: that property's name", { pointer: '/metadata/missing', want: '"metadata"', exact: false }],
];

describe('locate', () => {
  it.each(cases)('%s', (_name, { pointer, want, exact }) => {
    const place = locate(state(doc), pointer);
    expect(doc.slice(place.from, place.to)).toBe(want);
    expect(place.exact).toBe(exact);
  });

  it('marks a property whose value is still being typed by its name', () => {
    const text = '{"formatVersion": 1, "entities": }';
    const place = locate(state(text), '/entities');
    expect(text.slice(place.from, place.to)).toBe('"entities"');
  });

  it('finds a place at the end of a long config that was not parsed that far yet', () => {
    const fields = Array.from({ length: 5_000 }, (_, i) => ({ id: `f${i}`, type: 'string' }));
    const text = JSON.stringify({ formatVersion: 1, entities: [{ id: 'wide', fields }] }, null, 2);
    const fresh = state(text);
    expect(syntaxTree(fresh).length).toBeLessThan(text.length);
    const place = locate(fresh, '/entities/0/fields/4999/type');
    expect(text.slice(place.from, place.to)).toBe('"string"');
    expect(place.exact).toBe(true);
  });

  it('marks the first character of a document that is not JSON yet', () => {
    expect(locate(state(''), '/entities')).toEqual({ from: 0, to: 0, exact: false });
  });
});
