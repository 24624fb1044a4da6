// runGeneration end to end on each database: a config with every field type and every reference
// option, checked in SQL (catalog and data): keys, foreign keys and their actions, uniqueness,
// nullability, row counts, deferred references; onDelete behaviour; determinism across namespaces
// and batch sizes; an aborted atomic run that leaves the live data serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/contract.ts';
import { connectMysql } from '../../../src/dialects/mysql/mysql-dialect.ts';
import type { Entity } from '../../../src/model/config-types.ts';
import { planGeneration, type GeneratorVersion } from '../../../src/generation/plan.ts';
import { runGeneration, stagingNamespace, type GenerationSummary, type ProgressEvent, type RunOptions } from '../../../src/generation/run.ts';
import { scheduleGeneration } from '../../../src/generation/schedule.ts';
import { dialectTargets, openInspector, openTarget, uniqueNamespace, type Inspector } from '../../helpers/dialect-targets.ts';
import { Catalog, type Action } from '../../helpers/catalog.ts';
import { everyOptionConfig, ROWS, TAG_VALUES } from '../../helpers/every-option-config.ts';

const DIALECTS = await dialectTargets();
const REFERENCE_DATE = '2025-06-15';

/** information_schema data_type per field type (DESIGN.md "Types"); `string` has a maxLength here, `decimal` is a number with precision. */
const COLUMN_TYPES: Record<string, Record<string, string>> = {
  postgres: {
    string: 'character varying',
    text: 'text',
    integer: 'integer',
    number: 'double precision',
    decimal: 'numeric',
    boolean: 'boolean',
    date: 'date',
    datetime: 'timestamp with time zone',
    time: 'time without time zone',
    uuid: 'uuid',
    json: 'jsonb',
    enum: 'text',
  },
  mysql: {
    string: 'varchar',
    text: 'text|mediumtext|longtext',
    integer: 'int',
    number: 'double',
    decimal: 'decimal',
    boolean: 'tinyint',
    date: 'date',
    datetime: 'datetime',
    time: 'time',
    uuid: 'char',
    // MariaDB's JSON is LONGTEXT with a json_valid check; MySQL 8 has a JSON type.
    json: 'json|longtext',
    enum: 'enum',
  },
};

type Connection = Awaited<ReturnType<typeof openTarget>>;

/** Unique column groups of an entity: primary key, uniqueKeys, unique indexes. */
function uniqueGroups(entity: Entity): string[][] {
  return [...(entity.primaryKey ? [entity.primaryKey] : []), ...(entity.uniqueKeys ?? []), ...(entity.indexes ?? []).filter((index) => index.unique).map((index) => index.fields)];
}

/** Generates into a fresh namespace (tracked for cleanup) and returns the summary. */
async function generateInto(connection: Connection, namespace: string, config: SchemaConfig, options: RunOptions = {}): Promise<GenerationSummary> {
  connection.track(namespace);
  connection.track(stagingNamespace(namespace));
  return runGeneration(connection, namespace, config, { referenceDate: REFERENCE_DATE, ...options });
}

/** Digests of every table of a config, in primary-key order. */
async function digests(catalog: Catalog, config: SchemaConfig): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const entity of config.entities) result[entity.id] = await catalog.digest(entity.id, entity.primaryKey!);
  return result;
}

/**
 * every-option's config and two entities more: its tags, and customers and purchases (a reference,
 * faker, dates, numbers, nulls, a unique field drawn by retries) are made in ranges.
 */
function rangesConfig(): SchemaConfig {
  const config: SchemaConfig = { ...everyOptionConfig('same-seed') };
  config.entities = [
    ...config.entities,
    {
      id: 'customers',
      primaryKey: ['id'],
      generation: { rowCount: 300 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'name', type: 'string', maxLength: 80, generation: { strategy: { kind: 'faker', method: 'person.fullName' } } },
        // Drawn unique by retries (300 of faker's few hundred first names: many rows take a later
        // attempt or a tag): made in ranges from the draws the loading thread found.
        { id: 'nickname', type: 'string', maxLength: 80, generation: { uniqueValues: true, strategy: { kind: 'faker', method: 'person.firstName' } } },
        { id: 'city', type: 'string', maxLength: 80 },
        { id: 'joinedAt', type: 'datetime', generation: { strategy: { kind: 'dateRange', from: '-2y', to: 'now' } } },
      ],
    },
    {
      id: 'purchases',
      primaryKey: ['id'],
      generation: { rowCount: 500 },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'customerId', type: 'integer', references: { entity: 'customers', field: 'id' } },
        { id: 'amount', type: 'number', precision: 2, min: 1, max: 500 },
        { id: 'note', type: 'string', maxLength: 200, nullable: true, generation: { emptyRate: 0.5, strategy: { kind: 'faker', method: 'lorem.sentence' } } },
      ],
    },
  ];
  return config;
}

for (const target of DIALECTS) {
  describe(`${target.name}: runGeneration of every field type and reference option`, () => {
    const config = everyOptionConfig();
    const namespace = uniqueNamespace('gen');
    let connection: Connection;
    let inspector: Inspector;
    let catalog: Catalog;
    let summary: GenerationSummary;
    const entity = (id: string) => config.entities.find((candidate) => candidate.id === id)!;

    beforeAll(async () => {
      connection = await openTarget(target);
      inspector = await openInspector(target);
      catalog = new Catalog(target, inspector, namespace);
      summary = await generateInto(connection, namespace, config, { atomic: true, batchSize: 64 });
    });

    afterAll(async () => {
      await inspector?.close();
      await connection?.cleanup();
    });

    it('creates one table per entity with the fields as columns of their types, NOT NULL unless nullable', async () => {
      expect(await catalog.tables()).toEqual(config.entities.map((candidate) => candidate.id).sort());
      expect(await connection.namespaceExists(stagingNamespace(namespace))).toBe(false);
      const types = COLUMN_TYPES[target.name]!;
      for (const { id, fields } of config.entities) {
        const columns = await catalog.columns(id);
        expect(
          columns.map(({ name, nullable }) => ({ name, nullable })),
          id,
        ).toEqual(fields.map((field) => ({ name: field.id, nullable: field.nullable === true })));
        fields.forEach((field, i) => {
          const want = field.type === 'number' ? (field.precision === undefined ? 'number' : 'decimal') : field.type === 'string' && field.maxLength === undefined ? 'text' : field.type;
          expect(types[want]!.split('|'), `${id}.${field.id}`).toContain(columns[i]!.type);
        });
      }
    });

    it('creates the declared primary keys, single and composite', async () => {
      for (const { id, primaryKey } of config.entities) expect(await catalog.primaryKey(id), id).toEqual(primaryKey);
      expect(await catalog.primaryKey('assignments')).toEqual(['projectId', 'personId']);
    });

    it('creates unique keys and indexes as declared, with the index ids given', async () => {
      for (const { id, uniqueKeys, indexes } of config.entities) {
        const found = (await catalog.indexes(id)).filter((index) => !index.primary).map(({ columns, unique }) => ({ columns, unique }));
        const declared = [...(uniqueKeys ?? []).map((columns) => ({ columns, unique: true })), ...(indexes ?? []).map((index) => ({ columns: index.fields, unique: index.unique === true }))];
        // MySQL adds an index of its own for a foreign key that no index starts with: only declared ones are compared.
        expect(found, id).toEqual(expect.arrayContaining(declared));
        if (target.name === 'postgres') expect(found, id).toHaveLength(declared.length);
      }
      const names = async (table: string) => (await catalog.indexes(table)).map((index) => [index.name, index.unique]);
      expect(await names('projects')).toEqual(expect.arrayContaining([['projects_code_key', true]]));
      expect(await names('people')).toEqual(expect.arrayContaining([['people_handle_unique', true]]));
    });

    it('creates a foreign key per reference with its onDelete and onUpdate actions, none for a reference strategy', async () => {
      // MariaDB reports RESTRICT as NO ACTION when sds adds keys in place (foreign_key_checks=0); InnoDB enforces both at once, alike.
      const normal = (action: Action) => (target.name === 'mysql' && action === 'no action' ? 'restrict' : action);
      for (const { id, fields } of config.entities) {
        const keys = (await catalog.foreignKeys(id)).map((key) => ({ ...key, onDelete: normal(key.onDelete), onUpdate: normal(key.onUpdate) }));
        const declared = fields
          .filter((field) => field.references)
          .map((field) => ({
            columns: [field.id],
            table: field.references!.entity,
            namespace,
            referenced: [field.references!.field],
            onDelete: field.references!.onDelete ?? 'restrict',
            onUpdate: field.references!.onUpdate ?? 'restrict',
          }));
        expect(
          keys.map(({ name: _name, ...key }) => key),
          id,
        ).toEqual(expect.arrayContaining(declared));
        expect(keys, id).toHaveLength(declared.length);
      }
      expect(await catalog.foreignKeys('events')).toEqual([]);
      expect((await catalog.foreignKeys('companies')).map((key) => [key.columns[0], key.onDelete, key.onUpdate])).toEqual(
        expect.arrayContaining([
          ['parentId', 'set-null', 'cascade'],
          ['ceoId', 'set-null', 'set-null'],
        ]),
      );
    });

    it('loads the row counts of the summary; an exhausted unique pool inserts fewer rows and warns', async () => {
      for (const { id, rowsPlanned, rowsInserted } of summary.entities) {
        expect(await connection.countRows(namespace, id), id).toBe(rowsInserted);
        expect(rowsPlanned, id).toBe(ROWS[id as keyof typeof ROWS]);
        if (id !== 'tags') expect(rowsInserted, id).toBe(rowsPlanned);
      }
      expect(summary.entities.find((candidate) => candidate.id === 'tags')).toEqual({ id: 'tags', rowsPlanned: 10, rowsInserted: TAG_VALUES.length });
      expect(summary.rowsInserted).toBe(summary.entities.reduce((sum, candidate) => sum + candidate.rowsInserted, 0));
      expect(summary.warnings).toContainEqual({
        path: `/entities/${config.entities.indexOf(entity('tags'))}/fields/1/generation/uniqueValues`,
        message: 'pool of 5 values for tags.label is exhausted after 5 rows; inserted 5 of 10 planned rows',
      });
      const labels = await catalog.query(`SELECT label FROM ${catalog.t('tags')}`);
      expect(labels.map((row) => String(row.label)).sort()).toEqual([...TAG_VALUES].sort());
    });

    it('every foreign key value exists in its parent, and so does every reference-strategy value', async () => {
      const references = config.entities.flatMap((child) =>
        child.fields.flatMap((field) => {
          const strategy = field.generation?.strategy;
          const to = field.references ?? (strategy?.kind === 'reference' ? strategy : undefined);
          return to ? [{ child: child.id, column: field.id, parent: to.entity, key: to.field }] : [];
        }),
      );
      expect(references).toHaveLength(8);
      for (const { child, column, parent, key } of references) {
        const { q, t } = catalog;
        const orphans = await catalog.count(
          `SELECT COUNT(*) AS n FROM ${t(child)} c LEFT JOIN ${t(parent)} p ON p.${q(key)} = c.${q(column)} WHERE c.${q(column)} IS NOT NULL AND p.${q(key)} IS NULL`,
        );
        expect(orphans, `${child}.${column} → ${parent}.${key}`).toBe(0);
        const filled = await catalog.count(`SELECT COUNT(*) AS n FROM ${t(child)} WHERE ${q(column)} IS NOT NULL`);
        expect(filled, `${child}.${column} has values`).toBeGreaterThan(0);
      }
    });

    it('one-to-one children use distinct parents', async () => {
      const [row] = await catalog.query(`SELECT COUNT(*) AS n, COUNT(DISTINCT ${catalog.q('personId')}) AS parents FROM ${catalog.t('profiles')}`);
      expect(Number(row!.n)).toBe(ROWS.profiles);
      expect(Number(row!.parents)).toBe(ROWS.profiles);
    });

    it('unique columns and key combinations hold no duplicates', async () => {
      for (const candidate of config.entities) {
        for (const group of uniqueGroups(candidate)) {
          const columns = group.map((column) => catalog.q(column)).join(', ');
          const duplicates = await catalog.query(`SELECT ${columns}, COUNT(*) AS n FROM ${catalog.t(candidate.id)} GROUP BY ${columns} HAVING COUNT(*) > 1`);
          expect(duplicates, `${candidate.id} (${group.join(', ')})`).toEqual([]);
        }
      }
      // uniqueKeys of two fields: the whole combination is unique (assignments' composite primary key too).
      expect(uniqueGroups(entity('projects'))).toContainEqual(['companyId', 'name']);
    });

    it('fills the nullable self reference after insert, each row pointing at an earlier one', async () => {
      const { q, t } = catalog;
      const rows = await catalog.query(`SELECT id, ${q('parentId')} AS parent FROM ${t('companies')} ORDER BY id`);
      expect(rows[0]!.parent).toBeNull();
      const filled = rows.filter((row) => row.parent !== null);
      expect(filled.length).toBe(ROWS.companies - 1);
      for (const row of filled) expect(Number(row.parent)).toBeLessThan(Number(row.id));
    });

    it('breaks the companies ↔ people cycle through the nullable ceoId, filled after insert at its emptyRate', async () => {
      const empty = await catalog.count(`SELECT COUNT(*) AS n FROM ${catalog.t('companies')} WHERE ${catalog.q('ceoId')} IS NULL`);
      // emptyRate 0.25 of 40 rows: about 10.
      expect(empty).toBeGreaterThanOrEqual(3);
      expect(empty).toBeLessThanOrEqual(20);
      const required = await catalog.count(`SELECT COUNT(*) AS n FROM ${catalog.t('people')} WHERE ${catalog.q('companyId')} IS NULL`);
      expect(required).toBe(0);
    });

    it('sequential picks take the parents in order, wrapping around', async () => {
      const { q, t } = catalog;
      const rows = await catalog.query(`SELECT id, ${q('companyId')} AS company FROM ${t('projects')} ORDER BY id`);
      expect(rows.map((row) => Number(row.company))).toEqual(rows.map((row) => ((Number(row.id) - 1) % ROWS.companies) + 1));
    });

    it('nullable fields with emptyRate hold about that share of nulls; fields without one none', async () => {
      const nulls = (table: string, column: string) => catalog.count(`SELECT COUNT(*) AS n FROM ${catalog.t(table)} WHERE ${catalog.q(column)} IS NULL`);
      for (const [table, column, rate, rows] of [
        ['people', 'bio', 0.3, ROWS.people],
        ['people', 'prefs', 0.5, ROWS.people],
        ['assignments', 'note', 0.6, ROWS.assignments],
      ] as const) {
        const share = (await nulls(table, column)) / rows;
        expect(share, `${table}.${column}`).toBeGreaterThan(rate - 0.12);
        expect(share, `${table}.${column}`).toBeLessThan(rate + 0.12);
      }
      expect(await nulls('companies', 'website')).toBe(0);
    });

    it('keeps values within their declared bounds and formats', async () => {
      const { q, t } = catalog;
      const outside = await catalog.count(
        `SELECT COUNT(*) AS n FROM ${t('people')} WHERE age < 18 OR age > 90 OR ${q('handle')} NOT LIKE '@%_x' OR ${target.name === 'postgres' ? 'char_length' : 'CHAR_LENGTH'}(${q('handle')}) > 30 OR email NOT LIKE '%@%'`,
      );
      expect(outside).toBe(0);
      const weekend =
        target.name === 'postgres'
          ? `SELECT COUNT(*) AS n FROM ${t('companies')} WHERE extract(isodow FROM founded) > 5`
          : `SELECT COUNT(*) AS n FROM ${t('companies')} WHERE WEEKDAY(founded) > 4`;
      expect(await catalog.count(weekend)).toBe(0);
      const [events] = await catalog.query(`SELECT MIN(id) AS first, MAX(id) AS last, COUNT(DISTINCT version) AS versions, MIN(${q('happenedOn')}) AS since FROM ${t('events')}`);
      expect(Number(events!.first)).toBe(1000);
      expect(Number(events!.last)).toBe(1000 + 5 * (ROWS.events - 1));
      expect(Number(events!.versions)).toBe(1);
      expect(String(events!.since) >= '2024-01-01').toBe(true);
      const labels = await catalog.count(`SELECT COUNT(*) AS n FROM ${t('events')} WHERE label <> ${target.name === 'postgres' ? `kind || ' #' || id` : `CONCAT(kind, ' #', id)`}`);
      expect(labels).toBe(0);
    });

    // The behaviour tests below change the data: they come last.

    it('onDelete restrict: a person with assignments cannot be deleted', async () => {
      const { q, t, p } = catalog;
      const [busy] = await catalog.query(`SELECT ${q('personId')} AS id FROM ${t('assignments')} ORDER BY ${q('personId')} LIMIT 1`);
      const before = await catalog.count(`SELECT COUNT(*) AS n FROM ${t('assignments')}`);
      const error = await catalog.query(`DELETE FROM ${t('people')} WHERE id = ${p(1)}`, [busy!.id]).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeDefined();
      expect(target.dialect.mapError(error)).toMatchObject({ kind: 'foreign_key_violation', constraint: 'assignments_personId_fkey' });
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('people')} WHERE id = ${p(1)}`, [busy!.id])).toBe(1);
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('assignments')}`)).toBe(before);
    });

    it('onDelete cascade: deleting a project deletes its assignments', async () => {
      const { q, t, p } = catalog;
      const [project] = await catalog.query(`SELECT ${q('projectId')} AS id, COUNT(*) AS n FROM ${t('assignments')} GROUP BY ${q('projectId')} ORDER BY 2 DESC, 1 LIMIT 1`);
      const before = await catalog.count(`SELECT COUNT(*) AS n FROM ${t('assignments')}`);
      expect(Number(project!.n)).toBeGreaterThan(1);
      await catalog.query(`DELETE FROM ${t('projects')} WHERE id = ${p(1)}`, [project!.id]);
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('assignments')} WHERE ${q('projectId')} = ${p(1)}`, [project!.id])).toBe(0);
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('assignments')}`)).toBe(before - Number(project!.n));
    });

    it('onDelete cascade and set-null: deleting a CEO without assignments deletes their profile and empties ceoId', async () => {
      const { q, t, p } = catalog;
      const [ceo] = await catalog.query(
        `SELECT c.${q('ceoId')} AS id FROM ${t('companies')} c JOIN ${t('profiles')} f ON f.${q('personId')} = c.${q('ceoId')}
          WHERE NOT EXISTS (SELECT 1 FROM ${t('assignments')} a WHERE a.${q('personId')} = c.${q('ceoId')}) ORDER BY 1 LIMIT 1`,
      );
      expect(ceo, 'a CEO with a profile and no assignments').toBeDefined();
      const companies = await catalog.count(`SELECT COUNT(*) AS n FROM ${t('companies')}`);
      await catalog.query(`DELETE FROM ${t('people')} WHERE id = ${p(1)}`, [ceo!.id]);
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('profiles')} WHERE ${q('personId')} = ${p(1)}`, [ceo!.id])).toBe(0);
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('companies')} WHERE ${q('ceoId')} = ${p(1)}`, [ceo!.id])).toBe(0);
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('companies')}`)).toBe(companies);
    });

    it('onDelete through several levels: a company takes its people and their profiles, and its children and CEO references go null', async () => {
      const { q, t, p } = catalog;
      const [parent] = await catalog.query(
        `SELECT ${q('parentId')} AS id, COUNT(*) AS n FROM ${t('companies')} WHERE ${q('parentId')} IS NOT NULL GROUP BY ${q('parentId')} ORDER BY 2 DESC, 1 LIMIT 1`,
      );
      const id = Number(parent!.id);
      // Clear what restricts the delete: its projects (their assignments cascade) and its people's assignments.
      await catalog.query(`DELETE FROM ${t('projects')} WHERE ${q('companyId')} = ${p(1)}`, [id]);
      await catalog.query(
        `DELETE FROM ${t('assignments')} WHERE ${q('personId')} IN (SELECT id FROM (SELECT id FROM ${t('people')} WHERE ${q('companyId')} = ${p(1)}) AS staff)`,
        [id],
      );
      const staff = (await catalog.query(`SELECT id FROM ${t('people')} WHERE ${q('companyId')} = ${p(1)}`, [id])).map((row) => String(row.id));
      expect(staff.length).toBeGreaterThan(0);
      const inList = staff.map((_, i) => p(i + 1)).join(', ');
      const [row] = await catalog.query(`SELECT ${q('parentId')} AS parent FROM ${t('companies')} WHERE id = ${p(1)}`, [id]);
      const roots = await catalog.count(`SELECT COUNT(*) AS n FROM ${t('companies')} WHERE ${q('parentId')} IS NULL`);

      await catalog.query(`DELETE FROM ${t('companies')} WHERE id = ${p(1)}`, [id]);

      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('people')} WHERE id IN (${inList})`, staff)).toBe(0);
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('profiles')} WHERE ${q('personId')} IN (${inList})`, staff)).toBe(0);
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('companies')} WHERE ${q('ceoId')} IN (${inList})`, staff)).toBe(0);
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('companies')} WHERE ${q('parentId')} = ${p(1)}`, [id])).toBe(0);
      // Its children became roots; it was one itself when it had no parent.
      const after = roots + Number(parent!.n) - (row!.parent === null ? 1 : 0);
      expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('companies')} WHERE ${q('parentId')} IS NULL`)).toBe(after);
    });
  });

  describe(`${target.name}: determinism`, () => {
    let connection: Connection;
    let inspector: Inspector;

    beforeAll(async () => {
      connection = await openTarget(target);
      inspector = await openInspector(target);
    });

    afterAll(async () => {
      await inspector?.close();
      await connection?.cleanup();
    });

    it('the same seed gives byte-identical tables in two namespaces, with batches of 1 000 or 7', async () => {
      const config = everyOptionConfig('same-seed');
      const runs = [
        { namespace: uniqueNamespace('det_a'), batchSize: 1_000 },
        { namespace: uniqueNamespace('det_b'), batchSize: 1_000 },
        { namespace: uniqueNamespace('det_c'), batchSize: 7 },
      ];
      const results: Array<Record<string, string>> = [];
      for (const { namespace, batchSize } of runs) {
        await generateInto(connection, namespace, config, { batchSize });
        results.push(await digests(new Catalog(target, inspector, namespace), config));
      }
      expect(results[1]).toEqual(results[0]);
      expect(results[2]).toEqual(results[0]);

      // A different seed changes the data (so the digests do look at it).
      const other = uniqueNamespace('det_d');
      await generateInto(connection, other, everyOptionConfig('another-seed'), { batchSize: 1_000 });
      const changed = await digests(new Catalog(target, inspector, other), config);
      expect(changed.people).not.toBe(results[0]!.people);
      expect(changed.companies).not.toBe(results[0]!.companies);
    }, 120_000);

    it('gives byte-identical tables whatever the number of threads making the rows (entities made in ranges by worker threads) or of loads streamed at once', async () => {
      const config = rangesConfig();
      for (const generatorVersion of [1, 4] as GeneratorVersion[]) {
        const plan = planGeneration(config, { referenceDate: REFERENCE_DATE, generatorVersion });
        const inRanges = scheduleGeneration(config, plan).entities.filter((entity) => entity.made === 'ranges' && entity.deferredColumns.length === 0).map((entity) => entity.id);
        expect(inRanges, `version ${generatorVersion}: entities made in ranges`).toEqual(expect.arrayContaining(['tags', 'customers', 'purchases']));
        const results: Array<Record<string, string>> = [];
        // The last run: one thread, 3 loads at once (entities made in ranges streamed beside the others, in parts of 100 rows or more).
        for (const [workers, streams] of [[1, 1], [2, 1], [3, 1], [1, 3]] as const) {
          const namespace = uniqueNamespace(`det_w${workers}s${streams}`);
          const progress: ProgressEvent[] = [];
          await generateInto(connection, namespace, config, { generatorVersion, workers, streams, streamPartMinRows: 100, parallelMinRows: 1, rangeRows: 2, batchSize: 1_000, onProgress: (event) => progress.push(event) });
          // Progress in steps of 2 shows an entity's rows came from the threads' ranges of 2 rows, not from batches of 1,000.
          const fromRanges = [...new Set(progress.filter((event) => event.type === 'entity.progress' && event.rowsWritten === 2).map((event) => (event as { entity: string }).entity))];
          if (workers > 1) expect(fromRanges, `version ${generatorVersion}, ${workers} threads: entities loaded from ranges`).toContain('purchases');
          else expect(fromRanges).toEqual([]);
          // Version 1 audits nothing by default: customers (with their unique nicknames) come from the threads too.
          if (workers > 1 && generatorVersion === 1) expect(fromRanges, `version 1, ${workers} threads: entities loaded from ranges`).toContain('customers');
          if (streams > 1) {
            // purchases (500 rows) streamed in 3 parts of 166 or 167 rows: its first progress is one part's.
            const first = progress.find((event) => event.type === 'entity.progress' && event.entity === 'purchases');
            expect(first?.type === 'entity.progress' && first.rowsWritten, `version ${generatorVersion}, 3 streams: purchases' first progress`).toBeLessThan(500);
            expect(progress.filter((event) => event.type === 'entity.completed').length).toBe(config.entities.length);
          }
          results.push(await digests(new Catalog(target, inspector, namespace), config));
        }
        expect(results[1], `version ${generatorVersion}, 2 threads`).toEqual(results[0]);
        expect(results[2], `version ${generatorVersion}, 3 threads`).toEqual(results[0]);
        expect(results[3], `version ${generatorVersion}, 3 streams`).toEqual(results[0]);
      }
    }, 180_000);

    // MySQL only (there is no such choice on PostgreSQL): not declared at all elsewhere, rather than skipped.
    if (target.dialect.kind === 'mysql') it('gives the same tables when LOAD DATA is refused (fallback to INSERT) or not used', async () => {
      const config = everyOptionConfig('same-seed');
      const results: Array<Record<string, string>> = [];
      for (const options of [{}, { clientLocalInfile: false }, { loadMethod: 'insert' as const }]) {
        const other = await connectMysql(target.url, options);
        const namespace = uniqueNamespace('det_my');
        try {
          await runGeneration(other, namespace, config, { referenceDate: REFERENCE_DATE, batchSize: 7 });
          results.push(await digests(new Catalog(target, inspector, namespace), config));
        } finally {
          await other.dropNamespace(namespace);
          await other.close();
        }
      }
      expect(results[1]).toEqual(results[0]);
      expect(results[2]).toEqual(results[0]);
    }, 120_000);
  });

  describe(`${target.name}: atomic runs`, () => {
    let connection: Connection;
    let inspector: Inspector;

    beforeAll(async () => {
      connection = await openTarget(target);
      inspector = await openInspector(target);
    });

    afterAll(async () => {
      await inspector?.close();
      await connection?.cleanup();
    });

    it('an aborted run (loads streamed at once) leaves the live namespace intact and drops its staging namespace; the next run replaces the data', async () => {
      const live = uniqueNamespace('live');
      const catalog = new Catalog(target, inspector, live);
      const first = await generateInto(connection, live, everyOptionConfig('first'), { atomic: true });
      const before = await digests(catalog, everyOptionConfig());

      const controller = new AbortController();
      const events: string[] = [];
      const failure = await generateInto(connection, live, everyOptionConfig('second'), {
        atomic: true,
        batchSize: 20,
        // Loads at once: the entities made in ranges streamed beside people stop with it.
        streams: 3,
        streamPartMinRows: 10,
        signal: controller.signal,
        onProgress: (event) => {
          events.push(event.type === 'phase' ? event.phase : `${event.type} ${event.entity}`);
          // Abort mid-load: people has streamed some of its batches.
          if (event.type === 'entity.progress' && event.entity === 'people' && event.rowsWritten >= 100) controller.abort();
        },
      }).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failure, 'the aborted run rejects').toBeInstanceOf(Error);
      expect(failure!.name).toBe('AbortError');
      expect(events).toContain('entity.started people');
      expect(events).not.toContain('entity.completed people');
      expect(await connection.namespaceExists(stagingNamespace(live))).toBe(false);
      expect(await digests(catalog, everyOptionConfig())).toEqual(before);
      for (const { id, rowsInserted } of first.entities) expect(await connection.countRows(live, id), id).toBe(rowsInserted);

      await generateInto(connection, live, everyOptionConfig('second'), { atomic: true });
      expect(await connection.namespaceExists(stagingNamespace(live))).toBe(false);
      const after = await digests(catalog, everyOptionConfig());
      expect(after.people).not.toBe(before.people);
    }, 120_000);
  });
}

/** One required field of every type (and the string formats), each with an emptyRate. */
function requiredWithEmptyRate(emptyRate: number | undefined): SchemaConfig {
  const fields: Entity['fields'] = [
    { id: 'memo', type: 'string', maxLength: 80 },
    { id: 'longMemo', type: 'string' },
    { id: 'email', type: 'string', format: 'email' },
    { id: 'website', type: 'string', format: 'url' },
    { id: 'handle', type: 'string', format: 'slug' },
    { id: 'phone', type: 'string', format: 'phone' },
    { id: 'body', type: 'text' },
    { id: 'count', type: 'integer' },
    { id: 'ratio', type: 'number' },
    { id: 'price', type: 'number', precision: 2 },
    { id: 'flag', type: 'boolean' },
    { id: 'day', type: 'date' },
    { id: 'seenAt', type: 'datetime' },
    { id: 'opensAt', type: 'time' },
    { id: 'token', type: 'uuid' },
    { id: 'prefs', type: 'json' },
    { id: 'tier', type: 'enum', values: ['bronze', 'silver', 'gold'] },
  ];
  return {
    formatVersion: 1,
    generationDefaults: { rowCount: 400, seed: 'required-empty' },
    entities: [
      {
        id: 'notes',
        primaryKey: ['id'],
        fields: [{ id: 'id', type: 'integer' }, ...fields.map((field) => (emptyRate === undefined ? field : { ...field, generation: { emptyRate } }))],
      },
    ],
  };
}

for (const target of DIALECTS) {
  describe(`${target.name}: emptyRate on required fields`, () => {
    let connection: Connection;
    let inspector: Inspector;
    beforeAll(async () => {
      connection = await openTarget(target);
      inspector = await openInspector(target);
    });
    afterAll(async () => {
      await inspector?.close();
      await connection?.cleanup();
    });

    it('never empties a required field of any type: its rows hold the values they hold without emptyRate', async () => {
      const [sparse, plain] = [uniqueNamespace('req_empty'), uniqueNamespace('req_plain')];
      const config = requiredWithEmptyRate(0.5);
      await generateInto(connection, sparse, config);
      await generateInto(connection, plain, requiredWithEmptyRate(undefined));
      const catalog = new Catalog(target, inspector, sparse);
      const { q, t } = catalog;
      for (const field of config.entities[0]!.fields) {
        const textual = field.type === 'string' || field.type === 'text' || field.type === 'enum';
        const empty = `${q(field.id)} IS NULL${textual ? ` OR ${q(field.id)} = ''` : ''}`;
        expect(await catalog.count(`SELECT COUNT(*) AS n FROM ${t('notes')} WHERE ${empty}`), field.id).toBe(0);
      }
      expect(await catalog.digest('notes', ['id'])).toBe(await new Catalog(target, inspector, plain).digest('notes', ['id']));
    }, 120_000);
  });
}
