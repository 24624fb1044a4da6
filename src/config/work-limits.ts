// The work one schema config may ask of sds in one request (validation, a preview, a schema
// version): one table of limits, and the checks that name the limit and the JSON pointer a config
// breaks it at. They keep one team's request from holding a CPU for seconds (a faker string of ten
// million characters, a chain of thousands of entities); the worker pool's time limit
// (management/config-work.ts) catches what they cannot foresee.
import type { Entity, SchemaConfig } from '../model/config-types.ts';
import type { Issue } from '../model/config-issues.ts';
import { pointer } from '../model/config-issues.ts';
import { hiddenFakerName } from '../generation/faker-fake.ts';

/** Every work limit of a config or a preview, in one place (see docs/security.md). */
export const WORK_LIMITS = {
  /** Entities of one config: each is a table, planned, checked and previewed. */
  entities: 1_000,
  /** Fields of one entity (PostgreSQL allows 1,600 columns a table). */
  fieldsPerEntity: 1_000,
  /** Characters of one template. */
  templateLength: 10_000,
  /** Characters a faker argument may ask one value to have (`string.alpha({length})`, `lorem.word(n)`). */
  fakerLength: 10_000,
  /** Items a faker argument may ask one value to hold (`lorem.words(n)`, `{count}`, `helpers.arrayElements(a, n)`). */
  fakerCount: 1_000,
  /** Characters of one string in faker arguments (a `helpers.fake` pattern, a regular expression). */
  fakerString: 10_000,
  /** Items of one array in faker arguments (`helpers.arrayElement([...])`). */
  fakerArray: 10_000,
  /** Rows a preview shows of each entity (the contract's maximum of `rows`). */
  previewRows: 100,
  /** Rows of referenced entities a preview may produce before the ones it shows. */
  previewAncestorRows: 200_000,
  /** Characters a previewed string field may be asked to have at least (`minLength`). */
  previewStringLength: 10_000,
  /** Bytes of a preview's answer (its rows as JSON). */
  previewAnswerBytes: 8 * 1024 * 1024,
} as const;

export type WorkLimit = keyof typeof WORK_LIMITS;

/** Faker modules whose numeric arguments are sizes of the value: characters for `string`, items for the others. */
const SIZED_MODULES: Record<string, 'fakerLength' | 'fakerCount'> = { string: 'fakerLength', lorem: 'fakerCount', word: 'fakerCount' };
/** Methods elsewhere whose numeric arguments at these positions are sizes. */
const SIZED_POSITIONS: Record<string, { at: number; limit: 'fakerLength' | 'fakerCount' }> = {
  'helpers.arrayElements': { at: 1, limit: 'fakerCount' },
  'helpers.uniqueArray': { at: 1, limit: 'fakerCount' },
  'finance.accountNumber': { at: 0, limit: 'fakerLength' },
  'finance.pin': { at: 0, limit: 'fakerLength' },
  'internet.password': { at: 0, limit: 'fakerLength' },
};
/** Option names that are sizes whatever the method (their `{min, max}` too). */
const SIZED_KEYS: Record<string, 'fakerLength' | 'fakerCount'> = { length: 'fakerLength', count: 'fakerCount' };
/** Methods whose string arguments are patterns that may ask for sizes (`{{string.alpha(100000)}}`, `a{100000}`). */
const PATTERN_METHODS = new Set(['helpers.fake', 'helpers.fromRegExp']);

/** Config-wide limits, checked before anything else of a config is (so a huge config costs little). */
export function configLimitIssues(config: unknown): Issue[] {
  const entities = (config as { entities?: unknown } | null)?.entities;
  if (!Array.isArray(entities)) return [];
  if (entities.length > WORK_LIMITS.entities) {
    return [{ path: '/entities', message: `the config has ${entities.length} entities, over the limit of ${WORK_LIMITS.entities}; split it into several schemas` }];
  }
  const issues: Issue[] = [];
  entities.forEach((entity: Partial<Entity> | null, index) => {
    const fields = entity?.fields;
    if (Array.isArray(fields) && fields.length > WORK_LIMITS.fieldsPerEntity) {
      issues.push({
        path: pointer('entities', index, 'fields'),
        message: `entity ${index} has ${fields.length} fields, over the limit of ${WORK_LIMITS.fieldsPerEntity} fields an entity`,
      });
    }
  });
  return issues;
}

/** A template over the length limit, as an issue message (undefined when it is within). */
export function templateLimitProblem(template: string): string | undefined {
  if (template.length <= WORK_LIMITS.templateLength) return undefined;
  return `the template has ${template.length} characters, over the limit of ${WORK_LIMITS.templateLength}`;
}

/**
 * Faker arguments that ask for more work than one value may take, or that would step into
 * JavaScript's own objects: issues at pointers under `path` (the strategy's `args`).
 */
export function fakerArgsIssues(method: string, args: readonly unknown[], path: string): Issue[] {
  const issues: Issue[] = [];
  const over = (at: string, limit: 'fakerLength' | 'fakerCount', value: number) => {
    const what = limit === 'fakerLength' ? 'characters' : 'items';
    issues.push({ path: at, message: `faker ${method} is asked for ${value} ${what}, over the limit of ${WORK_LIMITS[limit]} ${what} a value` });
  };
  const [module = ''] = method.split('.');
  const positional = SIZED_POSITIONS[method];
  const visit = (value: unknown, at: string, sized: 'fakerLength' | 'fakerCount' | undefined): void => {
    if (typeof value === 'number') {
      if (sized && Math.abs(value) > WORK_LIMITS[sized]) over(at, sized, value);
    } else if (typeof value === 'string') {
      if (value.length > WORK_LIMITS.fakerString) {
        issues.push({ path: at, message: `a faker argument of ${value.length} characters is over the limit of ${WORK_LIMITS.fakerString}` });
      } else if (PATTERN_METHODS.has(method)) {
        patternIssues(method, value, at, issues);
      }
    } else if (Array.isArray(value)) {
      if (value.length > WORK_LIMITS.fakerArray) {
        issues.push({ path: at, message: `a faker argument of ${value.length} items is over the limit of ${WORK_LIMITS.fakerArray}` });
      } else value.forEach((item, i) => visit(item, `${at}/${i}`, sized));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) visit(item, `${at}/${pointer(key).slice(1)}`, SIZED_KEYS[key] ?? sized);
    }
  };
  args.forEach((arg, i) => {
    visit(arg, `${path}/${i}`, positional?.at === i ? positional.limit : SIZED_MODULES[module]);
  });
  return issues;
}

const EXPRESSION = /{{([a-z][^}]*)}}/g;

/** A `helpers.fake` pattern's expressions (`{{person.firstName}}`) and a pattern's numbers (sizes of what it makes). */
function patternIssues(method: string, pattern: string, at: string, issues: Issue[]): void {
  if (method === 'helpers.fake') {
    for (const [, expression = ''] of pattern.matchAll(EXPRESSION)) {
      // Arguments too: after a call, faker steps on into the value it returned.
      const hidden = hiddenFakerName(expression);
      if (hidden !== undefined) {
        issues.push({ path: at, message: `helpers.fake expression {{${expression}}} names "${hidden}", which is not a faker module, method or definition; use e.g. {{person.firstName}}` });
        return;
      }
    }
  }
  for (const [digits] of pattern.matchAll(/\d+/g)) {
    if (Number(digits) > WORK_LIMITS.fakerLength) {
      issues.push({ path: at, message: `faker ${method} pattern asks for ${digits}, over the limit of ${WORK_LIMITS.fakerLength} characters or items a value` });
      return;
    }
  }
}
