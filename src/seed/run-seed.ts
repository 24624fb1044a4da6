// `sds seed`: the generation's rows into the existing tables of a live database, in place. Reads the
// catalog → refuses drift → plans (seed-plan.ts) → in one transaction: refuses non-empty tables
// (or empties exactly the config's, children first), loads each table parents first with the
// schedule's rows (ScheduledRows: COPY / LOAD DATA), fills deferred references, moves auto-increment counters.
// The tables' definitions are never changed.
import type { SchemaConfig } from '../contract.ts';
import type { Catalog } from '../dialects/catalog.ts';
import type { CatalogReader, Dialect, LoadTransaction, SqlExecutor, TableStorage, TargetConnection } from '../dialects/dialect.ts';
import type { RowValues } from '../model/row-value.ts';
import { ScheduledRows } from '../generation/schedule.ts';
import { planGeneration, type GenerationOptions } from '../generation/plan.ts';
import { DEFAULT_BATCH_SIZE, type ProgressEvent } from '../generation/run.ts';
import { readNamespace } from '../introspection/read-catalog.ts';
import { encodeBatches } from '../dialects/bulk-text.ts';
import { rowBatches } from '../generation/row-batches.ts';
import { DIALECT_FACTS } from '../dialects/facts.ts';
import { planSeed, seedDrift, type SeedCycle, type SeedPlan, type SeedTable } from './seed-plan.ts';
import { SeedRefusal } from './seed-errors.ts';

export interface SeedOptions extends GenerationOptions {
  /** PostgreSQL schema or MySQL database; default the connection's own (`public`, the URL's database). */
  namespace?: string;
  /** Empty the config's tables first (children first) instead of refusing tables that hold rows. */
  truncate?: boolean;
  /** Plan and check, write nothing. */
  dryRun?: boolean;
  batchSize?: number;
  onProgress?: (event: ProgressEvent) => void;
}

export interface SeedSummary {
  namespace: string;
  dryRun: boolean;
  seed: string;
  referenceDate: string;
  generatorVersion: string;
  /** Load order, parents first. */
  tables: {
    table: string;
    rowsPlanned: number;
    /** Rows the table held before the seed. */
    rowsBefore: number;
    /** Rows written (0 in a dry run). */
    rowsInserted: number;
    columns: string[];
    leftToDatabase: { column: string; because: string }[];
    counters: string[];
    deferredColumns: string[];
  }[];
  /** Runs of tables a cycle of NOT NULL foreign keys closes, and how each loads in place (see CycleMethod). */
  cycles: SeedCycle[];
  /** Tables emptied (or, in a dry run, to be emptied), in the order they are emptied: children first. */
  truncated: string[];
  rowsPlanned: number;
  rowsInserted: number;
  warnings: { path: string; message: string }[];
  durationMs: number;
}

export async function runSeed(connection: TargetConnection, config: SchemaConfig, options: SeedOptions = {}): Promise<SeedSummary> {
  const started = performance.now();
  const dialect = connection.dialect;
  const catalog = await readNamespace(connection, { namespace: options.namespace });
  const drift = seedDrift(config, catalog);
  if (drift.length) {
    throw new SeedRefusal(
      'drift',
      `the database differs from the config (${drift.length} difference${drift.length === 1 ? '' : 's'}); nothing was written. Bring the config up to date with \`sds init --from-database … --merge <config>\`, or migrate the database`,
      drift.map((difference) => difference.message),
    );
  }
  const generationPlan = planGeneration(config, options);
  const plan = planSeed(catalog, generationPlan);
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const emit = options.onProgress ?? (() => {});
  const summary = (rowsBefore: Map<string, number>, inserted: Map<string, number>, warnings: SeedSummary['warnings']): SeedSummary => {
    const tables = plan.tables.map((table) => ({
      table: table.table,
      rowsPlanned: table.rows,
      rowsBefore: rowsBefore.get(table.table) ?? 0,
      rowsInserted: inserted.get(table.table) ?? 0,
      columns: table.load.columns.map((column) => column.name),
      leftToDatabase: table.leftToDatabase,
      counters: table.counters,
      deferredColumns: table.deferredColumns,
    }));
    return {
      namespace: plan.namespace,
      dryRun: options.dryRun === true,
      seed: generationPlan.seed,
      referenceDate: generationPlan.referenceDate,
      generatorVersion: generationPlan.generatorVersion,
      tables,
      cycles: plan.cycles,
      truncated: options.truncate ? [...plan.tables].reverse().map((table) => table.table) : [],
      rowsPlanned: tables.reduce((sum, table) => sum + table.rowsPlanned, 0),
      rowsInserted: tables.reduce((sum, table) => sum + table.rowsInserted, 0),
      warnings: [...generationPlan.warnings, ...warnings],
      durationMs: Math.round(performance.now() - started),
    };
  };

  if (options.dryRun) {
    const rowsBefore = await checkTargets(connection, dialect, plan, options.truncate === true);
    return summary(rowsBefore, new Map(), []);
  }

  // The schedule is found only when a cycle asks how its tables are made.
  const rows = ScheduledRows.of(config, generationPlan);
  const inserted = new Map<string, number>();
  let rowsBefore = new Map<string, number>();
  // The table being written when a statement fails, to name it and resolve the constraint's columns.
  let current: SeedTable | undefined;
  // Tables written or emptied so far: what a failure on MySQL may leave behind.
  const touched = new Set<string>();
  const at = (table: SeedTable): void => {
    current = table;
    touched.add(table.table);
  };
  try {
    await connection.loadTransaction(async (tx) => {
      rowsBefore = await checkTargets(tx, dialect, plan, options.truncate === true);
      if (options.truncate) await emptyTables(tx, dialect, plan, rowsBefore, at);
      const cycleAt = new Map(plan.cycles.map((cycle) => [cycle.tables[0]!, cycle]));
      for (let index = 0; index < plan.tables.length; index++) {
        const table = plan.tables[index]!;
        const cycle = cycleAt.get(table.table);
        if (cycle) {
          const tables = plan.tables.slice(index, index + cycle.tables.length);
          await loadCycle({ tx, catalog, dialect, plan, cycle, tables, rows, batchSize, emit, at }, inserted);
          index += cycle.tables.length - 1;
          continue;
        }
        at(table);
        emit({ type: 'entity.started', entity: table.table, rowsPlanned: table.rows });
        const written = await loadTable(tx, plan.namespace, table, rows, batchSize, (written) =>
          emit({ type: 'entity.progress', entity: table.table, rowsPlanned: table.rows, rowsWritten: written }),
        );
        inserted.set(table.table, written);
        emit({ type: 'entity.completed', entity: table.table, rowsPlanned: table.rows, rowsWritten: written });
      }
      // A cycle's tables were loaded complete: their references need no second pass.
      const complete = new Set(plan.cycles.flatMap((cycle) => cycle.tables));
      const deferred = plan.tables.filter((table) => table.deferredColumns.length > 0 && !complete.has(table.table));
      if (deferred.length) emit({ type: 'phase', phase: 'references' });
      for (const table of deferred) {
        at(table);
        await tx.updateRows(plan.namespace, table.load, table.load.primaryKey, table.deferredColumns, rows.deferredUpdates(table.table, batchSize));
      }
      for (const table of plan.tables) {
        at(table);
        for (const column of table.counters) {
          const statement = dialect.advanceCounter?.(plan.namespace, table.table, column);
          if (statement) await tx.query(statement.sql, statement.params);
        }
      }
    });
  } catch (error) {
    if (error instanceof SeedRefusal && (error.kind !== 'failed' || touched.size === 0)) throw error;
    const state = await failureState(connection, catalog, plan, touched);
    if (error instanceof SeedRefusal) throw new SeedRefusal('failed', `${error.message}; ${state}`, error.details);
    throw loadFailure(dialect, catalog, current, error, state);
  }
  return summary(rowsBefore, inserted, rows.generator.warnings);
}

function qualified(dialect: Dialect, namespace: string, table: string): string {
  return `${dialect.quoteIdentifier(namespace)}.${dialect.quoteIdentifier(table)}`;
}

/** A table for counting and emptying its own rows: `ONLY` where tables inheriting it would otherwise count too. */
function ownRows(dialect: Dialect, plan: SeedPlan, table: string): string {
  return `${plan.ownRowsOnly.has(table) ? 'ONLY ' : ''}${qualified(dialect, plan.namespace, table)}`;
}

/**
 * Empties exactly the config's tables. Where TRUNCATE is transactional (PostgreSQL) and no table
 * outside the config references them, one TRUNCATE of the set (never CASCADE): a DELETE would check
 * each deleted parent row against its children, a scan per row where the foreign key has no index
 * (minutes for 50,000 owners of 200,000 pets). Otherwise DELETE, children first, after setting self
 * and cyclic references (the nullable ones generation fills last) to null: InnoDB checks each row as
 * it deletes it, so one DELETE of a self-referencing table would fail. MySQL's TRUNCATE would commit.
 */
async function emptyTables(
  tx: LoadTransaction,
  dialect: Dialect,
  plan: SeedPlan,
  rowsBefore: Map<string, number>,
  at: (table: SeedTable) => void,
): Promise<void> {
  const filled = plan.tables.filter((table) => (rowsBefore.get(table.table) ?? 0) > 0);
  if (filled.length === 0) return;
  if (dialect.capabilities.transactionalDdl && plan.referencedFrom.length === 0) {
    for (const table of filled) at(table);
    await tx.query(`TRUNCATE TABLE ${plan.tables.map((table) => ownRows(dialect, plan, table.table)).join(', ')}`, []);
    return;
  }
  if (plan.cycles.length > 0) {
    // A cycle's NOT NULL references cannot be set to null first: delete every table in one
    // statement (PostgreSQL checks its foreign keys at the statement's end), or with MySQL's checks
    // off for the session (every table of the config is emptied, and no table outside it holds rows
    // that reference them: checkTargets refused that).
    const tables = [...filled].reverse();
    if (dialect.capabilities.transactionalDdl) {
      at(tables[0]!);
      const [first, ...others] = tables.map((table) => `DELETE FROM ${ownRows(dialect, plan, table.table)}`);
      await tx.query(others.length ? `WITH ${others.map((statement, index) => `d${index} AS (${statement})`).join(', ')} ${first!}` : first!, []);
      return;
    }
    await tx.query('SET SESSION foreign_key_checks = 0', []);
    try {
      for (const table of tables) {
        at(table);
        await tx.query(`DELETE FROM ${ownRows(dialect, plan, table.table)}`, []);
      }
    } finally {
      await tx.query('SET SESSION foreign_key_checks = 1', []);
    }
    return;
  }
  for (const table of filled) {
    if (table.deferredColumns.length === 0) continue;
    at(table);
    const columns = table.deferredColumns.map((column) => `${dialect.quoteIdentifier(column)} = NULL`).join(', ');
    await tx.query(`UPDATE ${ownRows(dialect, plan, table.table)} SET ${columns}`, []);
  }
  for (const table of [...filled].reverse()) {
    at(table);
    await tx.query(`DELETE FROM ${ownRows(dialect, plan, table.table)}`, []);
  }
}

interface CycleLoad {
  tx: LoadTransaction;
  catalog: Catalog;
  dialect: Dialect;
  plan: SeedPlan;
  cycle: SeedCycle;
  /** The cycle's tables, in load order. */
  tables: SeedTable[];
  rows: ScheduledRows;
  batchSize: number;
  emit: (event: ProgressEvent) => void;
  at: (table: SeedTable) => void;
}

/**
 * The tables of a cycle of NOT NULL foreign keys, each row complete: the columns that point to
 * tables loaded later take their values from those tables' key pools, computed ahead (never read
 * back from the database), so no row is ever left pointing nowhere. The checks of the references
 * that point forward are handled as `cycle.method` says; the schema is never changed.
 */
async function loadCycle(load: CycleLoad, inserted: Map<string, number>): Promise<void> {
  const { tx, dialect, plan, cycle, tables, rows } = load;
  for (const table of tables) {
    if (!rows.declareAhead(table.table)) {
      throw new SeedRefusal(
        'unsupported',
        `these NOT NULL foreign-key columns close a cycle of references; filling them in place needs the keys of ${table.table} before its rows are written, and they are made row by row (a strategy that carries state from row to row, or a pool that can run out), so they cannot be computed ahead. Give ${table.table}'s key a sequence or a range; nothing was written`,
        cycle.columns,
      );
    }
  }
  const started = (table: SeedTable) => {
    load.at(table);
    load.emit({ type: 'entity.started', entity: table.table, rowsPlanned: table.rows });
  };
  const completed = (table: SeedTable, written: number) => {
    inserted.set(table.table, written);
    load.emit({ type: 'entity.completed', entity: table.table, rowsPlanned: table.rows, rowsWritten: written });
  };
  const progress = (table: SeedTable) => (rows: number) => load.emit({ type: 'entity.progress', entity: table.table, rowsPlanned: table.rows, rowsWritten: rows });
  if (cycle.method === 'one-statement') {
    // Each table into a temporary copy of its loaded columns, then one INSERT statement moves them all.
    const staged = tables.map((table, index) => ({ table, stage: { ...table.load, name: `sds_seed_stage_${index}` } }));
    for (const { table, stage } of staged) {
      started(table);
      const columns = table.load.columns.map((column) => dialect.quoteIdentifier(column.name)).join(', ');
      await tx.query(`CREATE TEMPORARY TABLE ${dialect.quoteIdentifier(stage.name)} ON COMMIT DROP AS SELECT ${columns} FROM ${qualified(dialect, plan.namespace, table.table)} WITH NO DATA`, []);
      await loadComplete(tx, 'pg_temp', table, stage, rows, load.batchSize, progress(table));
    }
    load.at(tables.at(-1)!);
    const inserts = staged.map(({ table, stage }, index) => {
      const columns = table.load.columns.map((column) => dialect.quoteIdentifier(column.name)).join(', ');
      return `i${index} AS (INSERT INTO ${qualified(dialect, plan.namespace, table.table)} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM pg_temp.${dialect.quoteIdentifier(stage.name)} RETURNING 1)`;
    });
    const counts = staged.map((_, index) => `(SELECT COUNT(*) FROM i${index}) AS n${index}`).join(', ');
    const [row] = await tx.query<Record<string, unknown>>(`WITH ${inserts.join(', ')} SELECT ${counts}`, []);
    staged.forEach(({ table }, index) => completed(table, Number(row?.[`n${index}`] ?? 0)));
    for (const { stage } of staged) await tx.query(`DROP TABLE pg_temp.${dialect.quoteIdentifier(stage.name)}`, []);
    return;
  }
  const constraints = cycle.constraints.map((constraint) => `${dialect.quoteIdentifier(plan.namespace)}.${dialect.quoteIdentifier(constraint.name)}`).join(', ');
  if (cycle.method === 'deferred-constraints') await tx.query(`SET CONSTRAINTS ${constraints} DEFERRED`, []);
  else await tx.query('SET SESSION foreign_key_checks = 0', []);
  try {
    for (const table of tables) {
      started(table);
      completed(table, await loadComplete(tx, plan.namespace, table, table.load, rows, load.batchSize, progress(table)));
    }
  } finally {
    // Checked here, not at commit, so that a broken reference names its table.
    if (cycle.method === 'deferred-constraints') await tx.query(`SET CONSTRAINTS ${constraints} IMMEDIATE`, []);
    else await tx.query('SET SESSION foreign_key_checks = 1', []);
  }
  if (cycle.method === 'checks-off') await verifyReferences(load);
}

/**
 * MySQL does not check what it loaded with its checks off, even once they are back on: one
 * anti-join per foreign key of the cycle's tables; a row pointing nowhere fails the seed (rolled back).
 */
async function verifyReferences({ tx, catalog, dialect, plan, cycle }: CycleLoad): Promise<void> {
  for (const table of catalog.tables.filter((candidate) => cycle.tables.includes(candidate.name))) {
    for (const key of table.foreignKeys) {
      const q = dialect.quoteIdentifier;
      const parent = `${q(key.references.namespace ?? plan.namespace)}.${q(key.references.table)}`;
      const present = key.columns.map((column) => `c.${q(column)} IS NOT NULL`).join(' AND ');
      const join = key.columns.map((column, index) => `p.${q(key.references.columns[index]!)} = c.${q(column)}`).join(' AND ');
      const [row] = await tx.query<{ n: unknown }>(
        `SELECT COUNT(*) AS n FROM ${qualified(dialect, plan.namespace, table.name)} c WHERE ${present} AND NOT EXISTS (SELECT 1 FROM ${parent} p WHERE ${join})`,
        [],
      );
      const orphans = Number(row?.n ?? 0);
      if (orphans > 0) {
        throw new SeedRefusal(
          'failed',
          `${orphans} row${orphans === 1 ? '' : 's'} of ${table.name} would reference a missing ${key.references.table} row through ${key.columns.join(', ')} (constraint ${key.name}), loaded with the foreign-key checks off for the cycle`,
          [],
        );
      }
    }
  }
}

/** A table's complete rows (deferred columns filled) into `into` (the table itself, or its stage). */
async function loadComplete(
  tx: LoadTransaction,
  namespace: string,
  table: SeedTable,
  into: SeedTable['load'],
  rows: ScheduledRows,
  batchSize: number,
  onBatch: (written: number) => void,
): Promise<number> {
  const whole = table.positions.length === table.width;
  const project = (row: RowValues): RowValues => table.positions.map((position) => row[position]!);
  const batches = (): Generator<RowValues[]> => rowBatches(rows.rows(table.table), batchSize, whole ? undefined : project);
  if (tx.textLoader) {
    const written = await tx.textLoader.load(namespace, into, encodeBatches(batches(), tx.textLoader.encoder(into)), onBatch);
    if (written !== undefined) return written;
  }
  return tx.loadRows(namespace, into, batches(), onBatch);
}

/**
 * Rows each target table holds, refusing (nothing written) tables that hold rows unless they are
 * to be emptied, and emptying tables that tables outside the config reference with rows of theirs.
 */
async function checkTargets(executor: SqlExecutor, dialect: Dialect, plan: SeedPlan, truncate: boolean): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of plan.tables) counts.set(table.table, await countRows(executor, dialect, plan, table.table));
  const filled = [...counts].filter(([, rows]) => rows > 0);
  if (filled.length && !truncate) {
    throw new SeedRefusal(
      'not-empty',
      `${filled.length === 1 ? 'a table' : `${filled.length} tables`} of the config already hold${filled.length === 1 ? 's' : ''} rows; nothing was written. Give --truncate to empty the config's tables first`,
      filled.map(([table, rows]) => `${table}: ${rows} row${rows === 1 ? '' : 's'}`),
    );
  }
  if (truncate) {
    const blocking: string[] = [];
    for (const { table, references } of plan.referencedFrom) {
      const rows = await countRows(executor, dialect, plan, table);
      if (rows > 0) blocking.push(`${table} (${rows} row${rows === 1 ? '' : 's'}) references ${references}`);
    }
    if (blocking.length) {
      throw new SeedRefusal(
        'referenced',
        'tables outside the config reference tables of the config and hold rows: emptying them would fail or cascade into those tables; nothing was written. Add the referencing tables to the config, or empty them first',
        blocking,
      );
    }
  }
  return counts;
}

async function countRows(executor: SqlExecutor, dialect: Dialect, plan: SeedPlan, table: string): Promise<number> {
  const [row] = await executor.query<{ count: unknown }>(`SELECT COUNT(*) AS count FROM ${ownRows(dialect, plan, table)}`, []);
  return Number(row?.count ?? 0);
}

/**
 * One table's rows, as bulk-load text when the target takes it, else as batches of rows (as a
 * generation loads them), with only the columns the seed loads.
 */
async function loadTable(
  tx: LoadTransaction,
  namespace: string,
  table: SeedTable,
  rows: ScheduledRows,
  batchSize: number,
  onBatch: (written: number) => void,
): Promise<number> {
  const whole = table.positions.length === table.width;
  const project = (row: RowValues): RowValues => table.positions.map((position) => row[position]!);
  if (tx.textLoader) {
    const encode = tx.textLoader.encoder(table.load);
    const chunks = rows.textChunks(table.table, batchSize, whole ? encode : (row) => encode(project(row)));
    const written = await tx.textLoader.load(namespace, table.load, chunks, onBatch);
    if (written !== undefined) return written;
  }
  const batches = rowBatches(rows.rows(table.table, 0, Infinity, { deferred: 'null' }), batchSize, whole ? undefined : project);
  return tx.loadRows(namespace, table.load, batches, onBatch);
}

/**
 * What a failed seed left, in words: on PostgreSQL the transaction undid everything. MySQL rolls back
 * the rows of InnoDB tables (and --truncate's deletes) too, but never moves an AUTO_INCREMENT counter
 * back, and tables of engines without transactions (MyISAM, Aria, MEMORY) keep what was done to them.
 */
async function failureState(connection: CatalogReader, catalog: Catalog, plan: SeedPlan, touched: Set<string>): Promise<string> {
  if (DIALECT_FACTS[catalog.engine].rollbackUndoesAll) return 'the transaction was rolled back and the tables are as they were';
  let storage: Map<string, TableStorage>;
  try {
    storage = await connection.tableStorage(plan.namespace);
  } catch {
    return `the transaction was rolled back (the database could not be asked afterwards which tables could roll back: InnoDB tables are as they were, tables of other engines keep what was written to them); tables written: ${[...touched].join(', ')}`;
  }
  const tables = plan.tables.filter((table) => touched.has(table.table));
  // A table the database no longer lists is taken as transactional (InnoDB), as before.
  const kept = tables.filter((table) => storage.get(table.table)?.transactional === false);
  const undone = tables.filter((table) => !kept.includes(table));
  const counters = undone.filter((table) => table.counters.length > 0);
  const names = (list: SeedTable[]) => list.map((table) => table.table).join(', ');
  const parts = [
    undone.length
      ? `the transaction was rolled back: what it wrote to ${names(undone)} (and any rows --truncate deleted there) is undone, so ${undone.length === 1 ? 'that table holds' : 'those tables hold'} what ${undone.length === 1 ? 'it' : 'they'} held before`
      : 'the transaction was rolled back',
    counters.length
      ? `only the AUTO_INCREMENT counter${counters.length === 1 ? '' : 's'} of ${names(counters)} may stay moved past the keys tried (InnoDB never moves a counter back; the seed loads its own keys, so the data is unaffected and the application's next key is just higher)`
      : undefined,
    kept.length
      ? `but ${kept.map((table) => `${table.table} (${storage.get(table.table)!.engine})`).join(', ')} cannot roll back (no transactions in that engine): what was done to ${kept.length === 1 ? 'it' : 'them'} stays (--truncate's deletes and the rows written before the failure)`
      : undefined,
    kept.length
      ? `The same command with --truncate repeats cleanly (it empties ${names(kept)} first)`
      : 'The same command repeats cleanly',
  ].filter(Boolean);
  return parts.join('; ').replace(/; The same/, '. The same');
}

/**
 * A failed load as the user can act on it: the table, the columns and the constraint (with its
 * CHECK clause as the database prints it), and that the transaction left the tables as they were.
 */
function loadFailure(dialect: Dialect, catalog: Catalog, table: SeedTable | undefined, error: unknown, state: string): Error {
  if (error instanceof SeedRefusal) return error;
  const mapped = dialect.mapError(error, table?.load);
  if (mapped.kind === 'other' || mapped.kind === 'connection' || mapped.kind === 'timeout') {
    const code = mapped.code ? ` (${mapped.code})` : '';
    const cause = error instanceof Error ? `: ${error.message}` : '';
    // MySQL's LOAD DATA LOCAL turns a broken CHECK into warnings (MariaDB 4025, MySQL 3819) that name no constraint here: name the table's.
    const checks = /\b(4025|3819)\b/.test(cause) ? catalog.tables.find((candidate) => candidate.name === table?.table)?.checks ?? [] : [];
    const rules = checks.length ? ` (a CHECK of the table: ${checks.map((check) => `${check.name ?? ''} ${checkClause(check.expression)}`.trim()).join('; ')})` : '';
    return new SeedRefusal('failed', `seeding ${table?.table ?? 'the database'} failed${code}${cause}${rules}; ${state}`, []);
  }
  const tableName = mapped.table ?? table?.table;
  const catalogTable = catalog.tables.find((candidate) => candidate.name === tableName);
  const check = mapped.constraint ? catalogTable?.checks.find((candidate) => candidate.name === mapped.constraint) : undefined;
  const columns = mapped.columns ?? (check?.rules ? [...new Set(check.rules.map((rule) => rule.column))] : check?.column ? [check.column] : undefined);
  const parts = [
    tableName ? `table ${tableName}` : undefined,
    columns?.length ? `column${columns.length === 1 ? '' : 's'} ${columns.join(', ')}` : undefined,
    mapped.constraint ? `constraint ${mapped.constraint}${check ? ` ${checkClause(check.expression)}` : ''}` : undefined,
  ].filter(Boolean);
  return new SeedRefusal(
    'failed',
    `${mapped.message} (${parts.join(', ')}): the generated rows break a rule of the database that the config does not state; ${state}. State the rule in the config (min, max, values) and seed again`,
    [],
  );
}

/** A CHECK clause as `CHECK (…)`, whether the database printed the keyword or not. */
function checkClause(expression: string): string {
  return /^check\b/i.test(expression.trim()) ? expression.trim() : `CHECK ${expression.trim()}`;
}
