// Source API keys (svc_src_…): created with the secret shown once, listed as metadata, revoked.
// Under /public/v1 with a team key, and under /api/sources/{sourceId} with the admin token or a team key.
import { errors } from '../errors.ts';
import type { ProjectStore } from '../store/projects.ts';
import type { SourceKeyStore } from '../store/source-keys.ts';
import type { Source, SourceStore } from '../store/sources.ts';
import { accessibleProject } from './access.ts';
import { listReply, pageOf } from './paging.ts';
import type { BaseContext, Operation, RequestBody } from '../operation.ts';

export function sourceKeyOperations(
  keys: SourceKeyStore,
  sources: SourceStore,
  projects: ProjectStore,
  accessibleSource: (context: BaseContext) => Promise<Source>,
  /** A key was revoked: every process drops its cached credentials of the source. */
  onRevoked: (sourceId: string) => Promise<void>,
) {
  /** /api/sources/{sourceId}: any source for the admin, a source of the key's team and scope otherwise. */
  const adminSource = async (context: BaseContext): Promise<Source> => {
    const source = await sources.find(context.params.sourceId!);
    if (!source) throw errors.notFound('Source');
    if (context.principal) {
      // Another team's source is not found; one outside the key's project scope is forbidden.
      await accessibleProject(projects, context.principal, source.projectId).catch((error: { status?: number }) => {
        throw error.status === 404 ? errors.notFound('Source') : error;
      });
    }
    return source;
  };

  const list = async (source: Source, context: BaseContext) => listReply(await keys.list(source.id, pageOf(context.query)));

  const create = async (source: Source, body: RequestBody<'createSourceApiKey'>) => ({ status: 201, body: await keys.create(source.id, body?.name) });

  const revoke = async (source: Source, context: BaseContext) => {
    if (!(await keys.revoke(source.id, context.params.keyId!))) throw errors.notFound('API key');
    await onRevoked(source.id);
    return { status: 204 };
  };

  const listSourceApiKeys: Operation<'listSourceApiKeys'> = async (context) => list(await accessibleSource(context), context);
  const createSourceApiKey: Operation<'createSourceApiKey'> = async (context) => create(await accessibleSource(context), context.body);
  const revokeSourceApiKey: Operation<'revokeSourceApiKey'> = async (context) => revoke(await accessibleSource(context), context);
  const adminListSourceApiKeys: Operation<'adminListSourceApiKeys'> = async (context) => list(await adminSource(context), context);
  const adminCreateSourceApiKey: Operation<'adminCreateSourceApiKey'> = async (context) => create(await adminSource(context), context.body);
  const adminRevokeSourceApiKey: Operation<'adminRevokeSourceApiKey'> = async (context) => revoke(await adminSource(context), context);

  return { listSourceApiKeys, createSourceApiKey, revokeSourceApiKey, adminListSourceApiKeys, adminCreateSourceApiKey, adminRevokeSourceApiKey };
}
