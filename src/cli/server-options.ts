// The options of the commands that talk to a running sds over HTTP: its address and a team key,
// from flags or the environment. The README exports SDS_URL and SDS_KEY; SDS_BASE_URL and
// SDS_TEAM_KEY, the names the CLI read first, keep working and win when both are set.
import type { Command } from 'commander';

export interface ServerOptions {
  baseUrl?: string;
  teamKey?: string;
}

const DEFAULT_BASE_URL = 'http://localhost:3000';

/** Adds --base-url and --team-key to a command. */
export function withServerOptions(command: Command): Command {
  return command
    .option('--base-url <url>', `API root (default: $SDS_URL, $SDS_BASE_URL or ${DEFAULT_BASE_URL})`)
    .option('--team-key <key>', 'team API key, svc_api_… (default: $SDS_KEY or $SDS_TEAM_KEY)');
}

/** The server's root (no trailing slash) and the team key, or an error saying where to give the key. */
export function resolveServer(options: ServerOptions, env: NodeJS.ProcessEnv = process.env): { baseUrl: string; teamKey: string } {
  const teamKey = options.teamKey ?? env.SDS_TEAM_KEY ?? env.SDS_KEY;
  if (!teamKey) throw new Error('a team API key (svc_api_…) is required: --team-key <key>, or export SDS_KEY');
  const baseUrl = (options.baseUrl ?? env.SDS_BASE_URL ?? env.SDS_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  return { baseUrl, teamKey };
}
