// kubb's fetch client (@kubb/plugin-client, bundled) of the main contract: the same walkthrough as
// hey-main.ts, with the generated functions' positional calls. kubb 4's fetch client sends bodies
// without a Content-Type (sds answers 415 to a JSON body that does not say so) and parses every
// answer as JSON, so the calls say `content-type` and the CSV export is fetched from the URL it
// builds (`urlType: 'export'`).
import * as sds from './kubb-main/index.js';
import { until, type Answers, type Given } from './shared.js';

function ok<T extends { status: number; data: unknown }>(answer: T, status: number): T['data'] {
  if (answer.status !== status) throw new Error(`answered ${answer.status}: ${JSON.stringify(answer.data)}`);
  return answer.data;
}

export async function walkthrough(given: Given): Promise<Answers> {
  const team = { baseURL: given.baseUrl, headers: { 'x-api-key': given.teamKey, 'content-type': 'application/json' } };
  const projectId = ok(await sds.createProject({ name: 'kubb walkthrough' }, team), 201).id;
  const schema = ok(await sds.createSchema(projectId, { name: 'Blog', initialVersion: { schema: given.config as sds.SchemaConfig } }, team), 201);
  const versions = ok(await sds.listSchemaVersions(projectId, schema.id, undefined, team), 200);
  const source = ok(
    await sds.createSource(projectId, { name: 'Blog', kind: 'postgres', schemaVersionId: versions[0]!.id, generatorConfig: { rowCounts: { users: 10, posts: 30 } } }, team),
    201,
  );
  const sourceId = source.id;
  await until(async () => {
    const jobs = ok(await sds.listGenerationJobs(projectId, sourceId, undefined, team), 200);
    if (jobs[0]?.status === 'failed') throw new Error(jobs[0].error ?? 'generation failed');
    return jobs[0]?.status === 'succeeded';
  });
  const key = ok(await sds.createSourceApiKey(projectId, sourceId, {}, team), 201).key;

  const runtime = { baseURL: given.baseUrl, headers: { 'x-api-key': key, 'content-type': 'application/json' } };
  // kubb types listRows' 200 by its JSON answer alone: no narrowing.
  const list = ok(await sds.listRows(sourceId, 'posts', { where: JSON.stringify({ authorId: { $lte: 3 } }), populate: 'authorId', sort: 'id', limit: 100 }, runtime), 200);
  const posts = list.data.map((row) => ({ id: row.id, authorId: row.authorId, title: row.title }));
  const patched = ok(await sds.updateRow(sourceId, 'posts', String(posts[0]!.id), { title: 'Patched by kubb' }, runtime), 200);
  const csv = await (await fetch(`${given.baseUrl}${sds.getExportRowsUrl(sourceId, 'users', 'csv').url}?${new URLSearchParams({ fields: 'id,email', sort: 'id' })}`, runtime)).text();
  return { sourceId, posts, patched: { id: patched.id, title: patched.title }, csv };
}
