// A source's own OpenAPI document as the artefact typed clients are generated from (issue 28, item
// 2): names per table that read well and never collide, a server with variables instead of a fixed
// host and id, typed components, and a list query made of flat parameters.
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { sourceOpenApi } from '../../../src/management/runtime-docs.ts';
import { pluralize, singularize, tableNames } from '../../../src/management/table-names.ts';
import { OPERATOR_NAMES } from '../../../src/runtime/operators.ts';
import type { Source } from '../../../src/store/sources.ts';
import { blogConfig } from '../../fixtures/configs.ts';

const source = { id: '5d8f2a3c-1b4e-4c7d-9a6f-3e2b1c0d8a79', schemaVersionId: '9c4e7a1b-3d2f-4b6a-8e5c-7f1a0d2b4c68', name: 'Blog', slug: 'blog', requireAuth: true } as Source;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = Record<string, any>;

const operationIds = (document: Node) =>
  Object.values(document.paths as Node).flatMap((item: Node) => Object.entries(item).filter(([method]) => method !== 'parameters').map(([, operation]) => (operation as Node).operationId as string));

describe('table names', () => {
  it.each([
    ['posts', 'Post', 'Posts'],
    ['users', 'User', 'Users'],
    ['categories', 'Category', 'Categories'],
    ['order_items', 'OrderItem', 'OrderItems'],
    ['people', 'Person', 'People'],
    ['addresses', 'Address', 'Addresses'],
    ['boxes', 'Box', 'Boxes'],
    ['status', 'Status', 'Statuses'],
    ['employee', 'Employee', 'Employees'],
    ['user_profile', 'UserProfile', 'UserProfiles'],
    ['series', 'Series', 'Series'],
    ['dates', 'DateRow', 'Dates'],
    ['errors', 'ErrorRow', 'Errors'],
  ])('%s → %s, %s', (id, singular, plural) => {
    expect(tableNames([id]).get(id)).toEqual({ singular, plural });
  });

  it('inflects both ways', () => {
    for (const word of ['post', 'category', 'address', 'box', 'person', 'church']) expect(singularize(pluralize(word))).toBe(word);
  });

  it('resolves collisions by config order, deterministically', () => {
    const names = tableNames(['post', 'posts', 'Posts', 'post_selections']);
    expect([...names.values()]).toEqual([
      { singular: 'Post', plural: 'Posts' },
      { singular: 'Posts2', plural: 'Posts2' },
      { singular: 'Posts3', plural: 'Posts3' },
      // PostSelection is the first table's read type: this table takes its own id.
      { singular: 'PostSelections', plural: 'PostSelections' },
    ]);
    expect(tableNames(['post', 'posts', 'Posts', 'post_selections'])).toEqual(names);
  });
});

describe("a source's document", () => {
  const document = sourceOpenApi(source, blogConfig(), 'http://sds.test') as unknown as Node;

  it('has a server with baseUrl and sourceId variables, and paths relative to it', () => {
    expect(document.servers).toEqual([
      expect.objectContaining({ url: '{baseUrl}/runtime/{sourceId}', variables: { baseUrl: expect.objectContaining({ default: 'http://sds.test' }), sourceId: expect.objectContaining({ default: source.id }) } }),
    ]);
    expect(Object.keys(document.paths)).toEqual(['/users', '/users.{format}', '/users/{id}', '/posts', '/posts.{format}', '/posts/{id}']);
  });

  it('names operations after the table, each once', () => {
    const ids = operationIds(document);
    expect(ids).toEqual(['listUsers', 'createUser', 'exportUsers', 'getUser', 'updateUser', 'deleteUser', 'listPosts', 'createPost', 'exportPosts', 'getPost', 'updatePost', 'deletePost']);
    const colliding = sourceOpenApi(source, { ...blogConfig(), entities: [...blogConfig().entities, { ...blogConfig().entities[1]!, id: 'post' }] } as SchemaConfig, 'http://sds.test') as unknown as Node;
    const all = operationIds(colliding);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toEqual(expect.arrayContaining(['listPost2', 'getPost2', 'exportPost2']));
  });

  it('types rows, reads, inputs, patches and pages; keeps the former names as deprecated aliases', () => {
    const schemas = document.components.schemas as Node;
    for (const name of ['Post', 'PostSelection', 'PostProjection', 'PostInput', 'PostPatch', 'PostPage', 'PostWhere', 'ErrorBody', 'Pagination']) expect(schemas).toHaveProperty(name);
    expect(schemas.PostSelection.properties.authorId.anyOf).toContainEqual({ $ref: '#/components/schemas/UserProjection' });
    expect(schemas.PostPatch).toMatchObject({ minProperties: 1, additionalProperties: false });
    expect(schemas.Posts).toEqual({ deprecated: true, description: 'Former name of Post.', allOf: [{ $ref: '#/components/schemas/Post' }] });
    expect(schemas).not.toHaveProperty('Error');
  });

  it('does not require on create a field with a default', () => {
    const config = blogConfig();
    const title = config.entities[1]!.fields.find((field) => field.id === 'title')!;
    const schemas = (document.components.schemas as Node);
    expect(schemas.PostInput.required).toContain('title');
    title.default = { value: 'Untitled' };
    const withDefault = (sourceOpenApi(source, config, 'http://sds.test') as unknown as Node).components.schemas as Node;
    expect(withDefault.PostInput.required).toEqual(schemas.PostInput.required.filter((name: string) => name !== 'title'));
  });

  it('declares the bounds writes enforce on inputs and patches, not on rows or filters', () => {
    const schemas = document.components.schemas as Node;
    for (const name of ['PostInput', 'PostPatch']) {
      expect(schemas[name].properties.price).toEqual({ type: 'number', minimum: 0, maximum: 100 });
      expect(schemas[name].properties.title).toEqual({ type: 'string', maxLength: 140 });
    }
    expect(schemas.Post.properties.price).toEqual({ type: 'number' });
    const list = document.paths['/posts'].get as Node;
    const gte = (list.parameters as Node[]).find((parameter) => parameter.name === 'filters.price.$gte');
    expect(gte?.schema).toEqual({ type: 'number' });
  });

  it('describes the list query as flat parameters, list responses as JSON only, exports as text only', () => {
    const list = document.paths['/posts'].get as Node;
    const parameters = new Map((list.parameters as Node[]).map((parameter) => [parameter.name as string, parameter]));
    expect(parameters.get('filters.publishedOn.$gte')).toMatchObject({ in: 'query', schema: { type: 'string', format: 'date' } });
    expect(parameters.get('filters.authorId.$in')).toMatchObject({ style: 'form', explode: false, schema: { type: 'array', items: { type: 'integer' } } });
    expect(parameters.get('filters.body.$null')).toMatchObject({ schema: { type: 'boolean' } });
    expect(parameters.has('filters.price.$contains')).toBe(false);
    expect(parameters.get('populate')).toMatchObject({ schema: { type: 'array', items: { enum: ['authorId'] } } });
    expect(parameters.get('populate.authorId.fields')).toMatchObject({ schema: { items: { enum: ['id', 'email', 'firstName', 'role', 'active', 'createdAt'] } } });
    expect(parameters.get('where')).toMatchObject({ schema: { type: 'string', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/PostWhere' } } });
    expect(parameters.get('limit')).toMatchObject({ schema: { maximum: 1000 } });
    expect(Object.keys(list.responses['200'].content)).toEqual(['application/json']);
    const exported = document.paths['/posts.{format}'].get as Node;
    expect(exported.parameters.find((parameter: Node) => parameter.name === 'limit').schema).not.toHaveProperty('maximum');
    expect(exported.parameters.some((parameter: Node) => parameter.name.startsWith('populate'))).toBe(false);
    expect(Object.values(exported.responses['200'].content).map((media) => (media as Node).schema.type)).toEqual(['string', 'string']);
    // Every operator of the runtime is described for some field of the blog.
    const operators = new Set([...parameters.keys()].filter((name) => name.startsWith('filters.')).map((name) => name.split('.')[2]));
    expect([...operators].sort()).toEqual([...OPERATOR_NAMES].sort());
  });
});
