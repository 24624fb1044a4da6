// Introspection from SQL DDL on both engines: the hand-written schemas, with data, privileges and
// client commands mixed in, give the same config as introspecting the schema loaded directly (the
// extra statements skipped with warnings); pg_dump and mysqldump output does too; a failing DDL
// statement names its line; the throw-away database is always dropped.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../../../src/dialects/dialect.ts';
import { introspectSql } from '../../../src/introspection/ddl-import.ts';
import { diffConfigs } from '../../../src/introspection/diff-config.ts';
import { introspectDatabase, IntrospectionError } from '../../../src/introspection/introspect.ts';
import { dialectTargets, openInspector, openTarget, type DialectTarget } from '../../helpers/dialect-targets.ts';
import { loadSchema, schemaFile, SCHEMAS } from './schemas.ts';

const run = promisify(execFile);
const targets = await dialectTargets();
const SLOW = 120_000;

/** Statements a dump or migration file carries besides DDL, in each engine's own words. */
const NOISE: Record<DialectTarget['name'], { before: string; after: string; skipped: RegExp[] }> = {
  postgres: {
    before: "\\connect shop\nSET statement_timeout = 0;\nSELECT pg_catalog.set_config('search_path', current_schema(), false);\n",
    after:
      "\nINSERT INTO customers (email, first_name, last_name) VALUES ('a@example.com', 'A', 'B');\n" +
      'COPY categories (id, name, slug) FROM stdin;\n1\tBooks; and more\tbooks\n\\.\n' +
      'GRANT SELECT ON customers TO PUBLIC;\nALTER TABLE customers OWNER TO CURRENT_USER;\n',
    skipped: [/^2 statements skipped \(lines \d+, \d+\): data, not schema/, /^2 statements skipped \(lines \d+, \d+\): privileges and ownership/, /^1 statement skipped \(line 1\): client commands/],
  },
  mysql: {
    before: '/*!40101 SET NAMES utf8mb4 */;\n/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;\nUSE `shop`;\n',
    after: "\nLOCK TABLES `customers` WRITE;\nINSERT INTO customers (email, first_name, last_name) VALUES ('a@example.com', 'A', 'B');\nUNLOCK TABLES;\nGRANT SELECT ON customers TO CURRENT_USER;\n",
    skipped: [/^3 statements skipped \(lines \d+, \d+, \d+\): data, not schema/, /^1 statement skipped \(line \d+\): privileges and ownership/, /^1 statement skipped \(line 3\): the script runs in a throw-away database/],
  },
};

/** The target's dialect, recording the throw-away databases it creates. */
function recording(target: DialectTarget): { dialect: Dialect; created: string[] } {
  const created: string[] = [];
  const dialect: Dialect = {
    ...target.dialect,
    createScratchDatabase: async (url) => {
      const scratch = await target.dialect.createScratchDatabase(url);
      created.push(new URL(scratch.url).pathname.slice(1));
      return scratch;
    },
  };
  return { dialect, created };
}

async function databaseExists(target: DialectTarget, name: string): Promise<boolean> {
  const inspector = await openInspector(target);
  try {
    const sql = target.name === 'postgres' ? 'SELECT 1 FROM pg_database WHERE datname = $1' : 'SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?';
    return (await inspector.query(sql, [name])).length > 0;
  } finally {
    await inspector.close();
  }
}

async function dumpTool(name: string): Promise<boolean> {
  try {
    await run(name, ['--version']);
    return true;
  } catch {
    console.warn(`Skipping the ${name} case: ${name} is not installed`);
    return false;
  }
}

for (const target of targets) {
  describe(`DDL import on ${target.name}`, () => {
    const namespaces: string[] = [];
    afterAll(async () => {
      const connection = await openTarget(target);
      for (const namespace of namespaces) connection.track(namespace);
      await connection.cleanup();
    });

    for (const schema of SCHEMAS) {
      it(`${schema}: the DDL gives the config of the loaded schema; other statements are skipped with warnings`, async () => {
        const loaded = await loadSchema(target, schema);
        namespaces.push(loaded);
        const direct = await introspectDatabase(target.url, { namespace: loaded });
        const noise = NOISE[target.name];
        const script = noise.before + fs.readFileSync(schemaFile(schema, target.name), 'utf8') + noise.after;
        const { dialect, created } = recording(target);
        const imported = await introspectSql(script, { dialect, serverUrl: target.url });

        expect(diffConfigs(direct.config, imported.config)).toEqual([]);
        const messages = imported.warnings.map((warning) => warning.message);
        for (const pattern of noise.skipped) expect(messages, String(pattern)).toContainEqual(expect.stringMatching(pattern));
        // The rest are the warnings about the schema itself (PostgreSQL names a default's type with its schema only outside it).
        const unqualified = direct.warnings.map((warning) => ({ ...warning, message: warning.message.replaceAll(`${loaded}.`, '') }));
        expect(imported.warnings.filter((warning) => warning.table !== undefined)).toEqual(unqualified);
        expect(created).toHaveLength(1);
        expect(await databaseExists(target, created[0]!)).toBe(false);
      }, SLOW);
    }

    it('a DDL statement the server refuses fails the import with its line, and the throw-away database still goes', async () => {
      const { dialect, created } = recording(target);
      const script = 'CREATE TABLE a (id integer PRIMARY KEY);\n\nCREATE TABLE b (id integer REFERENCES missing (id));\n';
      const failure = await introspectSql(script, { dialect, serverUrl: target.url }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(IntrospectionError);
      expect((failure as IntrospectionError).kind).toBe('script');
      expect((failure as IntrospectionError).message).toMatch(/^The statement at line 3 failed: \S/);
      expect(await databaseExists(target, created[0]!)).toBe(false);
    }, SLOW);

    it(`${target.name === 'postgres' ? 'pg_dump --schema-only' : 'mysqldump --no-data'} output gives the config of the database it dumped`, async () => {
      const tool = target.name === 'postgres' ? 'pg_dump' : 'mysqldump';
      if (!(await dumpTool(tool))) return;
      const loaded = await loadSchema(target, 'rental');
      namespaces.push(loaded);
      const url = new URL(target.url);
      const args =
        target.name === 'postgres'
          ? ['--schema-only', `--schema=${loaded}`, '-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username), url.pathname.slice(1)]
          : ['--no-data', '--protocol=tcp', '-h', url.hostname, '-P', url.port || '3306', '-u', decodeURIComponent(url.username), loaded];
      const env = { ...process.env, PGPASSWORD: decodeURIComponent(url.password), MYSQL_PWD: decodeURIComponent(url.password) };
      const { stdout: dump } = await run(tool, args, { env, maxBuffer: 16 * 1024 * 1024 });
      const direct = await introspectDatabase(target.url, { namespace: loaded });
      const imported = await introspectSql(dump, { dialect: target.dialect, serverUrl: target.url });
      expect(imported.config.entities.length).toBe(15);
      expect(diffConfigs(direct.config, imported.config)).toEqual([]);
    }, SLOW);
  });
}
