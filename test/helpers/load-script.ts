// Loads an SQL script with the engine's own client (psql, mysql), as a user would, failing on the
// first error.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export function loadScript(kind: string, url: string, script: string): void {
  if (kind === 'postgres') {
    execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-f', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    return;
  }
  const target = new URL(url);
  const args = ['--protocol=tcp', '-h', target.hostname, '-P', target.port || '3306', '-u', decodeURIComponent(target.username || 'root')];
  if (target.password) args.push(`-p${decodeURIComponent(target.password)}`);
  execFileSync('mysql', args, { input: fs.readFileSync(script), stdio: ['pipe', 'ignore', 'pipe'] });
}
