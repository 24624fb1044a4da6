// The rows of a page: column headers sort (aria-sort), a cell opens an editor (Enter saves through
// PATCH, Escape cancels), a row can be deleted (with a confirming second press), a form adds one,
// and a populated reference opens the row it points to under its own row.
import type { RuntimeClient } from '@sds/sdk';
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText, type RuntimeDocsEntity, type RuntimeDocsField } from '../api.ts';
import { CellValue, ConfirmButton, ErrorNote, SelectField, TextField, useAnnounce } from '../ui.tsx';
import { castValue, rowId, type TableQuery } from './query.ts';

export interface RowList {
  data: Record<string, unknown>[];
  meta: { pagination: { offset: number; limit: number; total: number } };
}

interface Props {
  entity: RuntimeDocsEntity;
  rows: RowList;
  busy: boolean;
  sort: TableQuery['sort'];
  populated: string[];
  onSort: (sort: TableQuery['sort']) => void;
  runtime: RuntimeClient;
  onChanged: () => void;
}

/** A value typed in an editor → the JSON the runtime API takes for the field. */
function parseInput(field: RuntimeDocsField, text: string): unknown {
  if (text === '' && field.nullable) return null;
  if (field.type === 'json') return JSON.parse(text);
  return castValue(field, text);
}

const editText = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

export function RowsTable({ entity, rows, busy, sort, populated, onSort, runtime, onChanged }: Props) {
  const announce = useAnnounce();
  const [editing, setEditing] = useState<{ id: string; field: string }>();
  const [error, setError] = useState<string>();
  // Populated references opened under their row, as `rowId:fieldId`.
  const [opened, setOpened] = useState<string[]>([]);
  const toggle = (key: string) => setOpened(opened.includes(key) ? opened.filter((item) => item !== key) : [...opened, key]);
  const nextSort = (field: string): TableQuery['sort'] =>
    sort?.field !== field ? { field, direction: 'asc' } : sort.direction === 'asc' ? { field, direction: 'desc' } : undefined;

  const save = async (id: string, field: RuntimeDocsField, text: string) => {
    let value: unknown;
    try {
      value = parseInput(field, text);
    } catch {
      return setError(`${field.id} must be JSON`);
    }
    const { error: failure, response } = await runtime.update(entity.id, id, { [field.id]: value });
    if (failure) return setError(errorText(failure, response));
    setError(undefined);
    setEditing(undefined);
    announce(`${entity.id} ${id}: ${field.id} saved`);
    onChanged();
  };

  const remove = async (id: string) => {
    const { error: failure, response } = await runtime.delete(entity.id, id);
    if (failure) return setError(errorText(failure, response));
    announce(`${entity.id} ${id} deleted`);
    onChanged();
  };

  const keyed = entity.primaryKey.length > 0;
  return (
    <>
      <ErrorNote message={error} />
      <div class="table-scroll" tabIndex={0} aria-label={`Rows of ${entity.id}`}>
        <table class="rows" data-testid="data-table" aria-busy={busy}>
          <caption>
            {entity.id}: {rows.meta.pagination.total} rows
            {keyed ? '; activate a cell to edit it' : ' (no primary key: read only)'}
          </caption>
          <thead>
            <tr>
              {entity.fields.map((field) => (
                <th key={field.id} scope="col" aria-sort={sort?.field === field.id ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
                  {field.type === 'json' ? (
                    field.id
                  ) : (
                    <button type="button" class="sort" onClick={() => onSort(nextSort(field.id))} data-field={field.id}>
                      {field.id}
                      <span aria-hidden="true">{sort?.field === field.id ? (sort.direction === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                    </button>
                  )}
                </th>
              ))}
              {keyed && (
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.data.map((row) => {
              const id = rowId(row, entity.primaryKey);
              const rowKey = id ?? JSON.stringify(row);
              const open = entity.fields.filter((field) => opened.includes(`${rowKey}:${field.id}`) && isRecord(row[field.id]));
              return (
                <Fragment key={rowKey}>
                  <tr data-row-id={id}>
                    {entity.fields.map((field) => {
                      const value = row[field.id];
                      const editable = id !== undefined && !entity.primaryKey.includes(field.id) && !populated.includes(field.id);
                      if (populated.includes(field.id) && field.references && isRecord(value)) {
                        const key = `${rowKey}:${field.id}`;
                        const target = `${field.references.entity} ${String(value[field.references.field] ?? '')}`;
                        return (
                          <td key={field.id} data-field={field.id}>
                            <button type="button" class="reference" aria-expanded={opened.includes(key)} onClick={() => toggle(key)} data-populated={field.id}>
                              <span aria-hidden="true">{opened.includes(key) ? '▾ ' : '▸ '}</span>
                              {target}
                            </button>
                          </td>
                        );
                      }
                      if (editable && editing?.id === id && editing.field === field.id) {
                        return (
                          <td key={field.id}>
                            <CellEditor
                              field={field}
                              initial={editText(value)}
                              onSave={(text) => save(id, field, text)}
                              onCancel={() => setEditing(undefined)}
                            />
                          </td>
                        );
                      }
                      return (
                        <td key={field.id} data-field={field.id}>
                          {editable ? (
                            <button
                              type="button"
                              class="cell"
                              aria-label={`Edit ${field.id} of ${entity.id} ${id}: ${editText(value) || 'null'}`}
                              onClick={() => setEditing({ id, field: field.id })}
                            >
                              <CellValue value={value} />
                            </button>
                          ) : (
                            <CellValue value={value} />
                          )}
                        </td>
                      );
                    })}
                    {keyed && <td>{id !== undefined && <ConfirmButton action="Delete" what={`${entity.id} ${id}`} onConfirm={() => remove(id)} />}</td>}
                  </tr>
                  {open.length > 0 && (
                    <tr class="populated" data-populated-for={rowKey}>
                      <td colSpan={entity.fields.length + (keyed ? 1 : 0)}>
                        {open.map((field) => (
                          <PopulatedRecord key={field.id} field={field} record={row[field.id] as Record<string, unknown>} />
                        ))}
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      {keyed && <AddRow entity={entity} runtime={runtime} onAdded={onChanged} />}
    </>
  );
}

function CellEditor({ field, initial, onSave, onCancel }: { field: RuntimeDocsField; initial: string; onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  const input = useRef<HTMLInputElement>(null);
  const choice = useRef<HTMLSelectElement>(null);
  useEffect(() => (input.current ?? choice.current)?.focus(), []);
  return (
    <form
      class="cell-editor"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(text);
      }}
      onKeyDown={(event) => event.key === 'Escape' && onCancel()}
    >
      <label class="sr-only" for={`edit-${field.id}`}>
        New {field.id} ({field.type}
        {field.nullable ? ', empty for null' : ''})
      </label>
      {field.values?.length ? (
        <select
          id={`edit-${field.id}`}
          ref={choice}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          // A select does not submit its form on Enter as an input does.
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            onSave(event.currentTarget.value);
          }}
        >
          {field.nullable && <option value="">(null)</option>}
          {field.values.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      ) : (
        <input id={`edit-${field.id}`} ref={input} value={text} onInput={(event) => setText(event.currentTarget.value)} />
      )}
      <button type="submit">Save</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

function AddRow({ entity, runtime, onAdded }: { entity: RuntimeDocsEntity; runtime: RuntimeClient; onAdded: () => void }) {
  const announce = useAnnounce();
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    for (const field of entity.fields) {
      const text = values[field.id] ?? '';
      if (text === '') continue;
      try {
        body[field.id] = parseInput(field, text);
      } catch {
        return setError(`${field.id} must be JSON`);
      }
    }
    const { data, error: failure, response } = await runtime.create(entity.id, body);
    if (failure) return setError(errorText(failure, response));
    setError(undefined);
    setValues({});
    announce(`${entity.id} ${rowId(data, entity.primaryKey) ?? ''} created`);
    onAdded();
  };
  return (
    <details class="add-row">
      <summary>Add a row to {entity.id}</summary>
      <form onSubmit={submit}>
        <p class="hint">Leave a field empty to let sds fill it (integer and UUID keys are generated) or to leave it null.</p>
        <div class="row">
          {entity.fields.map((field) =>
            field.values?.length ? (
              <SelectField
                key={field.id}
                label={`${field.id} (${field.type}${field.nullable ? ', optional' : ''})`}
                value={values[field.id] ?? ''}
                options={[{ value: '', label: field.nullable ? '(null or let sds pick)' : '(let sds pick)' }, ...field.values]}
                onChange={(value) => setValues({ ...values, [field.id]: value })}
              />
            ) : (
              <TextField
                key={field.id}
                label={`${field.id} (${field.type}${field.nullable ? ', optional' : ''})`}
                value={values[field.id] ?? ''}
                onInput={(value) => setValues({ ...values, [field.id]: value })}
              />
            ),
          )}
        </div>
        <ErrorNote message={error} />
        <button type="submit">Add row</button>
      </form>
    </details>
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The row a populated reference points to, as a one-row table of its columns. */
function PopulatedRecord({ field, record }: { field: RuntimeDocsField; record: Record<string, unknown> }) {
  const target = field.references!;
  return (
    <table class="rows record" data-testid={`populated-${field.id}`}>
      <caption>
        {field.id} → {target.entity} {String(record[target.field] ?? '')}
      </caption>
      <thead>
        <tr>
          {Object.keys(record).map((name) => (
            <th key={name} scope="col">
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr>
          {Object.entries(record).map(([name, value]) => (
            <td key={name}>
              <CellValue value={value} />
            </td>
          ))}
        </tr>
      </tbody>
    </table>
  );
}
