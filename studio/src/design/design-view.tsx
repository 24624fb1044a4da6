// Design: pick a schema of the project (or start a new one), edit its config as JSON or in the form,
// see every problem at its place and the rows it generates, and save it as a new version.
import { EditorView } from '@codemirror/view';
import { useEffect, useRef, useState } from 'preact/hooks';
import blogExample from '../../../schemas/examples/blog.json';
import { errorText, type ManagementClient, type Project, type Schema, type SchemaConfig, type SchemaConfigPreview, type ValidationResult } from '../api.ts';
import { ErrorNote, SelectField, Tabs, TextField, useAnnounce } from '../ui.tsx';
import { ConfigEditor, type Checked } from './config-editor.tsx';
import { canonicalJson, inSchemaOrder } from './config-order.ts';
import { FormView } from './form-view.tsx';
import { locate } from './pointers.ts';
import { PreviewPanel, type PreviewSettings } from './preview-panel.tsx';

const NEW_SCHEMA = '';
const pretty = (config: unknown) => `${JSON.stringify(inSchemaOrder(config), null, 2)}\n`;

/** `open`: the schema to show first (else the project's first). */
export function DesignView({ api, project, open }: { api: ManagementClient; project: Project; open?: string }) {
  const announce = useAnnounce();
  const [schemas, setSchemas] = useState<Schema[]>([]);
  const [schemaId, setSchemaId] = useState(NEW_SCHEMA);
  const [text, setText] = useState(pretty(blogExample));
  const [checked, setChecked] = useState<Checked>();
  const [problem, setProblem] = useState<string>();
  const [preview, setPreview] = useState<SchemaConfigPreview>();
  const [previewError, setPreviewError] = useState<string>();
  const [settings, setSettings] = useState<PreviewSettings>({ seed: '', rows: 10, generatorVersion: '' });
  const [mode, setMode] = useState<'json' | 'form'>('json');
  const [schemaName, setSchemaName] = useState('');
  const [saveError, setSaveError] = useState<string>();
  const [saving, setSaving] = useState(false);
  // The latest stored version of the selected schema (canonical JSON): saving the same again is refused.
  const [stored, setStored] = useState<string>();
  const editor = useRef<EditorView | undefined>(undefined);
  const lastValid = useRef<unknown>(undefined);
  const previewRun = useRef(0);

  const loadSchemas = async (select?: string) => {
    const { data, error, response } = await api.GET('/public/v1/projects/{projectId}/schemas', {
      params: { path: { projectId: project.id }, query: { limit: 1000 } },
    });
    if (error) return setProblem(errorText(error, response));
    setSchemas(data);
    const chosen = select ?? data.find((schema) => schema.id === open)?.id ?? data[0]?.id ?? NEW_SCHEMA;
    setSchemaId(chosen);
    if (select === undefined) await loadLatest(data.find((schema) => schema.id === chosen));
  };
  const loadLatest = async (schema: Schema | undefined) => {
    setStored(undefined);
    if (!schema?.latestVersion) return setText(pretty(blogExample));
    const { data, error, response } = await api.GET('/public/v1/projects/{projectId}/schemas/{schemaId}/versions/{version}', {
      params: { path: { projectId: project.id, schemaId: schema.id, version: schema.latestVersion } },
    });
    if (error) return setProblem(errorText(error, response));
    setText(pretty(data.schema));
    setStored(canonicalJson(data.schema));
    announce(`Loaded version ${data.version} of ${schema.name}`);
  };
  useEffect(() => void loadSchemas(), [project.id]);

  const runPreview = async (config: unknown, next: PreviewSettings = settings) => {
    const run = ++previewRun.current;
    const seed = next.seed.trim();
    const { data, error, response } = await api.POST('/public/v1/schema-config/preview', {
      body: {
        schema: config as SchemaConfig,
        rows: next.rows,
        ...(seed ? { seed } : {}),
        ...(next.generatorVersion ? { generatorVersion: Number(next.generatorVersion) as 1 | 2 | 3 | 4 | 5 } : {}),
      },
    });
    if (run !== previewRun.current) return;
    setPreviewError(error ? errorText(error, response) : undefined);
    if (data) setPreview(data);
  };

  const validate = async (config: unknown): Promise<ValidationResult | undefined> => {
    if (config === null || typeof config !== 'object' || Array.isArray(config))
      return { valid: false, errors: [{ path: '', message: 'the config must be a JSON object' }], warnings: [] };
    const { data, error, response } = await api.POST('/public/v1/schema-config/validate', { body: { schema: config as Record<string, unknown> } });
    setProblem(error ? errorText(error, response) : undefined);
    return data;
  };

  const onChecked = (next: Checked) => {
    setChecked(next);
    if ('syntaxError' in next) return announce(`JSON syntax error: ${next.syntaxError}`);
    const { errors, warnings } = next.result;
    announce(
      `${errors.length ? `${errors.length} ${errors.length === 1 ? 'error' : 'errors'}` : 'Config valid'}, ${warnings.length} ${warnings.length === 1 ? 'warning' : 'warnings'}`,
    );
    if (next.result.valid) {
      lastValid.current = next.config;
      void runPreview(next.config);
    }
  };

  const reveal = (path: string) => {
    const view = editor.current;
    if (!view) return;
    if (mode !== 'json') setMode('json');
    const place = locate(view.state, path);
    view.dispatch({ selection: { anchor: place.from, head: place.to }, effects: EditorView.scrollIntoView(place.from, { y: 'center' }) });
    view.focus();
  };

  const save = async () => {
    if (!checked || !('config' in checked) || !checked.result.valid) return;
    setSaving(true);
    setSaveError(undefined);
    const config = checked.config as SchemaConfig;
    const projectId = project.id;
    const current = schemas.find((schema) => schema.id === schemaId);
    if (current) {
      const { data, error, response } = await api.POST('/public/v1/projects/{projectId}/schemas/{schemaId}/versions', {
        params: { path: { projectId, schemaId: current.id } },
        body: { schema: config },
      });
      setSaving(false);
      if (error) return setSaveError(errorText(error, response));
      setStored(canonicalJson(config));
      announce(`Saved as version ${data.version} of ${current.name}`);
      await loadSchemas(current.id);
    } else {
      const name = schemaName.trim() || config.metadata?.name || 'Schema';
      const { data, error, response } = await api.POST('/public/v1/projects/{projectId}/schemas', {
        params: { path: { projectId } },
        body: { name, initialVersion: { schema: config } },
      });
      setSaving(false);
      if (error) return setSaveError(errorText(error, response));
      setStored(canonicalJson(config));
      announce(`Saved as version 1 of the new schema ${data.name}`);
      setSchemaName('');
      await loadSchemas(data.id);
    }
  };

  const parsed = (() => {
    try {
      return JSON.parse(text) as SchemaConfig;
    } catch {
      return undefined;
    }
  })();
  const result = checked && 'result' in checked ? checked.result : undefined;
  const current = schemas.find((schema) => schema.id === schemaId);
  // The last check answers for the text as it is now: a check still running answers for older text, and
  // saving then would store the config as it was (fields removed a moment ago among it).
  const checkedNow = Boolean(checked && 'config' in checked && parsed !== undefined && canonicalJson(checked.config) === canonicalJson(parsed));
  const unchanged = Boolean(current && checkedNow && stored === canonicalJson(parsed));
  const canSave = Boolean(result?.valid) && checkedNow && !saving && !unchanged;
  return (
    <div class="design">
      <div class="row">
        <SelectField
          label="Schema"
          value={schemaId}
          options={[
            ...schemas.map((schema) => ({ value: schema.id, label: `${schema.name} (v${schema.latestVersion ?? 0})` })),
            { value: NEW_SCHEMA, label: 'New schema…' },
          ]}
          onChange={(id) => {
            setSchemaId(id);
            void loadLatest(schemas.find((schema) => schema.id === id));
          }}
        />
        {!current && <TextField label="New schema name" placeholder={parsed?.metadata?.name ?? 'Schema'} value={schemaName} onInput={setSchemaName} />}
        <button type="button" class="primary" onClick={save} disabled={!canSave} aria-describedby="save-state problems-summary">
          {saving ? 'Saving…' : current ? `Save as version ${(current.latestVersion ?? 0) + 1}` : 'Save schema'}
        </button>
        <span id="save-state" class="hint" data-testid="save-state">
          {unchanged ? `No changes since version ${current?.latestVersion}` : ''}
        </span>
      </div>
      <ErrorNote message={saveError ?? problem} />
      <div class="design-columns">
        <section class="config" aria-label="Config">
          <Tabs
            label="Config view"
            idPrefix="config"
            tabs={[
              { key: 'json', label: 'JSON' },
              { key: 'form', label: 'Form' },
            ]}
            current={mode}
            onSelect={setMode}
          />
          <div role="tabpanel" id="config-panel-json" aria-labelledby="config-tab-json" hidden={mode !== 'json'}>
            <ConfigEditor
              text={text}
              onText={setText}
              validate={validate}
              onChecked={onChecked}
              onView={(view) => (editor.current = view)}
              describedBy="problems-summary"
            />
          </div>
          <div role="tabpanel" id="config-panel-form" aria-labelledby="config-tab-form" hidden={mode !== 'form'}>
            {mode === 'form' && <FormView config={parsed} onConfig={(config) => setText(pretty(config))} />}
          </div>
          <Problems checked={checked} onReveal={reveal} />
        </section>
        <PreviewPanel
          preview={preview}
          error={previewError}
          stale={Boolean(result && !result.valid) || Boolean(checked && 'syntaxError' in checked)}
          settings={settings}
          onSettings={(next) => {
            setSettings(next);
            if (lastValid.current) void runPreview(lastValid.current, next);
          }}
        />
      </div>
    </div>
  );
}

function Problems({ checked, onReveal }: { checked: Checked | undefined; onReveal: (path: string) => void }) {
  const result = checked && 'result' in checked ? checked.result : undefined;
  const issues = result
    ? [
        ...result.errors.map((issue) => ({ ...issue, severity: 'error' as const })),
        ...result.warnings.map((issue) => ({ ...issue, severity: 'warning' as const })),
      ]
    : [];
  const summary = !checked
    ? 'Checking the config…'
    : 'syntaxError' in checked
      ? `JSON syntax error: ${checked.syntaxError}`
      : `${result!.valid ? 'Valid' : 'Invalid'}: ${result!.errors.length} ${result!.errors.length === 1 ? 'error' : 'errors'}, ${result!.warnings.length} ${result!.warnings.length === 1 ? 'warning' : 'warnings'}`;
  return (
    <section class="problems" aria-labelledby="problems-heading">
      <h3 id="problems-heading">Problems</h3>
      <p id="problems-summary" class={result?.valid ? 'ok' : 'bad'} data-testid="problems-summary">
        {summary}
      </p>
      {issues.length > 0 && (
        <ul data-testid="problems">
          {issues.map((issue, index) => (
            <li key={index} class={issue.severity}>
              <button type="button" class="link" onClick={() => onReveal(issue.path)} data-pointer={issue.path}>
                <span class="badge">{issue.severity}</span> <code>{issue.path || '/'}</code> {issue.message}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
