// The import view's model: the form's fields as the introspect request takes them (checked here so a
// mistake is named before anything leaves the page), and the privacy report as rows of a table.
import { SOURCE_KINDS, type components } from '@sds/sdk';

export type IntrospectionRequest = components['schemas']['SchemaConfigIntrospectionRequest'];
export type Introspection = components['schemas']['SchemaConfigIntrospection'];
export type PrivacyReport = components['schemas']['PrivacyReport'];
export type PrivacyRule = PrivacyReport['columns'][number]['rule'];

/** The engines, from the contract's SourceKind (through the SDK). */
export type DatabaseKind = components['schemas']['SourceKind'];

/** What the user typed, as text (the connection string lives in the view's state only: never stored). */
export interface ImportForm {
  connectionString: string;
  kind: DatabaseKind;
  /** The PostgreSQL schema or the MySQL database; empty for the default. */
  namespace: string;
  /** Table names separated by commas or spaces; empty for all. */
  tables: string;
  learn: boolean;
  /** Without learn: rows of every entity. */
  rows: string;
  scale: string;
  minCount: string;
  lookups: boolean;
}

export const emptyForm = (): ImportForm => ({
  connectionString: '',
  kind: SOURCE_KINDS[0],
  namespace: '',
  tables: '',
  learn: true,
  rows: '100',
  scale: '1',
  minCount: '5',
  lookups: true,
});

/**
 * What the form shows and sends for each engine: one entry per kind of the contract, so that a new
 * kind fails to compile here until it has its label, URL schemes and namespace field.
 */
export const ENGINES = {
  postgres: { label: 'PostgreSQL', urlSchemes: ['postgres', 'postgresql'], urlExample: 'postgres://reader:secret@db.example.com:5432/shop', namespaceField: 'schema', defaultNamespace: 'public' },
  mysql: { label: 'MySQL / MariaDB', urlSchemes: ['mysql', 'mariadb'], urlExample: 'mysql://reader:secret@db.example.com:3306/shop', namespaceField: 'database', defaultNamespace: 'the one in the URL' },
} as const satisfies Record<DatabaseKind, { label: string; urlSchemes: readonly string[]; urlExample: string; namespaceField: 'schema' | 'database'; defaultNamespace: string }>;

export const KIND_LABELS = Object.fromEntries(SOURCE_KINDS.map((kind) => [kind, ENGINES[kind].label])) as Record<DatabaseKind, string>;
export const URL_EXAMPLES = Object.fromEntries(SOURCE_KINDS.map((kind) => [kind, ENGINES[kind].urlExample])) as Record<DatabaseKind, string>;

/** The engine a connection string names by its scheme, or undefined (not a URL sds connects to). */
export function kindOfUrl(connectionString: string): DatabaseKind | undefined {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(connectionString)?.[1]?.toLowerCase();
  return scheme === undefined ? undefined : SOURCE_KINDS.find((kind) => (ENGINES[kind].urlSchemes as readonly string[]).includes(scheme));
}

/** `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

/** A number typed in a field: undefined when it is not one, or outside [min, max], or not whole when it must be. */
function numberIn(text: string, { min, max, integer, exclusiveMin }: { min: number; max: number; integer?: boolean; exclusiveMin?: boolean }): number | undefined {
  const trimmed = text.trim();
  if (!/^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(trimmed)) return undefined;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) return undefined;
  if ((exclusiveMin ? value <= min : value < min) || value > max) return undefined;
  return value;
}

/**
 * The introspect request for the form, or the first problem in words. Only what the user changed from
 * the API's defaults is sent; the learn options only with learn (the API refuses them otherwise).
 */
export function importRequest(form: ImportForm): { body: IntrospectionRequest } | { problem: string } {
  const connectionString = form.connectionString.trim();
  if (!connectionString) return { problem: 'Give the connection URL of the database to import' };
  const kind = kindOfUrl(connectionString);
  if (!kind) return { problem: `The connection URL must start with ${orList(SOURCE_KINDS.flatMap((each) => ENGINES[each].urlSchemes.map((scheme) => `${scheme}://`)))} (e.g. ${URL_EXAMPLES[form.kind].replace(/:[^:@/]*@/, ':…@')})` };
  if (kind !== form.kind) return { problem: `The connection URL is a ${KIND_LABELS[kind]} one, but ${KIND_LABELS[form.kind]} is chosen` };
  const body: IntrospectionRequest = { connectionString };
  const namespace = form.namespace.trim();
  if (namespace) body[ENGINES[kind].namespaceField] = namespace;
  const tables = form.tables.split(/[\s,]+/).filter(Boolean);
  if (tables.length) body.tables = [...new Set(tables)];
  if (form.learn) {
    body.learn = true;
    const scale = numberIn(form.scale, { min: 0, max: 1000, exclusiveMin: true });
    if (scale === undefined) return { problem: 'Scale must be a number above 0 and at most 1000 (1 keeps every table’s row count)' };
    const minCount = numberIn(form.minCount, { min: 1, max: 1_000_000, integer: true });
    if (minCount === undefined) return { problem: 'Minimum count must be a whole number from 1 to 1,000,000' };
    if (scale !== 1) body.scale = scale;
    if (minCount !== 5) body.minCount = minCount;
    if (!form.lookups) body.lookups = false;
  } else {
    const rows = numberIn(form.rows, { min: 0, max: 100_000_000, integer: true });
    if (rows === undefined) return { problem: 'Rows per table must be a whole number from 0 to 100,000,000' };
    body.rows = rows;
  }
  return { body };
}

export const RULE_LABELS: Record<PrivacyRule, string> = {
  aggregates: 'Aggregates only',
  'min-count': 'Values held by enough rows',
  lookup: 'Lookup labels',
  'never-copied': 'Never copied',
  'not-learned': 'Not learned',
};

export const RULE_EXPLANATIONS: Record<PrivacyRule, string> = {
  aggregates: 'counts, quantiles and shares only; no value copied',
  'min-count': 'a value is copied only when at least the minimum count of rows hold it',
  lookup: 'the labels of a small lookup table, copied whole',
  'never-copied': 'a person, contact or free-text column: made by sds’s own generators',
  'not-learned': 'sds’s default generator kept',
};

/** One row of the privacy table. */
export interface PrivacyRow {
  table: string;
  column: string;
  learned: string;
  rule: PrivacyRule;
  ruleLabel: string;
  /** The copied values, quoted when text, or "" when none. */
  copied: string;
  /** How many copied values there are (the text may be shortened). */
  copiedCount: number;
  /** "3 left out" when values were dropped under min-count, else "". */
  dropped: string;
  /** The share of nulls as a percentage, or "". */
  nulls: string;
}

const MAX_SHOWN = 12;
const shown = (value: string | number | boolean) => (typeof value === 'string' ? JSON.stringify(value) : String(value));
const percent = (share: number) => `${share === 0 ? 0 : share < 0.001 ? '<0.1' : Number((share * 100).toFixed(1))}%`;

/** The report's columns in table order, each as the texts the table shows. */
export function privacyRows(report: PrivacyReport): PrivacyRow[] {
  return report.columns.map((column) => {
    const copied = column.copied ?? [];
    const more = copied.length - MAX_SHOWN;
    return {
      table: column.table,
      column: column.column,
      learned: column.learned,
      rule: column.rule,
      ruleLabel: RULE_LABELS[column.rule],
      copied: copied.length ? `${copied.slice(0, MAX_SHOWN).map(shown).join(', ')}${more > 0 ? ` and ${more} more` : ''}` : '',
      copiedCount: copied.length,
      dropped: column.dropped ? `${column.dropped} left out` : '',
      nulls: column.nullShare === undefined ? '' : percent(column.nullShare),
    };
  });
}

/** How many columns fell under each rule, in the order of RULE_LABELS (rules with none left out). */
export function ruleCounts(report: PrivacyReport): { rule: PrivacyRule; label: string; columns: number }[] {
  return (Object.keys(RULE_LABELS) as PrivacyRule[])
    .map((rule) => ({ rule, label: RULE_LABELS[rule], columns: report.columns.filter((column) => column.rule === rule).length }))
    .filter((entry) => entry.columns > 0);
}

/** The report's one-line summary, e.g. "3 tables, 1,200 rows in the database → 600 in the config; 14 values copied". */
export function reportSummary(report: PrivacyReport): string {
  const rows = report.tables.reduce((sum, table) => sum + table.rows, 0);
  const rowCount = report.tables.reduce((sum, table) => sum + table.rowCount, 0);
  const copied = report.columns.reduce((sum, column) => sum + (column.copied?.length ?? 0), 0);
  const sampled = report.tables.filter((table) => table.sampled !== undefined).length;
  const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
  return [
    `${count(report.tables.length, 'table')}, ${count(rows, 'row')} in the database → ${count(rowCount, 'row')} in the config`,
    `${count(copied, 'value')} copied (minimum count ${report.minCount}${report.lookups ? ', lookup labels whole' : ', no lookup labels'})`,
    ...(sampled ? [`${count(sampled, 'table')} profiled on a sample`] : []),
  ].join('; ');
}

/** The name a new schema gets unless the user gives one: the config's name, else where it was learned from. */
export function suggestedName(result: Introspection): string {
  return result.schema.metadata?.name?.trim() || result.schema.learned?.database || 'Imported schema';
}
