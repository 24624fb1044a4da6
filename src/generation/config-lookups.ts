// Look-ups of names a config borrows from its environment: faker methods and locales
// (@faker-js/faker, pinned) and IANA time zones (Intl).
import { allLocales, faker } from '@faker-js/faker';

const fakerModules = faker as unknown as Record<string, unknown>;
const OBJECT_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Module names of faker usable in `module.method`, e.g. `person`, `internet`. */
export const FAKER_MODULES: readonly string[] = Object.keys(fakerModules).filter(
  (name) => !name.startsWith('_') && name !== 'fakerCore' && isModule(fakerModules[name]),
);

/** Method names of a faker module (empty when there is no such module). */
export function fakerMethods(module: string): readonly string[] {
  return METHODS.get(module) ?? [];
}

function listMethods(target: unknown): string[] {
  const names = new Set<string>();
  for (let proto = target; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (!OBJECT_MEMBERS.has(name) && !name.startsWith('_')) names.add(name);
    }
  }
  return [...names].filter((name) => typeof (target as Record<string, unknown>)[name] === 'function');
}

/** Whether `module.method` names a faker function, e.g. `person.firstName`. */
export function fakerMethodExists(method: string): boolean {
  const [module, name, ...rest] = method.split('.');
  if (module === undefined || name === undefined || rest.length > 0) return false;
  return fakerMethods(module).includes(name);
}

function isModule(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

const METHODS = new Map(FAKER_MODULES.map((module) => [module, listMethods(fakerModules[module])]));

const LOCALES = Object.keys(allLocales).filter((name) => name !== 'base');
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
