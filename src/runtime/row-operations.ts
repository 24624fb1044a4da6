// The runtime CRUD operations (listRows, getRow, createRow, updateRow, deleteRow) over a source's
// generated tables, on top of the Runtime query engine.
import type { TargetConnection } from '../dialects/dialect.ts';
import { dialectOfKind } from '../dialects/index.ts';
import type { Operation, OperationContext } from '../management/operation.ts';
import type { RuntimeSource } from '../management/runtime-sources.ts';
import { toLocation } from '../store/sources.ts';
import type { Runtime } from './runtime.ts';
import { runtimeErrors } from './runtime-errors.ts';

export interface RowOperationDeps {
  runtime: Runtime;
  connect: (source: RuntimeSource['source']) => Promise<TargetConnection>;
  /** Writes change counts: cached totals of the source must go. */
  onWrite: (sourceId: string) => void;
}

export function rowOperations(deps: RowOperationDeps) {
  const target = async (context: OperationContext) => {
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
    return { runtime, connection, namespace: toLocation(runtime.source).namespace, table: context.params.table! };
  };

  const listRows: Operation = async (context) => {
    const { runtime, connection, namespace, table } = await target(context);
    const body = await deps.runtime.list(connection, namespace, runtime.config, table, context.rawQuery, runtime.source.id);
    return { status: 200, body };
  };

  const getRow: Operation = async (context) => {
    const { runtime, connection, namespace, table } = await target(context);
    return { status: 200, body: await deps.runtime.get(connection, namespace, runtime.config, table, context.params.id!, context.rawQuery) };
  };

  const createRow: Operation = async (context) => {
    const { runtime, connection, namespace, table } = await target(context);
    const { row, id } = await deps.runtime.create(connection, namespace, runtime.config, table, context.body);
    deps.onWrite(runtime.source.id);
    return { status: 201, body: row, headers: { Location: `/runtime/${runtime.source.id}/${table}/${encodeURIComponent(id)}` } };
  };

  const updateRow: Operation = async (context) => {
    const { runtime, connection, namespace, table } = await target(context);
    const row = await deps.runtime.update(connection, namespace, runtime.config, table, context.params.id!, context.body);
    deps.onWrite(runtime.source.id);
    return { status: 200, body: row };
  };

  const deleteRow: Operation = async (context) => {
    const { runtime, connection, namespace, table } = await target(context);
    await deps.runtime.delete(connection, namespace, runtime.config, table, context.params.id!);
    deps.onWrite(runtime.source.id);
    return { status: 204 };
  };

  return { listRows, getRow, createRow, updateRow, deleteRow };
}
