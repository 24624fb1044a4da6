// Compile-time contracts of the SDK's typed helpers. `npx tsc -p tsconfig.json --noEmit` checks the
// `@ts-expect-error` lines (an unused one is an error); vitest only runs the trivial bodies.
import { describe, expectTypeOf, it } from 'vitest';
import {
  createManagementClient,
  createRuntimeClient,
  filters,
  type FieldValue,
  type Filters,
  type PopulatedRow,
  type Project,
  type RowList,
  type SdsError,
  type SdsResult,
} from '../../sdk/src/index.ts';

interface UsersRow {
  id: number;
  email: string;
  role: 'admin' | 'editor' | 'reader';
  active: boolean;
  createdAt: string;
  meta: unknown;
}
interface PostsRow {
  id: string;
  authorId: number;
  title: string;
  body: string | null;
}
interface SourceTables {
  users: UsersRow;
  posts: PostsRow;
}
interface SourceTableInputs {
  users: { id?: number; email: string; role: UsersRow['role']; active: boolean; createdAt: string; meta?: unknown };
  posts: { id?: string; authorId: number; title: string; body?: string | null };
}

const fetch = async () => new Response(JSON.stringify({ data: [{}], meta: { pagination: { offset: 0, limit: 25, total: 1 } } }), { headers: { 'content-type': 'application/json' } });
const runtime = createRuntimeClient<SourceTables, SourceTableInputs>({ baseUrl: 'http://x', sourceId: 's', fetch });
const untyped = createRuntimeClient({ baseUrl: 'http://x', sourceId: 's', fetch });
const management = createManagementClient({ baseUrl: 'http://x', apiKey: 'svc_api_x', fetch });

describe('typed filters', () => {
  it('allow each operator on the value types it fits', () => {
    const ok: Filters<UsersRow> = {
      email: { $containsi: 'example', $startsWith: 'a', $in: ['a@x.io'], $null: false },
      id: { $gte: 1, $lt: 10, $in: [1, 2], $notIn: [3] },
      role: { $eq: 'admin', $in: ['admin', 'editor'] },
      active: { $eq: true, $ne: false },
      createdAt: { $gt: '2026-01-01T00:00:00Z' },
      meta: { $null: true },
    };
    expectTypeOf(ok).toEqualTypeOf<Filters<UsersRow>>();
  });

  it('reject operators and values that do not fit', () => {
    // @ts-expect-error text operators are for strings
    filters<UsersRow>({ id: { $containsi: '1' } });
    // @ts-expect-error no ordering of booleans
    filters<UsersRow>({ active: { $gt: true } });
    // @ts-expect-error $in takes an array
    filters<UsersRow>({ id: { $in: 1 } });
    // @ts-expect-error $null is a boolean
    filters<UsersRow>({ email: { $null: 'yes' } });
    // @ts-expect-error an enum's values only
    filters<UsersRow>({ role: { $eq: 'owner' } });
    // @ts-expect-error unknown operator
    filters<UsersRow>({ email: { $like: 'a%' } });
    // @ts-expect-error unknown field
    filters<UsersRow>({ emial: { $eq: 'a' } });
  });

  it('offer on uuid, date, datetime, time and json fields exactly what the server accepts (FieldValue flavours)', () => {
    interface EventsRow {
      id: FieldValue<'uuid', string>;
      on: FieldValue<'date', string> | null;
      at: FieldValue<'datetime', string>;
      time: FieldValue<'time', string>;
      data: FieldValue<'json', string | number | boolean | { [key: string]: unknown }> | null;
    }
    const row: EventsRow = { id: '5d8f2a3c-1b4e-4c7d-9a6f-3e2b1c0d8a79', on: '2026-01-31', at: '2026-01-31T10:00:00Z', time: '10:00:00', data: { a: 1 } };
    const id: string = row.id;
    expectTypeOf(id).toBeString();
    filters<EventsRow>({
      id: { $eq: row.id, $in: ['5d8f2a3c-1b4e-4c7d-9a6f-3e2b1c0d8a79'], $gt: 'a' },
      on: { $gte: '2026-01-01', $null: false },
      at: { $lt: '2027-01-01T00:00:00Z' },
      time: { $notIn: ['09:00:00'] },
      data: { $null: true },
    });
    // @ts-expect-error no text operator on a uuid (the server answers 400)
    filters<EventsRow>({ id: { $contains: '5d8f' } });
    // @ts-expect-error no text operator on a date
    filters<EventsRow>({ on: { $startsWith: '2026' } });
    // @ts-expect-error no text operator on a datetime
    filters<EventsRow>({ at: { $containsi: 'T10' } });
    // @ts-expect-error no text operator on a time
    filters<EventsRow>({ time: { $endsWith: ':00' } });
    // @ts-expect-error json takes $null only
    filters<EventsRow>({ data: { $eq: 'x' } });
  });

  it('allow every operator when rows are untyped', () => {
    filters({ anything: { $containsi: 'x', $gt: 3, $in: [true], $null: false } });
  });
});

describe('typed runtime client', () => {
  it('types rows, projections and populated references', async () => {
    const all = await runtime.list('users', { filters: { role: { $eq: 'admin' } }, sort: ['createdAt:desc', 'id'] });
    expectTypeOf(all).toEqualTypeOf<SdsResult<RowList<{ id: number; email: string; role: UsersRow['role']; active: boolean; createdAt: string; meta: unknown }>>>();
    const projected = await runtime.list('users', { fields: ['id', 'email'] });
    expectTypeOf(projected.data!.data[0]!).toEqualTypeOf<{ id: number; email: string }>();
    const populated = await runtime.get('posts', 'p-1', { fields: ['id', 'authorId'], populate: ['authorId'] });
    expectTypeOf(populated.data!).toEqualTypeOf<{ id: string; authorId: PopulatedRow }>();
    const withProjection = await runtime.list('posts', { populate: { authorId: { fields: ['id', 'email'] } } });
    expectTypeOf(withProjection.data!.data[0]!.authorId).toEqualTypeOf<PopulatedRow>();
    expectTypeOf(withProjection.data!.data[0]!.title).toEqualTypeOf<string>();
    for await (const post of runtime.rows('posts', { pageSize: 50, fields: ['title'] })) expectTypeOf(post).toEqualTypeOf<{ title: string }>();
  });

  it('types a populated reference as the row it points to when given the references', async () => {
    interface SourceReferences {
      posts: { authorId: 'users' };
    }
    const linked = createRuntimeClient<SourceTables, SourceTableInputs, SourceReferences>({ baseUrl: 'http://x', sourceId: 's', fetch });
    const whole = await linked.list('posts', { populate: ['authorId'] });
    expectTypeOf(whole.data!.data[0]!.authorId).toEqualTypeOf<UsersRow | null>();
    const narrowed = await linked.list('posts', { fields: ['title'], populate: { authorId: { fields: ['id', 'email'] } } });
    // The populated field comes back even where the projection leaves it out, as the runtime answers.
    expectTypeOf(narrowed.data!.data[0]!).toEqualTypeOf<{ title: string; authorId: { id: number; email: string } | null }>();
    const one = await linked.get('posts', 'p-1', { populate: { authorId: true } });
    expectTypeOf(one.data!.authorId).toEqualTypeOf<UsersRow | null>();
    for await (const post of linked.rows('posts', { fields: ['id'], populate: { authorId: { fields: ['role'] } } })) {
      expectTypeOf(post).toEqualTypeOf<{ id: string; authorId: { role: UsersRow['role'] } | null }>();
    }
    // @ts-expect-error only reference fields can be populated
    await linked.list('posts', { populate: ['title'] });
    // @ts-expect-error a populated row is projected on fields of the table it points to
    await linked.list('posts', { populate: { authorId: { fields: ['title'] } } });
  });

  it('rejects unknown tables, fields and sort terms', async () => {
    // @ts-expect-error unknown table
    await runtime.list('comments');
    // @ts-expect-error unknown projected field
    await runtime.list('users', { fields: ['id', 'password'] });
    // @ts-expect-error sort direction is asc or desc
    await runtime.list('users', { sort: 'id:up' });
    // @ts-expect-error unknown sort field
    await runtime.list('users', { sort: ['name:asc'] });
    // @ts-expect-error only reference fields of this table can be populated
    await runtime.list('posts', { populate: ['editorId'] });
  });

  it('types create and update bodies', async () => {
    const created = await runtime.create('posts', { authorId: 1, title: 'Hello' });
    expectTypeOf(created.data).toEqualTypeOf<PostsRow | undefined>();
    // @ts-expect-error title is required on create
    await runtime.create('posts', { authorId: 1 });
    // @ts-expect-error wrong value type
    await runtime.update('posts', 'p-1', { authorId: 'one' });
    await runtime.update('users', 1, { active: false });
  });

  it('keeps error results typed as the API error body', async () => {
    const result = await untyped.list('anything', { filters: { x: { $eq: 1 } } });
    if (result.error) expectTypeOf(result.error).toEqualTypeOf<SdsError>();
    else expectTypeOf(result.data.data[0]!).toEqualTypeOf<{ [x: string]: unknown }>();
  });
});

describe('management client', () => {
  it('is openapi-fetch typed by the contract, without runtime paths', async () => {
    const { data, error } = await management.POST('/public/v1/projects', { body: { name: 'Demo' } });
    if (!error) expectTypeOf(data).toEqualTypeOf<Project>();
    else expectTypeOf(error).toEqualTypeOf<SdsError>();
    // @ts-expect-error runtime paths belong to the runtime client
    await management.GET('/runtime/{sourceId}/{table}', { params: { path: { sourceId: 's', table: 't' } } });
    // @ts-expect-error name is required
    await management.POST('/public/v1/projects', { body: { description: 'x' } });
  });
});
