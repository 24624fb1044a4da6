// The service the docs test runs the pages' blocks against. By default its own (startTestService);
// the SDK is the one `npm ci` built (the docs test checks it is there). With SDS_DOCS_SERVICE_URL and SDS_DOCS_SERVICE_KEY set, a service started
// elsewhere as a reader starts it (CI's fresh clone: `npm ci && npm start`, then the key it printed):
// nothing is built for it, and the TypeScript walkthrough runs as the README says, `npx tsx walkthrough.ts`
// in the checkout.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, run, type Run } from './sdk-build.ts';
import { startTestService } from './service.ts';

export interface DocsService {
  url: string;
  /** A team key of the service (the first start's key for an external one). */
  teamKey: string;
  /** Started elsewhere: this process neither built nor started anything for it. */
  external: boolean;
  stop(): Promise<void>;
}

export async function startDocsService(label: string): Promise<DocsService> {
  const url = process.env.SDS_DOCS_SERVICE_URL;
  const teamKey = process.env.SDS_DOCS_SERVICE_KEY;
  if (url || teamKey) {
    if (!url || !teamKey) throw new Error('set both SDS_DOCS_SERVICE_URL and SDS_DOCS_SERVICE_KEY, or neither');
    return { url: url.replace(/\/$/, ''), teamKey, external: true, stop: async () => {} };
  }
  const service = await startTestService(label);
  return { url: service.url, teamKey: service.teamKey, external: false, stop: () => service.stop() };
}

/**
 * Runs program `name` of `dir` (`name`.ts, compiled by the test into out/`name`.js) from the checkout.
 * For an external service it runs the TypeScript as the README tells the reader: saved as `name`.ts
 * in the checkout (walkthrough.ts for the README's), `npx tsx walkthrough.ts`.
 */
export async function runProgram(service: DocsService, dir: string, name: string, env: NodeJS.ProcessEnv): Promise<Run> {
  if (!service.external) return run(process.execPath, [path.join(dir, `out/${name}.js`)], { cwd: repoRoot, env });
  const program = path.join(repoRoot, `${name}.ts`);
  fs.copyFileSync(path.join(dir, `${name}.ts`), program);
  try {
    // npx itself may print notices (an update available) on stderr; the program's own stderr is what counts.
    return await run('npx', ['tsx', `${name}.ts`], { cwd: repoRoot, env: { ...env, npm_config_update_notifier: 'false' }, timeout: 120_000 });
  } finally {
    fs.rmSync(program, { force: true });
  }
}
