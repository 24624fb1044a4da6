// Why a seed wrote nothing, as the CLI shows it: a sentence, and the lines it is about (the
// differences of a drifted database, the tables that hold rows).
export type SeedRefusalKind =
  /** The database differs from the config (sds diff's check). */
  | 'drift'
  /** Tables of the config hold rows and --truncate was not given. */
  | 'not-empty'
  /** --truncate, and tables outside the config reference the config's tables with rows. */
  | 'referenced'
  /** A statement failed while writing: the transaction was rolled back. */
  | 'failed'
  /** The config needs what the seed cannot do in place yet (a cycle of NOT NULL references). */
  | 'unsupported';

export class SeedRefusal extends Error {
  readonly kind: SeedRefusalKind;
  readonly details: string[];

  constructor(kind: SeedRefusalKind, message: string, details: string[]) {
    super(message);
    this.name = 'SeedRefusal';
    this.kind = kind;
    this.details = details;
  }
}
