// Faker's modules and methods a config may name in a `faker` strategy (`person.firstName`), from
// the pinned @faker-js/faker. Validation imports this; the runtime API never does.
// The en locale's entry point: the same Faker as the main entry's `faker`, without loading every locale.
import { faker } from '@faker-js/faker/locale/en';

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
