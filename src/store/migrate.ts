// Versioned migrations: numbered SQL files in ./migrations, applied once each, in order, at start-up.
// An advisory lock lets several server processes start at once without racing.
import fs from 'node:fs';
import { resourceUrl } from '../resources.ts';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = resourceUrl('src/store/migrations/');
const LOCK_KEY = 0x5d5_0001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function readMigrations(): Migration[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((file) => /^\d+_[a-z0-9_]+\.sql$/.test(file))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, file.indexOf('_'))),
      name: file.replace(/\.sql$/, ''),
      sql: fs.readFileSync(new URL(file, MIGRATIONS_DIR), 'utf8'),
    }));
}

/** Applies pending migrations; returns the names applied by this call. */
export async function migrate(db: Db): Promise<string[]> {
  return db.transaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const done: string[] = [];
    for (const migration of readMigrations()) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
      done.push(migration.name);
    }
    return done;
  });
}
