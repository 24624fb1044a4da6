// Sources: create (tables and first generation), read, list, update (rebinding regenerates), delete
// (drops the data and revokes the keys), and regeneration.
import { randomBytes } from 'node:crypto';
import type { SchemaConfig } from '../contract.ts';
import { IDENTIFIER } from '../dialects/dialect.ts';
import { dialectOfKind, isReservedNamespace } from '../dialects/index.ts';
import { isWorkingNamespace } from '../model/namespace-names.ts';
import { errors } from '../errors.ts';
import type { Db } from '../store/db.ts';
import type { GenerationJob, JobStore } from '../store/jobs.ts';
import type { ProjectStore } from '../store/projects.ts';
import type { SchemaStore } from '../store/schemas.ts';
import type { SourceKeyStore } from '../store/source-keys.ts';
import { OwnedNamespaceStore } from '../store/owned-namespaces.ts';
import { toLocation, type GeneratorConfig, type Source, type SourceKind, type SourceStore } from '../store/sources.ts';
import { accessibleProject } from './access.ts';
import { listReply, pageOf } from './paging.ts';
import { requirePrincipal } from './access.ts';
import type { BaseContext, Operation, RequestBody } from '../operation.ts';
import { NamespaceOwnership } from './namespace-ownership.ts';
import type { Targets } from './targets.ts';
import type { GenerationQuotas } from './quotas.ts';
import { LATEST_GENERATOR_VERSION } from '../generation/plan.ts';
import { optionalText, requireText } from './required-text.ts';

export interface SourceDeps {
  db: Db;
  projects: ProjectStore;
  schemas: SchemaStore;
  sources: SourceStore;
  sourceKeys: SourceKeyStore;
  jobs: JobStore;
  targets: Targets;
  /** Per-job and per-team generation limits; unset: none. */
  quotas?: GenerationQuotas;
  /** Called after a job is queued, so an idle worker in this process starts at once. */
  onQueued: () => void;
  /** Called after a source's settings change or it is deleted. */
  onSourceChanged: (sourceId: string) => Promise<void>;
  /** Calls `listener` when the source changes in any process (its generation swapped in); returns the unsubscribe. */
  watchSource?: (sourceId: string, listener: () => void) => () => void;
}

const WAIT_LIMIT_MS = 10 * 60_000;
/** How often ?wait=true looks at its job when no change announces its end. */
const WAIT_POLL_MS = 1_000;

export function sourceOperations(deps: SourceDeps) {
  const { projects, schemas, sources, jobs, targets } = deps;

  /** The source of the path, in an accessible project: 404 otherwise. */
  const accessibleSource = async (context: BaseContext): Promise<Source> => {
    const project = await accessibleProject(projects, requirePrincipal(context), context.params.projectId!);
    const source = await sources.find(context.params.sourceId!, project.id);
    if (!source) throw errors.notFound('Source');
    return source;
  };

  /** A version of a schema of this project, or 400 naming the field. */
  const versionOfProject = async (projectId: string, versionId: string, field: string) => {
    const version = await schemas.findVersionById(versionId);
    if (!version || version.projectId !== projectId) {
      throw errors.badRequest(`${field} ${versionId} is not a version of a schema in this project`, [
        { path: `/body/${field}`, message: 'no such schema version in this project' },
      ]);
    }
    return version;
  };

  /** Queues a job once the team's job quota admits it (429 otherwise), in `client`'s transaction or one of its own. */
  const queue = async (source: Source, schemaVersionId: string, seed: string, client?: Parameters<JobStore['enqueue']>[1]) => {
    const admitted = async (tx: NonNullable<typeof client>) => {
      await deps.quotas?.admitJob(source.projectId, tx);
      return jobs.enqueue({ sourceId: source.id, schemaVersionId, seed }, tx);
    };
    return client ? admitted(client) : deps.db.transaction(admitted);
  };

  const listSources: Operation<'listSources'> = async (context) => {
    const project = await accessibleProject(projects, requirePrincipal(context), context.params.projectId!);
    return listReply(await sources.list(project.id, pageOf(context.query)));
  };

  const createSource: Operation<'createSource'> = async (context) => {
    const project = await accessibleProject(projects, requirePrincipal(context), context.params.projectId!);
    const body = context.body;
    const kind = body.kind;
    const version = await versionOfProject(project.id, body.schemaVersionId, 'schemaVersionId');
    await targets.assertUsable(kind, body.config?.connectionString);
    const namespace = explicitNamespace(kind, body.config);
    if (body.generatorConfig) checkRowCounts(version.schema, body.generatorConfig);
    deps.quotas?.checkSize(version.schema, body.generatorConfig);
    const seed = body.seed !== undefined ? String(body.seed) : defaultSeed(version.schema);
    const source = await deps.db
      .transaction(async (client) => {
        const created = await sources.create(
          {
            projectId: project.id,
            name: requireText(body.name, 'name'),
            description: body.description,
            kind,
            schemaVersionId: version.id,
            seed,
            namespace,
            connectionString: body.config?.connectionString,
            // A new source records the newest generator version unless told one: it keeps it for good.
            generatorConfig: { ...body.generatorConfig, generatorVersion: body.generatorConfig?.generatorVersion ?? LATEST_GENERATOR_VERSION },
            rateLimitRpm: body.rateLimitRpm,
            requireAuth: body.requireAuth,
          },
          client,
        );
        await queue(created, version.id, seed, client);
        return created;
      });
    deps.onQueued();
    return { status: 201, body: source, headers: { Location: `/public/v1/projects/${project.id}/sources/${source.id}` } };
  };

  const getSource: Operation<'getSource'> = async (context) => ({ status: 200, body: await accessibleSource(context) });

  const updateSource: Operation<'updateSource'> = async (context) => {
    const source = await accessibleSource(context);
    const body = context.body;
    const rebind = body.schemaVersionId !== undefined && body.schemaVersionId !== source.schemaVersionId;
    const version = rebind ? await versionOfProject(source.projectId, body.schemaVersionId!, 'schemaVersionId') : undefined;
    if (body.generatorConfig) {
      checkRowCounts((version ?? (await schemas.findVersionById(source.schemaVersionId))!).schema, body.generatorConfig);
    }
    if (rebind || body.generatorConfig) {
      // The next generation's size, checked before anything changes; a rebinding must also find room in the team's job quota.
      deps.quotas?.checkSize((version ?? (await schemas.findVersionById(source.schemaVersionId))!).schema, body.generatorConfig ?? source.generatorConfig);
      if (rebind) await deps.quotas?.admitJob(source.projectId);
    }
    const updated = await sources.update(source.id, {
      name: optionalText(body.name, 'name'),
      description: body.description,
      seed: body.seed === undefined ? undefined : String(body.seed),
      rateLimitRpm: body.rateLimitRpm,
      requireAuth: body.requireAuth,
      schemaVersionId: version?.id,
      // New settings without a generator version keep the source's (absent: version 1, as before versions).
      generatorConfig: body.generatorConfig && withVersionOf(source.generatorConfig, body.generatorConfig),
    });
    if (!updated) throw errors.notFound('Source');
    await deps.onSourceChanged(source.id);
    if (rebind) {
      await queue(updated, updated.schemaVersionId, updated.seed);
      deps.onQueued();
    }
    return { status: 200, body: updated };
  };

  const deleteSource: Operation<'deleteSource'> = async (context) => {
    const source = await accessibleSource(context);
    await retireSource(deps, source);
    if (!(await sources.delete(source.id))) throw errors.notFound('Source');
    await deps.onSourceChanged(source.id);
    return { status: 204 };
  };

  const regenerateSource: Operation<'regenerateSource'> = async (context) => {
    const source = await accessibleSource(context);
    // A new seed travels on the job and becomes the source's when the job succeeds (the worker's
    // recordGeneration): until then, and for good when the job fails, the source shows the seed of
    // the data it serves.
    const seed = context.body?.seed;
    // The size quota first; queue() admits the job under the team's quota atomically.
    deps.quotas?.checkSize((await schemas.findVersionById(source.schemaVersionId))!.schema, source.generatorConfig);
    const job = await queue(source, source.schemaVersionId, seed === undefined ? source.seed : String(seed));
    deps.onQueued();
    // Every 202 points at the job still to be followed, a `wait` that ran out of time included.
    const headers = { Location: `/public/v1/projects/${source.projectId}/sources/${source.id}/generation-jobs/${job.id}` };
    if (context.query.wait === true || context.query.wait === 'true') {
      const finished = await waitForJob(jobs, job, WAIT_LIMIT_MS, deps.watchSource);
      if (finished.status === 'succeeded' || finished.status === 'failed') return { status: 200, body: finished };
      return { status: 202, body: finished, headers };
    }
    return { status: 202, body: job, headers };
  };

  return { listSources, createSource, getSource, updateSource, deleteSource, regenerateSource, accessibleSource };
}

/**
 * What deleting a source (alone, or with its project) does before its record goes: its keys are
 * revoked and every process told, then its data namespace is dropped. Dropping is best effort: an
 * unreachable target must not keep a source alive.
 */
export async function retireSource(deps: Pick<SourceDeps, 'db' | 'targets' | 'sourceKeys' | 'onSourceChanged'>, source: Source): Promise<void> {
  await deps.sourceKeys.revokeAll(source.id);
  await deps.onSourceChanged(source.id);
  try {
    const connection = await deps.targets.connect(toLocation(source));
    // Only what sds created for this source goes: a namespace it found there stays.
    await new NamespaceOwnership(new OwnedNamespaceStore(deps.db)).dropOwned(source, connection);
  } catch {
    // The namespace stays behind on an unreachable server; the source record still goes.
  }
}

/**
 * The job once it has ended (or as it is at the deadline). A successful job swaps its data in and
 * announces the source's change in every process: the wait wakes on that at once, and otherwise
 * looks again every WAIT_POLL_MS (a failed job announces nothing; the feed may be down).
 */
async function waitForJob(
  jobs: JobStore,
  job: GenerationJob,
  limitMs: number,
  watchSource?: (sourceId: string, listener: () => void) => () => void,
): Promise<GenerationJob> {
  const deadline = Date.now() + limitMs;
  let wake: () => void = () => {};
  const unwatch = watchSource?.(job.sourceId, () => wake());
  try {
    let current = job;
    while (current.status === 'queued' || current.status === 'running') {
      if (Date.now() > deadline) return current;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, WAIT_POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      current = (await jobs.find(job.sourceId, job.id)) ?? current;
    }
    return current;
  } finally {
    unwatch?.();
  }
}

/** The seed of a new source: given, else the config's default seed, else a random one. */
function defaultSeed(config: SchemaConfig): string {
  const seed = config.generationDefaults?.seed;
  return seed !== undefined ? String(seed) : randomBytes(6).toString('hex');
}

/**
 * The namespace a request names, on a bring-your-own target only: on the service's default targets
 * sds names every namespace itself (tenancy: a request never picks, or learns, one there).
 */
function explicitNamespace(kind: SourceKind, config: RequestBody<'createSource'>['config']): string | undefined {
  const field = dialectOfKind(kind).facts.namespaceField;
  const other = field === 'schema' ? 'database' : 'schema';
  if (config?.[other] !== undefined) {
    throw errors.badRequest(`config.${other} does not apply to a ${kind} source; use config.${field}`, [
      { path: `/body/config/${other}`, message: `not used by ${kind} sources` },
    ]);
  }
  const namespace = config?.[field];
  if (namespace === undefined) return undefined;
  if (config?.connectionString === undefined) {
    throw errors.badRequest(
      `config.${field} goes with config.connectionString only: on this server's own ${kind} target sds names the source's ${field} itself (sds_<source slug>_<id>)`,
      [{ path: `/body/config/${field}`, message: 'only with config.connectionString' }],
    );
  }
  if (!IDENTIFIER.test(namespace) || namespace.length > 48 || isReservedNamespace(namespace)) {
    throw errors.badRequest(
      `config.${field} must be an identifier of letters, digits and underscores (at most 48 characters) that sds may own, not a system ${field}`,
      [{ path: `/body/config/${field}`, message: 'invalid or reserved namespace' }],
    );
  }
  if (isWorkingNamespace(namespace)) {
    throw errors.badRequest(`config.${field} must not end in "__next" or begin with "sds_old_": sds keeps those names for the ${field}s it builds and replaces`, [
      { path: `/body/config/${field}`, message: 'a name sds keeps for staging' },
    ]);
  }
  return namespace;
}

function withVersionOf(current: GeneratorConfig, next: GeneratorConfig): GeneratorConfig {
  const version = next.generatorVersion ?? current.generatorVersion;
  return version === undefined ? next : { ...next, generatorVersion: version };
}

function checkRowCounts(config: SchemaConfig, generatorConfig: GeneratorConfig): void {
  const ids = new Set(config.entities.map((entity) => entity.id));
  const unknown = Object.keys(generatorConfig.rowCounts ?? {}).filter((id) => !ids.has(id));
  if (unknown.length) {
    throw errors.badRequest(`generatorConfig.rowCounts names entities the schema version does not have: ${unknown.join(', ')}`, unknown.map((id) => ({
      path: `/body/generatorConfig/rowCounts/${id}`,
      message: `no entity "${id}" (entities: ${[...ids].join(', ')})`,
    })));
  }
}
