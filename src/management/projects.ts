// Projects: list, create, read, update, delete under /public/v1/projects.
import { errors } from '../errors.ts';
import type { ProjectStore } from '../store/projects.ts';
import { accessibleProject } from './access.ts';
import { listReply, pageOf } from './paging.ts';
import { requirePrincipal } from './access.ts';
import type { Operation } from '../operation.ts';
import { optionalText, requireText } from './required-text.ts';

/** `beforeDelete` removes what lives outside the control-plane database (sources' generated data). */
export function projectOperations(projects: ProjectStore, beforeDelete: (projectId: string) => Promise<void> = async () => {}) {
  const listProjects: Operation<'listProjects'> = async (context) => {
    const principal = requirePrincipal(context);
    return listReply(await projects.list(principal.teamId, principal.projectsScope, pageOf(context.query)));
  };

  const createProject: Operation<'createProject'> = async (context) => {
    const principal = requirePrincipal(context);
    if (principal.projectsScope !== null) throw errors.scopedKeyCannotCreateProjects();
    const body = context.body;
    const name = requireText(body.name, 'name');
    const project = await projects.create(principal.teamId, { name, description: body.description, icon: body.icon });
    return { status: 201, body: project, headers: { Location: `/public/v1/projects/${project.id}` } };
  };

  const getProject: Operation<'getProject'> = async (context) => {
    const project = await accessibleProject(projects, requirePrincipal(context), context.params.projectId!);
    return { status: 200, body: project };
  };

  const updateProject: Operation<'updateProject'> = async (context) => {
    const project = await accessibleProject(projects, requirePrincipal(context), context.params.projectId!);
    const body = context.body;
    const name = optionalText(body.name, 'name');
    const updated = await projects.update(project.id, { name, description: body.description, icon: body.icon });
    if (!updated) throw errors.notFound('Project');
    return { status: 200, body: updated };
  };

  const deleteProject: Operation<'deleteProject'> = async (context) => {
    const project = await accessibleProject(projects, requirePrincipal(context), context.params.projectId!);
    await beforeDelete(project.id);
    if (!(await projects.delete(project.id))) throw errors.notFound('Project');
    return { status: 204 };
  };

  return { listProjects, createProject, getProject, updateProject, deleteProject };
}
