// The report's check of agreeing references (reference-agreement.ts): parents' reference columns
// kept by key as the parents' rows are seen, so that a child row's two references can be followed
// up to their ancestor and compared. A row counts where both ways up reach a row.
import type { Entity } from '../../model/config-types.ts';
import type { RowValue } from '../../model/row-value.ts';
import type { AncestorStep, ReferenceAgreement } from '../reference-agreement.ts';

interface Column {
  key: number;
  field: number;
  values: Map<RowValue, RowValue>;
}

export class ParentColumns {
  /** Columns by parent entity, then `key field\0field`. */
  readonly #columns = new Map<string, Map<string, Column>>();
  readonly #entities: ReadonlyMap<string, Entity>;

  constructor(entities: readonly Entity[]) {
    this.#entities = new Map(entities.map((entity) => [entity.id, entity]));
  }

  /** The ancestor key a parent key leads to along `path` (as far as the parents seen so far tell). */
  follow(path: readonly AncestorStep[]): (key: RowValue) => RowValue | undefined {
    const columns = path.map((step) => this.#column(step));
    return (key) => {
      let value: RowValue | undefined = key;
      for (const column of columns) {
        if (value === null || value === undefined || !column) return undefined;
        value = column.values.get(value);
      }
      return value ?? undefined;
    };
  }

  #column(step: AncestorStep): Column | undefined {
    const entity = this.#entities.get(step.entity);
    if (!entity) return undefined;
    let byName = this.#columns.get(step.entity);
    if (!byName) this.#columns.set(step.entity, (byName = new Map()));
    const name = `${step.key}\u0000${step.field.id}`;
    let column = byName.get(name);
    if (!column) {
      const key = entity.fields.findIndex((field) => field.id === step.key);
      const field = entity.fields.findIndex((other) => other.id === step.field.id);
      if (key < 0 || field < 0) return undefined;
      byName.set(name, (column = { key, field, values: new Map() }));
    }
    return column;
  }

  /** What records an entity's rows for the children's checks; undefined when none reads it. */
  recorder(entityId: string): ((values: readonly RowValue[]) => void) | undefined {
    const columns = [...(this.#columns.get(entityId)?.values() ?? [])];
    if (columns.length === 0) return undefined;
    return (values) => {
      for (const column of columns) {
        const key = values[column.key];
        if (key !== null && key !== undefined) column.values.set(key, values[column.field] ?? null);
      }
    };
  }
}

/** The check of one agreement on a child row: whether both references lead to the same ancestor row. */
export function agreementCheck(agreement: ReferenceAgreement, parents: ParentColumns): (values: readonly RowValue[]) => boolean | undefined {
  const anchorUp = parents.follow(agreement.anchorPath);
  const constrainedUp = parents.follow(agreement.constrainedPath);
  return (values) => {
    const anchor = values[agreement.anchor];
    const constrained = values[agreement.constrained];
    if (anchor === null || anchor === undefined || constrained === null || constrained === undefined) return undefined;
    const up = anchorUp(anchor);
    if (up === undefined || up === null) return undefined;
    return constrainedUp(constrained) === up;
  };
}
