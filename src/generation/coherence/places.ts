// Places of generator version 2: a row's country, country code, state, city, postal code, latitude,
// longitude, phone prefix, currency and time zone belong together, taken from reference data of
// maintained npm packages (never hand-typed): US ZIP codes with their city, state and coordinates
// (`zipcodes`), cities of other countries with their province, coordinates and time zone
// (`city-timezones`, SimpleMaps), and each country's name, calling code and currency (`countries-list`).
// The locale decides the country (en → US, en_GB → GB, de → DE…).
import { createRequire } from 'node:module';
import { countries } from 'countries-list';
import type { EntityContext } from '../program.ts';
import { RandomCursor, RandomStream, streamKey } from '../random.ts';

const require = createRequire(import.meta.url);

export interface Place {
  country: string;
  countryCode: string;
  state: string;
  stateCode: string;
  city: string;
  /** Absent where the reference data has no postal codes (outside the US). */
  postalCode?: string;
  latitude: number;
  longitude: number;
  /** Calling code without `+` (`1`, `44`). */
  phonePrefix: string;
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

interface ZipRecord {
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

let cities: CityRecord[] | undefined;
const byCountry = new Map<string, Place[]>();

/** Every place of a country in the reference data (cached), in a stable order. */
export function placesOf(countryCode: string): readonly Place[] {
  let places = byCountry.get(countryCode);
  if (places) return places;
  const country = (countries as Record<string, { name: string; phone: number[]; currency: string[] }>)[countryCode];
  if (!country) {
    byCountry.set(countryCode, []);
    return [];
  }
  cities ??= (require('city-timezones') as { cityMapping: CityRecord[] }).cityMapping;
  const phonePrefix = String(country.phone[0] ?? '');
  const currency = country.currency[0] ?? '';
  const own = cities.filter((city) => city.iso2 === countryCode && city.city && city.province);
  if (countryCode === 'US') {
    const zipcodes = require('zipcodes') as { codes: Record<string, ZipRecord>; states: { abbr: Record<string, string> } };
    // A state's time zone: the one most of its cities have (a few states span two).
    const zones = new Map<string, Map<string, number>>();
    for (const city of own) {
      const counts = zones.get(city.province.toUpperCase()) ?? new Map<string, number>();
      counts.set(city.timezone, (counts.get(city.timezone) ?? 0) + 1);
      zones.set(city.province.toUpperCase(), counts);
    }
    const cityZone = new Map(own.map((city) => [`${city.city.toUpperCase()}|${city.province.toUpperCase()}`, city.timezone]));
    places = [];
    for (const zip of Object.values(zipcodes.codes)) {
      const stateName = zipcodes.states.abbr[zip.state];
      const stateZones = stateName ? zones.get(stateName) : undefined;
      if (zip.country !== 'US' || !zip.city || !stateName || !stateZones) continue;
      const timeZone = cityZone.get(`${zip.city.toUpperCase()}|${stateName}`) ?? [...stateZones].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
      places.push({
        country: country.name,
        countryCode,
        state: titleCase(stateName),
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
    places.sort((a, b) => a.postalCode!.localeCompare(b.postalCode!));
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
  // The packages' own tables are not needed again (only these places are): let them be collected.
  for (const name of ['zipcodes', 'city-timezones']) {
    for (const file of Object.keys(require.cache)) if (file.includes(`/node_modules/${name}/`)) delete require.cache[file];
  }
  cities = undefined;
  return places;
}

const rowPlaces = new WeakMap<EntityContext, (row: number) => Place>();

/** The place of each row of the entity: one per row, from the row's own stream (like its person); another for a unique field's retry. */
export function rowPlace(context: EntityContext): (row: number, attempt?: number) => Place {
  let place = rowPlaces.get(context);
  if (place) return place;
  const places = placesOf(localeCountry(context.plan.locale));
  const cursor = new RandomCursor(new RandomStream(streamKey(context.plan.seed, context.entity.id, '$place')));
  place = (row, attempt = 0) => places[Math.floor(cursor.reset(row, attempt).float() * places.length)]!;
  rowPlaces.set(context, place);
  return place;
}

/** A phone number with the place's calling code: `+1 415 555 0134`. */
export function placePhone(place: Place, cursor: RandomCursor): string {
  const digits = (count: number) => {
    let text = String(cursor.int(2, 9));
    for (let i = 1; i < count; i++) text += String(cursor.int(0, 9));
    return text;
  };
  return `+${place.phonePrefix} ${digits(3)} ${digits(3)} ${digits(4)}`;
}
