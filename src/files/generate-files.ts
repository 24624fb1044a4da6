// Generates a config straight to files, no database: plan → each entity's rows in plan order →
// encoded (table-encoders.ts) → a file per table (csv, jsonl, parquet) or one SQL script for the
// namespace. The rows are the generator's, so a file holds exactly the values a database load of
// the same config and seed holds, deferred (self and cyclic) references included: an entity with
// deferred columns is written last, once every entity they point to has been generated.
import fs from 'node:fs';
import path from 'node:path';
import type { SchemaConfig, SourceKind } from '../contract.ts';
import type { RowValues } from '../dialects/dialect.ts';
import { dialectOfKind, isReservedNamespace } from '../dialects/index.ts';
import { DataGenerator } from '../generation/generator.ts';
import { planGeneration, type GenerationOptions } from '../generation/plan.ts';
import type { ProgressEvent } from '../generation/run.ts';
import { buildRuntimeTables } from '../runtime/tables.ts';
import { FileSink } from './file-sink.ts';
import { FILE_FORMATS, type FileFormat } from './formats.ts';
import { tableEncoder, type Encoded, type TableEncoder } from './table-encoders.ts';

/** Text is handed to the file in pieces of about this many characters. */
const CHUNK_CHARS = 64 * 1024;
/** Progress is reported every this many rows. */
const PROGRESS_ROWS = 10_000;

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
  onProgress?: (event: ProgressEvent) => void;
  /** Checked between rows: an aborted generation stops, removes the file it was writing, and throws. */
  signal?: AbortSignal;
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
  files: WrittenFile[];
  entities: { id: string; rowsPlanned: number; rowsWritten: number }[];
  rowsWritten: number;
  /** Bytes of data generated, before compression. */
  bytesGenerated: number;
  warnings: { path: string; message: string }[];
  durationMs: number;
}

export async function generateFiles(config: SchemaConfig, options: FileGenerationOptions): Promise<FileGenerationSummary> {
  const started = performance.now();
  const spec = FILE_FORMATS[options.format];
  const emit = options.onProgress ?? (() => {});
  const plan = planGeneration(config, options);
  const generator = new DataGenerator(config, plan);
  const tables = buildRuntimeTables(config);
  const dialect = dialectOfKind(options.dialect ?? 'postgres');
  const namespace = options.namespace ?? 'sds_data';
  if (spec.layout === 'script' && isReservedNamespace(namespace)) {
    throw new Error(`refusing to write a script that replaces "${namespace}": it must be a namespace of sds's own (e.g. sds_blog)`);
  }
  await fs.promises.mkdir(options.out, { recursive: true });
  const suffix = options.gzip ? '.gz' : '';
  const files: WrittenFile[] = [];
  const written = new Map<string, number>();
  let bytesGenerated = 0;

  // Entities with deferred columns wait until every entity exists; their rows are generated once
  // in plan order (their keys feed later entities) and again, complete, when written.
  const now = plan.entities.filter((entity) => entity.deferredColumns.length === 0);
  const later = plan.entities.filter((entity) => entity.deferredColumns.length > 0);
  const writeOrder = [...now, ...later];

  const script = spec.layout === 'script' ? await FileSink.open(path.join(options.out, `${namespace}.${spec.extension}${suffix}`), options.gzip === true) : undefined;
  let open: FileSink | undefined = script;
  try {
    if (script) await script.write(dialect.dump.begin(namespace) + dialect.dump.createTables(namespace, plan.entities.map((entity) => entity.table)));
    const writeEntity = async (entityId: string) => {
      const entity = plan.entities.find((candidate) => candidate.id === entityId)!;
      const sink = script ?? (open = await FileSink.open(path.join(options.out, `${entityId}.${spec.extension}${suffix}`), options.gzip === true));
      const encoder = tableEncoder(options.format, tables.get(entityId), { dialect, namespace, createdBy: `sds ${plan.generatorVersion}` });
      emit({ type: 'entity.started', entity: entityId, rowsPlanned: entity.rowCount });
      const rows = await writeRows(sink, encoder, generator.completeRows(entityId, true), (count) =>
        emit({ type: 'entity.progress', entity: entityId, rowsPlanned: entity.rowCount, rowsWritten: count }),
      options.signal);
      written.set(entityId, rows);
      emit({ type: 'entity.completed', entity: entityId, rowsPlanned: entity.rowCount, rowsWritten: rows });
      if (!script) {
        bytesGenerated += sink.bytesIn;
        files.push({ path: sink.path, entity: entityId, rows, bytes: await sink.close() });
        open = undefined;
      }
    };
    for (const entity of plan.entities) {
      if (entity.deferredColumns.length > 0) {
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
  }

  const entities = writeOrder.map((entity) => ({ id: entity.id, rowsPlanned: entity.rowCount, rowsWritten: written.get(entity.id) ?? 0 }));
  return {
    format: options.format,
    seed: plan.seed,
    generatorVersion: plan.generatorVersion,
    files,
    entities: plan.entities.map((entity) => entities.find((each) => each.id === entity.id)!),
    rowsWritten: entities.reduce((sum, entity) => sum + entity.rowsWritten, 0),
    bytesGenerated,
    warnings: [...plan.warnings, ...generator.warnings],
    durationMs: performance.now() - started,
  };
}

/** Writes head, rows and tail of one table; resolves to the rows written. */
async function writeRows(
  sink: FileSink,
  encoder: TableEncoder,
  rows: Iterable<RowValues>,
  onProgress: (rows: number) => void,
  signal: AbortSignal | undefined,
): Promise<number> {
  let text = '';
  const put = async (encoded: Encoded) => {
    if (typeof encoded === 'string') {
      text += encoded;
      if (text.length >= CHUNK_CHARS) {
        const chunk = text;
        text = '';
        await sink.write(chunk);
      }
      return;
    }
    if (encoded.length === 0) return;
    if (text) {
      const chunk = text;
      text = '';
      await sink.write(chunk);
    }
    for (const bytes of encoded) await sink.write(bytes);
  };
  await put(encoder.head());
  let count = 0;
  for (const values of rows) {
    const encoded = encoder.row(values);
    // The common case, a text row into a chunk with room, stays synchronous.
    if (typeof encoded === 'string' && text.length + encoded.length < CHUNK_CHARS) text += encoded;
    else await put(encoded);
    if (++count % PROGRESS_ROWS === 0) {
      signal?.throwIfAborted();
      onProgress(count);
    }
  }
  await put(encoder.tail());
  if (text) await sink.write(text);
  return count;
}
