// The `sds` CLI against a real control-plane database: teams and team keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, runCli } from '../helpers/processes.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

let t: TestService;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  t = await startTestService('cli');
  env = childEnv({ DATABASE_URL: t.database.url });
});
afterAll(() => t?.stop());

describe('sds team and team-key', () => {
  it('creates a team, a scoped key that works, and revokes it', async () => {
    const team = await runCli(['team', 'create', 'QA Crew', '--json'], env);
    expect(team.code, team.stderr).toBe(0);
    expect(JSON.parse(team.stdout)).toMatchObject({ slug: 'qa-crew', name: 'QA Crew' });

    const unscoped = JSON.parse((await runCli(['team-key', 'create', '--team', 'qa-crew', '--json'], env)).stdout);
    expect(unscoped.key).toMatch(/^svc_api_/);
    const project = await t.client(unscoped.key).POST('/public/v1/projects', { body: { name: 'QA project' } });
    expect(project.response.status).toBe(201);

    const scopedRun = await runCli(['team-key', 'create', '--team', 'qa-crew', '--projects', project.data!.id, '--json'], env);
    expect(scopedRun.code, scopedRun.stderr).toBe(0);
    const scoped = JSON.parse(scopedRun.stdout);
    expect(scoped.projectsScope).toEqual([project.data!.id]);
    const denied = await t.client(scoped.key).POST('/public/v1/projects', { body: { name: 'nope' } });
    expect(denied.response.status).toBe(403);

    const revoked = await runCli(['team-key', 'revoke', scoped.id], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await t.client(scoped.key).GET('/public/v1/projects')).response.status).toBe(401);
  }, 180_000);

  it('explains bad input and exits non-zero', async () => {
    const unknownTeam = await runCli(['team-key', 'create', '--team', 'ghosts'], env);
    expect(unknownTeam.code).not.toBe(0);
    expect(unknownTeam.stderr).toMatch(/team "ghosts" does not exist/);
    const badScope = await runCli(['team-key', 'create', '--team', 'default', '--projects', 'not-a-uuid'], env);
    expect(badScope.code).not.toBe(0);
    expect(badScope.stderr).toMatch(/not-a-uuid/);
    const missing = await runCli(['team-key', 'revoke', '00000000-0000-4000-8000-000000000000'], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/no team API key/);
  }, 180_000);
});
