// @hey-api/openapi-ts's client of a source's own document: typed per table, the filter, populate,
// sort and projection as the generated parameters, a typed patch and a CSV export.
import { createClient } from './hey-source/client/index.js';
import { exportUsers, listPosts, updatePost } from './hey-source/sdk.gen.js';
import type { Post, PostSelection, UserProjection } from './hey-source/types.gen.js';
import type { Answers, Given } from './shared.js';

export async function walkthrough(given: Given): Promise<Answers> {
  const client = createClient({ baseUrl: `${given.baseUrl}/runtime/${given.sourceId}`, headers: { 'x-api-key': given.sourceKey } });
  const page = await listPosts({
    client,
    query: { 'filters.authorId.$lte': 3, populate: ['authorId'], 'populate.authorId.fields': ['id', 'email'], sort: ['id'], limit: 100 },
    throwOnError: true,
  });
  const rows: PostSelection[] = page.data.data;
  const author = rows[0]!.authorId as UserProjection;
  if (typeof author.email !== 'string') throw new Error('the author was not populated');
  const patched: Post = (await updatePost({ client, path: { id: rows[0]!.id! }, body: { title: 'Patched by hey-api, typed' }, throwOnError: true })).data;
  const csv: string = (await exportUsers({ client, path: { format: 'csv' }, query: { fields: ['id', 'email'], sort: ['id'] }, throwOnError: true })).data;
  return { sourceId: given.sourceId, posts: rows.map((row) => ({ id: row.id, authorId: row.authorId, title: row.title })), patched: { id: patched.id, title: patched.title }, csv };
}
