// kubb's fetch client of a source's own document, its base URL taken from the document's server
// (variables at their defaults: this server, this source), typed per table.
import { getExportUsersUrl, listPosts, updatePost, type Post, type UserProjection } from './kubb-source/index.js';
import type { Answers, Given } from './shared.js';

export async function walkthrough(given: Given): Promise<Answers> {
  const init = { headers: { 'x-api-key': given.sourceKey, 'content-type': 'application/json' } };
  const page = await listPosts({ 'filters.authorId.$lte': 3, populate: ['authorId'], 'populate.authorId.fields': ['id', 'email'], sort: ['id'], limit: 100 }, init);
  if (page.status !== 200) throw new Error(`listPosts answered ${page.status}`);
  const rows = page.data.data;
  const author = rows[0]!.authorId as UserProjection;
  if (typeof author.email !== 'string') throw new Error('the author was not populated');
  const updated = await updatePost(rows[0]!.id!, { title: 'Patched by kubb, typed' }, init);
  if (updated.status !== 200) throw new Error(`updatePost answered ${updated.status}`);
  const patched: Post = updated.data;
  const csv = await (await fetch(`${getExportUsersUrl('csv').url}?${new URLSearchParams({ fields: 'id,email', sort: 'id' })}`, init)).text();
  return { sourceId: given.sourceId, posts: rows.map((row) => ({ id: row.id, authorId: row.authorId, title: row.title })), patched: { id: patched.id, title: patched.title }, csv };
}
