// Generator version 2 stays deterministic per (seed, entity, field, row): same seed, same rows; a
// field added changes no other field; batch sizes and worker threads change nothing; and its rules
// hold for any seed (property test). Version 1 of the same config differs (it is not coherent).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { allLocales } from '@faker-js/faker';
import { afterAll, describe, expect, it } from 'vitest';
import type { Field } from '../../../src/model/config-types.ts';
import { generateFiles } from '../../../src/files/generate-files.ts';
import { FIELD_RULES } from '../../../src/generation/rules/field-rules.ts';
import { ruleMatch } from '../../../src/generation/rules/field-rule.ts';
import { ruleOf } from '../../../src/generation/rules/choose-rule.ts';
import { placesOf } from '../../../src/generation/coherence/places.ts';
import { dayOfText, instantOf, pairStart } from '../../../src/generation/coherence/time.ts';
import { formatDay, formatInstant } from '../../../src/generation/values/dates.ts';
import { config as configOf, entity, generate } from '../../helpers/generate-in-memory.ts';
import { coherentConfig } from '../../fixtures/coherent-config.ts';

const V2 = { generatorVersion: 2 } as const;

describe('generator version 2', () => {
  it('gives the same rows for the same seed, whatever the batch size, and other rows for another seed', () => {
    const one = generate(coherentConfig(), V2, 1000);
    const again = generate(coherentConfig(), V2, 7);
    for (const entity of ['customers', 'subscriptions', 'orders']) expect(again.rows.get(entity), entity).toEqual(one.rows.get(entity));
    const other = generate(coherentConfig('other'), V2);
    expect(other.column('customers', 'email')).not.toEqual(one.column('customers', 'email'));
  });

  it('leaves every other field unchanged when a field is added', () => {
    const before = generate(coherentConfig(), V2);
    const config = coherentConfig();
    const customers = config.entities[0]!;
    const added: Field[] = [
      { id: 'middleName', type: 'string', maxLength: 60 },
      { id: 'homeCity', type: 'string', maxLength: 80 },
    ];
    customers.fields.splice(3, 0, ...added);
    const after = generate(config, V2);
    for (const field of coherentConfig().entities[0]!.fields) {
      expect(after.column('customers', field.id), field.id).toEqual(before.column('customers', field.id));
    }
    // The added ones belong to the row too: its city.
    expect(after.column('customers', 'homeCity')).toEqual(before.column('customers', 'city'));
  });

  it('differs from version 1, whose emails are unrelated to the names', () => {
    const one = generate(coherentConfig(), { generatorVersion: 1 });
    const two = generate(coherentConfig(), V2);
    const related = (run: typeof one) =>
      run.objects('customers').filter((row) => String(row.email).startsWith(String(row.firstName)[0]!.toLowerCase()) && String(row.email).includes(String(row.lastName).toLowerCase())).length;
    expect(related(two)).toBe(300);
    expect(related(one)).toBeLessThan(30);
  });

  it('ends tags in a locale whose English word lists fall back to three nouns (it used to loop forever on a fourth)', () => {
    const tagged = configOf(entity('posts', 200, [{ id: 'tags', type: 'string', maxLength: 200 }]));
    tagged.generationDefaults = { ...tagged.generationDefaults, locale: 'de' };
    const rows = generate(tagged, V2).objects('posts');
    expect(rows).toHaveLength(200);
    const counts = new Set<number>();
    for (const row of rows) {
      const tags = String(row.tags).split(', ');
      expect(new Set(tags).size, String(row.tags)).toBe(tags.length);
      counts.add(tags.length);
    }
    expect([...counts].sort()).toEqual([1, 2, 3]);
  });

  it('gives names of the gender a strategy sets', () => {
    const config = coherentConfig();
    const customers = config.entities[0]!;
    customers.fields[customers.fields.findIndex((field) => field.id === 'gender')] = {
      id: 'gender',
      type: 'string',
      maxLength: 1,
      generation: { strategy: { kind: 'weightedChoice', choices: [{ value: 'F', weight: 3 }, { value: 'M', weight: 1 }] } },
    };
    const rows = generate(config, V2).objects('customers');
    const names = allLocales.en.person!.first_name as { female: string[]; male: string[] };
    expect(rows.filter((row) => row.gender === 'F').length).toBeGreaterThan(180);
    for (const row of rows) expect(names[row.gender === 'F' ? 'female' : 'male'], `${row.gender} ${row.firstName}`).toContain(row.firstName);
  });

  it('holds its rules for any seed', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), (seed) => {
        const config = coherentConfig(seed);
        config.entities[0]!.generation = { rowCount: 25 };
        config.entities[1]!.generation = { rowCount: 25 };
        config.entities[2]!.generation = { rowCount: 25 };
        const run = generate(config, V2);
        const customers = new Map(run.objects('customers').map((row) => [row.id, row]));
        for (const row of customers.values()) {
          const first = String(row.firstName)[0]!.toLowerCase();
          const last = String(row.lastName).toLowerCase();
          expect(String(row.email).startsWith(first) && String(row.email).includes(last)).toBe(true);
          expect(row.fullName).toBe(`${row.firstName} ${row.lastName}`);
        }
        for (const row of run.objects('subscriptions')) {
          expect(String(row.endDate) >= String(row.startDate)).toBe(true);
          expect(Date.parse(String(row.createdAt))).toBeGreaterThanOrEqual(Date.parse(String(customers.get(row.customerId)!.createdAt)));
        }
      }),
      { numRuns: 15 },
    );
  });

  it('reads stored dates and instants as Date does (years 1 to 9999)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 }), (ms) => {
        expect(instantOf(formatInstant(ms))).toBe(ms);
        expect(dayOfText(formatDay(Math.floor(ms / 86_400_000)))).toBe(Math.floor(ms / 86_400_000));
      }),
      { numRuns: 20_000 },
    );
    expect(instantOf('2025-06-15T10:00:00+02:00')).toBe(Date.parse('2025-06-15T08:00:00Z'));
  });

  it('matches ids of pairs and rules as documented', () => {
    const entity = coherentConfig().entities[1]!;
    expect(pairStart(entity, entity.fields.find((field) => field.id === 'endDate')!)).toBe(entity.fields.findIndex((field) => field.id === 'startDate'));
    expect(pairStart(entity, entity.fields.find((field) => field.id === 'validTo')!)).toBe(entity.fields.findIndex((field) => field.id === 'validFrom'));
    expect(pairStart(entity, entity.fields.find((field) => field.id === 'startDate')!)).toBe(-1);
    const scope = { entity, entities: [entity], deferred: [], version: 2 } as const;
    expect(ruleOf(scope, { id: 'billing_city', type: 'string' })?.id).toBe('place.city');
    expect(ruleOf(scope, { id: 'contactEmail', type: 'string' })?.id).toBe('person.email');
    expect(ruleOf(scope, { id: 'city', type: 'integer' })).toBeUndefined();
  });
});

describe('generator version 3', () => {
  const V3 = { generatorVersion: 3 } as const;
  const inLocale = (locale: string, seed?: string) => {
    const config = coherentConfig(seed);
    config.generationDefaults = { ...config.generationDefaults, locale };
    return config;
  };

  it('gives the same rows for the same seed in fr and de, whatever the batch size, and leaves other fields unchanged when a field is added', () => {
    for (const locale of ['fr', 'de']) {
      const one = generate(inLocale(locale), V3, 1000);
      const again = generate(inLocale(locale), V3, 7);
      for (const id of ['customers', 'subscriptions', 'orders']) expect(again.rows.get(id), `${locale} ${id}`).toEqual(one.rows.get(id));
      expect(generate(inLocale(locale, 'other'), V3).column('customers', 'postalCode')).not.toEqual(one.column('customers', 'postalCode'));
      const config = inLocale(locale);
      config.entities[0]!.fields.splice(3, 0, { id: 'middleName', type: 'string', maxLength: 60 }, { id: 'summary', type: 'text' }, { id: 'billingPostalCode', type: 'string', maxLength: 10 });
      const after = generate(config, V3);
      for (const field of coherentConfig().entities[0]!.fields) expect(after.column('customers', field.id), `${locale} ${field.id}`).toEqual(one.column('customers', field.id));
      // The added postal code is the row's place's (France and Germany have postal reference data in version 3).
      const same = after.column('customers', 'billingPostalCode').filter((code, row) => code === one.column('customers', 'postalCode')[row]).length;
      expect(same).toBe(300);
    }
  });

  it('gives German phones their city’s area code, ten digits with the subscriber number (and other countries’ phones as before)', () => {
    const rows = generate(inLocale('de'), V3).objects('customers');
    const areaCodes = new Map(placesOf('DE', 3).map((place) => [`${place.postalCode}|${place.city}`, place.areaCode]));
    for (const { phone, postalCode, city } of rows) {
      const areaCode = areaCodes.get(`${postalCode}|${city}`);
      expect(areaCode, `${postalCode} ${city}`).toMatch(/^\d{2,5}$/);
      expect(phone).toMatch(new RegExp(`^\\+49 ${areaCode} [2-9]\\d{${9 - areaCode!.length}}$`));
    }
    for (const { phone } of generate(inLocale('fr'), V3).objects('customers')) expect(phone).toMatch(/^\+33 [2-9]\d\d [2-9]\d\d [2-9]\d{3}$/);
    for (const { phone } of generate(inLocale('de'), { generatorVersion: 2 }).objects('customers')) expect(phone).toMatch(/^\+49 [2-9]\d\d [2-9]\d\d [2-9]\d{3}$/);
  });

  it('keeps version 2’s places where no postal reference data exists (it) and changes them where it does (fr, de)', () => {
    const places = (locale: string, version: 2 | 3) => generate(inLocale(locale), { generatorVersion: version }).objects('customers').map(({ country, state, city, latitude, timeZone }) => ({ country, state, city, latitude, timeZone }));
    expect(places('it', 3)).toEqual(places('it', 2));
    expect(places('it', 2)[0]).toMatchObject({ country: 'Italy' });
    expect(places('fr', 3)).not.toEqual(places('fr', 2));
    expect(places('de', 3)).not.toEqual(places('de', 2));
  });
});

describe('the table of field ids in docs/realism.md', () => {
  it('names every id a rule matches', () => {
    const page = fs.readFileSync(new URL('../../../docs/realism.md', import.meta.url), 'utf8');
    const [from, to] = [page.indexOf('## Rows that hold together'), page.indexOf('### Generator versions')];
    expect(from, 'the section of the page that holds the table').toBeGreaterThanOrEqual(0);
    expect(to).toBeGreaterThan(from);
    const table = page.slice(from, to);
    const named = new Set([...table.matchAll(/`([A-Za-z_()]+)\*?`/g)].flatMap((match) => {
      const id = match[1]!.toLowerCase().replace(/[_-]/g, '');
      // `comment(s)` stands for comment and comments.
      return id.includes('(') ? [id.replace(/\(.*\)/, ''), id.replace(/[()]/g, '')] : [id];
    }));
    for (const rule of FIELD_RULES) if (rule.make.coherent) for (const id of ruleMatch(rule, 'coherent').names) expect(named, id).toContain(id);
  });
});

describe('generator version 2 in files', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-coherent-'));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('writes the same bytes with 1 and 2 worker threads, and the report counts every row', async () => {
    const digest = async (workers: number, report = false) => {
      const summary = await generateFiles(coherentConfig(), {
        ...V2,
        referenceDate: '2025-06-15',
        rowCounts: { customers: 2_000, subscriptions: 3_000, orders: 25_000 },
        parallelMinRows: 1_000,
        format: 'csv',
        workers,
        report,
        out: path.join(folder, `${workers}-${report}`),
      });
      const hash = createHash('sha256');
      for (const file of summary.files) hash.update(path.basename(file.path)).update(fs.readFileSync(file.path));
      return { digest: hash.digest('hex'), summary };
    };
    const one = await digest(1);
    const two = await digest(2);
    const reported = await digest(2, true);
    expect(two.summary.workers).toBe(2);
    expect(two.digest).toBe(one.digest);
    expect(reported.digest).toBe(one.digest);
    expect(reported.summary.workers).toBe(1);
    const orders = reported.summary.coherence!.find((count) => count.entity === 'orders' && count.rule === 'child-after-parent')!;
    expect(orders).toMatchObject({ rows: 25_000, holding: 25_000 });
    expect(reported.summary.coherence!.every((count) => count.holding === count.rows && count.rows > 0)).toBe(true);
  }, 120_000);
});
