// Files sds reads at run time (the bundled OpenAPI document, the schema-config JSON Schema, the
// migrations), found from the package root: the same code then works from src/ (tsx, tests) and
// from the bundle that `npm run build` writes into dist/.
import fs from 'node:fs';

const PACKAGE_NAME = 'sds';

let root: URL | undefined;

/** The package root: the nearest folder above this module whose package.json is sds's. */
function packageRoot(): URL {
  if (root) return root;
  for (let folder = new URL('./', import.meta.url); ; folder = new URL('../', folder)) {
    const manifest = new URL('package.json', folder);
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME) {
      return (root = folder);
    }
    if (folder.pathname === '/') throw new Error(`no package.json of "${PACKAGE_NAME}" above ${import.meta.url}`);
  }
}

/** A file or folder of the package by its path from the root, e.g. `generated/openapi.json`. */
export function resourceUrl(path: string): URL {
  return new URL(path, packageRoot());
}
