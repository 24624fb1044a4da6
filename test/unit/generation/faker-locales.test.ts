// Locales loaded one at a time (faker-locales.ts) must give exactly what faker's main entry point
// gives: the same Faker data for every locale chain, and the same answer to every look-up of the
// pattern compiler and the word lists, which walk a chain of definitions.
import { spawnSync } from 'node:child_process';
import { allLocales, Faker, type LocaleDefinition } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { fakerClass, isFakerLocale, mergedDefinitions } from '../../../src/generation/faker-locales.ts';
import { localeChain } from '../../../src/generation/faker-pool.ts';
import { PatternCompiler } from '../../../src/generation/values/locale-patterns.ts';

const own = allLocales as Record<string, LocaleDefinition>;
const names = Object.keys(own);

/** Every path into a definition down to `depth` keys (arrays and strings end a path). */
function paths(definitions: readonly object[], depth: number): string[][] {
  const found = new Map<string, string[]>();
  const walk = (value: unknown, path: string[]) => {
    if (path.length > 0) found.set(path.join('\u0000'), path);
    if (path.length >= depth || value === null || typeof value !== 'object' || Array.isArray(value)) return;
    for (const key of Object.keys(value)) walk((value as Record<string, unknown>)[key], [...path, key]);
  };
  for (const definition of definitions) walk(definition, []);
  return [...found.values()];
}

describe('faker locales loaded one at a time', () => {
  it('know the same locales as faker', () => {
    for (const name of names) expect(isFakerLocale(name), name).toBe(true);
    expect(isFakerLocale('xx_YY')).toBe(false);
    expect(() => mergedDefinitions('xx_YY')).toThrow(/no locale "xx_YY"/);
  });

  it('give every locale chain the Faker data of faker’s own locale definitions', () => {
    expect(fakerClass()).toBe(Faker);
    for (const name of names) {
      const chain = localeChain(name);
      const wanted = new Faker({ locale: chain.map((locale) => own[locale]!) }).rawDefinitions;
      expect(new Faker({ locale: chain.map(mergedDefinitions) }).rawDefinitions, name).toEqual(wanted);
    }
  });

  it('answer every look-up of a chain as the chain of the locales’ own definitions does', () => {
    let compared = 0;
    for (const name of names) {
      const chain = localeChain(name);
      const ownChain = chain.map((locale) => own[locale] as Record<string, unknown>);
      const mergedChain = chain.map((locale) => mergedDefinitions(locale) as Record<string, unknown>);
      const wanted = new PatternCompiler(ownChain);
      const got = new PatternCompiler(mergedChain);
      // Look-ups name a module and an entry at least (`person.first_name`): a module alone is a
      // merged copy, which no look-up asks for.
      for (const path of paths(ownChain, 4).filter((candidate) => candidate.length >= 2)) {
        expect(got.entry(path), `${name}: ${path.join('.')}`).toBe(wanted.entry(path));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it('load only the locales a generation uses', () => {
    // A fresh process generates German rows. What it loaded: the modules Node's ESM debug log names
    // (imported, or required natively) and those in require's cache (required through tsx).
    const script = `
      const { DataGenerator } = await import('./src/generation/generator.ts');
      const { planGeneration } = await import('./src/generation/plan.ts');
      const config = { formatVersion: 1, generationDefaults: { seed: 'x', locale: 'de' }, entities: [{ id: 'people', primaryKey: ['id'],
        generation: { rowCount: 20 }, fields: [{ id: 'id', type: 'integer' }, { id: 'firstName', type: 'string' }, { id: 'city', type: 'string' },
        { id: 'company', type: 'string', generation: { strategy: { kind: 'faker', method: 'company.name' } } }] }] };
      const generator = new DataGenerator(config, planGeneration(config, { referenceDate: '2025-01-01', generatorVersion: 2 }));
      let rows = 0;
      for (const values of generator.completeRows('people')) rows += values.length > 0 ? 1 : 0;
      const { createRequire } = await import('node:module');
      const required = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({ rows, required }));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../../../', import.meta.url),
      encoding: 'utf8',
      env: { ...process.env, NODE_DEBUG: 'esm' },
      maxBuffer: 256 * 1024 * 1024,
    });
    expect(run.status, run.stderr.slice(-2000)).toBe(0);
    const { rows, required } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { rows: number; required: string[] };
    expect(rows).toBe(20);
    const files = /@faker-js\/faker\/dist\/([\w./-]+?\.js)/g;
    const loaded = new Set([...`${run.stderr}\n${required.join('\n')}`.matchAll(files)].map((match) => match[1]!));
    // de, en and base (their entry points and data); not faker's main entry, nor any other locale.
    expect([...loaded].filter((file) => /^(locale\/)?(de|en|base)[-.]/.test(file)).length).toBeGreaterThanOrEqual(4);
    expect([...loaded].filter((file) => !/^(locale\/)?(de|en|base)[-.]/.test(file))).toEqual([]);
  });
});
