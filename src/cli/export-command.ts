// `sds export`: a source's tables into files, over HTTP like any client: the source and its schema
// version from the management API (team key), each table from the runtime API's export (a source
// key: the one given, or one made for this export and revoked after), written by src/files.
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import type { SchemaConfig, SourceKind } from '../contract.ts';
import { ENGINE_KINDS } from '../dialects/facts.ts';
import type { WireFormat } from '../files/export-files.ts';
import { FILE_FORMAT_NAMES, isFileFormat, type FileFormat } from '../files/formats.ts';
import { createManagementClient, createRuntimeClient, type ManagementClient } from '../../sdk/src/index.ts';
import { resolveServer, withServerOptions } from './server-options.ts';

interface ExportCommandOptions {
  source: string;
  project: string;
  out: string;
  format: FileFormat;
  tables?: string[];
  dialect?: SourceKind;
  schema?: string;
  gzip?: boolean;
  baseUrl?: string;
  teamKey?: string;
  sourceKey?: string;
}

export interface SourceExport {
  files: { path: string; entity?: string; rows: number; bytes: number }[];
  seconds: number;
}

/** The schema config a source is bound to (its version, found among its project's schemas). */
async function sourceConfig(api: ManagementClient, projectId: string, schemaVersionId: string): Promise<SchemaConfig> {
  const schemas = await api.GET('/public/v1/projects/{projectId}/schemas', { params: { path: { projectId }, query: { limit: 1000 } } });
  if (schemas.error) throw new Error(`cannot list the schemas of project ${projectId}: ${schemas.error.error}`);
  for (const schema of schemas.data) {
    const path = { projectId, schemaId: schema.id };
    for (let offset = 0; ; offset += 1000) {
      const versions = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', { params: { path, query: { limit: 1000, offset } } });
      if (versions.error) throw new Error(`cannot list the versions of schema ${schema.id}: ${versions.error.error}`);
      const found = versions.data.find((version) => version.id === schemaVersionId);
      if (found) return found.schema as SchemaConfig;
      if (versions.data.length < 1000) break;
    }
  }
  throw new Error(`schema version ${schemaVersionId} is not in project ${projectId}`);
}

/** Writes the tables of a source into `out` in `format`. */
export async function exportSource(options: ExportCommandOptions & { baseUrl: string; teamKey: string }): Promise<SourceExport> {
  const started = performance.now();
  const api = createManagementClient({ baseUrl: options.baseUrl, apiKey: options.teamKey });
  const path = { projectId: options.project, sourceId: options.source };
  const source = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}', { params: { path } });
  if (source.error) throw new Error(`cannot read source ${options.source}: ${source.response.status} ${source.error.error}`);
  const config = await sourceConfig(api, options.project, source.data.schemaVersionId);

  let sourceKey = options.sourceKey;
  let madeKey: string | undefined;
  if (!sourceKey && source.data.requireAuth) {
    const key = await api.POST('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys', { params: { path }, body: { name: 'sds export' } });
    if (key.error) throw new Error(`cannot make a source key for the export: ${key.error.error}`);
    sourceKey = key.data.key;
    madeKey = key.data.id;
  }
  try {
    const runtime = createRuntimeClient({ baseUrl: options.baseUrl, sourceId: options.source, apiKey: sourceKey });
    const read = async function* (table: string, format: WireFormat): AsyncGenerator<Uint8Array> {
      // The user's own files hold the values as generated: no spreadsheet formula escaping.
      const answer = await runtime.export(table, format === 'csv' ? { format, csvFormulaEscape: false } : { format });
      if (answer.error) throw new Error(`cannot export ${table}: ${answer.response.status} ${answer.error.error}`);
      yield* answer.data as unknown as AsyncIterable<Uint8Array>;
    };
    // The files' writers (and the dialects of SQL scripts) load with this command only.
    const { exportFiles } = await import('../files/export-files.ts');
    const files = await exportFiles(config, read, {
      out: options.out,
      format: options.format,
      tables: options.tables,
      dialect: options.dialect ?? source.data.kind,
      namespace: options.schema ?? source.data.config.schema ?? source.data.config.database,
      gzip: options.gzip,
    });
    return { files, seconds: (performance.now() - started) / 1000 };
  } finally {
    if (madeKey) await api.DELETE('/public/v1/projects/{projectId}/sources/{sourceId}/api-keys/{keyId}', { params: { path: { ...path, keyId: madeKey } } });
  }
}

function fileFormat(value: string): FileFormat {
  if (!isFileFormat(value)) throw new InvalidArgumentError(`"${value}" is not a file format (${FILE_FORMAT_NAMES.join(', ')})`);
  return value;
}

export function registerExportCommand(program: Command): void {
  withServerOptions(program.command('export'))
    .description("write a source's tables into files, read through its runtime API")
    .requiredOption('--source <id>', 'source id')
    .requiredOption('--project <id>', 'project id of the source')
    .requiredOption('--out <dir>', 'folder to write into')
    .option('--format <format>', `file format: ${FILE_FORMAT_NAMES.join(', ')}`, fileFormat, 'csv')
    .option('--tables <a,b>', 'tables to export (default: all of them)', (value: string) => value.split(',').map((name) => name.trim()).filter(Boolean))
    .option('--dialect <engine>', "SQL dialect of --format sql (default: the source's own)")
    .option('--schema <name>', "namespace the SQL script builds (default: the source's own)")
    .option('--gzip', 'compress each file with gzip')
    .option('--source-key <key>', 'source API key, svc_src_… (default: a key made for this export, revoked after)')
    .action(async (options: ExportCommandOptions) => {
      if (options.dialect !== undefined && !(ENGINE_KINDS as readonly string[]).includes(options.dialect)) throw new Error(`--dialect must be ${ENGINE_KINDS.join(' or ')}, not "${options.dialect}"`);
      const result = await exportSource({ ...options, ...resolveServer(options) });
      console.table(result.files.map((file) => ({ file: file.path, rows: file.rows, bytes: file.bytes })));
      const rows = result.files.reduce((sum, file) => sum + file.rows, 0);
      console.log(`${rows} rows into ${options.out} in ${result.seconds.toFixed(2)} s (${Math.round(rows / Math.max(result.seconds, 0.001))} rows/s)`);
    });
}
