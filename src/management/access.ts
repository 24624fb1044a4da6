// Team and scope rules shared by every management resource under a project:
// another team's project is 404 (its existence is not revealed), a project outside the key's scope is 403.
import { errors } from '../errors.ts';
import type { BaseContext } from '../operation.ts';
import type { Project, ProjectStore } from '../store/projects.ts';
import type { TeamPrincipal } from '../store/teams.ts';

export function inScope(principal: TeamPrincipal, projectId: string): boolean {
  return principal.projectsScope === null || principal.projectsScope.includes(projectId);
}

export async function accessibleProject(projects: ProjectStore, principal: TeamPrincipal, projectId: string): Promise<Project> {
  const project = await projects.find(projectId);
  if (!project || project.teamId !== principal.teamId) throw errors.notFound('Project');
  if (!inScope(principal, project.id)) throw errors.outOfScope(`project ${project.id}`);
  return project;
}

export function requirePrincipal(context: BaseContext): TeamPrincipal {
  if (!context.principal) throw new Error('operation needs a team principal but the route has no team-key auth');
  return context.principal;
}
