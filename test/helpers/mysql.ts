// MySQL availability for tests (project standard): MYSQL_URL, or MariaDB/MySQL on localhost. When the
// server is unreachable the MySQL cases are skipped with a printed reason, except under
// SDS_REQUIRE_MYSQL=1 (CI), where unreachability is a failing test.
import { describe, it } from 'vitest';
import { connectMysql } from '../../src/dialects/mysql/mysql-dialect.ts';

export const DEFAULT_MYSQL_URL = 'mysql://root@127.0.0.1:3306/test';

type Probe = { url: string } | { reason: string };
let probe: Promise<Probe> | undefined;

export function mysqlRequired(): boolean {
  return process.env.SDS_REQUIRE_MYSQL === '1';
}

/** The configured MySQL URL, reachable or not. */
export function mysqlUrl(): string {
  return process.env.MYSQL_URL ?? DEFAULT_MYSQL_URL;
}

function probeMysql(): Promise<Probe> {
  probe ??= (async () => {
    const url = mysqlUrl();
    try {
      const connection = await connectMysql(url);
      await connection.close();
      return { url };
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      return { reason: `MySQL at ${withoutPassword(url)} is unreachable (${[code, message].filter(Boolean).join(': ') || String(error)})` };
    }
  })();
  return probe;
}

/**
 * The MySQL URL to test against, or undefined when MySQL is unreachable: then the reason is printed
 * and the caller skips its MySQL cases, or, under SDS_REQUIRE_MYSQL=1, a failing test is registered.
 * Call it at the top level of a test file (`const url = await mysqlTarget()`).
 */
export async function mysqlTarget(): Promise<string | undefined> {
  const result = await probeMysql();
  if ('url' in result) return result.url;
  if (mysqlRequired()) {
    it('MySQL is reachable (SDS_REQUIRE_MYSQL=1)', () => {
      throw new Error(result.reason);
    });
  } else {
    console.warn(`Skipping MySQL cases: ${result.reason}. Set SDS_REQUIRE_MYSQL=1 to fail instead.`);
  }
  return undefined;
}

/** describe() for MySQL-only cases: `await describeMysql('…', (url) => { … })` at a file's top level. */
export async function describeMysql(name: string, body: (url: string) => void): Promise<void> {
  const url = await mysqlTarget();
  if (url) describe(name, () => body(url));
  else describe.skip(name, () => {});
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
