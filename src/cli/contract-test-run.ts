// The machinery of `sds contract-test`: named checks run in order, every HTTP response validated
// against the OpenAPI document as it arrives, and a pass/fail table at the end.
import { ResponseValidator } from '../http/response-validator.ts';
import type { OpenApiDocument } from '../contract.ts';

export type CheckOutcome = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  name: string;
  /** The first request of the check, as `METHOD /path/{template}`. */
  operation: string;
  /** Status of that first response. */
  status?: number;
  outcome: CheckOutcome;
  notes: string[];
}

/** Thrown inside a check to fail it with a message; anything else thrown fails it too. */
export class CheckFailed extends Error {}

export class ContractRun {
  readonly results: CheckResult[] = [];
  private current: CheckResult | undefined;
  private readonly validator: ResponseValidator;

  constructor(document: OpenApiDocument) {
    this.validator = new ResponseValidator(document);
  }

  /** A `fetch` that validates every response against the document and records it on the running check. */
  readonly fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const response = await globalThis.fetch(request);
    const check = await this.validator.check(request.method, new URL(request.url), response.clone());
    const result = this.current;
    if (result) {
      // The table shows the check's first request and its status; later ones only add problems.
      if (result.operation === '-') {
        result.operation = check.operation;
        result.status = check.status;
      }
      for (const problem of check.problems) result.notes.push(`${check.operation} ${check.status}: ${problem}`);
      if (check.problems.length) result.outcome = 'fail';
    }
    return response;
  };

  /**
   * Runs one check. It is skipped when a value it `needs` is missing (an earlier check failed);
   * it fails when it throws or when any of its responses breaks the contract.
   */
  async check(name: string, needs: unknown[], work: () => Promise<void | string>): Promise<boolean> {
    const result: CheckResult = { name, operation: '-', outcome: 'pass', notes: [] };
    this.results.push(result);
    if (needs.some((value) => value === undefined)) {
      result.outcome = 'skip';
      result.notes.push('needs the result of a failed check');
      return false;
    }
    this.current = result;
    try {
      const note = await work();
      if (note) result.notes.push(note);
    } catch (error) {
      result.outcome = 'fail';
      result.notes.unshift(error instanceof Error ? error.message : String(error));
    } finally {
      this.current = undefined;
    }
    return result.outcome === 'pass';
  }

  get failed(): boolean {
    return this.results.some((result) => result.outcome !== 'pass');
  }
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
