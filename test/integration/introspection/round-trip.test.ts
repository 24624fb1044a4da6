// The round trip, on both engines, over three hand-written schemas of different shapes: introspect
// the schema, generate the config into a fresh namespace, introspect that, and find the same tables,
// columns in the same order, type classes, nullability, primary keys, unique keys and references
// with their actions (no differences at all), and no warning about sds's own tables.
import { afterAll, describe, expect, it } from 'vitest';
import { runGeneration } from '../../../src/generation/run.ts';
import { validateConfig } from '../../../src/config/validate-config.ts';
import { diffConfigs } from '../../../src/introspection/diff-config.ts';
import { introspectDatabase } from '../../../src/introspection/introspect.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type DialectTarget } from '../../helpers/dialect-targets.ts';
import { loadSchema, SCHEMAS, type SchemaName } from './schemas.ts';

const targets = await dialectTargets();
const ROWS = 40;
const SLOW = 120_000;

/** Warnings each schema must give on each engine (every one must match a warning). */
const EXPECTED: Record<DialectTarget['name'], Record<SchemaName, RegExp[]>> = {
  postgres: {
    shop: [
      /^customer_profiles\.tags: array \(text\[\]\) has no schema-config type; generated as json, the nearest$/,
      /^products: index products_title_lower_idx \(…\) is on an expression/,
    ],
    rental: [
      /^staff\.picture: binary data \(bytea\) has no schema-config type; left out$/,
      /^film\.fulltext: full-text search \(tsvector\) has no schema-config type; left out$/,
      /^staff\.email: CHECK .* of domain short_email: this CHECK cannot be expressed/,
      /^payment: index payment_recent_idx \(payment_date\) is partial/,
      /^film: index film_fulltext_idx \(fulltext\) is of method gist/,
      /^film: trigger last_updated: generated rows do not run it$/,
      /^actor_info: a view, not a table; left out$/,
    ],
    music: [
      /^Track Plays: the name is not an sds identifier \(letters, digits, _\); the entity is "Track_Plays"$/,
      /^Track Plays\.Played At: .* the field is "Played_At"$/,
      /^tracks\.price_cents: generated column \(.*\): its values are generated like any integer, not computed$/,
      /^concerts\.booked: range type tstzrange has no schema-config type; left out$/,
      /^concerts: exclusion constraint .*: not enforced on generated rows$/,
      /^concerts: CHECK \(\(ends_at > starts_at\)\): this CHECK cannot be expressed/,
    ],
  },
  mysql: {
    shop: [
      /^customer_profiles\.tags: set\('new','sale','gift'\) has no schema-config type; generated as string, the nearest$/,
      /^products\.picture: binary data \(blob\) has no schema-config type; left out$/,
      /^products: index products_title_prefix \(title\) is on column prefixes/,
    ],
    rental: [
      /^film\.release_year: year has no schema-config type; generated as integer, the nearest$/,
      /^film: index idx_title_description \(title, description\) is of method fulltext/,
      /^customer: trigger customer_create_date: generated rows do not run it$/,
      /^actor_info: a view, not a table; left out$/,
    ],
    music: [
      /^Track Plays: the name is not an sds identifier/,
      /^tracks\.price_cents: generated column \(.*\): its values are generated like any integer, not computed$/,
      /^concerts: `ends_at` > `starts_at`: this CHECK cannot be expressed/,
    ],
  },
};

/** What the config says about a few columns of each schema (the database's declarations carried over). */
const SAMPLES: Record<SchemaName, Array<[string, string, Record<string, unknown>]>> = {
  shop: [
    ['customers', 'email', { type: 'string', maxLength: 120, description: 'Login and receipts' }],
    ['products', 'price', { type: 'number', precision: 2, min: 0 }],
    ['products', 'stock', { type: 'integer', min: 0, max: 10000 }],
    ['shipments', 'carrier', { type: 'enum', values: ['ups', 'dhl', 'fedex'] }],
    ['orders', 'status', { type: 'enum', values: ['pending', 'paid', 'shipped', 'cancelled'], default: { value: 'pending' } }],
    ['customers', 'created_at', { type: 'datetime', default: { function: 'now' } }],
    ['products', 'stock', { default: { value: 0 } }],
    ['orders', 'id', { type: 'uuid' }],
    ['customer_profiles', 'customer_id', { references: { entity: 'customers', field: 'id', relation: 'one-to-one', onDelete: 'cascade' } }],
    ['categories', 'parent_id', { nullable: true, references: { entity: 'categories', field: 'id' } }],
    ['addresses', 'customer_id', { references: { entity: 'customers', field: 'id', onDelete: 'cascade' } }],
    ['customers', 'default_address_id', { nullable: true, references: { entity: 'addresses', field: 'id', onDelete: 'set-null' } }],
    // The line's position within its order: (order_id, line_no) numbers each order's lines 1…n.
    ['order_items', 'line_no', { type: 'integer', generation: { strategy: { kind: 'sequence', start: 1, within: ['order_id'] } } }],
  ],
  rental: [
    ['film', 'rating', { type: 'enum', values: ['G', 'PG', 'PG-13', 'R', 'NC-17'], nullable: true }],
    ['film', 'rental_rate', { type: 'number', precision: 2, description: 'Price of one rental', default: { value: 4.99 } }],
    ['film', 'rating', { default: { value: 'G' } }],
    ['staff', 'active', { type: 'boolean', default: { value: true } }],
    ['film', 'last_update', { type: 'datetime', default: { function: 'now' } }],
    ['city', 'country_id', { references: { entity: 'country', field: 'country_id', onUpdate: 'cascade' } }],
    ['store', 'manager_staff_id', { references: { entity: 'staff', field: 'staff_id', relation: 'one-to-one', onUpdate: 'cascade' } }],
    ['payment', 'rental_id', { nullable: true, references: { entity: 'rental', field: 'rental_id', onDelete: 'set-null', onUpdate: 'cascade' } }],
  ],
  music: [
    ['employees', 'reports_to', { nullable: true, references: { entity: 'employees', field: 'employee_id' } }],
    ['artists', 'artist_id', { type: 'uuid' }],
    ['artists', 'formed_year', { type: 'integer', min: 1900, max: 2100, nullable: true }],
    ['artists', 'links', { type: 'json', nullable: true }],
    ['Track_Plays', 'duration', { type: 'time' }],
    ['tracks', 'milliseconds', { type: 'integer', min: 1 }],
  ],
};

for (const target of targets) {
  describe(`round trip on ${target.name}`, () => {
    const namespaces: string[] = [];
    afterAll(async () => {
      const connection = await openTarget(target);
      for (const namespace of namespaces) connection.track(namespace);
      await connection.cleanup();
    });

    for (const schema of SCHEMAS) {
      it(`${schema}: introspect → generate into a fresh namespace → introspect gives the same schema`, async () => {
        const original = await loadSchema(target, schema);
        namespaces.push(original);
        const introspected = await introspectDatabase(target.url, { namespace: original, rows: ROWS });
        expect(validateConfig(introspected.config).errors).toEqual([]);
        const messages = introspected.warnings.map((warning) => warning.message);
        for (const pattern of EXPECTED[target.name][schema]) expect(messages, String(pattern)).toContainEqual(expect.stringMatching(pattern));
        for (const [entity, field, want] of SAMPLES[schema]) {
          const found = introspected.config.entities.find((candidate) => candidate.id === entity)?.fields.find((candidate) => candidate.id === field);
          expect(found, `${entity}.${field}`).toMatchObject(want);
        }
        if (schema === 'shop') {
          // The composite foreign key, unique on its side: one shipment per order line.
          const shipments = introspected.config.entities.find((candidate) => candidate.id === 'shipments')!;
          expect(shipments.references).toEqual([
            { fields: ['order_id', 'line_no'], entity: 'order_items', targetFields: ['order_id', 'line_no'], relation: 'one-to-one', onDelete: 'cascade' },
          ]);
          expect(messages.filter((message) => message.includes('spans several columns'))).toEqual([]);
        }

        const fresh = uniqueNamespace(`intro_${schema}_gen`);
        namespaces.push(fresh, `${fresh}__next`);
        const connection = await target.dialect.connect(target.url);
        try {
          const summary = await runGeneration(connection, fresh, introspected.config);
          for (const entity of summary.entities) expect(entity.rowsInserted, entity.id).toBeGreaterThan(0);
        } finally {
          await connection.close();
        }

        const again = await introspectDatabase(target.url, { namespace: fresh, rows: ROWS });
        expect(diffConfigs(introspected.config, again.config)).toEqual([]);
        // Defaults too: the tables sds created declare them, and they read back the same.
        const defaults = (config: typeof again.config) => config.entities.flatMap((entity) => entity.fields.flatMap((field) => (field.default ? [[entity.id, field.id, field.default]] : [])));
        expect(defaults(again.config)).toEqual(defaults(introspected.config));
        const shape = (config: typeof again.config) => config.entities.map((entity) => [entity.id, entity.fields.map((field) => field.id)]);
        expect(shape(again.config)).toEqual(shape(introspected.config));
        expect(again.warnings).toEqual([]);
      }, SLOW);
    }

    it('rental: the cycle of NOT NULL references stays NOT NULL: one reference is filled after insert, every generated row has both, and the columns are NOT NULL', async () => {
      const original = await loadSchema(target, 'rental');
      const fresh = uniqueNamespace('intro_cycle_gen');
      namespaces.push(original, fresh, `${fresh}__next`);
      const { config, warnings } = await introspectDatabase(target.url, { namespace: original, rows: ROWS });
      expect(warnings.map((warning) => warning.message)).not.toContainEqual(expect.stringMatching(/reference cycle/));
      const fieldOf = (entity: string, field: string) => config.entities.find((candidate) => candidate.id === entity)!.fields.find((candidate) => candidate.id === field)!;
      const cycle = [fieldOf('staff', 'store_id'), fieldOf('store', 'manager_staff_id')];
      for (const field of cycle) expect(field.nullable ?? false, field.id).toBe(false);
      expect(cycle.filter((field) => field.references?.fillAfterInsert === true)).toHaveLength(1);
      const connection = await target.dialect.connect(target.url);
      try {
        await runGeneration(connection, fresh, config);
      } finally {
        await connection.close();
      }
      const inspector = await openInspector(target);
      try {
        const q = (name: string) => target.dialect.quoteIdentifier(name);
        for (const [table, column] of [['staff', 'store_id'], ['store', 'manager_staff_id']] as const) {
          const rows = await inspector.query(`SELECT COUNT(*) AS n FROM ${q(fresh)}.${q(table)} WHERE ${q(column)} IS NULL`);
          expect(Number(rows[0]!.n), `${table}.${column}`).toBe(0);
        }
        // The generated tables keep NOT NULL, as the original schema has it.
        const reader = await target.dialect.connect(target.url);
        try {
          const catalog = await reader.readCatalog(fresh);
          for (const [table, column] of [['staff', 'store_id'], ['store', 'manager_staff_id']] as const) {
            expect(catalog.tables.find((candidate) => candidate.name === table)!.columns.find((candidate) => candidate.name === column)!.nullable, `${table}.${column}`).toBe(false);
          }
        } finally {
          await reader.close();
        }
      } finally {
        await inspector.close();
      }
    }, SLOW);
  });
}
