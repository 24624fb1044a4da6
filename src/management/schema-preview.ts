// previewSchemaConfig: the first rows of a config's entities, generated in memory exactly as a
// generation with the same seed and row counts loads them (the path `sds preview` takes), and
// rendered as the runtime API serves them. The config was checked by its precheck (schemas.ts); the
// rows are made in a config worker (config-work.ts), within the work limits (src/config/work-limits.ts).
import { checkedConfig, type components, type SchemaConfig } from '../contract.ts';
import type { RowValue } from '../model/row-value.ts';
import { errors } from '../errors.ts';
import { previewEntities, PreviewTooLargeError } from '../generation/preview.ts';
import { LATEST_GENERATOR_VERSION, plannedRowCounts, planGeneration, type GenerationOptions, type GeneratorVersion } from '../generation/plan.ts';
import { WORK_LIMITS } from '../config/work-limits.ts';
import { ruleOf } from '../generation/rules/choose-rule.ts';
import { renderValue } from '../model/render.ts';
import type { JsonRow } from '../runtime/shape.ts';
import { buildRuntimeTables, type RuntimeTable } from '../model/tables.ts';
import type { Operation, RequestBody } from '../operation.ts';
import { requirePrincipal } from './access.ts';
import type { ConfigWork } from './config-work.ts';

type Preview = components['schemas']['SchemaConfigPreview'];

/** Rows of referenced entities a preview may produce before its own (see PreviewTooLargeError). */
export const MAX_PREVIEW_ANCESTOR_ROWS = WORK_LIMITS.previewAncestorRows;
const DEFAULT_ROWS = 10;

export function previewOperations(work: ConfigWork) {
  const previewSchemaConfig: Operation<'previewSchemaConfig'> = async (context) => {
    const principal = requirePrincipal(context);
    return { status: 200, body: await work.preview(principal.teamId, context.body) };
  };
  return { previewSchemaConfig };
}

/** The preview a request asks for (run in a config worker); AppError for what the request must change. */
export function computePreview(body: RequestBody<'previewSchemaConfig'>): Preview {
  const config = checkedConfig(body.schema);
  const ids = config.entities.map((entity) => entity.id);
  if (body.entity !== undefined && !ids.includes(body.entity)) {
    const message = `entity "${body.entity}" is not in the config (entities: ${ids.join(', ')})`;
    throw errors.badRequest(`Invalid preview: ${message}`, [{ path: '/body/entity', message }]);
  }
  const wanted = body.entity === undefined ? ids : [body.entity];
  checkStringLengths(config, wanted);
  const options: GenerationOptions = { generatorVersion: body.generatorVersion ?? LATEST_GENERATOR_VERSION };
  if (body.seed !== undefined) options.seed = body.seed;
  if (body.rowCounts !== undefined) options.rowCounts = body.rowCounts;
  const plan = planGeneration(config, options);
  const tables = buildRuntimeTables(config, plannedRowCounts(config));
  const shown = plan.entities.filter((entity) => wanted.includes(entity.id)).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  const rows = preview(config, shown.map((entity) => entity.id), Math.min(body.rows ?? DEFAULT_ROWS, WORK_LIMITS.previewRows), options);
  const entities = shown.map((entity) => ({
    id: entity.id,
    seed: entity.seed,
    rowsPlanned: entity.rowCount,
    rows: rows.get(entity.id)!.map((row) => rendered(tables.get(entity.id), row)),
    fieldRules: fieldRules(config, entity.id, entity.deferredColumns, plan.version),
  }));
  const answer: Preview = { referenceDate: plan.referenceDate, generatorVersion: plan.generatorVersion, entities };
  const bytes = Buffer.byteLength(JSON.stringify(answer));
  if (bytes > WORK_LIMITS.previewAnswerBytes) {
    const message = `the preview's rows take ${bytes} bytes, over the limit of ${WORK_LIMITS.previewAnswerBytes}`;
    throw errors.badRequest(`Preview too large: ${message}: preview fewer rows or one entity`, [{ path: '/body/rows', message }]);
  }
  return answer;
}

/** The rule that made each field of an entity without a strategy or reference (what the studio shows per column). */
function fieldRules(config: SchemaConfig, entityId: string, deferred: string[], version: GeneratorVersion): Record<string, string> {
  const entity = config.entities.find((candidate) => candidate.id === entityId)!;
  const scope = { entity, entities: config.entities, deferred, version };
  const answer: Record<string, string> = {};
  for (const field of entity.fields) {
    const rule = ruleOf(scope, field);
    if (rule) answer[field.id] = rule.id;
  }
  return answer;
}

/** Strings a preview would pad past its limit (`minLength`): refused before any is made. */
function checkStringLengths(config: SchemaConfig, wanted: readonly string[]): void {
  config.entities.forEach((entity, entityIndex) => {
    if (!wanted.includes(entity.id)) return;
    entity.fields.forEach((field, fieldIndex) => {
      const { minLength } = field;
      if (minLength === undefined || minLength <= WORK_LIMITS.previewStringLength) return;
      const message = `${entity.id}.${field.id} has minLength ${minLength}; previews show strings of at most ${WORK_LIMITS.previewStringLength} characters`;
      throw errors.badRequest(`Preview too large: ${message}`, [{ path: `/body/schema/entities/${entityIndex}/fields/${fieldIndex}/minLength`, message }]);
    });
  });
}

function preview(config: SchemaConfig, entityIds: string[], rows: number, options: GenerationOptions): Map<string, Record<string, unknown>[]> {
  try {
    return previewEntities(config, entityIds, rows, options, { maxAncestorRows: MAX_PREVIEW_ANCESTOR_ROWS });
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
