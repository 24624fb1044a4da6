// orval's fetch client of the main contract: the same walkthrough as hey-main.ts. orval 7's fetch
// client parses every answer as JSON, so the CSV export is fetched from the URL it builds.
import * as sds from './orval-main/api.js';
import { until, type Answers, type Given } from './shared.js';

function ok<T extends { status: number }, S extends number>(answer: T, status: S): Extract<T, { status: S }> {
  if (answer.status !== status) throw new Error(`answered ${answer.status}: ${JSON.stringify((answer as { data?: unknown }).data)}`);
  return answer as Extract<T, { status: S }>;
}

export async function walkthrough(given: Given): Promise<Answers> {
  const team = { headers: { 'x-api-key': given.teamKey } };
  const projectId = ok(await sds.createProject({ name: 'orval walkthrough' }, team), 201).data.id;
  const schema = ok(await sds.createSchema(projectId, { name: 'Blog', initialVersion: { schema: given.config as sds.SchemaConfig } }, team), 201).data;
  const versions = ok(await sds.listSchemaVersions(projectId, schema.id, undefined, team), 200).data;
  const source = ok(
    await sds.createSource(projectId, { name: 'Blog', kind: 'postgres', schemaVersionId: versions[0]!.id, generatorConfig: { rowCounts: { users: 10, posts: 30 } } }, team),
    201,
  ).data;
  const sourceId = source.id;
  await until(async () => {
    const jobs = ok(await sds.listGenerationJobs(projectId, sourceId, undefined, team), 200).data;
    if (jobs[0]?.status === 'failed') throw new Error(jobs[0].error ?? 'generation failed');
    return jobs[0]?.status === 'succeeded';
  });
  const key = ok(await sds.createSourceApiKey(projectId, sourceId, {}, team), 201).data.key;

  const runtime = { headers: { 'x-api-key': key } };
  const list = ok(await sds.listRows(sourceId, 'posts', { where: JSON.stringify({ authorId: { $lte: 3 } }), populate: 'authorId', sort: 'id', limit: 100 }, runtime), 200).data;
  // listRows still declares its CSV and JSON Lines answers (for the clients that ask it for files);
  // with `contentType: { include: ['application/json'] }` on listRows, orval types its 200 as the page alone.
  const posts = list.data.map((row) => ({ id: row.id, authorId: row.authorId, title: row.title }));
  const patched = ok(await sds.updateRow(sourceId, 'posts', String(posts[0]!.id), { title: 'Patched by orval' }, runtime), 200).data;
  const csv = await (await fetch(sds.getExportRowsUrl(sourceId, 'users', 'csv', { fields: 'id,email', sort: 'id' }), runtime)).text();
  return { sourceId, posts, patched: { id: patched.id, title: patched.title }, csv };
}
