// Generator version 5's rules by table context (part of the realism suite), loaded into each database
// and checked in SQL on test/fixtures/context-schemas.ts: genres, media types, categories, tags,
// document and MIME types, species and pet names are words of their kind; clinics and companies
// have organisations' names, and their websites, domains and staff's emails come from those names
// (owners, a clinic's customers, keep their own); a visit's stages follow its schedule by minutes
// and never pass the reference date; a hotel's check-out follows its check-in by nights. The
// run's report counts each rule by its id.
import { describe, expect, it } from 'vitest';
import { type GenerationSummary } from '../../../src/generation/run.ts';
import { DOCUMENT_TYPES, MEDIA_TYPES, MIME_TYPES, MUSIC_GENRES, PET_NAMES, SPECIES, TAGS } from '../../../src/generation/rules/context-words.ts';
import { LANGUAGE_NAMES } from '../../../src/generation/rules/identifier-makers.ts';
import { dialectTargets, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { generateBeforeAll } from '../../helpers/generated-namespace.ts';
import { Catalog } from '../../helpers/catalog.ts';
import { CONTEXT_ROWS, contextSchema } from '../../fixtures/context-schemas.ts';

const DIALECTS = await dialectTargets();
const REFERENCE_DATE = '2025-06-15';

/** A SQL list of string literals. */
const list = (words: readonly string[]) => `(${words.map((word) => `'${word.replaceAll("'", "''")}'`).join(', ')})`;

for (const target of DIALECTS) {
  describe(`${target.name}: generator version 5 reads columns by their table`, () => {
    const namespace = uniqueNamespace('ctx');
    let catalog: Catalog;
    let summary: GenerationSummary;
    generateBeforeAll(target, namespace, contextSchema, { referenceDate: REFERENCE_DATE, generatorVersion: 5 }, (generated) => ({ catalog, summary } = generated), 120_000);

    /** Rows of a table (aliased `x`, optionally joined) where `where` holds. */
    const rows = (table: string, where: string, join = '') => catalog.count(`SELECT count(*) FROM ${catalog.t(table)} x ${join} WHERE ${where}`);
    const c = (name: string, alias = 'x') => `${alias}.${catalog.q(name)}`;
    const joined = (table: string, alias: string, on: string) => `JOIN ${catalog.t(table)} ${alias} ON ${on}`;

    it('loads every row under generator version 5', async () => {
      expect(summary.generatorVersion).toBe('5.0.0+faker-10.6.0');
      for (const [table, count] of Object.entries(CONTEXT_ROWS)) expect(await rows(table, '1 = 1'), table).toBe(count);
    });

    it('genres, media types, categories, tags, languages, document and MIME types are words of their kind (a music store: music genres)', async () => {
      expect(await rows('genres', `${c('name')} IN ${list(MUSIC_GENRES)}`)).toBe(CONTEXT_ROWS.genres);
      expect(await catalog.count(`SELECT count(DISTINCT ${catalog.q('name')}) FROM ${catalog.t('genres')}`)).toBe(CONTEXT_ROWS.genres);
      expect(await rows('media_types', `${c('name')} IN ${list(MEDIA_TYPES)}`)).toBe(CONTEXT_ROWS.media_types);
      expect(await rows('categories', `${c('name')} IN ${list(MUSIC_GENRES)}`)).toBe(CONTEXT_ROWS.categories);
      expect(await rows('tags', `${c('name')} IN ${list(TAGS)}`)).toBe(CONTEXT_ROWS.tags);
      expect(await rows('languages', `${c('name')} IN ${list(LANGUAGE_NAMES)}`)).toBe(CONTEXT_ROWS.languages);
      expect(await rows('documents', `${c('document_type')} IN ${list(DOCUMENT_TYPES)} AND ${c('mime_type')} IN ${list(MIME_TYPES)}`)).toBe(CONTEXT_ROWS.documents);
    });

    it('pets have pet names and species; a clinic is named as one', async () => {
      expect(await rows('pets', `${c('name')} IN ${list(PET_NAMES)} AND ${c('species')} IN ${list(SPECIES)}`)).toBe(CONTEXT_ROWS.pets);
      expect(await rows('pets', `${c('species')} IN ('Dog', 'Cat')`)).toBeGreaterThan(CONTEXT_ROWS.pets / 2);
      expect(await rows('clinics', `${c('name')} LIKE '% Clinic' OR ${c('name')} LIKE '% Hospital' OR ${c('name')} LIKE '% Practice'`)).toBe(CONTEXT_ROWS.clinics);
      expect(await rows('companies', `${c('name')} LIKE '% %'`)).toBe(CONTEXT_ROWS.companies);
    });

    it("websites, domains and staff's emails come from the company's name; a clinic's owners keep their own emails", async () => {
      // The domain without `https://www.` (12 characters).
      const domainOf = (website: string) => `SUBSTR(${website}, 13)`;
      expect(await rows('companies', `${c('website')} = CONCAT('https://www.', ${c('domain')}) AND ${c('domain')} LIKE '%.com'`)).toBe(CONTEXT_ROWS.companies);
      expect(await rows('clinics', `${c('website')} LIKE 'https://www.%.com' AND ${c('email')} LIKE CONCAT('%@', ${domainOf(c('website'))})`)).toBe(CONTEXT_ROWS.clinics);
      expect(await rows('users', `${c('email')} LIKE CONCAT('%@', ${c('domain', 'o')})`, joined('companies', 'o', `o.${catalog.q('id')} = ${c('company_id')}`))).toBe(CONTEXT_ROWS.users);
      expect(await rows('vets', `${c('email')} LIKE CONCAT(LOWER(${c('first_name')}), '.%@', ${domainOf(c('website', 'k'))})`, joined('clinics', 'k', `k.${catalog.q('id')} = ${c('clinic_id')}`))).toBe(
        CONTEXT_ROWS.vets,
      );
      expect(await rows('owners', `${c('email')} LIKE CONCAT('%@', ${domainOf(c('website', 'k'))})`, joined('clinics', 'k', `k.${catalog.q('id')} = ${c('clinic_id')}`))).toBe(0);
    });

    it("a visit's stages follow its schedule: scheduled ≤ checked in (within 30 minutes) ≤ started ≤ ended ≤ checked out, none after the reference date", async () => {
      const stages = ['created_at', 'scheduled_at', 'checked_in_at', 'started_at', 'ended_at', 'checked_out_at'];
      for (let i = 1; i < stages.length; i++) {
        for (const earlier of stages.slice(0, i)) expect(await rows('visits', `${c(stages[i]!)} < ${c(earlier)}`), `${earlier} ≤ ${stages[i]}`).toBe(0);
        expect(await rows('visits', `${c(stages[i]!)} IS NOT NULL`)).toBeGreaterThan(CONTEXT_ROWS.visits / 2);
      }
      const minutes = (from: string, to: string) => (catalog.postgres ? `EXTRACT(EPOCH FROM (${to} - ${from})) / 60` : `TIMESTAMPDIFF(SECOND, ${from}, ${to}) / 60`);
      expect(await rows('visits', `${minutes(c('scheduled_at'), c('checked_in_at'))} > 30`)).toBe(0);
      expect(await rows('visits', `${minutes(c('scheduled_at'), c('checked_out_at'))} > 24 * 60`)).toBe(0);
      const now = catalog.postgres ? `TIMESTAMPTZ '${REFERENCE_DATE} 00:00:00+00'` : `TIMESTAMP('${REFERENCE_DATE} 00:00:00')`;
      for (const stage of stages) expect(await rows('visits', `${c(stage)} > ${now}`), stage).toBe(0);
    });

    it("a hotel's check-in follows its booking and its check-out follows by 1 to 14 nights", async () => {
      const day = (column: string) => (catalog.postgres ? `(${column} AT TIME ZONE 'UTC')::date` : `DATE(${column})`);
      const nights = catalog.postgres ? `${c('check_out')} - ${c('check_in')}` : `DATEDIFF(${c('check_out')}, ${c('check_in')})`;
      expect(await rows('bookings', `${c('check_in')} < ${day(c('booked_at'))}`)).toBe(0);
      expect(await rows('bookings', `${nights} BETWEEN 1 AND 14`)).toBe(CONTEXT_ROWS.bookings);
    });

    it('the report counts every version 5 rule by its id, all holding', () => {
      const counted = (ruleId: string, field: string, entity?: string) =>
        summary.coherence!.find((count) => count.ruleId === ruleId && count.field === field && (entity === undefined || count.entity === entity));
      for (const [ruleId, table, field] of [
        ['kind.genre', 'genres', 'name'],
        ['kind.media-type', 'media_types', 'name'],
        ['kind.category', 'categories', 'name'],
        ['kind.tag', 'tags', 'name'],
        ['kind.document-type', 'documents', 'document_type'],
        ['kind.mime-type', 'documents', 'mime_type'],
        ['kind.species', 'pets', 'species'],
        ['name.pet', 'pets', 'name'],
        ['name.organisation', 'clinics', 'name'],
        ['name.by-table', 'users', 'name'],
        ['kind.language', 'languages', 'name'],
        ['person.title-of-staff', 'vets', 'title'],
      ] as const) {
        expect(counted(ruleId, field, table), ruleId).toMatchObject({ rule: 'in-vocabulary', entity: table, rows: CONTEXT_ROWS[table], holding: CONTEXT_ROWS[table] });
      }
      expect(counted('web.of-company', 'email', 'clinics')).toMatchObject({ rule: 'from-company', against: 'name', entity: 'clinics', holding: CONTEXT_ROWS.clinics });
      expect(summary.coherence!.filter((count) => count.rule === 'from-company' && count.rows !== count.holding)).toEqual([]);
      expect(summary.coherence).toContainEqual(expect.objectContaining({ rule: 'from-company', entity: 'vets', field: 'email', against: 'clinics.name', rows: CONTEXT_ROWS.vets, holding: CONTEXT_ROWS.vets }));
      expect(summary.coherence).toContainEqual(expect.objectContaining({ rule: 'time-pair-ordered', ruleId: 'time.stage-order', entity: 'visits', field: 'checked_in_at', against: 'scheduled_at' }));
    });
  });
}
