// previewSchemaConfig: the first rows of a config's entities, generated in memory exactly as a
// generation with the same seed and row counts loads them (the path `sds preview` takes), and
// rendered as the runtime API serves them. The config was checked by its precheck (schemas.ts).
import { checkedConfig, type components, type SchemaConfig } from '../contract.ts';
import type { RowValue } from '../dialects/dialect.ts';
import { errors } from '../errors.ts';
import { previewRows, PreviewTooLargeError } from '../generation/generator.ts';
import { LATEST_GENERATOR_VERSION, planGeneration, type GenerationOptions } from '../generation/plan.ts';
import { renderValue, type JsonRow } from '../runtime/shape.ts';
import { buildRuntimeTables, type RuntimeTable } from '../runtime/tables.ts';
import type { Operation } from '../operation.ts';
import { requirePrincipal } from './access.ts';

type Preview = components['schemas']['SchemaConfigPreview'];

/** Rows of referenced entities a preview may produce before its own (see PreviewTooLargeError). */
export const MAX_PREVIEW_ANCESTOR_ROWS = 200_000;
const DEFAULT_ROWS = 10;

export function previewOperations() {
  const previewSchemaConfig: Operation<'previewSchemaConfig'> = async (context) => {
    requirePrincipal(context);
    const body = context.body;
    const config = checkedConfig(body.schema);
    const ids = config.entities.map((entity) => entity.id);
    if (body.entity !== undefined && !ids.includes(body.entity)) {
      const message = `entity "${body.entity}" is not in the config (entities: ${ids.join(', ')})`;
      throw errors.badRequest(`Invalid preview: ${message}`, [{ path: '/body/entity', message }]);
    }
    const options: GenerationOptions = { generatorVersion: body.generatorVersion ?? LATEST_GENERATOR_VERSION };
    if (body.seed !== undefined) options.seed = body.seed;
    if (body.rowCounts !== undefined) options.rowCounts = body.rowCounts;
    const plan = planGeneration(config, options);
    const tables = buildRuntimeTables(config);
    const wanted = body.entity === undefined ? ids : [body.entity];
    const entities = plan.entities
      .filter((entity) => wanted.includes(entity.id))
      .sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id))
      .map((entity) => ({
        id: entity.id,
        seed: entity.seed,
        rowsPlanned: entity.rowCount,
        rows: preview(config, entity.id, body.rows ?? DEFAULT_ROWS, options).map((row) => rendered(tables.get(entity.id), row)),
      }));
    const answer: Preview = { referenceDate: plan.referenceDate, generatorVersion: plan.generatorVersion, entities };
    return { status: 200, body: answer };
  };
  return { previewSchemaConfig };
}

function preview(config: SchemaConfig, entityId: string, rows: number, options: GenerationOptions): Record<string, unknown>[] {
  try {
    return previewRows(config, entityId, rows, options, { maxAncestorRows: MAX_PREVIEW_ANCESTOR_ROWS });
  } catch (error) {
    if (!(error instanceof PreviewTooLargeError)) throw error;
    const message = `${error.message}: preview with smaller rowCounts`;
    throw errors.badRequest(`Preview too large: ${message}`, [{ path: '/body/rowCounts', message }]);
  }
}

/** A generated row as the runtime API renders the same row read from the database. */
function rendered(table: RuntimeTable, row: Record<string, unknown>): JsonRow {
  const answer: JsonRow = {};
  for (const column of table.columns) answer[column.name] = renderValue(column, (row[column.name] ?? null) as RowValue);
  return answer;
}
