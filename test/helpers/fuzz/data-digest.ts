// Digests of everything a bad request could change: the control-plane tables (without key
// `last_used_at`, which reads legitimately update) and every table of every sds_ namespace.
import pg from 'pg';
import { tableDigest } from '../target-sql.ts';

/** Control-plane tables compared row by row; generation_events by count (its ids are a sequence). */
const CONTROL_TABLES = ['teams', 'team_api_keys', 'projects', 'schemas', 'schema_versions', 'secrets', 'sources', 'source_api_keys', 'generation_jobs'];

export type DataDigest = Record<string, string>;

/**
 * `controlUrl` is the control-plane database; `targetUrl` the PostgreSQL target of the sources
 * (the same database unless POSTGRES_TARGET_URL says otherwise).
 */
export async function digestData(controlUrl: string, targetUrl: string): Promise<DataDigest> {
  const digest: DataDigest = {};
  const control = new pg.Client({ connectionString: controlUrl });
  await control.connect();
  try {
    for (const table of CONTROL_TABLES) {
      const { rows } = await control.query<{ n: string; digest: string | null }>(
        `SELECT count(*) AS n, md5(string_agg((to_jsonb(x) - 'last_used_at')::text, '|' ORDER BY x.id)) AS digest FROM ${table} x`,
      );
      digest[table] = `${rows[0]!.n} rows, md5 ${rows[0]!.digest ?? '-'}`;
    }
    const events = await control.query<{ n: string }>('SELECT count(*) AS n FROM generation_events');
    digest.generation_events = `${events.rows[0]!.n} rows`;
  } finally {
    await control.end();
  }

  const target = new pg.Client({ connectionString: targetUrl });
  await target.connect();
  let tables: { schema: string; table: string; hasId: boolean }[];
  try {
    const { rows } = await target.query<{ schema: string; table: string; has_id: boolean }>(
      `SELECT t.table_schema AS schema, t.table_name AS table,
              EXISTS (SELECT 1 FROM information_schema.columns c
                      WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'id') AS has_id
         FROM information_schema.tables t
        WHERE t.table_schema LIKE 'sds\\_%'
        ORDER BY 1, 2`,
    );
    tables = rows.map((row) => ({ schema: row.schema, table: row.table, hasId: row.has_id }));
    for (const { schema, table, hasId } of tables) {
      if (hasId) continue;
      const whole = await target.query<{ digest: string | null }>(`SELECT md5(string_agg(x::text, '|' ORDER BY x::text)) AS digest FROM "${schema}"."${table}" x`);
      digest[`${schema}.${table}`] = whole.rows[0]!.digest ?? '-';
    }
  } finally {
    await target.end();
  }
  digest.namespaces = tables.map(({ schema, table }) => `${schema}.${table}`).join(', ');
  for (const { schema, table, hasId } of tables) {
    if (hasId) digest[`${schema}.${table}`] = await tableDigest('postgres', targetUrl, schema, table, 'id');
  }
  return digest;
}
