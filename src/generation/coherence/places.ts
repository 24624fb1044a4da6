// Places of generator version 2: a row's country, country code, state, city, postal code, latitude,
// longitude, phone prefix, currency and time zone belong together, taken from reference data of
// maintained npm packages (never hand-typed): US ZIP codes with their city, state and coordinates
// (`zipcodes`), cities of other countries with their province, coordinates and time zone
// (`city-timezones`, SimpleMaps), and each country's name, calling code and currency (`countries-list`).
// The locale decides the country (en → US, en_GB → GB, de → DE…). Version 3 gives the places of
// France, Australia, Finland and Germany real postal codes with their city, region and coordinates
// (postal-places.ts), and German ones their city's area code; other countries keep version 2's places.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { countries } from 'countries-list';
import { hasFeature, type GeneratorVersion } from '../versions.ts';
import type { EntityContext } from '../program.ts';
import { RandomCursor, RandomStream, streamKey } from '../random.ts';
import { POSTAL_SOURCES } from './postal-places.ts';

const require = createRequire(import.meta.url);

export interface Place {
  country: string;
  countryCode: string;
  state: string;
  stateCode: string;
  city: string;
  /** Absent where the reference data has no postal codes (version 2 outside the US; version 3 outside the US, FR, AU, FI and DE). */
  postalCode?: string;
  latitude: number;
  longitude: number;
  /** Calling code without `+` (`1`, `44`). */
  phonePrefix: string;
  /** The city's telephone area code without its trunk 0 (`351`), where the reference data has one (version 3 in DE). */
  areaCode?: string;
  currency: string;
  timeZone: string;
}

interface CityRecord {
  city: string;
  lat: number;
  lng: number;
  pop: number;
  iso2: string;
  province: string;
  timezone: string;
}

export interface ZipRecord {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

/** Country of a locale without a region (`de` → DE); a region (`de_AT`) names its own. */
const LANGUAGE_COUNTRY: Record<string, string> = {
  en: 'US', de: 'DE', fr: 'FR', es: 'ES', it: 'IT', nl: 'NL', pt: 'PT', pl: 'PL', ru: 'RU', sv: 'SE', nb: 'NO', da: 'DK', fi: 'FI',
  cs: 'CZ', sk: 'SK', hu: 'HU', ro: 'RO', el: 'GR', tr: 'TR', uk: 'UA', ja: 'JP', ko: 'KR', zh: 'CN', vi: 'VN', th: 'TH', id: 'ID',
  he: 'IL', ar: 'SA', fa: 'IR', hr: 'HR', lv: 'LV', mk: 'MK', sr: 'RS', az: 'AZ', hy: 'AM', ka: 'GE', ne: 'NP', ur: 'PK', af: 'ZA', bn: 'BD',
  yo: 'NG', zu: 'ZA', eu: 'ES', ca: 'ES', cy: 'GB', ga: 'IE', lt: 'LT', et: 'EE', is: 'IS', mt: 'MT', sl: 'SI', bg: 'BG', uz: 'UZ', kk: 'KZ',
};

/** The country a faker locale stands for (`en_GB` → GB, `de` → DE), US when unknown or without data. */
export function localeCountry(locale: string): string {
  const [language = 'en', region] = locale.split('_');
  const code = region && /^[A-Z]{2}$/.test(region) ? region : (LANGUAGE_COUNTRY[language] ?? 'US');
  return placesOf(code).length > 0 ? code : 'US';
}

function titleCase(text: string): string {
  return text.toLowerCase().replace(/\b[a-z]/g, (letter) => letter.toUpperCase()).replace(/\bOf\b/g, 'of');
}

const FIVE_DIGITS = /^\d{5}$/;

/**
 * US ZIP codes of `zipcodes` with its state names by abbreviation, and how they were read. Its codes
 * module is one JSON object literal on the line `exports.codes = {…};`: parsed as JSON it loads
 * several times faster than require() compiles it (and skips the Canadian codes, unused here), which
 * every first generation of a process waited for. Any other layout falls back to require().
 */
export function usZipCodes(): { codes: Record<string, ZipRecord>; abbr: Record<string, string>; via: 'json' | 'require' } {
  try {
    const abbr = (require('zipcodes/lib/states.js') as { abbr: Record<string, string> }).abbr;
    const text = readFileSync(require.resolve('zipcodes/lib/codes.js'), 'utf8');
    const prefix = 'exports.codes = ';
    const end = text.indexOf(';\n');
    if (abbr && text.startsWith(prefix) && end > 0) return { codes: JSON.parse(text.slice(prefix.length, end)) as Record<string, ZipRecord>, abbr, via: 'json' };
  } catch {
    // another layout: the package's own entry point below
  }
  const zipcodes = require('zipcodes') as { codes: Record<string, ZipRecord>; states: { abbr: Record<string, string> } };
  return { codes: zipcodes.codes, abbr: zipcodes.states.abbr, via: 'require' };
}

let cities: CityRecord[] | undefined;

/** The cities of `city-timezones` (its table, loaded until releaseReferencePackages). */
function cityRecords(): CityRecord[] {
  return (cities ??= (require('city-timezones') as { cityMapping: CityRecord[] }).cityMapping);
}

/** The packages' own tables are not needed again once places are made (only the places are): let them be collected. */
function releaseReferencePackages(): void {
  for (const name of ['zipcodes', 'city-timezones']) {
    for (const file of Object.keys(require.cache)) if (file.includes(`/node_modules/${name}/`)) delete require.cache[file];
  }
  cities = undefined;
}

/** A country's name, calling code (without `+`) and currency, from `countries-list`. */
function countryFacts(countryCode: string): { name: string; phonePrefix: string; currency: string } | undefined {
  const country = (countries as Record<string, { name: string; phone: number[]; currency: string[] }>)[countryCode];
  return country && { name: country.name, phonePrefix: String(country.phone[0] ?? ''), currency: country.currency[0] ?? '' };
}

/** Per group of cities (`key`: a state, say), the time zone most of them have; ties go to the first zone by name. */
function usualZones(list: readonly CityRecord[], key: (city: CityRecord) => string): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const city of list) {
    const group = key(city);
    const zones = counts.get(group) ?? new Map<string, number>();
    zones.set(city.timezone, (zones.get(city.timezone) ?? 0) + 1);
    counts.set(group, zones);
  }
  return new Map([...counts].map(([group, zones]) => [group, [...zones].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0]]));
}

const byCountry = new Map<string, Place[]>();
const postalByCountry = new Map<string, Place[]>();

/** The countries whose places have real postal codes in a generator version. */
export function postalCountries(version: GeneratorVersion): string[] {
  if (!hasFeature(version, 'coherentRows')) return [];
  return hasFeature(version, 'postalCodesAbroad') ? ['US', ...Object.keys(POSTAL_SOURCES)] : ['US'];
}

/**
 * Every place of a country in the reference data of a generator version (cached), in a stable
 * order. Version 3 differs from version 2 only in the countries of POSTAL_SOURCES.
 */
export function placesOf(countryCode: string, version: GeneratorVersion = 2): readonly Place[] {
  if (hasFeature(version, 'postalCodesAbroad') && POSTAL_SOURCES[countryCode]) return postalPlacesOf(countryCode);
  let places = byCountry.get(countryCode);
  if (places) return places;
  const country = countryFacts(countryCode);
  if (!country) {
    byCountry.set(countryCode, []);
    return [];
  }
  const { phonePrefix, currency } = country;
  const own = cityRecords().filter((city) => city.iso2 === countryCode && city.city && city.province);
  if (countryCode === 'US') {
    const zipcodes = usZipCodes();
    const cityZone = new Map(own.map((city) => [`${city.city.toUpperCase()}|${city.province.toUpperCase()}`, city.timezone]));
    // Per state, worked out once: its usual zone (a few states span two) and its name (one string shared by its places).
    const stateZone = usualZones(own, (city) => city.province.toUpperCase());
    const stateTitles = new Map<string, string>();
    places = [];
    for (const zip of Object.values(zipcodes.codes)) {
      const stateName = zipcodes.abbr[zip.state];
      const usualZone = stateName ? stateZone.get(stateName) : undefined;
      if (zip.country !== 'US' || !zip.city || !stateName || usualZone === undefined) continue;
      const timeZone = cityZone.get(`${zip.city.toUpperCase()}|${stateName}`) ?? usualZone;
      let state = stateTitles.get(stateName);
      if (state === undefined) stateTitles.set(stateName, (state = titleCase(stateName)));
      places.push({
        country: country.name,
        countryCode,
        state,
        stateCode: zip.state,
        city: zip.city,
        postalCode: zip.zip,
        latitude: zip.latitude,
        longitude: zip.longitude,
        phonePrefix,
        currency,
        timeZone,
      });
    }
    // Five-digit codes order the same by code unit as by localeCompare, which costs more.
    if (places.every((place) => FIVE_DIGITS.test(place.postalCode!))) places.sort((a, b) => (a.postalCode! < b.postalCode! ? -1 : a.postalCode! > b.postalCode! ? 1 : 0));
    else places.sort((a, b) => a.postalCode!.localeCompare(b.postalCode!));
  } else {
    places = own
      .map((city) => ({
        country: country.name,
        countryCode,
        state: city.province,
        stateCode: city.province,
        city: city.city,
        latitude: city.lat,
        longitude: city.lng,
        phonePrefix,
        currency,
        timeZone: city.timezone,
      }))
      .sort((a, b) => a.state.localeCompare(b.state) || a.city.localeCompare(b.city) || a.latitude - b.latitude);
  }
  byCountry.set(countryCode, places);
  releaseReferencePackages();
  return places;
}

/** A country's postal places of version 3: postal code, city, region and coordinates of one reference, the rest from its country. */
function postalPlacesOf(countryCode: string): readonly Place[] {
  let places = postalByCountry.get(countryCode);
  if (places) return places;
  const { name, phonePrefix, currency } = countryFacts(countryCode)!;
  const zoneOf = timeZones(countryCode);
  places = POSTAL_SOURCES[countryCode]!.places()
    .map((place) => ({ country: name, countryCode, ...place, phonePrefix, currency, timeZone: zoneOf(place.city, place.state) }))
    .sort((a, b) => (a.postalCode < b.postalCode ? -1 : a.postalCode > b.postalCode ? 1 : a.city < b.city ? -1 : a.city > b.city ? 1 : a.latitude - b.latitude));
  postalByCountry.set(countryCode, places);
  return places;
}

/**
 * The time zone of a city of a country by the cities of `city-timezones`: that city's (by name and
 * state, else by name when the country has one city of that name), else the one most cities of its
 * state have (where the data names states alike), else the one most of the country's cities have.
 */
function timeZones(countryCode: string): (city: string, state: string) => string {
  const own = cityRecords().filter((city) => city.iso2 === countryCode && city.city && city.timezone);
  releaseReferencePackages();
  const country = usualZones(own, () => '').get('') ?? 'UTC';
  const stateZone = usualZones(own, (city) => city.province);
  const byCityState = new Map(own.map((city) => [`${city.city}|${city.province}`, city.timezone]));
  const names = new Map<string, string | null>();
  for (const city of own) names.set(city.city, names.has(city.city) && names.get(city.city) !== city.timezone ? null : city.timezone);
  return (city, state) => byCityState.get(`${city}|${state}`) ?? names.get(city) ?? stateZone.get(state) ?? country;
}

const rowPlaces = new WeakMap<EntityContext, (row: number) => Place>();

/** The place of each row of the entity: one per row, from the row's own stream (like its person); another for a unique field's retry. */
export function rowPlace(context: EntityContext): (row: number, attempt?: number) => Place {
  let place = rowPlaces.get(context);
  if (place) return place;
  const places = placesOf(localeCountry(context.plan.locale), context.version);
  const cursor = new RandomCursor(new RandomStream(streamKey(context.plan.seed, context.entity.id, '$place')));
  const draw = (row: number, attempt: number) => places[Math.floor(cursor.reset(row, attempt).float() * places.length)]!;
  // Every place field of a row asks in turn: the row's place is drawn once and kept.
  let lastRow = -1;
  let last: Place | undefined;
  place = (row, attempt = 0) => {
    if (attempt > 0) return draw(row, attempt);
    if (row !== lastRow) {
      last = draw(row, 0);
      lastRow = row;
    }
    return last!;
  };
  rowPlaces.set(context, place);
  return place;
}

/**
 * A phone number with the place's calling code, `+1 415 555 0134`; where the place has an area code,
 * that code and a subscriber number making ten digits with it: `+49 351 4567890`, `+49 30 45678901`.
 */
export function placePhone(place: Place, cursor: RandomCursor): string {
  // Each group's digits drawn in turn (the first 2–9), then written as one number: it has no
  // leading zero, so String() gives exactly those digits.
  const digits = (count: number) => {
    let value = cursor.int(2, 9);
    for (let i = 1; i < count; i++) value = value * 10 + cursor.int(0, 9);
    return String(value);
  };
  if (place.areaCode !== undefined) return `+${place.phonePrefix} ${place.areaCode} ${digits(10 - place.areaCode.length)}`;
  return `+${place.phonePrefix} ${digits(3)} ${digits(3)} ${digits(4)}`;
}
