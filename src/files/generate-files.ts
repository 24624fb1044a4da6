// Generates a config straight to files, no database: plan → each entity's rows in plan order →
// encoded (table-encoders.ts) → a file per table (csv, jsonl, parquet) or one SQL script for the
// namespace. The rows are the generator's, so a file holds exactly the values a database load of
// the same config and seed holds, deferred (self and cyclic) references included: an entity with
// deferred columns is written last, once every entity they point to has been generated.
import fs from 'node:fs';
import path from 'node:path';
import type { SchemaConfig, SourceKind } from '../contract.ts';
import type { RowValues } from '../model/row-value.ts';
import { dialectOfKind, isReservedNamespace } from '../dialects/index.ts';
import { DataGenerator } from '../generation/generator.ts';
import { planGeneration, plannedRowCounts, type GenerationOptions, type GenerationPlan } from '../generation/plan.ts';
import { CoherenceAudit, type CoherenceCount } from '../generation/coherence/report.ts';
import { referenceTarget } from '../model/table-spec.ts';
import { compositeReferences } from '../model/composite-keys.ts';
import type { ProgressEvent } from '../generation/run.ts';
import { buildRuntimeTables } from '../model/tables.ts';
import { FileSink } from './file-sink.ts';
import { FILE_FORMATS, type FileFormat } from './formats.ts';
import { RangeWorkers, type RangeMade, type RangeSpan } from './range-workers.ts';
import { tableEncoder } from './table-encoders.ts';
import { TableWriter } from './table-writer.ts';
import { PARALLEL_MIN_ROWS, workerThreads } from './workers-ahead.ts';

/** Rows a thread makes at a time: about a MB of text. */
const RANGE_ROWS = 10_000;
/** With workers running, this thread lets the event loop turn this often while it makes rows. */
const TURN_MS = 3;
/** Rows a range has at least, however small its entity. */
const MIN_RANGE_ROWS = 1_000;

export interface FileGenerationOptions extends GenerationOptions {
  /** Folder to write into (created when missing). */
  out: string;
  format: FileFormat;
  /** `sql`: the engine whose script to write (default postgres). */
  dialect?: SourceKind;
  /** `sql`: the namespace (PostgreSQL schema or MySQL database) the script builds. */
  namespace?: string;
  /** Compress each file with gzip (`.gz` is added to its name). */
  gzip?: boolean;
  /**
   * Threads that make rows in parallel (default: the machine's cores, up to 8): this one, which also
   * writes, and `workers - 1` worker threads; 1 makes every row on this thread. The files are
   * byte-identical whatever the number.
   */
  workers?: number;
  /**
   * Worker threads started ahead (RangeWorkers.spawn, not configured yet): they load while the
   * caller reads its config. Their number stands for `workers - 1`; they are closed in every case.
   */
  startedWorkers?: RangeWorkers;
  /** Rows of each range a thread makes (default 10,000; fewer for smaller entities). */
  rangeRows?: number;
  /**
   * Leave every range of text formats to the worker threads, as for Parquet (whose rows this thread
   * encodes): tests compare their bytes with this thread's.
   */
  rangesOnWorkers?: boolean;
  /**
   * Workers are started when an entity that can be made in ranges has this many rows (default
   * 50,000); once they are, they make every such entity.
   */
  parallelMinRows?: number;
  onProgress?: (event: ProgressEvent) => void;
  /** Checked between rows: an aborted generation stops, removes the file it was writing, and throws. */
  signal?: AbortSignal;
  /**
   * Count how many rows hold each coherence rule (summary.coherence). The rows are then all made on
   * this thread, where they are counted (the files are the same).
   */
  report?: boolean;
}

export interface WrittenFile {
  path: string;
  /** The table it holds; undefined for a script of the whole namespace. */
  entity?: string;
  rows: number;
  /** Size on disk (compressed when gzip). */
  bytes: number;
}

export interface FileGenerationSummary {
  format: FileFormat;
  seed: string;
  generatorVersion: string;
  /** Threads that made rows (1: this one alone). */
  workers: number;
  files: WrittenFile[];
  entities: { id: string; rowsPlanned: number; rowsWritten: number }[];
  rowsWritten: number;
  /** Bytes of data generated, before compression. */
  bytesGenerated: number;
  warnings: { path: string; message: string }[];
  durationMs: number;
  /** With `report`: per coherence rule, entity and field, rows checked and rows holding it. */
  coherence?: CoherenceCount[];
}

export async function generateFiles(config: SchemaConfig, options: FileGenerationOptions): Promise<FileGenerationSummary> {
  try {
    return await writeFiles(config, options);
  } finally {
    await options.startedWorkers?.close();
  }
}

async function writeFiles(config: SchemaConfig, options: FileGenerationOptions): Promise<FileGenerationSummary> {
  const started = performance.now();
  const spec = FILE_FORMATS[options.format];
  const emit = options.onProgress ?? (() => {});
  const plan = planGeneration(config, options);
  const generator = new DataGenerator(config, plan);
  if (options.report) generator.audit = new CoherenceAudit(config, plan);
  const tables = buildRuntimeTables(config, plannedRowCounts(config));
  const dialectKind = options.dialect ?? 'postgres';
  const dialect = dialectOfKind(dialectKind);
  const namespace = options.namespace ?? 'sds_data';
  if (spec.layout === 'script' && isReservedNamespace(namespace)) {
    throw new Error(`refusing to write a script that replaces "${namespace}": it must be a namespace of sds's own (e.g. sds_blog)`);
  }
  await fs.promises.mkdir(options.out, { recursive: true });
  const suffix = options.gzip ? '.gz' : '';
  const files: WrittenFile[] = [];
  const written = new Map<string, number>();
  let bytesGenerated = 0;

  const { parallel, recomputable, rowLimits, assumedRows } = parallelEntities(config, plan);
  const ahead = options.startedWorkers;
  const workerCount = options.report ? 1 : ahead ? ahead.size + 1 : workerThreads(options.workers);
  const minRows = options.parallelMinRows ?? PARALLEL_MIN_ROWS;
  const rangeable = (entityId: string) => workerCount >= 2 && parallel.has(entityId);
  // Workers start at once when a large entity will use them (loading the generator takes a few
  // hundred milliseconds per thread, unless they were started ahead): they get ready while this
  // thread makes the entities before it.
  let workers: RangeWorkers | undefined;
  let usedWorkers = false;
  if (plan.entities.some((entity) => rangeable(entity.id) && (rowLimits.get(entity.id) ?? 0) >= minRows)) {
    workers = (ahead ?? RangeWorkers.spawn(workerCount - 1)).configure({
      config,
      options: { seed: options.seed, rowCounts: options.rowCounts, referenceDate: plan.referenceDate, generatorVersion: plan.version },
      format: options.format,
      dialect: dialectKind,
      namespace,
    });
  }
  // Once they run, workers make every entity that can be made in ranges, small ones too: while this
  // thread makes the entities that must be made in order, they make the others.
  const worthWorkers = (entityId: string) => workers !== undefined && rangeable(entityId);
  const workersFor = (entityId: string): RangeWorkers | undefined => {
    if (!workers || !worthWorkers(entityId)) return undefined;
    usedWorkers = true;
    // The workers recompute the keys of every recomputable entity made so far (all of them, by the
    // time deferred columns are written), as many rows as this thread made or assumed.
    workers.assume(
      plan.entities
        .filter((entity) => recomputable.has(entity.id) && generator.produced.has(entity.id))
        .map((entity) => ({ entity: entity.id, produced: generator.produced.get(entity.id)! })),
    );
    return workers;
  };
  /** Rows of the ranges of an entity of `total` rows: RANGE_ROWS, or fewer for small entities, so that every thread gets some. */
  const rangeRowsOf = (total: number) => Math.min(options.rangeRows ?? RANGE_ROWS, Math.max(MIN_RANGE_ROWS, Math.ceil(total / (workerCount * 2))));
  /** Ranges of a text format this thread makes while workers make others, encoded by `writer`. */
  const localMaker = (writer: TableWriter) =>
    !spec.rowText || options.rangesOnWorkers
      ? undefined
      : (range: RangeSpan): RangeMade => ({ id: -1, ...writer.encodeRange(generator.rangeRows(range.entity, range.from, range.to, true), range.from) });

  const script = spec.layout === 'script' ? await FileSink.open(path.join(options.out, `${namespace}.${spec.extension}${suffix}`), options.gzip === true) : undefined;
  /** Files being written, removed when the generation fails. */
  const open = new Set<FileSink>(script ? [script] : []);
  const record = (entityId: string, table: TableFile) => {
    written.set(entityId, table.rows);
    if (table.file) {
      bytesGenerated += table.bytesIn;
      files.push(table.file);
    }
  };
  /** One entity's rows into its file (or the script): `fill` writes them. */
  const writeTable = async (entityId: string, fill: (writer: TableWriter) => Promise<void>, started?: (writer: TableWriter) => void): Promise<TableFile> => {
    const entity = plan.entities.find((candidate) => candidate.id === entityId)!;
    const sink = script ?? (await FileSink.open(path.join(options.out, `${entityId}.${spec.extension}${suffix}`), options.gzip === true));
    open.add(sink);
    const encoder = tableEncoder(options.format, tables.get(entityId), { dialect, namespace, createdBy: `sds ${plan.generatorVersion}` });
    emit({ type: 'entity.started', entity: entityId, rowsPlanned: entity.rowCount });
    const progress = (count: number) => emit({ type: 'entity.progress', entity: entityId, rowsPlanned: entity.rowCount, rowsWritten: count });
    const writer = new TableWriter(sink, encoder, progress, options.signal, workers && TURN_MS);
    started?.(writer);
    try {
      await writer.begin();
      await fill(writer);
      const rows = await writer.finish();
      emit({ type: 'entity.completed', entity: entityId, rowsPlanned: entity.rowCount, rowsWritten: rows });
      if (script) return { rows, bytesIn: 0 };
      const bytesIn = sink.bytesIn;
      const file = { path: sink.path, entity: entityId, rows, bytes: await sink.close() };
      open.delete(sink);
      return { rows, bytesIn, file };
    } catch (error) {
      if (!script) {
        open.delete(sink);
        await sink.discard();
      }
      throw error;
    }
  };
  const writeRanges = async (writer: TableWriter, pool: RangeWorkers, entityId: string, total: number, local: () => LocalMaker, signal?: AbortSignal) => {
    for await (const range of pool.ranges(entityId, total, rangeRowsOf(total), local, signal)) {
      if ('chunks' in range) await writer.writeEncoded(range.chunks, range.rows);
      else await writer.write(range.values);
    }
  };
  const writeEntity = async (entityId: string) => {
    const pool = workersFor(entityId);
    record(
      entityId,
      await writeTable(entityId, async (writer) => {
        if (!pool) await writer.write(generator.completeRows(entityId, true));
        else {
          const local = localMaker(writer);
          await writeRanges(writer, pool, entityId, generator.rowLimit(entityId), () => local);
        }
      }),
    );
  };

  // Entities workers make into files of their own start at once, while this thread makes the
  // entities before them, assuming the rows their parents will have (the probe's: all planned rows
  // unless a unique pool runs out). When this thread gets to such an entity, it checks that its
  // parents made those rows and joins in; otherwise the file is made again.
  const early = new Map<string, EarlyTable>();
  if (workers && spec.layout === 'table') {
    let previous: Promise<unknown> = Promise.resolve();
    for (const entity of plan.entities.filter((candidate) => worthWorkers(candidate.id) && candidate.deferredColumns.length === 0)) {
      const parents = ancestors(config, entity.id);
      const told = new Map(plan.entities.filter((other) => other.id !== entity.id && parents.includes(other.id)).map((other) => [other.id, assumedRows.get(other.id)!]));
      const table: EarlyTable = { told, abort: new AbortController(), joined: false, result: Promise.resolve(undefined) };
      const pool = workers;
      table.result = previous.then(() => {
        if (table.abort.signal.aborted) return undefined;
        usedWorkers = true;
        pool.assume([...told].map(([other, produced]) => ({ entity: other, produced })));
        return writeTable(
          entity.id,
          (writer) => writeRanges(writer, pool, entity.id, rowLimits.get(entity.id)!, () => (table.joined && table.writer ? localMaker(table.writer) : undefined), table.abort.signal),
          (writer) => (table.writer = writer),
        );
      });
      table.result.catch(() => {});
      previous = table.result.catch(() => {});
      early.set(entity.id, table);
    }
  }
  const writeJoined = async (entityId: string) => {
    const table = early.get(entityId);
    const valid = table && [...table.told].every(([other, produced]) => generator.produced.get(other) === produced) && generator.rowLimit(entityId) === rowLimits.get(entityId);
    if (table && valid) {
      table.joined = true;
      workers!.poke();
      const made = await table.result;
      if (made) return record(entityId, made);
    } else if (table) {
      table.abort.abort(new Error(`${entityId} is made again: its parents made fewer rows than assumed`));
      await table.result.catch(() => {});
    }
    await writeEntity(entityId);
  };

  // Entities with deferred columns wait until every entity exists; their keys feed later entities,
  // so they are generated (or assumed) in plan order, and made again, complete, when written.
  const later = plan.entities.filter((entity) => entity.deferredColumns.length > 0);
  try {
    if (script) await script.write(dialect.dump.begin(namespace) + dialect.dump.createTables(namespace, plan.entities.map((entity) => entity.table)));
    for (const entity of plan.entities) {
      if (parallel.has(entity.id)) {
        // Its rows are recomputable from their index: later entities draw its keys without it being made here.
        generator.assumeGenerated(entity.id, true);
        if (entity.deferredColumns.length === 0) await writeJoined(entity.id);
      } else if (entity.deferredColumns.length > 0) {
        for (const batch of generator.rows(entity.id, 1_000)) {
          void batch;
          options.signal?.throwIfAborted();
        }
      } else {
        await writeEntity(entity.id);
      }
    }
    for (const entity of later) await writeEntity(entity.id);
    if (script) {
      await script.write(dialect.dump.finish(namespace, plan.entities.map((entity) => entity.table)));
      bytesGenerated += script.bytesIn;
      files.push({ path: script.path, rows: [...written.values()].reduce((sum, rows) => sum + rows, 0), bytes: await script.close() });
      open.delete(script);
    }
  } catch (error) {
    for (const table of early.values()) table.abort.abort(error);
    await Promise.all([...early.values()].map((table) => table.result.catch(() => {})));
    await Promise.all([...open].map((sink) => sink.discard()));
    throw error;
  } finally {
    await workers?.close();
  }

  const entities = plan.entities.map((entity) => ({ id: entity.id, rowsPlanned: entity.rowCount, rowsWritten: written.get(entity.id) ?? 0 }));
  return {
    format: options.format,
    seed: plan.seed,
    generatorVersion: plan.generatorVersion,
    workers: usedWorkers ? workerCount : 1,
    files,
    entities,
    rowsWritten: entities.reduce((sum, entity) => sum + entity.rowsWritten, 0),
    bytesGenerated,
    warnings: [...plan.warnings, ...generator.warnings],
    durationMs: performance.now() - started,
    ...(generator.audit ? { coherence: generator.audit.report() } : {}),
  };
}

/** One entity's file, written. */
interface TableFile {
  rows: number;
  /** Bytes before compression (0 in a script). */
  bytesIn: number;
  /** Undefined in a script. */
  file?: WrittenFile;
}

type LocalMaker = ((range: RangeSpan) => RangeMade) | undefined;

/** An entity whose file workers started before this thread got to it (see generateFiles). */
interface EarlyTable {
  /** The rows its parents were assumed to make. */
  told: Map<string, number>;
  abort: AbortController;
  /** This thread got to it, found the parents as assumed, and makes ranges too. */
  joined: boolean;
  writer?: TableWriter;
  /** Undefined when it never started (aborted first). */
  result: Promise<TableFile | undefined>;
}

/**
 * Which entities worker threads can make in ranges, found in plan order on a probe generator:
 * - recomputable: the keys other entities draw from it are pure functions of the row index, so a
 *   worker recomputes them (DataGenerator.assumeGenerated) instead of receiving them;
 * - parallel: recomputable, no field carries state from row to row (DataGenerator.rangeSafe), every
 *   entity it takes values from recomputable, and for deferred columns, their targets too.
 * The rest is made in order on the main thread, as a database load makes it.
 */
function parallelEntities(
  config: SchemaConfig,
  plan: GenerationPlan,
): { parallel: Set<string>; recomputable: Set<string>; rowLimits: Map<string, number>; assumedRows: Map<string, number> } {
  const probe = new DataGenerator(config, plan);
  const recomputable = new Set<string>();
  const parallel = new Set<string>();
  /** Rows of the parallel entities (known before any row is made). */
  const rowLimits = new Map<string, number>();
  for (const entity of plan.entities) {
    if (!ancestors(config, entity.id).every((id) => id === entity.id || recomputable.has(id))) continue;
    try {
      const safe = probe.rangeSafe(entity.id, false);
      if (!probe.assumeGenerated(entity.id)) continue;
      recomputable.add(entity.id);
      if (safe) {
        parallel.add(entity.id);
        rowLimits.set(entity.id, probe.rowLimit(entity.id));
      }
    } catch {
      // A parent's keys cannot be recomputed here: the entity is made in order.
    }
  }
  // Deferred columns point anywhere: their targets must be recomputable, and their programs range-safe.
  for (const entity of plan.entities.filter((candidate) => parallel.has(candidate.id) && candidate.deferredColumns.length > 0)) {
    const fields = config.entities.find((candidate) => candidate.id === entity.id)!.fields.filter((field) => entity.deferredColumns.includes(field.id));
    const targetsRecomputable = fields.every((field) => {
      const target = referenceTarget(field)?.entity;
      return target !== undefined && recomputable.has(target);
    });
    try {
      if (!targetsRecomputable || !probe.rangeSafe(entity.id, true)) parallel.delete(entity.id);
    } catch {
      parallel.delete(entity.id);
    }
  }
  /** The rows the probe assumed each recomputable entity makes. */
  const assumedRows = new Map([...recomputable].map((id) => [id, probe.produced.get(id)!]));
  return { parallel, recomputable, rowLimits, assumedRows };
}

/** The entity and every entity it takes values from, directly or through others (deferred references left out). */
function ancestors(config: SchemaConfig, entityId: string): string[] {
  const found = new Set<string>([entityId]);
  const queue = [entityId];
  while (queue.length > 0) {
    const id = queue.shift();
    const entity = config.entities.find((candidate) => candidate.id === id);
    const parents = [...(entity?.fields ?? []).map((field) => referenceTarget(field)?.entity), ...compositeReferences(entity).map((reference) => reference.entity)];
    for (const parent of parents) {
      if (parent !== undefined && !found.has(parent)) {
        found.add(parent);
        queue.push(parent);
      }
    }
  }
  return [...found];
}

