// Generates a config straight to files, no database: plan → schedule (generation/schedule.ts) →
// each entity's rows through the schedule's one rows path → encoded (table-encoders.ts) → a file per
// table (csv, jsonl, parquet) or one SQL script for the namespace. The rows are the generator's, so
// a file holds exactly the values a database load of the same config and seed holds, deferred (self
// and cyclic) references included: an entity with deferred columns is written last, once every
// entity they point to has been generated. Entities the schedule makes in ranges are made by worker
// threads too (range-workers.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { SchemaConfig, SourceKind } from '../contract.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { DataGenerator } from '../generation/generator.ts';
import { planGeneration, plannedRowCounts, type GenerationOptions, type GenerationPlan } from '../generation/plan.ts';
import { completeRowSteps, scheduleGeneration, ScheduledRows, sendSchedule, type EntitySchedule } from '../generation/schedule.ts';
import { CoherenceAudit, type CoherenceCount } from '../generation/coherence/report.ts';
import { ancestorsOf } from '../model/config-graph.ts';
import type { ProgressEvent } from '../generation/run.ts';
import { buildRuntimeTables, type RuntimeTables } from '../model/tables.ts';
import { FileSink } from './file-sink.ts';
import { FILE_FORMATS, type FileFormat } from './formats.ts';
import { RangeWorkers, type RangeMade, type RangeSpan } from './range-workers.ts';
import { partName, shardRows, type Shard } from './shard.ts';
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
   * Write shard `index` of `count` (shard.ts): every entity's share of rows, into part files. Every
   * shard makes the rows of entities that must be made in order (and writes its share of them); the
   * others, only its share.
   */
  shard?: Shard;
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
  /** With `shard`: the shard written (entities' rowsPlanned and rowsWritten count its share). */
  shard?: Shard;
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
  if (options.shard && options.report) throw new Error('a coherence report counts the rows of one whole generation: it cannot be asked of a shard');
  const plan = planGeneration(config, options);
  const generator = new DataGenerator(config, plan);
  if (options.report) generator.audit = new CoherenceAudit(config, plan);
  const namespace = options.namespace ?? 'sds_data';
  // Only SQL scripts need a dialect: the database drivers the dialects import are not loaded otherwise.
  let dialect: Dialect | undefined;
  if (spec.layout === 'script') {
    const dialects = await import('../dialects/index.ts');
    if (dialects.isReservedNamespace(namespace)) {
      throw new Error(`refusing to write a script that replaces "${namespace}": it must be a namespace of sds's own (e.g. sds_blog)`);
    }
    dialect = dialects.dialectOfKind(options.dialect ?? 'postgres');
  }
  await fs.promises.mkdir(options.out, { recursive: true });
  const run = new FileRun(config, new ScheduledRows(generator, () => scheduleGeneration(config, plan)), options, namespace, dialect);
  await run.write();

  const entities = plan.entities.map((entity) => {
    const share = run.shareOf(entity.id);
    return { id: entity.id, rowsPlanned: share.to - share.from, rowsWritten: run.written.get(entity.id) ?? 0 };
  });
  return {
    format: options.format,
    seed: plan.seed,
    generatorVersion: plan.generatorVersion,
    workers: run.usedWorkers ? run.workerCount : 1,
    ...(options.shard ? { shard: options.shard } : {}),
    files: run.files,
    entities,
    rowsWritten: entities.reduce((sum, entity) => sum + entity.rowsWritten, 0),
    bytesGenerated: run.bytesGenerated,
    warnings: [...plan.warnings, ...generator.warnings],
    durationMs: performance.now() - started,
    ...(generator.audit ? { coherence: generator.audit.report() } : {}),
  };
}

/** One generation into files: the schedule's steps, each entity's table written by this thread, worker threads, or both. */
class FileRun {
  readonly files: WrittenFile[] = [];
  /** Rows written by entity. */
  readonly written = new Map<string, number>();
  bytesGenerated = 0;
  /** Threads that may make rows (this one included). */
  readonly workerCount: number;
  usedWorkers = false;
  readonly #plan: GenerationPlan;
  readonly #spec: (typeof FILE_FORMATS)[FileFormat];
  readonly #tables: RuntimeTables;
  readonly #emit: (event: ProgressEvent) => void;
  readonly #suffix: string;
  /** Started when a large entity will use them (or given started ahead). */
  #workers: RangeWorkers | undefined;
  /** The namespace's script, for the `sql` format. */
  #script: FileSink | undefined;
  /** Files being written, removed when the generation fails. */
  readonly #open = new Set<FileSink>();
  readonly #early = new Map<string, EarlyTable>();

  constructor(
    private readonly config: SchemaConfig,
    private readonly rows: ScheduledRows,
    private readonly options: FileGenerationOptions,
    private readonly namespace: string,
    private readonly dialect: Dialect | undefined,
  ) {
    this.#plan = rows.schedule.plan;
    this.#spec = FILE_FORMATS[options.format];
    this.#tables = buildRuntimeTables(config, plannedRowCounts(config));
    this.#emit = options.onProgress ?? (() => {});
    this.#suffix = options.gzip ? '.gz' : '';
    const ahead = options.startedWorkers;
    this.workerCount = options.report ? 1 : ahead ? ahead.size + 1 : workerThreads(options.workers);
  }

  /** The rows of an entity this shard writes (all without a shard): its share of the planned rows. */
  shareOf(entityId: string): { from: number; to: number } {
    return shardRows(this.rows.entity(entityId).plan.rowCount, this.options.shard);
  }

  async write(): Promise<void> {
    const { shard } = this.options;
    const tables = this.#plan.entities.map((entity) => entity.table);
    this.#startWorkers();
    if (this.#spec.layout === 'script') {
      this.#script = await FileSink.open(path.join(this.options.out, partName(this.namespace, `${this.#spec.extension}${this.#suffix}`, shard)), this.options.gzip === true);
      this.#open.add(this.#script);
    }
    this.#startEarlyTables();
    try {
      const script = this.#script;
      // A script's start is in the first part of shards, its end in the last.
      if (script && (!shard || shard.index === 1)) await script.write(this.dialect!.dump.begin(this.namespace) + this.dialect!.dump.createTables(this.namespace, tables));
      for (const { step, entity } of completeRowSteps(this.rows.schedule)) {
        if (step !== 'write') this.rows.prepare(entity.id, this.options.signal);
        else if (entity.made === 'ranges' && entity.deferredColumns.length === 0) await this.#writeJoined(entity);
        else await this.#writeEntity(entity);
      }
      if (script) {
        if (!shard || shard.index === shard.count) await script.write(this.dialect!.dump.finish(this.namespace, tables));
        this.bytesGenerated += script.bytesIn;
        this.files.push({ path: script.path, rows: [...this.written.values()].reduce((sum, rows) => sum + rows, 0), bytes: await script.close() });
        this.#open.delete(script);
      }
    } catch (error) {
      for (const table of this.#early.values()) table.abort.abort(error);
      await Promise.all([...this.#early.values()].map((table) => table.result.catch(() => {})));
      await Promise.all([...this.#open].map((sink) => sink.discard()));
      throw error;
    } finally {
      await this.#workers?.close();
    }
  }

  /** The share's rows of an entity that has `limit` rows. */
  #rowsWithin(entityId: string, limit: number): { from: number; to: number } {
    const { from, to } = this.shareOf(entityId);
    return { from: Math.min(from, limit), to: Math.min(to, limit) };
  }

  /** Whether workers may make this entity: it is made in ranges, and there are threads to share it. */
  #rangeable(entity: EntitySchedule): boolean {
    return this.workerCount >= 2 && entity.made === 'ranges';
  }

  // Workers start at once when a large entity will use them (loading the generator takes a few
  // hundred milliseconds per thread, unless they were started ahead): they get ready while this
  // thread makes the entities before it.
  #startWorkers(): void {
    const minRows = this.options.parallelMinRows ?? PARALLEL_MIN_ROWS;
    const large = (entity: EntitySchedule) => {
      const { from, to } = this.#rowsWithin(entity.id, entity.rowLimit ?? 0);
      return to - from >= minRows;
    };
    if (!this.rows.schedule.entities.some((entity) => this.#rangeable(entity) && large(entity))) return;
    const { options, config } = this;
    this.#workers = (options.startedWorkers ?? RangeWorkers.spawn(this.workerCount - 1)).configure({
      config,
      options: { seed: options.seed, rowCounts: options.rowCounts, referenceDate: this.#plan.referenceDate, generatorVersion: this.#plan.version },
      format: options.format,
      dialect: options.dialect ?? 'postgres',
      namespace: this.namespace,
      schedule: sendSchedule(this.rows.schedule),
    });
  }

  /**
   * The workers, when they make this entity: once they run, they make every entity that can be made
   * in ranges, small ones too (while this thread makes the entities that must be made in order).
   */
  #workersFor(entity: EntitySchedule): RangeWorkers | undefined {
    const workers = this.#workers;
    if (!workers || !this.#rangeable(entity)) return undefined;
    this.usedWorkers = true;
    // The workers recompute the keys of every recomputed entity made so far (all of them, by the
    // time deferred columns are written), as many rows as this thread made or assumed.
    const produced = this.rows.generator.produced;
    workers.assume(this.rows.schedule.entities.filter((other) => other.recomputed && produced.has(other.id)).map((other) => ({ entity: other.id, produced: produced.get(other.id)! })));
    return workers;
  }

  /** Rows of the ranges of an entity of `total` rows: RANGE_ROWS, or fewer for small entities, so that every thread gets some. */
  #rangeRowsOf(total: number): number {
    return Math.min(this.options.rangeRows ?? RANGE_ROWS, Math.max(MIN_RANGE_ROWS, Math.ceil(total / (this.workerCount * 2))));
  }

  /** Ranges of a text format this thread makes while workers make others, encoded by `writer`. */
  #localMaker(writer: TableWriter): LocalMaker {
    if (!this.#spec.rowText || this.options.rangesOnWorkers) return undefined;
    return (range: RangeSpan): RangeMade => ({ id: -1, ...writer.encodeRange(this.rows.rows(range.entity, range.from, range.to, { reuse: true }), range.at) });
  }

  #record(entityId: string, table: TableFile): void {
    this.written.set(entityId, table.rows);
    if (table.file) {
      this.bytesGenerated += table.bytesIn;
      this.files.push(table.file);
    }
  }

  /** One entity's rows into its file (or the script): `fill` writes them. */
  async #writeTable(entityId: string, fill: (writer: TableWriter) => Promise<void>, started?: (writer: TableWriter) => void): Promise<TableFile> {
    const { options } = this;
    const script = this.#script;
    const sink = script ?? (await FileSink.open(path.join(options.out, partName(entityId, `${this.#spec.extension}${this.#suffix}`, options.shard)), options.gzip === true));
    this.#open.add(sink);
    const encoder = tableEncoder(options.format, this.#tables.get(entityId), { dialect: this.dialect, namespace: this.namespace, createdBy: `sds ${this.#plan.generatorVersion}` });
    const share = this.shareOf(entityId);
    const rowsPlanned = share.to - share.from;
    this.#emit({ type: 'entity.started', entity: entityId, rowsPlanned });
    const progress = (count: number) => this.#emit({ type: 'entity.progress', entity: entityId, rowsPlanned, rowsWritten: count });
    const writer = new TableWriter(sink, encoder, progress, options.signal, this.#workers && TURN_MS);
    started?.(writer);
    try {
      // The parts of a file that concatenate hold its head in the first part only.
      await writer.begin(this.#spec.parts !== 'concatenate' || !options.shard || options.shard.index === 1);
      await fill(writer);
      const rows = await writer.finish();
      this.#emit({ type: 'entity.completed', entity: entityId, rowsPlanned, rowsWritten: rows });
      if (script) return { rows, bytesIn: 0 };
      const bytesIn = sink.bytesIn;
      const file = { path: sink.path, entity: entityId, rows, bytes: await sink.close() };
      this.#open.delete(sink);
      return { rows, bytesIn, file };
    } catch (error) {
      if (!script) {
        this.#open.delete(sink);
        await sink.discard();
      }
      throw error;
    }
  }

  /** The share's rows of an entity of `limit` rows, made in ranges by `pool` (and this thread). */
  async #writeRanges(writer: TableWriter, pool: RangeWorkers, entityId: string, limit: number, local: () => LocalMaker, signal?: AbortSignal): Promise<void> {
    const rows = this.#rowsWithin(entityId, limit);
    for await (const range of pool.ranges(entityId, rows, this.#rangeRowsOf(rows.to - rows.from), local, signal)) {
      if ('chunks' in range) await writer.writeEncoded(range.chunks, range.rows);
      else if ('values' in range) await writer.write(range.values);
      else throw new Error('a file range worker made text');
    }
  }

  /**
   * An entity's share of rows, by the workers or through the schedule's rows path on this thread: a
   * shard makes only its rows of an entity made in ranges, and every row of the others (later rows
   * and entities depend on them), writing its own.
   */
  async #writeEntity(entity: EntitySchedule): Promise<void> {
    const pool = this.#workersFor(entity);
    const made = await this.#writeTable(entity.id, async (writer) => {
      if (pool) {
        const local = this.#localMaker(writer);
        await this.#writeRanges(writer, pool, entity.id, this.rows.rowLimit(entity.id), () => local);
      } else {
        const { from, to } = this.#rowsWithin(entity.id, this.rows.rowLimit(entity.id));
        await writer.write(this.options.shard ? this.rows.rows(entity.id, from, to, { reuse: true, signal: this.options.signal }) : this.rows.rows(entity.id, 0, Infinity, { reuse: true }));
      }
    });
    this.#record(entity.id, made);
  }

  // Entities workers make into files of their own start at once, while this thread makes the
  // entities before them, assuming the rows their parents will have (the schedule's: all planned
  // rows unless a unique pool runs out). When this thread gets to such an entity, it checks that its
  // parents made those rows and joins in; otherwise the file is made again.
  #startEarlyTables(): void {
    const workers = this.#workers;
    if (!workers || this.#spec.layout !== 'table') return;
    let previous: Promise<unknown> = Promise.resolve();
    for (const entity of this.rows.schedule.entities.filter((candidate) => this.#rangeable(candidate) && candidate.deferredColumns.length === 0)) {
      const parents = ancestorsOf(this.config, entity.id);
      const told = new Map(this.rows.schedule.entities.filter((other) => other.id !== entity.id && parents.includes(other.id)).map((other) => [other.id, other.assumedRows!]));
      const table: EarlyTable = { told, abort: new AbortController(), joined: false, result: Promise.resolve(undefined) };
      table.result = previous.then(() => {
        if (table.abort.signal.aborted) return undefined;
        this.usedWorkers = true;
        workers.assume([...told].map(([other, produced]) => ({ entity: other, produced })));
        return this.#writeTable(
          entity.id,
          (writer) => this.#writeRanges(writer, workers, entity.id, entity.rowLimit!, () => (table.joined && table.writer ? this.#localMaker(table.writer) : undefined), table.abort.signal),
          (writer) => (table.writer = writer),
        );
      });
      table.result.catch(() => {});
      previous = table.result.catch(() => {});
      this.#early.set(entity.id, table);
    }
  }

  /** An entity made in ranges with no deferred columns: joins its early table when its parents made the rows assumed, else writes it now. */
  async #writeJoined(entity: EntitySchedule): Promise<void> {
    const table = this.#early.get(entity.id);
    const produced = this.rows.generator.produced;
    const valid = table && [...table.told].every(([other, rows]) => produced.get(other) === rows) && this.rows.rowLimit(entity.id) === entity.rowLimit;
    if (table && valid) {
      table.joined = true;
      this.#workers!.poke();
      const made = await table.result;
      if (made) return this.#record(entity.id, made);
    } else if (table) {
      table.abort.abort(new Error(`${entity.id} is made again: its parents made fewer rows than assumed`));
      await table.result.catch(() => {});
    }
    await this.#writeEntity(entity);
  }
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

/** An entity whose file workers started before this thread got to it (FileRun.#startEarlyTables). */
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
