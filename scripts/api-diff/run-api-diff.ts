// `npm run api:diff -- [--changelog <file>] [--json] [<old> [<new>]]`: the contract's breaking-change
// gate. Loads both sides (files or git refs), classifies every change for clients, prints them and
// answers an exit code: 0 nothing breaking (or every breaking change acknowledged in the changelog
// given), 1 a breaking change, 2 a side or the changelog could not be read.
import fs from 'node:fs';
import path from 'node:path';
import { readAcknowledgements, suggestEntries, unacknowledged } from './changelog.ts';
import { classifyChanges, type Change } from '../../src/api-changes/classify-changes.ts';
import { formatChanges, summarise, summaryLine } from './format-changes.ts';
import { ContractLoadError, DEFAULT_CONTRACT, git, loadContract, parseSource, resolveCommit } from './load-contract.ts';

export const USAGE = `Usage: npm run api:diff -- [options] [<old> [<new>]]

Lists every change between two versions of the OpenAPI contract, classified for clients
(breaking, non-breaking, deprecated, annotation, unclassified; request and response sides
apart), and exits 1 when a change is breaking.

  <old>, <new>   a file, a git ref (openapi/openapi.yaml at that ref) or <ref>:<path>;
                 external $refs are read from the same file tree or commit.
                 Default old: the merge base with main (on main: HEAD~1, the previous commit).
                 Default new: the working copy's openapi/openapi.yaml.
  --changelog <file>  breaking changes named under "## Unreleased" → "### Breaking" of this
                 file (see the top of CHANGELOG.md) are acknowledged and do not fail
  --json         print the changes as JSON instead of text
  --help         this text

Exit status: 0 no unacknowledged breaking change, 1 breaking changes, 2 bad arguments or a
side that does not load.`;

export interface ApiDiffIo {
  /** The repository the git refs and default paths belong to. */
  root: string;
  cwd?: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

interface Options {
  old?: string;
  new?: string;
  changelog?: string;
  json: boolean;
  help: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { json: false, help: false };
  const sides: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--changelog' || arg.startsWith('--changelog=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (!value) throw new ContractLoadError('--changelog needs a file: --changelog CHANGELOG.md');
      options.changelog = value;
    } else if (arg.startsWith('-')) throw new ContractLoadError(`unknown option ${arg} (the options are --changelog <file>, --json, --help)`);
    else sides.push(arg);
  }
  if (sides.length > 2) throw new ContractLoadError(`at most two sides, <old> and <new>; got ${sides.length}: ${sides.join(' ')}`);
  [options.old, options.new] = sides;
  return options;
}

/** The old side when none is named: the merge base with main, or on main itself the previous commit. */
export function defaultOld(root: string): { spec: string; why: string } {
  const head = resolveCommit(root, 'HEAD');
  if (!head) throw new ContractLoadError('no commit at HEAD: name the old side');
  const main = ['main', 'origin/main'].find((ref) => resolveCommit(root, ref));
  const base = main ? git(root, ['merge-base', 'HEAD', main]).trim() : undefined;
  if (base && base !== head) return { spec: base, why: `the merge base with ${main}` };
  if (!resolveCommit(root, 'HEAD~1')) throw new ContractLoadError('HEAD has no parent commit (a single-commit or shallow clone?): name the old side');
  return { spec: 'HEAD~1', why: main ? `the previous commit: HEAD is on ${main}` : 'the previous commit: no main branch' };
}

export async function runApiDiff(argv: readonly string[], io: ApiDiffIo): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  try {
    const options = parseArgs(argv);
    if (options.help) {
      io.out(USAGE);
      return 0;
    }
    const old = options.old ? { spec: options.old, why: '' } : defaultOld(io.root);
    const newSpec = options.new ?? path.join(io.root, DEFAULT_CONTRACT);
    const before = await loadContract(io.root, parseSource(io.root, old.spec, cwd));
    const after = await loadContract(io.root, parseSource(io.root, newSpec, cwd));
    const changes = classifyChanges(before.document, after.document);

    let failing: Change[] = changes.filter((change) => change.type === 'breaking');
    let changelogName: string | undefined;
    if (options.changelog) {
      const file = path.resolve(cwd, options.changelog);
      if (!fs.existsSync(file)) throw new ContractLoadError(`--changelog ${options.changelog}: no such file`);
      changelogName = path.basename(file);
      failing = unacknowledged(changes, readAcknowledgements(fs.readFileSync(file, 'utf8')));
    }
    const acknowledged = new Set(changes.filter((change) => change.type === 'breaking' && !failing.includes(change)));

    if (options.json) {
      io.out(JSON.stringify({ old: before.label, new: after.label, summary: summarise(changes), changes, unacknowledged: failing.map((change) => change.pointer) }, null, 2));
      return failing.length ? 1 : 0;
    }
    io.out(`API changes from ${before.label}${old.why ? ` (${old.why})` : ''} to ${after.label}`);
    if (changes.length) io.out(`\n${formatChanges(changes, acknowledged)}\n`);
    else io.out('no changes');
    io.out(summaryLine(changes) + (acknowledged.size ? `; ${acknowledged.size} breaking acknowledged in ${changelogName}` : ''));
    if (!failing.length) return 0;
    const keys = new Set(failing.map((change) => change.key));
    io.err(`\n${failing.length} breaking change${failing.length === 1 ? '' : 's'} for clients${changelogName ? ` not acknowledged in ${changelogName}` : ''} (${[...keys].join(', ')}).`);
    io.err(
      `If intended, acknowledge ${keys.size === 1 ? 'it' : 'each'} under "## Unreleased" → "### Breaking" in ${changelogName ?? 'CHANGELOG.md'} ` +
        `(the convention is at its top${changelogName ? '' : '; CI checks it with --changelog CHANGELOG.md'}), for example:\n${suggestEntries(failing).join('\n')}`,
    );
    return 1;
  } catch (error) {
    if (!(error instanceof ContractLoadError)) throw error;
    io.err(`api:diff: ${error.message}\n\n${USAGE}`);
    return 2;
  }
}
