// compareRuntimeApis (GET …/api-changes) compares a source's runtime documents table by table, skips
// what is the same in both versions (parameters, responses, schema properties), does not compare
// tables added or removed whole, and can be run in slices of tables: none of this may change the
// answer, which stays what comparing the two whole documents answers.
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { classifyChanges, type Change } from '../../../src/api-changes/classify-changes.ts';
import { compareRuntimeApis, compareRuntimeApisSlice, summariseChanges } from '../../../src/management/api-changes.ts';
import { sourceOpenApi } from '../../../src/management/runtime-docs.ts';
import type { Source } from '../../../src/store/sources.ts';
import { blogConfig } from '../../fixtures/configs.ts';
import { wideConfig } from '../../fixtures/wide-configs.ts';

const source = { id: '5d8f2a3c-1b4e-4c7d-9a6f-3e2b1c0d8a79', schemaVersionId: '9c4e7a1b-3d2f-4b6a-8e5c-7f1a0d2b4c68', name: 'Blog', slug: 'blog', requireAuth: true } as Source;
type Entity = SchemaConfig['entities'][number];

/** The blog with every field that is neither a key nor a reference renamed, users' email made nullable, and a `tags` table. */
function blogChanged(): SchemaConfig {
  const config = blogConfig();
  for (const entity of config.entities) for (const field of entity.fields) if (field.id !== 'id' && !field.references) field.id = `${field.id}2`;
  config.entities.find((entity) => entity.id === 'users')!.fields.find((field) => field.id === 'email2')!.nullable = true;
  config.entities.push({ id: 'tags', primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }, { id: 'label', type: 'string' }] } as Entity);
  return config;
}

/** What comparing the whole documents answers, as compareRuntimeApis words each change. */
function wholeDocuments(from: SchemaConfig, to: SchemaConfig) {
  const word = ({ type, side, operation, location, description, rule }: Change) => ({ type, side, ...(operation !== undefined ? { operation } : {}), location, description, ...(rule !== undefined ? { rule } : {}) });
  return classifyChanges(sourceOpenApi(source, from, 'http://localhost:3000'), sourceOpenApi(source, to, 'http://localhost:3000')).map(word);
}
const sorted = <T>(list: T[]) => list.map((item) => JSON.stringify(item)).sort();

describe('compareRuntimeApis', () => {
  it.each([
    ['fields renamed, a field made nullable, a table added', blogConfig, blogChanged],
    ['the same the other way round (a table removed)', blogChanged, blogConfig],
  ])('answers what comparing the whole documents answers: %s', (_, from, to) => {
    const { changes, counts } = compareRuntimeApis(source, from(), to(), 'http://localhost:3000');
    expect(changes.length).toBeGreaterThan(100);
    expect(sorted(changes)).toEqual(sorted(wholeDocuments(from(), to())));
    expect(counts.breaking).toBe(changes.filter((change) => change.type === 'breaking').length);
  });

  it.each(['full', 'one'] as const)('answers what comparing the whole documents answers: tables referencing each other, %s change', (change) => {
    const [from, to] = [wideConfig(3, 1, change), wideConfig(3, 2, change)];
    const { changes } = compareRuntimeApis(source, from, to, 'http://localhost:3000');
    expect(changes.length).toBeGreaterThan(change === 'full' ? 300 : 100);
    expect(sorted(changes)).toEqual(sorted(wholeDocuments(from, to)));
  });

  it("answers what comparing the whole documents answers when tables swap their schemas' names (posts then post, post then posts)", () => {
    const table = (id: string, title: string, parent?: string) => ({ id, primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }, { id: title, type: 'string' }, { id: 'body', type: 'text' }, ...(parent ? [{ id: 'parentId', type: 'integer', references: { entity: parent, field: 'id' } }] : [])] }) as Entity;
    const [from, to] = [{ formatVersion: 1, entities: [table('posts', 'title', 'post'), table('post', 'title', 'posts')] } as SchemaConfig, { formatVersion: 1, entities: [table('post', 'heading', 'posts'), table('posts', 'title', 'post')] } as SchemaConfig];
    const { changes } = compareRuntimeApis(source, from, to, 'http://localhost:3000');
    expect(changes).toContainEqual(expect.objectContaining({ operation: 'GET /post', type: 'breaking', location: expect.stringMatching(/properties\/title$/) }));
    expect(sorted(changes)).toEqual(sorted(wholeDocuments(from, to)));
  });

  it('compared in slices of one table each (no time budget), answers the same list in the same order', () => {
    const [from, to] = [blogConfig(), blogChanged()];
    const slices = [];
    for (let start: number | undefined = 0; start !== undefined; ) {
      const slice = compareRuntimeApisSlice(source, from, to, 'http://localhost:3000', start, 0);
      slices.push(slice.changes);
      expect(slice.next === undefined || slice.next === start + 1).toBe(true);
      start = slice.next;
    }
    // users, posts (changed), tags (added): the shell comes with the first.
    expect(slices).toHaveLength(3);
    expect(summariseChanges(slices)).toEqual(compareRuntimeApis(source, from, to, 'http://localhost:3000'));
  });

  it('with mayDefer, a slice that built the documents past its budget compares nothing; the next, the documents kept, compares a table', () => {
    const [from, to] = [wideConfig(2, 1, 'one'), wideConfig(2, 2, 'one')];
    expect(compareRuntimeApisSlice(source, from, to, 'http://localhost:3000', 0, 0, true)).toEqual({ changes: [], next: 0 });
    const first = compareRuntimeApisSlice(source, from, to, 'http://localhost:3000', 0, 0, true);
    expect(first.next).toBe(1);
    expect(first.changes.length).toBeGreaterThan(10);
  });

  it('a table added or removed whole is one change per operation, as the diff library words it', () => {
    const added = compareRuntimeApis(source, blogConfig(), { ...blogConfig(), entities: [...blogConfig().entities, { id: 'tags', primaryKey: ['id'], fields: [{ id: 'id', type: 'integer' }] } as Entity] }, 'http://localhost:3000');
    expect(added.changes).toContainEqual({ type: 'non-breaking', side: 'operation', operation: 'GET /tags', location: '/', description: '[Added] operation GET /tags' });
    expect(added.changes.map((change) => change.operation).sort()).toEqual(['DELETE /tags/{id}', 'GET /tags', 'GET /tags.{format}', 'GET /tags/{id}', 'PATCH /tags/{id}', 'POST /tags']);
    expect(added.breaking).toBe(false);
  });
});
