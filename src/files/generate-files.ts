// Generates a config straight to files, no database: plan → each entity's rows in plan order →
// encoded (table-encoders.ts) → a file per table (csv, jsonl, parquet) or one SQL script for the
// namespace. The rows are the generator's, so a file holds exactly the values a database load of
// the same config and seed holds, deferred (self and cyclic) references included: an entity with
// deferred columns is written last, once every entity they point to has been generated.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SchemaConfig, SourceKind } from '../contract.ts';
import type { RowValues } from '../dialects/dialect.ts';
import { dialectOfKind, isReservedNamespace } from '../dialects/index.ts';
import { DataGenerator } from '../generation/generator.ts';
import { planGeneration, type GenerationOptions, type GenerationPlan } from '../generation/plan.ts';
import { CoherenceAudit, type CoherenceCount } from '../generation/coherence/report.ts';
import { referenceTarget } from '../generation/table-spec.ts';
import type { ProgressEvent } from '../generation/run.ts';
import { buildRuntimeTables } from '../runtime/tables.ts';
import { FileSink } from './file-sink.ts';
import { FILE_FORMATS, type FileFormat } from './formats.ts';
import { RangeWorkers } from './range-workers.ts';
import { tableEncoder } from './table-encoders.ts';
import { TableWriter } from './table-writer.ts';

/** Rows a worker makes at a time: a few MB of text. */
const RANGE_ROWS = 20_000;
/** Entities with fewer rows are made on the main thread: starting workers would cost more. */
const PARALLEL_MIN_ROWS = 50_000;

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
   * Worker threads that make rows in parallel (default: the machine's cores, up to 8); 1 makes every
   * row on this thread. The files are byte-identical whatever the number.
   */
  workers?: number;
  /** Entities with fewer rows are made on this thread (default 50,000). */
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
  /** Worker threads used (1: none). */
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
  const started = performance.now();
  const spec = FILE_FORMATS[options.format];
  const emit = options.onProgress ?? (() => {});
  const plan = planGeneration(config, options);
  const generator = new DataGenerator(config, plan);
  if (options.report) generator.audit = new CoherenceAudit(config, plan);
  const tables = buildRuntimeTables(config);
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

  const { parallel, recomputable, rowLimits } = parallelEntities(config, plan);
  const workerCount = options.report ? 1 : Math.max(1, Math.floor(options.workers ?? defaultWorkers()));
  const minRows = options.parallelMinRows ?? PARALLEL_MIN_ROWS;
  // Workers start at once when some entity will use them (loading faker and the generator takes a
  // second or more per thread): they get ready while this thread makes the entities before it.
  const worthWorkers = (entityId: string) => workerCount >= 2 && parallel.has(entityId) && (rowLimits.get(entityId) ?? 0) >= minRows;
  let starting: Promise<RangeWorkers> | undefined;
  let workers: RangeWorkers | undefined;
  if (plan.entities.some((entity) => worthWorkers(entity.id))) {
    starting = RangeWorkers.start(workerCount, {
      config,
      options: { seed: options.seed, rowCounts: options.rowCounts, referenceDate: plan.referenceDate, generatorVersion: plan.version },
      format: options.format,
      dialect: dialectKind,
      namespace,
    });
    // Awaited when first needed; a failure to start is thrown there.
    starting.catch(() => {});
  }
  const workersFor = async (entityId: string): Promise<RangeWorkers | undefined> => {
    if (!starting || !worthWorkers(entityId)) return undefined;
    workers = await starting;
    // The workers recompute the keys of every recomputable entity made so far (all of them, by the
    // time deferred columns are written), as many rows as this thread made or assumed.
    workers.assume(
      plan.entities
        .filter((entity) => recomputable.has(entity.id) && generator.produced.has(entity.id))
        .map((entity) => ({ entity: entity.id, produced: generator.produced.get(entity.id)! })),
    );
    return workers;
  };

  // Entities with deferred columns wait until every entity exists; their keys feed later entities,
  // so they are generated (or assumed) in plan order, and made again, complete, when written.
  const later = plan.entities.filter((entity) => entity.deferredColumns.length > 0);
  const script = spec.layout === 'script' ? await FileSink.open(path.join(options.out, `${namespace}.${spec.extension}${suffix}`), options.gzip === true) : undefined;
  let open: FileSink | undefined = script;
  try {
    if (script) await script.write(dialect.dump.begin(namespace) + dialect.dump.createTables(namespace, plan.entities.map((entity) => entity.table)));
    const writeEntity = async (entityId: string) => {
      const entity = plan.entities.find((candidate) => candidate.id === entityId)!;
      const sink = script ?? (open = await FileSink.open(path.join(options.out, `${entityId}.${spec.extension}${suffix}`), options.gzip === true));
      const encoder = tableEncoder(options.format, tables.get(entityId), { dialect, namespace, createdBy: `sds ${plan.generatorVersion}` });
      emit({ type: 'entity.started', entity: entityId, rowsPlanned: entity.rowCount });
      const progress = (count: number) => emit({ type: 'entity.progress', entity: entityId, rowsPlanned: entity.rowCount, rowsWritten: count });
      const pool = await workersFor(entityId);
      const writer = new TableWriter(sink, encoder, progress, options.signal);
      await writer.begin();
      if (!pool) await writer.write(generator.completeRows(entityId, true));
      else {
        for await (const range of pool.ranges(entityId, generator.rowLimit(entityId), RANGE_ROWS)) {
          if ('text' in range) await writer.writeEncoded(range.text, range.rows);
          else await writer.write(range.values);
        }
      }
      const rows = await writer.finish();
      written.set(entityId, rows);
      emit({ type: 'entity.completed', entity: entityId, rowsPlanned: entity.rowCount, rowsWritten: rows });
      if (!script) {
        bytesGenerated += sink.bytesIn;
        files.push({ path: sink.path, entity: entityId, rows, bytes: await sink.close() });
        open = undefined;
      }
    };
    for (const entity of plan.entities) {
      if (parallel.has(entity.id)) {
        // Its rows are recomputable from their index: later entities draw its keys without it being made here.
        generator.assumeGenerated(entity.id, true);
        if (entity.deferredColumns.length === 0) await writeEntity(entity.id);
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
      open = undefined;
    }
  } catch (error) {
    await open?.discard();
    throw error;
  } finally {
    await (workers ?? (await starting?.catch(() => undefined)))?.close();
  }

  const entities = plan.entities.map((entity) => ({ id: entity.id, rowsPlanned: entity.rowCount, rowsWritten: written.get(entity.id) ?? 0 }));
  return {
    format: options.format,
    seed: plan.seed,
    generatorVersion: plan.generatorVersion,
    workers: workers?.size ?? 1,
    files,
    entities,
    rowsWritten: entities.reduce((sum, entity) => sum + entity.rowsWritten, 0),
    bytesGenerated,
    warnings: [...plan.warnings, ...generator.warnings],
    durationMs: performance.now() - started,
    ...(generator.audit ? { coherence: generator.audit.report() } : {}),
  };
}

/** Worker threads by default: the machine's cores, up to 8. */
function defaultWorkers(): number {
  return Math.min(8, os.availableParallelism());
}

/**
 * Which entities worker threads can make in ranges, found in plan order on a probe generator:
 * - recomputable: the keys other entities draw from it are pure functions of the row index, so a
 *   worker recomputes them (DataGenerator.assumeGenerated) instead of receiving them;
 * - parallel: recomputable, no field carries state from row to row (DataGenerator.rangeSafe), every
 *   entity it takes values from recomputable, and for deferred columns, their targets too.
 * The rest is made in order on the main thread, as a database load makes it.
 */
function parallelEntities(config: SchemaConfig, plan: GenerationPlan): { parallel: Set<string>; recomputable: Set<string>; rowLimits: Map<string, number> } {
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
  return { parallel, recomputable, rowLimits };
}

/** The entity and every entity it takes values from, directly or through others (deferred references left out). */
function ancestors(config: SchemaConfig, entityId: string): string[] {
  const found = new Set<string>([entityId]);
  const queue = [entityId];
  while (queue.length > 0) {
    const id = queue.shift();
    const entity = config.entities.find((candidate) => candidate.id === id);
    for (const field of entity?.fields ?? []) {
      const parent = referenceTarget(field)?.entity;
      if (parent !== undefined && !found.has(parent)) {
        found.add(parent);
        queue.push(parent);
      }
    }
  }
  return [...found];
}

