// The form view of the common case: entities with their row counts, fields with a type, an optional
// reference and an optional strategy, each field editable in place. It edits the same config as the JSON editor: every change is
// written back as JSON. Field types and strategy kinds (with their properties) come from the
// schema-config JSON Schema, so the form knows what the contract knows.
import type { SchemaConfig } from '@sds/sdk';
import { useId, useState } from 'preact/hooks';
import schema from '../../../schemas/schema-config.v1.json';
import { ErrorNote, SelectField, TextField, useAnnounce } from '../ui.tsx';

type Entity = SchemaConfig['entities'][number];
type Field = Entity['fields'][number];

interface PropertySchema {
  type?: string | string[];
  const?: string;
  description?: string;
  enum?: string[];
}
interface ObjectSchema {
  properties: Record<string, PropertySchema>;
  required?: string[];
  oneOf?: { $ref: string }[];
}
const defs = schema.$defs as unknown as Record<string, ObjectSchema>;

export const FIELD_TYPES = defs.field!.properties.type!.enum!;

interface StrategyParam {
  name: string;
  kind: 'number' | 'text' | 'json';
  required: boolean;
  description: string;
}
/** Strategy kinds and their properties, read from `$defs.strategy.oneOf`. */
const STRATEGIES = defs.strategy!.oneOf!.map((ref) => {
  const def = defs[ref.$ref.split('/').at(-1)!]!;
  const params: StrategyParam[] = Object.entries(def.properties)
    .filter(([name]) => name !== 'kind')
    .map(([name, property]) => ({
      name,
      kind: property.type === 'number' || property.type === 'integer' ? 'number' : property.type === 'string' ? 'text' : 'json',
      required: def.required?.includes(name) ?? false,
      description: property.description ?? '',
    }));
  return { kind: def.properties.kind!.const!, params };
});

function summary(field: Field): string {
  const parts: string[] = [field.type];
  if (field.nullable) parts.push('nullable');
  if (field.references) parts.push(`→ ${field.references.entity}.${field.references.field}`);
  const strategy = field.generation?.strategy as { kind?: string } | undefined;
  if (strategy?.kind) parts.push(`strategy ${strategy.kind}`);
  return parts.join(', ');
}

export function FormView({ config, onConfig }: { config: SchemaConfig | undefined; onConfig: (config: SchemaConfig) => void }) {
  const announce = useAnnounce();
  const [entityId, setEntityId] = useState('');
  const [newEntity, setNewEntity] = useState('');
  const [editingId, setEditingId] = useState<string>();
  // Bumped after each save: the field form starts over with empty boxes.
  const [forms, setForms] = useState(0);
  const headingId = useId();
  if (!config || !Array.isArray(config.entities)) {
    return <p class="empty">The form needs a config that is valid JSON with an "entities" list: fix the JSON first.</p>;
  }
  const entity = config.entities.find((candidate) => candidate.id === entityId) ?? config.entities[0];
  const change = (entities: Entity[], message: string) => {
    onConfig({ ...config, entities });
    announce(message);
  };
  const replaceEntity = (next: Entity) =>
    change(
      config.entities.map((candidate) => (candidate === entity ? next : candidate)),
      `${next.id} changed`,
    );

  const addEntity = (event: Event) => {
    event.preventDefault();
    const id = newEntity.trim();
    if (!id) return;
    const added: Entity = { id, primaryKey: ['id'], generation: { rowCount: 20 }, fields: [{ id: 'id', type: 'integer' }] };
    change([...config.entities, added], `Entity ${id} added with an integer id`);
    setEntityId(id);
    setNewEntity('');
  };

  const rowCount = entity?.generation?.rowCount;
  const editing = entity?.fields.find((field) => field.id === editingId);
  return (
    <div class="form-view" aria-labelledby={headingId}>
      <h3 id={headingId}>Entities and fields</h3>
      <div class="row">
        {config.entities.length > 0 && (
          <SelectField
            label="Entity"
            value={entity?.id ?? ''}
            options={config.entities.map((candidate) => candidate.id)}
            onChange={(id) => {
              setEntityId(id);
              setEditingId(undefined);
            }}
          />
        )}
        <form class="inline" onSubmit={addEntity}>
          <TextField label="New entity id" placeholder="e.g. orders" value={newEntity} onInput={setNewEntity} pattern="[A-Za-z][A-Za-z0-9_]*" />
          <button type="submit" disabled={!newEntity.trim()}>
            Add entity
          </button>
        </form>
      </div>
      {entity && (
        <>
          <TextField
            label={`Rows of ${entity.id}`}
            type="number"
            min="0"
            value={typeof rowCount === 'number' ? String(rowCount) : ''}
            hint={typeof rowCount === 'object' ? 'A range in the JSON; a number here replaces it' : 'Empty: the config default'}
            onInput={(value) => {
              const generation = { ...entity.generation };
              if (value === '') delete generation.rowCount;
              else generation.rowCount = Number(value);
              // An emptied generation goes away, so clearing a row count gives back the config it came from.
              const { generation: _old, ...rest } = entity;
              replaceEntity(Object.keys(generation).length > 0 ? { ...rest, generation } : rest);
            }}
          />
          <table class="fields">
            <caption>Fields of {entity.id}</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Type and generation</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entity.fields.map((field) => (
                <tr key={field.id}>
                  <th scope="row">{field.id}</th>
                  <td>{summary(field)}</td>
                  <td class="actions">
                    <button type="button" aria-label={`Edit field ${field.id}`} aria-pressed={editingId === field.id} onClick={() => setEditingId(field.id)}>
                      Edit
                    </button>
                    <button
                      type="button"
                      aria-label={`Remove field ${field.id}`}
                      onClick={() => replaceEntity({ ...entity, fields: entity.fields.filter((candidate) => candidate !== field) })}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <FieldForm
            key={`${entity.id}:${editing?.id ?? ''}:${forms}`}
            entity={entity}
            entities={config.entities}
            editing={editing}
            onCancel={() => setEditingId(undefined)}
            onSave={(field) => {
              const fields = editing ? entity.fields.map((candidate) => (candidate === editing ? field : candidate)) : [...entity.fields, field];
              replaceEntity({ ...entity, fields });
              setEditingId(undefined);
              setForms(forms + 1);
            }}
          />
        </>
      )}
    </div>
  );
}

/** The form's text for each strategy property of a field being edited. */
function paramsText(strategy: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(strategy ?? {})) {
    if (name !== 'kind') out[name] = typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
  }
  return out;
}

/**
 * Adds a field, or edits `editing` (type, values, nullable, reference, strategy; its other
 * properties are kept). The parent remounts it (by key) after each save, so every box starts over.
 */
function FieldForm({
  entity,
  entities,
  editing,
  onSave,
  onCancel,
}: {
  entity: Entity;
  entities: Entity[];
  editing?: Field;
  onSave: (field: Field) => void;
  onCancel: () => void;
}) {
  const initialStrategy = editing?.generation?.strategy as Record<string, unknown> | undefined;
  const [id, setId] = useState(editing?.id ?? '');
  const [type, setType] = useState<string>(editing?.type ?? 'string');
  const [nullable, setNullable] = useState(editing?.nullable ?? false);
  const [values, setValues] = useState(((editing as { values?: unknown[] } | undefined)?.values ?? []).join(', '));
  const [reference, setReference] = useState(editing?.references ? `${editing.references.entity}.${editing.references.field}` : '');
  const [kind, setKind] = useState(typeof initialStrategy?.kind === 'string' ? initialStrategy.kind : '');
  const [params, setParams] = useState<Record<string, string>>(paramsText(initialStrategy));
  const [error, setError] = useState<string>();
  const nullableId = useId();
  const strategy = STRATEGIES.find((candidate) => candidate.kind === kind);
  // Referenceable: single-field primary keys of the entities (the validator checks the rest).
  const targets = entities.flatMap((candidate) => (candidate.primaryKey?.length === 1 ? [`${candidate.id}.${candidate.primaryKey[0]}`] : []));
  if (reference && !targets.includes(reference)) targets.push(reference);

  const submit = (event: Event) => {
    event.preventDefault();
    setError(undefined);
    const field = { ...(editing ?? {}), id: id.trim(), type } as Field & Record<string, unknown>;
    if (!field.id) return setError('A field needs an id');
    if (entity.fields.some((candidate) => candidate.id === field.id && candidate !== editing))
      return setError(`${entity.id} already has a field "${field.id}"`);
    delete field.nullable;
    if (nullable) field.nullable = true;
    if (type === 'enum')
      field.values = values
        .split(',')
        .map((value) => value.trim())
        .filter(Boolean);
    else {
      delete field.values;
      delete field.weights;
    }
    delete field.references;
    if (reference) {
      const [target, targetField] = reference.split('.');
      field.references = { entity: target!, field: targetField! };
    }
    const generation = { ...(field.generation ?? {}) } as Record<string, unknown>;
    delete generation.strategy;
    if (strategy) {
      const built: Record<string, unknown> = { kind: strategy.kind };
      for (const param of strategy.params) {
        const text = params[param.name]?.trim() ?? '';
        if (text === '') continue;
        if (param.kind === 'number') built[param.name] = Number(text);
        else if (param.kind === 'text') built[param.name] = text;
        else {
          try {
            built[param.name] = JSON.parse(text);
          } catch {
            return setError(`${param.name} must be JSON, e.g. ${param.name === 'choices' ? '[{"value": "a", "weight": 1}]' : '"text" or 42'}`);
          }
        }
      }
      generation.strategy = built;
    }
    if (Object.keys(generation).length > 0) field.generation = generation as never;
    else delete field.generation;
    onSave(field);
  };

  const action = editing ? `Save field ${editing.id}` : 'Add field';
  return (
    <form class="add-field" onSubmit={submit} aria-label={editing ? `Edit field ${editing.id} of ${entity.id}` : `Add a field to ${entity.id}`}>
      <h4>{editing ? `Edit field ${editing.id} of ${entity.id}` : `Add a field to ${entity.id}`}</h4>
      <div class="row">
        <TextField label="Field id" placeholder="e.g. email" value={id} onInput={setId} />
        <SelectField label="Type" value={type} options={FIELD_TYPES} onChange={setType} />
        <div class="field checkbox">
          <input id={nullableId} type="checkbox" checked={nullable} onChange={(event) => setNullable(event.currentTarget.checked)} />
          <label for={nullableId}>Nullable</label>
        </div>
      </div>
      {type === 'enum' && <TextField label="Values" placeholder="draft, published" hint="Comma-separated" value={values} onInput={setValues} />}
      <div class="row">
        <SelectField label="References" value={reference} options={[{ value: '', label: 'nothing' }, ...targets]} onChange={setReference} />
        <SelectField
          label="Strategy"
          value={kind}
          options={[{ value: '', label: 'default (from type, format and id)' }, ...STRATEGIES.map((candidate) => candidate.kind)]}
          onChange={(value) => {
            setKind(value);
            setParams({});
          }}
        />
      </div>
      {strategy && strategy.params.length > 0 && (
        <div class="row">
          {strategy.params.map((param) => (
            <TextField
              key={param.name}
              label={`${param.name}${param.required ? '' : ' (optional)'}`}
              hint={param.description}
              type={param.kind === 'number' ? 'number' : 'text'}
              step="any"
              value={params[param.name] ?? ''}
              onInput={(value) => setParams({ ...params, [param.name]: value })}
            />
          ))}
        </div>
      )}
      <ErrorNote message={error} />
      <div class="row">
        <button type="submit">{action}</button>
        {editing && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
