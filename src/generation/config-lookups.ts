// Look-ups of names a config borrows from its environment: faker locales (@faker-js/faker, pinned)
// and IANA time zones (Intl). Faker's methods are in faker-methods.ts.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * faker's locales are the modules of its `locale/` folder (`@faker-js/faker/locale/de`), listed from
 * there rather than imported: importing `allLocales` loads every locale's data, a quarter of a second
 * of start-up that neither the server nor the runtime API needs (a unit test checks that the list is
 * faker's `allLocales`, in its order).
 */
function fakerLocaleNames(): string[] {
  const entry = createRequire(import.meta.url).resolve('@faker-js/faker');
  return fs
    .readdirSync(path.join(path.dirname(entry), 'locale'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => file.slice(0, -'.js'.length))
    .sort();
}

const LOCALES = fakerLocaleNames().filter((name) => name !== 'base');
const localesByLowerCase = new Map(LOCALES.map((name) => [name.toLowerCase(), name]));

/** The faker locale a config locale names (`en-US`, `en_us` → `en_US`), or undefined when none. */
export function normalizeLocale(locale: string): string | undefined {
  return localesByLowerCase.get(locale.replaceAll('-', '_').toLowerCase());
}

/** All faker locale names, e.g. `en`, `de`, `en_US`. */
export const FAKER_LOCALES: readonly string[] = LOCALES;

const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
const zonesByLowerCase = new Map(TIME_ZONES.map((zone) => [zone.toLowerCase(), zone]));
for (const alias of ['Etc/UTC', 'GMT', 'Etc/GMT']) zonesByLowerCase.set(alias.toLowerCase(), alias);

/** The IANA time zone a config names, in its canonical spelling (`europe/berlin` → `Europe/Berlin`), or undefined. */
export function normalizeTimeZone(zone: string): string | undefined {
  return zonesByLowerCase.get(zone.toLowerCase());
}

/** The IANA time zones known to this runtime, `UTC` first. */
export const TIME_ZONE_NAMES: readonly string[] = TIME_ZONES;
