// The `sds` command: team and team-key administration against the control-plane database, and
// schema-config validation, generation and preview (generation-commands.ts), and introspection of
// existing databases and DDL (introspection-commands.ts).
import { Command, InvalidArgumentError } from 'commander';
import type { ProjectStore } from '../store/projects.ts';
import type { TeamStore } from '../store/teams.ts';
import { registerGenerationCommands } from './generation-commands.ts';
import { registerIntrospectionCommands } from './introspection-commands.ts';
import { registerSeedCommand } from './seed-command.ts';
import { registerContractTestCommand } from './contract-test-command.ts';
import { registerTypesCommand } from './types-command.ts';
import { registerExportCommand } from './export-command.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs `work` against the control plane (embedded or DATABASE_URL) and always closes it. */
async function withStores<T>(work: (stores: { teams: TeamStore; projects: ProjectStore }) => Promise<T>): Promise<T> {
  // The control plane's modules (the service, its stores and drivers) load for these commands only.
  const [{ default: pino }, { loadSettings }, { openControlPlane }, { TeamStore }, { ProjectStore }] = await Promise.all([
    import('pino'),
    import('../settings.ts'),
    import('../service.ts'),
    import('../store/teams.ts'),
    import('../store/projects.ts'),
  ]);
  const config = loadSettings();
  const { db, embedded } = await openControlPlane(config, pino({ level: process.env.LOG_LEVEL ?? 'warn' }));
  try {
    return await work({ teams: new TeamStore(db), projects: new ProjectStore(db) });
  } finally {
    await db.close();
    await embedded?.stop();
  }
}

function projectIds(value: string): string[] {
  const ids = value.split(',').map((id) => id.trim()).filter(Boolean);
  const bad = ids.find((id) => !UUID.test(id));
  if (bad !== undefined || ids.length === 0) throw new InvalidArgumentError(`"${bad ?? value}" is not a project id (uuid)`);
  return ids;
}

function print(value: unknown, json: boolean): void {
  if (json) console.log(JSON.stringify(value, null, 2));
  else if (Array.isArray(value)) console.table(value);
  else console.log(value);
}

export function buildCli(): Command {
  const program = new Command('sds').description('Synthetic Data Service command line').showHelpAfterError();

  const team = program.command('team').description('manage teams');
  team
    .command('create')
    .argument('<name>', 'team name')
    .option('--slug <slug>', 'team slug (default: derived from the name)')
    .option('--json', 'print JSON')
    .description('create a team')
    .action(async (name: string, options: { slug?: string; json?: boolean }) => {
      const created = await withStores(({ teams }) => teams.createTeam(name, options.slug));
      print(created, Boolean(options.json));
    });
  team
    .command('list')
    .option('--json', 'print JSON')
    .description('list teams')
    .action(async (options: { json?: boolean }) => print(await withStores(({ teams }) => teams.listTeams()), Boolean(options.json)));

  const key = program.command('team-key').description('manage team API keys (svc_api_…)');
  key
    .command('create')
    .requiredOption('--team <slug>', 'team slug')
    .option('--projects <ids>', 'comma-separated project ids the key is limited to', projectIds)
    .option('--name <name>', 'a name to recognise the key by')
    .option('--json', 'print JSON')
    .description('issue a team API key; the secret is printed once')
    .action(async (options: { team: string; projects?: string[]; name?: string; json?: boolean }) => {
      const created = await withStores(async ({ teams, projects }) => {
        const found = await teams.findTeamBySlug(options.team);
        if (!found) throw new Error(`team "${options.team}" does not exist (sds team list shows the teams)`);
        const { checkScope } = await import('../management/team-keys.ts');
        const scope = await checkScope(projects, found.id, options.projects ?? null).catch((error: Error) => {
          throw new Error(`${error.message}: ${options.projects?.join(', ')}`);
        });
        return teams.createKey(found.id, { name: options.name, projectsScope: scope });
      });
      if (options.json) print(created, true);
      else console.log(`Created key ${created.id} for team ${options.team}. Secret (shown once):\n\n  ${created.key}\n`);
    });
  key
    .command('list')
    .option('--team <slug>', 'only this team')
    .option('--json', 'print JSON')
    .description('list team API keys (metadata only)')
    .action(async (options: { team?: string; json?: boolean }) => {
      const keys = await withStores(async ({ teams }) => {
        const found = options.team === undefined ? undefined : await teams.findTeamBySlug(options.team);
        if (options.team !== undefined && !found) throw new Error(`team "${options.team}" does not exist`);
        return (await teams.listKeys({ teamId: found?.id, limit: 1000, offset: 0 })).items;
      });
      print(keys, Boolean(options.json));
    });
  key
    .command('revoke')
    .argument('<keyId>', 'id of the key to revoke')
    .description('revoke a team API key; it stops working at once')
    .action(async (keyId: string) => {
      if (!UUID.test(keyId)) throw new InvalidArgumentError(`"${keyId}" is not a key id (uuid)`);
      const revoked = await withStores(({ teams }) => teams.revokeKey(keyId));
      if (!revoked) throw new Error(`no team API key with id ${keyId}`);
      console.log(`Revoked key ${keyId}.`);
    });

  registerGenerationCommands(program);
  registerIntrospectionCommands(program);
  registerSeedCommand(program);
  registerTypesCommand(program);
  registerExportCommand(program);
  registerContractTestCommand(program);
  return program;
}

/** Runs the command line `argv` (process.argv's shape); an error is printed and exits 1. */
export function runCli(argv: readonly string[]): Promise<void> {
  return buildCli()
    .parseAsync(argv)
    .then(() => undefined)
    .catch((error: unknown) => {
      console.error(`sds: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    });
}

// Run as a program (tsx src/cli/main.ts); dist/cli.js and bin/sds.js run entry.ts, which calls runCli.
const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) void runCli(process.argv);
