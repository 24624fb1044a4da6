// The runtime CRUD operations (listRows, getRow, createRow, updateRow, deleteRow) over a source's
// generated tables, on top of the Runtime query engine.
import type { TargetConnection } from '../dialects/dialect.ts';
import { dialectOfKind } from '../dialects/index.ts';
import type { Operation, BaseContext } from '../operation.ts';
import type { RuntimeSource } from './runtime-sources.ts';
import { toLocation } from '../store/sources.ts';
import type { Runtime, SourceData } from './runtime.ts';
import { runtimeErrors } from './runtime-errors.ts';
import { releasingAtEnd, type ExportSlots } from './export-slots.ts';

export interface RowOperationDeps {
  runtime: Runtime;
  connect: (source: RuntimeSource['source']) => Promise<TargetConnection>;
  /** Admission of exports (per source, per team, per target server); unset: no limit. */
  exportSlots?: ExportSlots;
  /** The team owning a project (export admission per team). */
  teamOf?: (projectId: string) => Promise<string>;
}

export function rowOperations(deps: RowOperationDeps) {
  const sourceData = async (context: BaseContext): Promise<{ source: SourceData; table: string }> => {
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
      throw runtimeErrors.unknownTable(context.params.table!, []);
    }
    const source = { id: runtime.source.id, connection, namespace, config: runtime.config };
    return { source, table: context.params.table! };
  };

  const listRows: Operation<'listRows'> = async (context) => {
    const format = deps.runtime.exportFormat(context.rawQuery, context.headers.accept);
    const { source, table } = await sourceData(context);
    if (format) {
      const slots = deps.exportSlots;
      const owner = slots && { sourceId: source.id, teamId: deps.teamOf ? await deps.teamOf(context.runtime!.source.projectId) : '' };
      const release = slots && owner ? slots.acquire(owner, source.connection) : () => {};
      try {
        const stream = deps.runtime.export(source, table, context.rawQuery, format);
        return { status: 200, stream: { ...stream, chunks: releasingAtEnd(stream.chunks, release) } };
      } catch (error) {
        release();
        throw error;
      }
    }
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

  return { listRows, getRow, createRow, updateRow, deleteRow };
}
