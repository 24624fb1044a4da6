// Loads one side of `npm run api:diff`: an OpenAPI document from a file or from git history
// (`<ref>` is openapi/openapi.yaml at that ref, `<ref>:<path>` any file there), bundled into one
// document with every external $ref (the schema-config JSON Schema) read from the same place.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundle, createConfig } from '@redocly/openapi-core';
import YAML from 'yaml';

export const DEFAULT_CONTRACT = 'openapi/openapi.yaml';

/** Where one side's document comes from. */
export type ContractSource = { kind: 'file'; file: string } | { kind: 'git'; ref: string; commit: string; file: string };

export interface LoadedContract {
  source: ContractSource;
  /** Short readable name for reports: `main@3103df0:openapi/openapi.yaml`, or the file's path (from the repository's root when inside it). */
  label: string;
  document: Record<string, unknown>;
}

/** A side the user named that cannot be loaded: printed as it is, exit 2. */
export class ContractLoadError extends Error {}

export function git(root: string, args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
}

/** The commit a ref names, or undefined when it names none (an unknown ref, `HEAD~1` of a one-commit clone). */
export function resolveCommit(root: string, ref: string): string | undefined {
  try {
    return git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a side as the user wrote it: an existing file path wins; otherwise `<ref>:<path>` or `<ref>`
 * (meaning `<ref>:openapi/openapi.yaml`), the path relative to the repository's root.
 */
export function parseSource(root: string, spec: string, cwd = process.cwd()): ContractSource {
  const asFile = path.resolve(cwd, spec);
  if (fs.existsSync(asFile) && fs.statSync(asFile).isFile()) return { kind: 'file', file: asFile };
  const colon = spec.indexOf(':');
  const ref = colon === -1 ? spec : spec.slice(0, colon);
  const file = colon === -1 ? DEFAULT_CONTRACT : spec.slice(colon + 1).replace(/^\.?\//, '');
  const commit = ref ? resolveCommit(root, ref) : undefined;
  if (!commit) throw new ContractLoadError(`"${spec}" is neither a file nor a git ref (git rev-parse found no commit "${ref}")`);
  return { kind: 'git', ref, commit, file };
}

export async function loadContract(root: string, source: ContractSource): Promise<LoadedContract> {
  if (source.kind === 'file') {
    const relative = path.relative(root, source.file);
    const label = relative.startsWith('..') || path.isAbsolute(relative) ? source.file : relative;
    return { source, label, document: await bundleFile(source.file) };
  }
  const short = source.commit.slice(0, 7);
  const label = `${source.commit.startsWith(source.ref) ? short : `${source.ref}@${short}`}:${source.file}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sds-api-diff-'));
  try {
    checkoutWithRefs(root, source.commit, source.file, dir);
    return { source, label, document: await bundleFile(path.join(dir, source.file)) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `file` as it is at `commit` under `dir`, and every file its external $refs reach, recursively. */
function checkoutWithRefs(root: string, commit: string, file: string, dir: string, seen = new Set<string>()): void {
  if (seen.has(file)) return;
  seen.add(file);
  if (file.startsWith('../')) throw new ContractLoadError(`${file}: a $ref leaves the repository`);
  let text: string;
  try {
    text = git(root, ['show', `${commit}:${file}`]);
  } catch {
    throw new ContractLoadError(`${file} does not exist at ${commit.slice(0, 7)}`);
  }
  const target = path.join(dir, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
  for (const ref of externalRefs(YAML.parse(text))) {
    checkoutWithRefs(root, commit, path.posix.normalize(path.posix.join(path.posix.dirname(file), ref)), dir, seen);
  }
}

/** The files a document's `$ref`s name (the part before `#`), URLs left out. */
function externalRefs(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) externalRefs(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const file = value.split('#')[0]!;
        if (file && !/^[a-z][a-z0-9+.-]*:/i.test(file)) found.add(file);
      } else externalRefs(value, found);
    }
  }
  return found;
}

/**
 * One document with no external $ref, as scripts/generate.ts bundles generated/openapi.json: the
 * JSON Schema's `$id` (which would make its refs resolve against the schema file) and its moved
 * `$defs` dropped, so each schema is compared once, where the operations use it.
 */
async function bundleFile(file: string): Promise<Record<string, unknown>> {
  let result;
  try {
    result = await bundle({ ref: file, config: await createConfig({}), dereference: false });
  } catch (error) {
    throw new ContractLoadError(`${file} does not load: ${(error as Error).message}`);
  }
  const errors = result.problems.filter((problem) => problem.severity === 'error');
  if (errors.length) throw new ContractLoadError(`${file} does not bundle:\n${errors.map((p) => `  ${p.message}`).join('\n')}`);
  const document = result.bundle.parsed as Record<string, unknown> & { components?: { schemas?: Record<string, Record<string, unknown>> } };
  if (!document || typeof document !== 'object' || typeof document.openapi !== 'string') {
    throw new ContractLoadError(`${file} is not an OpenAPI document (no "openapi" version field)`);
  }
  // generated/openapi.json's do-not-edit marker is no part of the contract.
  delete document['x-generated'];
  const defsReferenced = JSON.stringify(document).includes('/$defs/');
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if (!schema || typeof schema !== 'object') continue;
    delete schema.$id;
    delete schema.$schema;
    if (!defsReferenced) delete schema.$defs;
  }
  return document;
}
