// @hey-api/openapi-ts's client of the main contract (generated/openapi.json): a project, a schema,
// a source, its generation and key, then a filtered, populated list (`where`), a patch and a CSV
// export, each with the generated function's own call.
import { createClient } from './hey-main/client/index.js';
import * as sds from './hey-main/sdk.gen.js';
import type { SchemaConfig } from './hey-main/types.gen.js';
import { until, type Answers, type Given } from './shared.js';

export async function walkthrough(given: Given): Promise<Answers> {
  const client = createClient({ baseUrl: given.baseUrl, headers: { 'x-api-key': given.teamKey } });
  const project = await sds.createProject({ client, body: { name: 'hey-api walkthrough' }, throwOnError: true });
  const projectId = project.data.id;
  const schema = await sds.createSchema({ client, path: { projectId }, body: { name: 'Blog', initialVersion: { schema: given.config as SchemaConfig } }, throwOnError: true });
  const versions = await sds.listSchemaVersions({ client, path: { projectId, schemaId: schema.data.id }, throwOnError: true });
  const source = await sds.createSource({
    client,
    path: { projectId },
    body: { name: 'Blog', kind: 'postgres', schemaVersionId: versions.data[0]!.id, generatorConfig: { rowCounts: { users: 10, posts: 30 } } },
    throwOnError: true,
  });
  const sourceId = source.data.id;
  await until(async () => {
    const jobs = await sds.listGenerationJobs({ client, path: { projectId, sourceId }, throwOnError: true });
    if (jobs.data[0]?.status === 'failed') throw new Error(jobs.data[0].error ?? 'generation failed');
    return jobs.data[0]?.status === 'succeeded';
  });
  const key = await sds.createSourceApiKey({ client, path: { projectId, sourceId }, body: {}, throwOnError: true });

  const runtime = createClient({ baseUrl: given.baseUrl, headers: { 'x-api-key': key.data.key } });
  const list = await sds.listRows({
    client: runtime,
    path: { sourceId, table: 'posts' },
    query: { where: JSON.stringify({ authorId: { $lte: 3 } }), populate: 'authorId', sort: 'id', limit: 100 },
    throwOnError: true,
  });
  const posts = list.data.data.map((row) => ({ id: row.id, authorId: row.authorId, title: row.title }));
  const patched = await sds.updateRow({ client: runtime, path: { sourceId, table: 'posts', id: String(posts[0]!.id) }, body: { title: 'Patched by hey-api' }, throwOnError: true });
  const csv: string = (await sds.exportRows({ client: runtime, path: { sourceId, table: 'users', format: 'csv' }, query: { fields: 'id,email', sort: 'id' }, throwOnError: true })).data;
  return { sourceId, posts, patched: { id: patched.data.id, title: patched.data.title }, csv };
}
