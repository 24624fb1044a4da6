// The machinery of `sds contract-test`: named checks run in order, every HTTP response validated
// against the OpenAPI document as it arrives (a `Location` is followed to the resource it names),
// the operations each response exercised counted for the coverage row, and a pass/fail table.
import { ResponseValidator } from '../http/response-validator.ts';
import type { OpenApiDocument } from '../contract.ts';

const validators = new WeakMap<OpenApiDocument, ResponseValidator>();

/** Request headers that carry a credential, copied onto the request that follows a `Location`. */
const CREDENTIAL_HEADERS = ['x-api-key', 'authorization'];

export type CheckOutcome = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  name: string;
  /** The first request of the check, as `METHOD /path/{template}`. */
  operation: string;
  /** Status of that first response. */
  status?: number;
  outcome: CheckOutcome;
  notes: string[];
  /** How long the check ran. */
  durationMs?: number;
}

/** Thrown inside a check to fail it with a message; anything else thrown fails it too. */
export class CheckFailed extends Error {}

export class ContractRun {
  readonly results: CheckResult[] = [];
  /** Statuses answered per operationId, over the whole run. */
  readonly exercised = new Map<string, Set<number>>();
  private current: CheckResult | undefined;
  private readonly validator: ResponseValidator;

  constructor(document: OpenApiDocument) {
    // Compiling the document's schemas is most of a validator's cost: runs against one document share it.
    let validator = validators.get(document);
    if (!validator) validators.set(document, (validator = new ResponseValidator(document)));
    this.validator = validator;
  }

  /**
   * A `fetch` that validates every response against the document and records it on the running
   * check; a created resource's `Location` (when its status declares one) is fetched with the same
   * credentials and must answer 200 with the created resource's `id`.
   */
  readonly fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const credentials = new Headers();
    for (const name of CREDENTIAL_HEADERS) if (request.headers.has(name)) credentials.set(name, request.headers.get(name)!);
    const response = await globalThis.fetch(request);
    const check = await this.validator.check(request.method, new URL(request.url), response.clone());
    if (check.operationId) {
      const statuses = this.exercised.get(check.operationId) ?? new Set<number>();
      statuses.add(check.status);
      this.exercised.set(check.operationId, statuses);
    }
    const problems = [...check.problems, ...rateLimitProblems(response.headers)];
    const location = response.headers.get('location');
    if (location !== null && response.ok && check.declaredHeaders.some((name) => name.toLowerCase() === 'location')) {
      problems.push(...(await this.followLocation(new URL(location, request.url), credentials, check.body)));
    }
    const result = this.current;
    if (result) {
      // The table shows the check's first request and its status; later ones only add problems.
      if (result.operation === '-') {
        result.operation = check.operation;
        result.status = check.status;
      }
      for (const problem of problems) result.notes.push(`${check.operation} ${check.status}: ${problem}`);
      if (problems.length) result.outcome = 'fail';
    }
    return response;
  };

  private async followLocation(url: URL, credentials: Headers, created: unknown): Promise<string[]> {
    const response = await this.fetch(url, { headers: credentials });
    if (response.status !== 200) return [`Location ${url.pathname} answered ${response.status}, not 200`];
    const body = (await response.json().catch(() => undefined)) as { id?: unknown } | undefined;
    const id = (created as { id?: unknown } | undefined)?.id;
    if (id !== undefined && body?.id !== id) return [`Location ${url.pathname} names another resource (id ${JSON.stringify(body?.id)}, created ${JSON.stringify(id)})`];
    return [];
  }

  /**
   * Runs one check. It is skipped when a value it `needs` is missing (an earlier check failed);
   * it fails when it throws or when any of its responses breaks the contract.
   */
  async check(name: string, needs: unknown[], work: () => Promise<void | string | Skip>): Promise<boolean> {
    const result: CheckResult = { name, operation: '-', outcome: 'pass', notes: [] };
    this.results.push(result);
    if (needs.some((value) => value === undefined)) {
      result.outcome = 'skip';
      result.notes.push('needs the result of a failed check');
      return false;
    }
    this.current = result;
    const started = performance.now();
    try {
      const note = await work();
      if (note instanceof Skip) {
        result.outcome = 'skip';
        result.notes.unshift(note.reason);
      } else if (note) result.notes.push(note);
    } catch (error) {
      result.outcome = 'fail';
      result.notes.unshift(error instanceof Error ? error.message : String(error));
    } finally {
      this.current = undefined;
      result.durationMs = Math.round(performance.now() - started);
    }
    return result.outcome === 'pass';
  }

  /** Adds the results of another run (another document's), each name prefixed. */
  include(prefix: string, results: CheckResult[]): void {
    for (const result of results) this.results.push({ ...result, name: `${prefix}${result.name}` });
  }

  /** A skipped check with the reason (a credential not given, a server option not set). */
  skip(name: string, reason: string): void {
    this.results.push({ name, operation: '-', outcome: 'skip', notes: [reason] });
  }

  /**
   * The coverage row: every operation of the document must have been exercised by some request of
   * the run; the missing ones are listed (a failure unless `allowUncovered`, then a skip).
   */
  coverage(operationIds: string[], allowUncovered: boolean): void {
    const missing = operationIds.filter((operationId) => !this.exercised.has(operationId));
    const covered = operationIds.length - missing.length;
    const result: CheckResult = { name: 'coverage: every operation of the document exercised', operation: '-', outcome: 'pass', notes: [`${covered} of ${operationIds.length} operations`] };
    if (missing.length) {
      result.outcome = allowUncovered ? 'skip' : 'fail';
      result.notes.unshift(`not exercised: ${missing.join(', ')}`);
    }
    this.results.push(result);
  }

  /** Failed when a check failed; skips (a credential not given) do not fail the run. */
  get failed(): boolean {
    return this.results.some((result) => result.outcome === 'fail');
  }
}

/** Returned by a check's work to mark it skipped with a reason. */
export class Skip {
  constructor(readonly reason: string) {}
}

/** `RateLimit-Remaining` cannot exceed `RateLimit-Limit` (each header's own schema is the validator's). */
function rateLimitProblems(headers: Headers): string[] {
  const limit = headers.get('ratelimit-limit');
  const remaining = headers.get('ratelimit-remaining');
  if (limit === null || remaining === null || !/^\d+$/.test(limit) || !/^\d+$/.test(remaining)) return [];
  return Number(remaining) > Number(limit) ? [`RateLimit-Remaining ${remaining} exceeds RateLimit-Limit ${limit}`] : [];
}

/** Fails the running check unless `condition` holds. */
export function expectThat(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** Fails the running check unless the result has the expected status; returns its data. */
export function expectStatus<T>(result: { data?: T; error?: { error: string }; response: Response }, status: number): T {
  if (result.response.status !== status) {
    const reason = result.error ? `: ${result.error.error}` : '';
    throw new CheckFailed(`expected ${status}, got ${result.response.status}${reason}`);
  }
  return result.data as T;
}

/** The results as a fixed-width table with a summary line. */
export function formatTable(results: CheckResult[]): string {
  const rows = results.map((result, index) => [
    String(index + 1),
    result.name,
    result.operation,
    result.status === undefined ? '-' : String(result.status),
    result.outcome.toUpperCase(),
    result.notes.join('; '),
  ]);
  const header = ['#', 'check', 'operation', 'status', 'result', 'notes'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (column === 5 ? 0 : row[column]!.length))));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 5 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd();
  const count = (outcome: CheckOutcome) => results.filter((result) => result.outcome === outcome).length;
  return [
    line(header),
    line(widths.map((width, column) => '-'.repeat(column === 5 ? 5 : width))),
    ...rows.map(line),
    '',
    `${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped`,
  ].join('\n');
}
