// Import from a database: a connection URL (a password field, kept in this view's memory only: never
// stored in the browser nor shown back), the schema or database, and the learn choice with its options,
// sent to POST /public/v1/schema-config/introspect. It shows the config that comes back (read-only),
// its warnings, for a learned config the privacy report, and its preview rows; then saves it as a new
// schema of a chosen project, to open in Design.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { errorText, SOURCE_KINDS, type ManagementClient, type Project, type SchemaConfig, type SchemaConfigPreview } from '../api.ts';
import { inSchemaOrder } from '../design/config-order.ts';
import { PreviewPanel, type PreviewSettings } from '../design/preview-panel.tsx';
import { ErrorNote, SelectField, TextField, useAnnounce } from '../ui.tsx';
import {
  emptyForm,
  ENGINES,
  importRequest,
  KIND_LABELS,
  kindOfUrl,
  privacyRows,
  reportSummary,
  RULE_EXPLANATIONS,
  ruleCounts,
  suggestedName,
  URL_EXAMPLES,
  type DatabaseKind,
  type ImportForm,
  type Introspection,
  type PrivacyReport,
} from './import-model.ts';
import { JsonView } from './json-view.tsx';
import './import.css';

function Checkbox({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (checked: boolean) => void; hint?: string }) {
  const id = useId();
  return (
    <div class="field checkbox">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChange(event.currentTarget.checked)} aria-describedby={hint ? `${id}-hint` : undefined} />
      <label for={id}>{label}</label>
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

/** What the view keeps while another view is shown: the form without its connection URL, and the answer. */
export interface ImportKept {
  form: ImportForm;
  result?: Introspection;
  saved?: { projectId: string; schemaId: string; name: string };
}

export function ImportView({
  api,
  project,
  projects,
  onOpen,
  kept,
  onKeep,
}: {
  api: ManagementClient;
  project: Project;
  projects: Project[];
  /** Opens a saved schema in Design. */
  onOpen: (projectId: string, schemaId: string) => void;
  kept: ImportKept | undefined;
  onKeep: (kept: ImportKept) => void;
}) {
  const announce = useAnnounce();
  const [form, setForm] = useState<ImportForm>(() => kept?.form ?? emptyForm());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<Introspection | undefined>(kept?.result);
  const [preview, setPreview] = useState<SchemaConfigPreview>();
  const [previewError, setPreviewError] = useState<string>();
  const [settings, setSettings] = useState<PreviewSettings>({ seed: '', rows: 10, generatorVersion: '' });
  const [targetProject, setTargetProject] = useState(project.id);
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string>();
  const [saved, setSaved] = useState<ImportKept['saved']>(kept?.saved);
  const previewRun = useRef(0);
  useEffect(() => setTargetProject(project.id), [project.id]);
  // The connection URL is never kept: back in this view, it is typed again.
  useEffect(() => onKeep({ form: { ...form, connectionString: '' }, result, saved }), [form, result, saved]);

  const edit = (change: Partial<ImportForm>) => setForm((current) => ({ ...current, ...change }));
  const onUrl = (connectionString: string) => {
    // The scheme names the engine: follow it, so the schema/database field asks the right thing.
    const kind = kindOfUrl(connectionString);
    edit(kind ? { connectionString, kind } : { connectionString });
  };

  const runPreview = async (config: SchemaConfig, next: PreviewSettings = settings) => {
    const run = ++previewRun.current;
    const seed = next.seed.trim();
    const { data, error: failure, response } = await api.POST('/public/v1/schema-config/preview', {
      body: {
        schema: config,
        rows: next.rows,
        ...(seed ? { seed } : {}),
        ...(next.generatorVersion ? { generatorVersion: Number(next.generatorVersion) as 1 | 2 | 3 | 4 | 5 } : {}),
      },
    });
    if (run !== previewRun.current) return;
    setPreviewError(failure ? errorText(failure, response) : undefined);
    setPreview(data);
  };

  // Back from another view: the kept answer's rows again.
  useEffect(() => {
    if (kept?.result) void runPreview(kept.result.schema);
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const request = importRequest(form);
    if ('problem' in request) return setError(request.problem);
    setBusy(true);
    setError(undefined);
    announce(form.learn ? 'Learning from the database…' : 'Reading the database’s structure…');
    const { data, error: failure, response } = await api
      .POST('/public/v1/schema-config/introspect', { body: request.body })
      .catch((problem: unknown) => ({ data: undefined, error: { error: `Cannot reach sds: ${String(problem)}` }, response: undefined }));
    setBusy(false);
    if (failure || !data) {
      const text = errorText(failure, response);
      setError(text);
      return announce(`Import failed: ${text}`);
    }
    setResult(data);
    setSaved(undefined);
    setSaveError(undefined);
    setName('');
    setPreview(undefined);
    const entities = data.schema.entities.length;
    announce(
      `Imported ${entities} ${entities === 1 ? 'entity' : 'entities'}${data.privacyReport ? ', learned' : ''}, ${data.warnings.length} ${data.warnings.length === 1 ? 'warning' : 'warnings'}`,
    );
    void runPreview(data.schema);
  };

  const save = async () => {
    if (!result) return;
    setSaving(true);
    setSaveError(undefined);
    const schemaName = name.trim() || suggestedName(result);
    const { data, error: failure, response } = await api.POST('/public/v1/projects/{projectId}/schemas', {
      params: { path: { projectId: targetProject } },
      body: { name: schemaName, initialVersion: { schema: result.schema } },
    });
    setSaving(false);
    if (failure) return setSaveError(errorText(failure, response));
    const projectName = projects.find((candidate) => candidate.id === targetProject)?.name ?? '';
    setSaved({ projectId: targetProject, schemaId: data.id, name: data.name });
    announce(`Saved as version 1 of the new schema ${data.name} in ${projectName}`);
  };

  const namespaceLabel = ENGINES[form.kind].namespaceField === 'schema' ? 'Schema' : 'Database';
  return (
    <div class="import">
      <form onSubmit={submit} aria-describedby="import-about" autoComplete="off">
        <h3>Import from a database</h3>
        <p id="import-about" class="hint">
          sds reads the tables of one PostgreSQL schema or MySQL/MariaDB database and answers a schema config for them; with <strong>Learn</strong> it also
          learns the shape of the rows (row counts, distributions, categories, children per parent) from aggregates only. The connection URL is used for
          this request only: the studio keeps it nowhere, and sds never stores, logs or repeats it.
        </p>
        <div class="row">
          <SelectField
            label="Database kind"
            value={form.kind}
            options={SOURCE_KINDS.map((kind) => ({ value: kind, label: KIND_LABELS[kind] }))}
            onChange={(kind) => edit({ kind: kind as DatabaseKind })}
          />
          <div class="grow">
            <TextField
              label="Connection URL"
              type="password"
              autoComplete="off"
              placeholder={URL_EXAMPLES[form.kind]}
              value={form.connectionString}
              onInput={onUrl}
              hint={`e.g. ${URL_EXAMPLES[form.kind]} — a user that may read the tables is enough`}
              required
            />
          </div>
        </div>
        <div class="row">
          <TextField
            label={namespaceLabel}
            placeholder={ENGINES[form.kind].defaultNamespace}
            value={form.namespace}
            onInput={(namespace) => edit({ namespace })}
          />
          <TextField label="Tables" placeholder="all" value={form.tables} onInput={(tables) => edit({ tables })} hint="Names separated by commas; empty for every table" />
        </div>
        <fieldset class="learn">
          <legend>Rows</legend>
          <Checkbox
            label="Learn the shape of the rows"
            checked={form.learn}
            onChange={(learn) => edit({ learn })}
            hint="Only aggregates leave the database; person, contact and free-text columns are never copied"
          />
          {form.learn ? (
            <div class="row">
              <TextField label="Scale" type="number" min="0" step="any" value={form.scale} onInput={(scale) => edit({ scale })} hint="Factor of every table’s row count" />
              <TextField
                label="Minimum count"
                type="number"
                min="1"
                step="1"
                value={form.minCount}
                onInput={(minCount) => edit({ minCount })}
                hint="A value is copied only when at least this many rows hold it"
              />
              <Checkbox label="Copy lookup labels" checked={form.lookups} onChange={(lookups) => edit({ lookups })} hint="Labels of small lookup tables, whole" />
            </div>
          ) : (
            <div class="row">
              <TextField label="Rows per table" type="number" min="0" step="1" value={form.rows} onInput={(rows) => edit({ rows })} />
            </div>
          )}
        </fieldset>
        <ErrorNote message={error} id="import-error" />
        <button type="submit" class="primary" disabled={busy || !form.connectionString.trim()}>
          {busy ? (form.learn ? 'Learning…' : 'Importing…') : form.learn ? 'Import and learn' : 'Import structure'}
        </button>
      </form>

      {result && (
        <section class="import-result" aria-labelledby="import-result-heading" data-testid="import-result">
          <h3 id="import-result-heading">
            Imported: {result.schema.entities.length} {result.schema.entities.length === 1 ? 'entity' : 'entities'}
            {result.schema.learned ? ` learned from ${result.schema.learned.database}` : ''}
          </h3>
          <div class="row">
            <SelectField label="Save to project" value={targetProject} options={projects.map((item) => ({ value: item.id, label: item.name }))} onChange={setTargetProject} />
            <TextField label="New schema name" placeholder={suggestedName(result)} value={name} onInput={setName} />
            <button type="button" class="primary" onClick={save} disabled={saving || Boolean(saved)}>
              {saving ? 'Saving…' : 'Save as new schema'}
            </button>
            {saved && (
              <>
                <span class="hint" data-testid="import-saved">
                  Saved as {saved.name} v1
                </span>
                <button type="button" onClick={() => onOpen(saved.projectId, saved.schemaId)}>
                  Open {saved.name} in Design
                </button>
              </>
            )}
          </div>
          <ErrorNote message={saveError} />
          <Warnings warnings={result.warnings} />
          {result.privacyReport && <PrivacyTable report={result.privacyReport} />}
          <div class="design-columns">
            <section aria-labelledby="import-config-heading">
              <h3 id="import-config-heading">Config</h3>
              <JsonView text={`${JSON.stringify(inSchemaOrder(result.schema), null, 2)}\n`} label="Imported schema config (JSON, read-only)" testId="import-config" />
            </section>
            <PreviewPanel
              preview={preview}
              error={previewError}
              stale={false}
              settings={settings}
              onSettings={(next) => {
                setSettings(next);
                void runPreview(result.schema, next);
              }}
            />
          </div>
        </section>
      )}
    </div>
  );
}

function Warnings({ warnings }: { warnings: Introspection['warnings'] }) {
  return (
    <section class="problems" aria-labelledby="import-warnings-heading">
      <h3 id="import-warnings-heading">Warnings</h3>
      {warnings.length === 0 ? (
        <p class="ok">None: the config carries over everything the database declares.</p>
      ) : (
        <ul data-testid="import-warnings">
          {warnings.map((warning, index) => (
            <li key={index} class="warning">
              <span class="badge">warning</span> {warning.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PrivacyTable({ report }: { report: PrivacyReport }) {
  const rows = privacyRows(report);
  return (
    <section class="privacy" aria-labelledby="privacy-heading">
      <h3 id="privacy-heading">Privacy report</h3>
      <p data-testid="privacy-summary">{reportSummary(report)}</p>
      <ul class="rule-counts">
        {ruleCounts(report).map((entry) => (
          <li key={entry.rule}>
            <span class={`badge rule-${entry.rule}`}>{entry.label}</span> {entry.columns} {entry.columns === 1 ? 'column' : 'columns'}: {RULE_EXPLANATIONS[entry.rule]}
          </li>
        ))}
      </ul>
      <div class="table-scroll" tabIndex={0}>
        <table class="privacy-report" data-testid="privacy-table">
          <caption>Per column: what was learned, and which values were copied under which rule</caption>
          <thead>
            <tr>
              <th scope="col">Table</th>
              <th scope="col">Column</th>
              <th scope="col">Rule</th>
              <th scope="col">Learned</th>
              <th scope="col">Copied values</th>
              <th scope="col">Left out</th>
              <th scope="col">Nulls</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.table}.${row.column}`} data-rule={row.rule}>
                <td>{row.table}</td>
                <th scope="row">{row.column}</th>
                <td>
                  <span class={`badge rule-${row.rule}`}>{row.ruleLabel}</span>
                </td>
                <td>{row.learned}</td>
                <td>{row.copied}</td>
                <td>{row.dropped}</td>
                <td>{row.nulls}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
