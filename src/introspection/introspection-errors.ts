// The catalogue of introspection failures: what the user can fix (a bad connection string, wrong
// credentials, a missing schema, a DDL statement the server refused) and what is unreachable. Every
// message is written by sds and never contains the connection string or its parts.
import type { Issue } from '../config/validate-config.ts';

export type IntrospectionErrorKind =
  /** The request is wrong: a URL sds cannot use, a namespace without tables, an option out of range. */
  | 'invalid'
  /** The server refused the credentials, or the database named does not exist. */
  | 'refused'
  /** The server cannot be reached or is overloaded right now. */
  | 'unreachable'
  /** The server reached failed with an error of its own (PostgreSQL XX000 internal error, 58… system errors). */
  | 'upstream'
  /** A statement of a DDL script failed. */
  | 'script'
  /** A bug: the config built from a catalog does not validate. */
  | 'internal';

export class IntrospectionError extends Error {
  readonly kind: IntrospectionErrorKind;
  readonly details: Issue[] | undefined;

  constructor(kind: IntrospectionErrorKind, message: string, details?: Issue[]) {
    super(message);
    this.name = 'IntrospectionError';
    this.kind = kind;
    this.details = details;
  }
}

const LISTED = 20;
const list = (names: string[]) =>
  names.length === 0 ? '(none)' : names.length <= LISTED ? names.join(', ') : `${names.slice(0, LISTED).join(', ')} and ${names.length - LISTED} more`;

export const introspectionErrors = {
  badUrl: (reason: string) => new IntrospectionError('invalid', `The connection string cannot be used: ${reason}`),
  noNamespace: (word: string) => new IntrospectionError('invalid', `The connection string names no ${word}: name the ${word} to introspect`),
  namespaceMissing: (word: string, name: string, others: string[]) =>
    new IntrospectionError('invalid', `The ${word} "${name}" does not exist; the database has: ${list(others)}`),
  noTables: (word: string, name: string, others: string[]) =>
    new IntrospectionError('invalid', `The ${word} "${name}" has no tables; ${word}s of the database: ${list(others)}`),
  unknownTables: (names: string[], available: string[]) =>
    new IntrospectionError('invalid', `No table named ${names.map((name) => `"${name}"`).join(', ')}; tables: ${list(available)}`),
  credentials: (code: string | undefined) =>
    new IntrospectionError('refused', `The database refused the user name or password of the connection string${code ? ` (${code})` : ''}`),
  databaseMissing: (code: string | undefined) =>
    new IntrospectionError('refused', `The database named in the connection string does not exist${code ? ` (${code})` : ''}`),
  unreachable: (code: string | undefined) =>
    new IntrospectionError('unreachable', `The database server cannot be reached${code ? ` (${code})` : ''}; check the host and port, and that it accepts connections`),
  serverFailed: (code: string) => new IntrospectionError('upstream', `The database server failed while being introspected (${code}); try again, or ask its administrator`),
  failed: (code: string | undefined) =>
    new IntrospectionError('refused', `The database server refused to be introspected${code ? ` (${code})` : ''}`),
  statement: (line: number, message: string) => new IntrospectionError('script', `The statement at line ${line} failed: ${message}`),
  noScratchServer: (what: string) => new IntrospectionError('invalid', what),
  overWorkLimits: (issues: Issue[]) =>
    new IntrospectionError('invalid', `The introspected config is over the work limits: ${issues.map((e) => `${e.path} ${e.message}`).join('; ')}; introspect fewer tables`, issues),
  invalidResult: (errors: Issue[]) =>
    new IntrospectionError('internal', `The introspected config does not validate (a bug in sds): ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`, errors),
};
