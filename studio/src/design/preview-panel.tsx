// Preview of the config's rows (POST /public/v1/schema-config/preview): one tab per entity, its first
// rows in a table, with the seed and the number of rows to show; the caption names the generator
// version, and each column made by a rule of that version names the rule under its header.
import { useState } from 'preact/hooks';
import type { SchemaConfigPreview } from '../api.ts';
import { CellValue, ErrorNote, SelectField, Tabs, TextField } from '../ui.tsx';

export interface PreviewSettings {
  seed: string;
  rows: number;
  /** Generator version to preview with ('' for the service's default). */
  generatorVersion: '' | '1' | '2' | '3' | '4' | '5';
}

const VERSIONS = [
  { value: '', label: 'default' },
  { value: '1', label: '1' },
  { value: '2', label: '2' },
  { value: '3', label: '3' },
  { value: '4', label: '4' },
  { value: '5', label: '5' },
];

export function PreviewPanel({
  preview,
  error,
  stale,
  settings,
  onSettings,
}: {
  preview: SchemaConfigPreview | undefined;
  error: string | undefined;
  stale: boolean;
  settings: PreviewSettings;
  onSettings: (settings: PreviewSettings) => void;
}) {
  const [entityId, setEntityId] = useState('');
  const entities = preview?.entities ?? [];
  const entity = entities.find((candidate) => candidate.id === entityId) ?? entities[0];
  const columns = entity?.rows[0] ? Object.keys(entity.rows[0]) : [];
  const rules = entity?.fieldRules ?? {};
  return (
    <section class="preview" aria-labelledby="preview-heading" aria-busy={stale}>
      <h3 id="preview-heading">Preview</h3>
      <div class="row">
        <TextField
          label="Seed"
          placeholder="the config's seed"
          value={settings.seed}
          onInput={(seed) => onSettings({ ...settings, seed })}
          hint="A source created with this seed loads these rows"
        />
        <TextField
          label="Rows per entity"
          type="number"
          min="1"
          max="100"
          value={String(settings.rows)}
          onInput={(value) => onSettings({ ...settings, rows: Math.min(100, Math.max(1, Number(value) || 1)) })}
        />
        <SelectField
          label="Generator version"
          value={settings.generatorVersion}
          options={VERSIONS}
          onChange={(value) => onSettings({ ...settings, generatorVersion: value as PreviewSettings['generatorVersion'] })}
        />
      </div>
      <ErrorNote message={error} />
      {stale && <p class="hint">The config has errors: these rows are from its last valid state.</p>}
      {entity ? (
        <>
          <Tabs
            label="Previewed entities"
            idPrefix="preview"
            tabs={entities.map((item) => ({ key: item.id, label: item.id }))}
            current={entity.id}
            onSelect={setEntityId}
          />
          <div role="tabpanel" id={`preview-panel-${entity.id}`} aria-labelledby={`preview-tab-${entity.id}`} class="table-scroll" tabIndex={0}>
            <table class="rows" data-testid="preview-table">
              <caption>
                {entity.id}: first {entity.rows.length} of {entity.rowsPlanned} rows,{' '}
                <span data-testid="preview-generator-version">generator {preview!.generatorVersion}</span>, seed {entity.seed}
              </caption>
              <thead>
                <tr>
                  {columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                      {rules[column] && (
                        <small class="rule" title={`made by rule ${rules[column]} (docs/field-rules.md)`} data-testid="preview-field-rule">
                          {rules[column]}
                        </small>
                      )}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {entity.rows.map((row, index) => (
                  <tr key={index}>
                    {columns.map((column) => (
                      <td key={column}>
                        <CellValue value={row[column]} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        !error && <p class="empty">Rows appear here once the config is valid.</p>
      )}
    </section>
  );
}
