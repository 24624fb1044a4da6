// API errors as text for the page: the error sentence, then its first details.
import type { SdsError } from '@sds/sdk';

/** An API error as one sentence: the error, then its first details. */
export function errorText(error: SdsError | undefined, response?: Response): string {
  if (!error) return `The server answered ${response?.status ?? 'nothing'}`;
  const details = (error.details ?? []).slice(0, 3).map((detail) => `${detail.path || '/'} ${detail.message}`);
  return [error.error, ...details].join(' — ');
}

/** The data of an SDK result, or an Error with the API's message (for code paths that show it once). */
export function dataOf<T>(result: { data?: T; error?: SdsError; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) throw new Error(errorText(result.error, result.response));
  return result.data;
}
