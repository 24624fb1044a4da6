// Filters of the table view: a field, an operator that fits its type, and a value input of that
// type (numbers, dates, true/false, an enum's values to pick from, or text with the values seen on
// the page as suggestions).
import type { RuntimeDocsField } from '../api.ts';
import { useId } from 'preact/hooks';
import { SelectField, TextField } from '../ui.tsx';
import { OPERATOR_LABELS, operatorsFor, typeFilters, type FilterRow, type Operator } from './query.ts';

/** The HTML input type of a value of the field's type (its filter input); text for the rest. */
const inputType = (field: RuntimeDocsField): 'number' | 'date' | 'time' | 'text' => {
  const input = typeFilters(field.type)?.input;
  return input === 'number' || input === 'date' || input === 'time' ? input : 'text';
};
/** A field whose values are true or false: picked, not typed. */
const isChoice = (field: RuntimeDocsField) => typeFilters(field.type)?.input === 'boolean';

const MANY: Operator[] = ['$in', '$notIn'];
const TEXT_MATCH: Operator[] = ['$contains', '$containsi', '$startsWith', '$endsWith'];

/** An enum field's operators that take one of its values: picked from a list, not typed. */
const picksOne = (field: RuntimeDocsField, operator: Operator) =>
  Boolean(field.values?.length) && operator !== '$null' && !MANY.includes(operator) && !TEXT_MATCH.includes(operator);
const picksMany = (field: RuntimeDocsField, operator: Operator) => Boolean(field.values?.length) && MANY.includes(operator);

function defaultValue(field: RuntimeDocsField, operator: Operator): string {
  if (operator === '$null' || isChoice(field)) return 'true';
  return picksOne(field, operator) ? field.values![0]! : '';
}

export function Filters({
  fields,
  rows,
  filters,
  onFilters,
}: {
  fields: RuntimeDocsField[];
  rows: Record<string, unknown>[];
  filters: FilterRow[];
  onFilters: (filters: FilterRow[]) => void;
}) {
  const filterable = fields.filter((field) => operatorsFor(field.type).length > 0);
  const replace = (index: number, next: FilterRow) => onFilters(filters.map((filter, i) => (i === index ? next : filter)));
  const add = () => {
    const field = filterable[0]!;
    const operator = operatorsFor(field.type)[0]!;
    onFilters([...filters, { field: field.id, operator, value: defaultValue(field, operator) }]);
  };
  return (
    <fieldset class="filters">
      <legend>Filters</legend>
      {filters.map((filter, index) => {
        const field = fields.find((candidate) => candidate.id === filter.field)!;
        const operators = operatorsFor(field.type);
        const list = `values-${index}`;
        const seen = [...new Set(rows.map((row) => row[field.id]).filter((value) => typeof value === 'string' || typeof value === 'number'))].slice(0, 50);
        const choice = filter.operator === '$null' || isChoice(field);
        return (
          <div class="row filter" key={index} data-testid="filter">
            <SelectField
              label={`Filter ${index + 1} field`}
              value={filter.field}
              options={filterable.map((candidate) => candidate.id)}
              onChange={(id) => {
                const next = fields.find((candidate) => candidate.id === id)!;
                const operator = operatorsFor(next.type).includes(filter.operator) ? filter.operator : operatorsFor(next.type)[0]!;
                replace(index, { field: id, operator, value: defaultValue(next, operator) });
              }}
            />
            <SelectField
              label={`Filter ${index + 1} operator`}
              value={filter.operator}
              options={operators.map((operator) => ({ value: operator, label: `${OPERATOR_LABELS[operator]} (${operator})` }))}
              onChange={(operator) => replace(index, { ...filter, operator: operator as Operator, value: defaultValue(field, operator as Operator) })}
            />
            {picksOne(field, filter.operator) ? (
              <SelectField
                label={`Filter ${index + 1} value`}
                value={filter.value}
                options={field.values!}
                onChange={(value) => replace(index, { ...filter, value })}
              />
            ) : picksMany(field, filter.operator) ? (
              <MultiSelect
                label={`Filter ${index + 1} values`}
                options={field.values!}
                value={filter.value ? filter.value.split(',') : []}
                onChange={(values) => replace(index, { ...filter, value: values.join(',') })}
              />
            ) : choice ? (
              <SelectField
                label={`Filter ${index + 1} value`}
                value={filter.value}
                options={['true', 'false']}
                onChange={(value) => replace(index, { ...filter, value })}
              />
            ) : (
              <>
                <TextField
                  label={`Filter ${index + 1} value`}
                  type={filter.operator === '$in' || filter.operator === '$notIn' ? 'text' : inputType(field)}
                  step="any"
                  list={list}
                  hint={filter.operator === '$in' || filter.operator === '$notIn' ? 'Comma-separated' : undefined}
                  value={filter.value}
                  onInput={(value) => replace(index, { ...filter, value })}
                />
                <datalist id={list}>
                  {seen.map((value) => (
                    <option key={String(value)} value={String(value)} />
                  ))}
                </datalist>
              </>
            )}
            <button type="button" aria-label={`Remove filter ${index + 1}`} onClick={() => onFilters(filters.filter((_, i) => i !== index))}>
              Remove
            </button>
          </div>
        );
      })}
      {filterable.length > 0 && (
        <button type="button" onClick={add}>
          Add filter
        </button>
      )}
    </fieldset>
  );
}

/** Several of an enum's values (for $in and $notIn): a list box where Ctrl/Shift pick more than one. */
function MultiSelect({ label, options, value, onChange }: { label: string; options: string[]; value: string[]; onChange: (values: string[]) => void }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        multiple
        size={Math.min(options.length, 5)}
        onChange={(event) => onChange([...event.currentTarget.selectedOptions].map((option) => option.value))}
      >
        {options.map((option) => (
          <option key={option} value={option} selected={value.includes(option)}>
            {option}
          </option>
        ))}
      </select>
    </div>
  );
}
