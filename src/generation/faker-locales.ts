// faker's locales, loaded one at a time as configs use them. faker's main entry point loads every
// locale's data (~77 of them: about 150 ms and 35 MB in each process and worker thread);
// `@faker-js/faker/locale/<name>`, faker's documented per-locale entry point, loads one locale and
// its fallbacks, and gives a Faker whose rawDefinitions are their data merged as faker merges a
// locale chain (module by module, the earlier locale's entries first, then what later ones add).
//
// A chain of these merged definitions (de+en+base, en+base, base) answers every look-up exactly as
// the chain of the locales' own definitions (de, en, base) does: the first definition holding a
// value at a path is the same locale in both, since a merged definition holds a locale's entry
// wherever that locale has one, else the later locales'. A test compares both over all locales.
import { createRequire } from 'node:module';
import type { Faker, LocaleDefinition } from '@faker-js/faker';
import { FAKER_LOCALES } from './config-lookups.ts';

// require() of these ES modules (no top-level await) is synchronous on Node 20.19 and newer.
const require = createRequire(import.meta.url);
const KNOWN = new Set([...FAKER_LOCALES, 'base']);
const merged = new Map<string, LocaleDefinition>();

/** Whether faker has a locale of this name (`base` included). */
export function isFakerLocale(name: string): boolean {
  return KNOWN.has(name);
}

/** The data of faker locale `name` merged with its fallbacks' (`de`: de, en, base), loaded once. */
export function mergedDefinitions(name: string): LocaleDefinition {
  let definitions = merged.get(name);
  if (!definitions) {
    if (!KNOWN.has(name)) throw new Error(`faker has no locale "${name}"`);
    definitions = localeFaker(name).rawDefinitions;
    merged.set(name, definitions);
  }
  return definitions;
}

/** faker's Faker class, from the smallest entry point that has it (the `base` locale's). */
export function fakerClass(): typeof Faker {
  return localeFaker('base').constructor as typeof Faker;
}

function localeFaker(name: string): Faker {
  return (require(`@faker-js/faker/locale/${name}`) as { faker: Faker }).faker;
}
