// Generator version 3's places in the countries with postal reference data (France, Australia,
// Finland, Germany), checked in SQL on each database: 100% of the rows' country, code, state, state
// code, city, postal code, coordinates, phone prefix (with the city's area code in Germany), currency
// and time zone form a place of the reference data (loaded into a table beside the data), the places
// vary, and the run's coherence report counts the postal code in its tuple check and finds every row
// holding it.
import { describe, expect, it } from 'vitest';
import type { SchemaConfig } from '../../../src/model/config-types.ts';
import { placesOf } from '../../../src/generation/coherence/places.ts';
import { type GenerationSummary } from '../../../src/generation/run.ts';
import { dialectTargets, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { generateBeforeAll } from '../../helpers/generated-namespace.ts';
import { Catalog } from '../../helpers/catalog.ts';

const DIALECTS = await dialectTargets();
const ROWS = 400;
/** Entity per locale, and the country its places come from. */
const LOCALES = { customers_fr: ['fr', 'FR'], customers_au: ['en_AU', 'AU'], customers_fi: ['fi', 'FI'], customers_de: ['de', 'DE'] } as const;

function placesConfig(): SchemaConfig {
  return {
    formatVersion: 1,
    generationDefaults: { seed: 'postal', timezone: 'UTC' },
    entities: Object.entries(LOCALES).map(([id, [locale]]) => ({
      id,
      primaryKey: ['id'],
      generation: { rowCount: ROWS, locale },
      fields: [
        { id: 'id', type: 'integer' },
        { id: 'country', type: 'string', maxLength: 80 },
        { id: 'countryCode', type: 'string', maxLength: 2 },
        { id: 'state', type: 'string', maxLength: 80 },
        { id: 'stateCode', type: 'string', maxLength: 10 },
        { id: 'city', type: 'string', maxLength: 80 },
        { id: 'postalCode', type: 'string', maxLength: 10 },
        { id: 'phone', type: 'string', maxLength: 30 },
        { id: 'latitude', type: 'number', precision: 6 },
        { id: 'longitude', type: 'number', precision: 6 },
        { id: 'currency', type: 'string', maxLength: 3 },
        { id: 'timeZone', type: 'string', maxLength: 40 },
      ],
    })),
  };
}

const COLUMNS = ['country', 'country_code', 'state', 'state_code', 'city', 'postal_code', 'latitude', 'longitude', 'phone_prefix', 'area_code', 'currency', 'time_zone'];

for (const target of DIALECTS) {
  describe(`${target.name}: generator version 3 places have real postal codes in FR, AU, FI and DE`, () => {
    const namespace = uniqueNamespace('postal');
    let catalog: Catalog;
    let summary: GenerationSummary;
    generateBeforeAll(target, namespace, placesConfig, { referenceDate: '2025-06-15', generatorVersion: 3 }, async (generated) => {
      ({ catalog, summary } = generated);
      const { q, t } = catalog;
      await catalog.query(`CREATE TABLE ${t('ref_places')} (${COLUMNS.map((column) => `${q(column)} ${column.endsWith('itude') ? 'DOUBLE PRECISION' : 'VARCHAR(100)'}`).join(', ')})`);
      for (const [, country] of Object.values(LOCALES)) {
        const places = placesOf(country, 3);
        for (let from = 0; from < places.length; from += 1000) {
          const chunk = places.slice(from, from + 1000);
          const params = chunk.flatMap((place) => [place.country, place.countryCode, place.state, place.stateCode, place.city, place.postalCode ?? null, place.latitude, place.longitude, place.phonePrefix, place.areaCode ?? null, place.currency, place.timeZone]);
          const rows = chunk.map((_place, i) => `(${COLUMNS.map((_column, j) => catalog.p(i * COLUMNS.length + j + 1)).join(', ')})`).join(', ');
          await catalog.query(`INSERT INTO ${t('ref_places')} VALUES ${rows}`, params);
        }
      }
    }, 180_000);

    for (const [entity, [locale, country]] of Object.entries(LOCALES)) {
      it(`${locale}: 100% of the rows' place tuples, postal code and coordinates included, are places of ${country}'s reference data`, async () => {
        const { q, t } = catalog;
        const sql = `SELECT count(*) FROM ${t(entity)} c WHERE EXISTS (SELECT 1 FROM ${t('ref_places')} r
          WHERE r.${q('country')} = c.${q('country')} AND r.${q('country_code')} = c.${q('countryCode')} AND r.${q('state')} = c.${q('state')}
            AND r.${q('state_code')} = c.${q('stateCode')} AND r.${q('city')} = c.${q('city')} AND r.${q('postal_code')} = c.${q('postalCode')}
            AND ABS(r.${q('latitude')} - c.${q('latitude')}) < 0.000001 AND ABS(r.${q('longitude')} - c.${q('longitude')}) < 0.000001
            AND c.${q('phone')} LIKE CASE WHEN r.${q('area_code')} IS NULL THEN CONCAT('+', r.${q('phone_prefix')}, ' %') ELSE CONCAT('+', r.${q('phone_prefix')}, ' ', r.${q('area_code')}, ' %') END
            AND r.${q('currency')} = c.${q('currency')} AND r.${q('time_zone')} = c.${q('timeZone')})`;
        expect(await catalog.count(sql)).toBe(ROWS);
        expect(await catalog.count(`SELECT count(*) FROM ${t(entity)} WHERE ${q('countryCode')} = '${country}'`)).toBe(ROWS);
        // Many places, not a few: most rows have a postal code of their own, from several regions.
        expect(await catalog.count(`SELECT count(DISTINCT ${q('postalCode')}) FROM ${t(entity)}`)).toBeGreaterThan(ROWS * 0.75);
        expect(await catalog.count(`SELECT count(DISTINCT ${q('state')}) FROM ${t(entity)}`)).toBeGreaterThanOrEqual(6);
        if (country === 'DE') {
          // German phones: the city's area code and a subscriber number, ten digits in all (`+49 351 4567890`).
          expect(await catalog.count(`SELECT count(*) FROM ${t(entity)} WHERE LENGTH(${q('phone')}) = 15 AND ${q('phone')} LIKE '+49 % %'`)).toBe(ROWS);
          expect(await catalog.count(`SELECT count(DISTINCT ${q('phone')}) FROM ${t(entity)}`)).toBe(ROWS);
        }
      });
    }

    it('the report checks the postal code in each tuple and finds it holding in every row', () => {
      for (const entity of Object.keys(LOCALES)) {
        const count = summary.coherence!.find((candidate) => candidate.entity === entity && candidate.rule === 'place-in-reference');
        expect(count, entity).toMatchObject({ field: 'country+countryCode+state+city+postalCode+phone', rows: ROWS, holding: ROWS });
      }
    });
  });
}
