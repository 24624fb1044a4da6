// Team API keys under /api/api-keys, for the operator holding SDS_ADMIN_TOKEN (and the CLI).
import { errors } from '../errors.ts';
import type { ProjectStore } from '../store/projects.ts';
import type { TeamStore } from '../store/teams.ts';
import { listReply, pageOf } from './paging.ts';
import type { Operation } from '../operation.ts';

export const DEFAULT_TEAM = 'default';

interface CreateTeamKeyBody {
  team?: string;
  name?: string;
  projectsScope?: string[] | null;
}

export function teamKeyOperations(teams: TeamStore, projects: ProjectStore) {
  const teamBySlug = async (slug: string) => {
    const team = await teams.findTeamBySlug(slug);
    if (!team) throw errors.notFound(`Team "${slug}"`);
    return team;
  };

  const listTeamApiKeys: Operation<'listTeamApiKeys'> = async (context) => {
    const slug = context.query.team as string | undefined;
    const teamId = slug === undefined ? undefined : (await teamBySlug(slug)).id;
    return listReply(await teams.listKeys({ teamId, ...pageOf(context.query) }));
  };

  const createTeamApiKey: Operation<'createTeamApiKey'> = async (context) => {
    const body = (context.body ?? {}) as CreateTeamKeyBody;
    const team = await teamBySlug(body.team ?? DEFAULT_TEAM);
    const projectsScope = await checkScope(projects, team.id, body.projectsScope ?? null);
    const created = await teams.createKey(team.id, { name: body.name, projectsScope });
    return { status: 201, body: created };
  };

  const revokeTeamApiKey: Operation<'revokeTeamApiKey'> = async (context) => {
    if (!(await teams.revokeKey(context.params.keyId!))) throw errors.notFound('API key');
    return { status: 204 };
  };

  return { listTeamApiKeys, createTeamApiKey, revokeTeamApiKey };
}

/** A scope may only name projects of the key's own team; duplicates are dropped. */
export async function checkScope(projects: ProjectStore, teamId: string, scope: string[] | null): Promise<string[] | null> {
  if (scope === null) return null;
  const unique = [...new Set(scope)];
  const details = [];
  for (const [index, id] of unique.entries()) {
    const project = await projects.find(id);
    if (!project || project.teamId !== teamId) {
      details.push({ path: `/body/projectsScope/${index}`, message: `project ${id} does not exist in this team` });
    }
  }
  if (details.length) throw errors.badRequest('projectsScope names projects outside the team', details);
  return unique;
}
