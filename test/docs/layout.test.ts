// docs/layout.md names every folder of src/ and test/, so it stays true as folders come, and states the
// layer order this test holds src/ to (STYLE.md): no import climbs, no two folders import each other.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const layout = fs.readFileSync(new URL('../../docs/layout.md', import.meta.url), 'utf8');
const folders = (root: string) =>
  fs
    .readdirSync(new URL(`../../${root}/`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${root}/${entry.name}/`);

describe('docs/layout.md', () => {
  it.each([...folders('src'), ...folders('test')])('describes %s', (folder) => {
    expect(layout).toContain(`\`${folder}\``);
  });
});

// The layer order (STYLE.md, "The house"): an import may go down or sideways, never up. Ranks, lowest
// first; a unit is a folder of src/ or a file at its top. Peers (one rank) may import each other, but
// no two units may import each other (a cycle), type-only imports included.
const LAYERS: readonly (readonly string[])[] = [
  // Leaves: the contract and small helpers everything may use.
  ['contract.ts', 'resources.ts', 'errors.ts', 'json-depth.ts', 'json-syntax.ts', 'suggest.ts', 'transaction.ts', 'metrics', 'api-changes'],
  // The table and value model: config types, table specs, casting and rendering values.
  ['model'],
  ['dialects'],
  ['generation'],
  // Schema-config validation: it tries faker methods, formulas and references as generation makes them.
  ['config'],
  // The control plane's store and the security helpers (key hashing, connection checks, encryption).
  ['store', 'security'],
  // What an operation sees and returns, the runtime's source included: the services implement it.
  ['operation.ts'],
  // The services' middle.
  ['management', 'runtime', 'files', 'introspection', 'learn', 'seed'],
  ['http', 'settings.ts'],
  ['service.ts'],
  // The entry points: `sds serve` and main.ts start the service.
  ['cli', 'main.ts'],
];

describe('the layer sentence of docs/layout.md', () => {
  // "Dependencies run one way: `cli` | `main.ts` → … → `dialects` → the leaves (`contract.ts`, …)."
  const sentence = /^Dependencies run one way: ([\s\S]+?) → the leaves\s+\(([^)]*)\)/m.exec(layout);
  const names = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);

  it('names the layers above the leaves, top first, as LAYERS ranks them', () => {
    expect(sentence).not.toBeNull();
    const ranks = sentence![1]!.split('→').map((rank) => names(rank).sort());
    expect(ranks).toEqual(LAYERS.slice(1).toReversed().map((rank) => [...rank].sort()));
  });

  it('names only leaves as leaves', () => {
    const leaves = names(sentence![2]!);
    expect(leaves.length).toBeGreaterThan(0);
    expect(leaves.filter((leaf) => !LAYERS[0]!.includes(leaf))).toEqual([]);
  });
});
/** Packages only some folders may import: the web framework in http, the database drivers in a dialect's folder and the store. */
const PACKAGE_HOMES: Readonly<Record<string, RegExp>> = {
  express: /^src\/http\//,
  pg: /^src\/(dialects\/[^/]+\/|store\/)/,
  'pg-cursor': /^src\/(dialects\/[^/]+\/|store\/)/,
  'pg-copy-streams': /^src\/(dialects\/[^/]+\/|store\/)/,
  mysql2: /^src\/(dialects\/[^/]+\/|store\/)/,
};

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
  /** An import() call: loaded when the code runs, not with the module. */
  dynamic: boolean;
}

const sourceFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(file) : /\.tsx?$/.test(entry.name) ? [file] : [];
  });

/** Static imports and re-exports (with `type` noted) and dynamic import() calls of a file. */
function importsOf(file: string): Import[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const found: Import[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^;'"]*?\sfrom\s+)?'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)) {
    const spec = match[2] ?? match[3]!;
    const to = spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)) : spec;
    found.push({ from: file, to, typeOnly: match[1] !== undefined, dynamic: match[3] !== undefined });
  }
  return found;
}

const imports = sourceFiles(path.join(root, 'src'))
  .map((file) => path.relative(root, file).split(path.sep).join('/'))
  .flatMap(importsOf);
const unitOf = (file: string) => file.split('/')[1]!;
const rankOf = (unit: string) => LAYERS.findIndex((layer) => layer.includes(unit));
const internal = imports.filter((edge) => edge.to.startsWith('src/') && unitOf(edge.from) !== unitOf(edge.to));

describe('layer order', () => {
  it('places every unit of src/ in a layer', () => {
    const units = new Set(fs.readdirSync(path.join(root, 'src')).filter((name) => !name.startsWith('.')));
    expect([...units].filter((unit) => rankOf(unit) < 0)).toEqual([]);
    expect(LAYERS.flat().filter((unit) => !units.has(unit))).toEqual([]);
  });

  it('reads the imports it judges (a sample of known edges)', () => {
    const edge = (from: string, to: string) => internal.some((found) => found.from === from && found.to === to);
    expect(edge('src/runtime/compile.ts', 'src/files/csv.ts')).toBe(true);
    expect(edge('src/cli/introspection-commands.ts', 'src/settings.ts')).toBe(true); // dynamic import()
    expect(internal.find((found) => found.from === 'src/settings.ts' && found.to === 'src/contract.ts')?.typeOnly).toBe(true);
    expect(imports.some((found) => found.from === 'src/http/app.ts' && found.to === 'express')).toBe(true);
    expect(edge('src/runtime/runtime-sources.ts', 'src/operation.ts')).toBe(true); // type-only: the source type lives below the runtime
  });

  it('never imports up a layer', () => {
    const climbs = internal.filter((edge) => rankOf(unitOf(edge.to)) > rankOf(unitOf(edge.from))).map((edge) => `${edge.from} → ${edge.to}`);
    expect(climbs).toEqual([]);
  });

  it('has no units that import each other', () => {
    const pairs = new Set(internal.map((edge) => `${unitOf(edge.from)} -> ${unitOf(edge.to)}`));
    const cycles = new Set(
      [...pairs].flatMap((pair) => {
        const [a, b] = pair.split(' -> ') as [string, string];
        return pairs.has(`${b} -> ${a}`) ? [[a, b].sort().join(' <-> ')] : [];
      }),
    );
    expect([...cycles]).toEqual([]);
  });

  it('keeps the control plane apart from the targets: store imports no dialect (service.ts hands it the facts it needs)', () => {
    expect(internal.filter((edge) => unitOf(edge.from) === 'store' && unitOf(edge.to) === 'dialects').map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
  });

  it.each(Object.entries(PACKAGE_HOMES))('imports %s only where it belongs', (name, home) => {
    const users = imports.filter((edge) => (edge.to === name || edge.to.startsWith(`${name}/`)) && !edge.typeOnly);
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((edge) => !home.test(edge.from)).map((edge) => edge.from)).toEqual([]);
  });

  it('stale-job cleanup loads no generation engine: what the worker module loads with it reaches no src/generation/ nor faker', () => {
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const edge of imports) if (edge.from === file && !edge.typeOnly && !edge.dynamic && edge.to.startsWith('src/')) visit(edge.to);
    };
    visit('src/management/generation-worker.ts');
    expect(loaded.has('src/dialects/index.ts')).toBe(true);
    expect([...loaded].filter((file) => file.startsWith('src/generation/'))).toEqual([]);
    const packages = imports.filter((edge) => loaded.has(edge.from) && !edge.typeOnly && !edge.dynamic && !edge.to.startsWith('src/')).map((edge) => edge.to);
    expect(packages.filter((name) => name.includes('faker'))).toEqual([]);
    // The engine itself comes on the first job.
    expect(imports.some((edge) => edge.from === 'src/management/generation-worker.ts' && edge.to === 'src/generation/run.ts' && edge.dynamic)).toBe(true);
  });
});
