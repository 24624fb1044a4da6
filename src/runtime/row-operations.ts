// The runtime CRUD operations (listRows, exportRows, getRow, createRow, updateRow, deleteRow) over a source's
// generated tables, on top of the Runtime query engine.
import type { TargetConnection } from '../dialects/dialect.ts';
import { dialectOfKind } from '../dialects/index.ts';
import type { Operation, BaseContext, RuntimeSource } from '../operation.ts';
import { toLocation } from '../store/sources.ts';
import type { Runtime, SourceData } from './runtime.ts';
import { runtimeErrors } from './runtime-errors.ts';
import { releasingAtEnd, type ExportSlots } from './export-slots.ts';
import type { ExportFormat } from './export.ts';

/** A table in a path with an export suffix: `posts.csv`, `posts.jsonl` (table ids hold no dot). */
const EXPORT_PATH = /^(.+)\.(csv|jsonl)$/i;

export interface RowOperationDeps {
  runtime: Runtime;
  connect: (source: RuntimeSource['source']) => Promise<TargetConnection>;
  /** Admission of exports (per source, per team, per target server); unset: no limit. */
  exportSlots?: ExportSlots;
  /** The team owning a project (export admission per team). */
  teamOf?: (projectId: string) => Promise<string>;
}

export function rowOperations(deps: RowOperationDeps) {
  const sourceData = async (context: BaseContext, table = context.params.table!): Promise<{ source: SourceData; table: string }> => {
    const runtime = context.runtime;
    if (!runtime) throw new Error('runtime operation without source-key auth');
    let connection: TargetConnection;
    try {
      connection = await deps.connect(runtime.source);
    } catch (error) {
      // No pooled connection yet and the server refuses a new one: the same 503 as a failing query.
      if (dialectOfKind(runtime.source.kind).mapError(error).kind === 'connection') throw runtimeErrors.targetUnavailable();
      throw error;
    }
    const namespace = toLocation(runtime.source).namespace;
    // Tables in a namespace sds did not create are not the source's data: it answers as before its
    // first generation (404, or 503 while the target is down), whatever the namespace holds.
    if (!runtime.ownsNamespace) {
      await connection.namespaceExists(namespace).catch((error: unknown) => {
        const { kind } = connection.dialect.mapError(error);
        throw kind === 'connection' ? runtimeErrors.targetUnavailable() : kind === 'timeout' ? runtimeErrors.targetTimeout() : error;
      });
      throw runtimeErrors.unknownTable(table, []);
    }
    const source = { id: runtime.source.id, connection, namespace, config: runtime.config };
    return { source, table };
  };

  /** Every selected row of `table` as a file (a streamed answer), within the export admission. */
  const exportRows = async (context: BaseContext, table: string, format: ExportFormat) => {
    const { source } = await sourceData(context, table);
    const slots = deps.exportSlots;
    const owner = slots && { sourceId: source.id, teamId: deps.teamOf ? await deps.teamOf(context.runtime!.source.projectId) : '' };
    const release = slots && owner ? slots.acquire(owner, source.connection) : () => {};
    try {
      const stream = deps.runtime.export(source, table, context.rawQuery, format);
      return { status: 200 as const, stream: { ...stream, chunks: releasingAtEnd(stream.chunks, release) } };
    } catch (error) {
      release();
      throw error;
    }
  };

  /**
   * exportRows: `/runtime/{sourceId}/{table}.csv|.jsonl`. Routed either as itself (params table and
   * format) or, where a router serves every three-segment GET by listRows (the runtime lane), as a
   * table named `posts.csv` that listRows hands over here. The path decides the format; a `format`
   * query parameter may only repeat it.
   */
  const exportByPath = (context: BaseContext, table: string, format: ExportFormat) => {
    const asked = deps.runtime.exportFormat(context.rawQuery, undefined);
    if (/[?&]format=/.test(`&${context.rawQuery}`) && asked !== format) throw runtimeErrors.formatContradictsPath(format);
    return exportRows(context, table, format);
  };

  const exportRowsOperation: Operation<'exportRows'> = async (context) => {
    const format = context.params.format;
    // A router that serves every three-segment GET by one route may give this one a plain list
    // (no format parameter): it is listRows' request, answered as listRows answers it.
    if (format === undefined) return (await listRows(context as unknown as Parameters<typeof listRows>[0])) as unknown as Awaited<ReturnType<Operation<'exportRows'>>>;
    if (format !== 'csv' && format !== 'jsonl') throw runtimeErrors.unknownTable(`${context.params.table}.${format}`, []);
    return exportByPath(context, context.params.table!, format);
  };

  const listRows: Operation<'listRows'> = async (context) => {
    const suffixed = EXPORT_PATH.exec(context.params.table!);
    if (suffixed) return exportByPath(context, suffixed[1]!, suffixed[2]!.toLowerCase() as ExportFormat);
    const format = deps.runtime.exportFormat(context.rawQuery, context.headers.accept);
    if (format) return exportRows(context, context.params.table!, format);
    const { source, table } = await sourceData(context);
    return { status: 200, body: await deps.runtime.list(source, table, context.rawQuery) };
  };

  const getRow: Operation<'getRow'> = async (context) => {
    const { source, table } = await sourceData(context);
    return { status: 200, body: await deps.runtime.get(source, table, context.params.id!, context.rawQuery) };
  };

  const createRow: Operation<'createRow'> = async (context) => {
    const { source, table } = await sourceData(context);
    const { row, id } = await deps.runtime.create(source, table, context.body);
    return { status: 201, body: row, headers: { Location: `/runtime/${source.id}/${table}/${encodeURIComponent(id)}` } };
  };

  const updateRow: Operation<'updateRow'> = async (context) => {
    const { source, table } = await sourceData(context);
    return { status: 200, body: await deps.runtime.update(source, table, context.params.id!, context.body) };
  };

  const deleteRow: Operation<'deleteRow'> = async (context) => {
    const { source, table } = await sourceData(context);
    await deps.runtime.delete(source, table, context.params.id!);
    return { status: 204 };
  };

  return { listRows, exportRows: exportRowsOperation, getRow, createRow, updateRow, deleteRow };
}
