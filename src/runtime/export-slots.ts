// Admission of table exports in this process: at most `perSource` exports of one source and
// `perTeam` of one team at once (429), and never more exports of one target server than its export
// pool has connections (503),
// so an export either starts at once or is refused at once: none waits for a connection that a
// client reading slowly (or not at all) holds. Exports hold their slot until their stream ends.
import type { TargetConnection } from '../dialects/dialect.ts';
import { AppError } from '../errors.ts';

export interface ExportSlotLimits {
  /** Exports of one source streaming at once; 0: no limit. */
  perSource: number;
  /** Exports of one team's sources streaming at once; 0: no limit. Below `perTarget`, no team can take a whole export pool. */
  perTeam: number;
  /** Exports of one target server streaming at once: the size of its export pool. */
  perTarget: number;
}

/** Seconds a refused export is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 5;

export const exportErrors = {
  tooManyForSource: (limit: number) =>
    new AppError(429, `This source already has ${limit} export${limit === 1 ? '' : 's'} streaming (the limit per source, SDS_EXPORTS_PER_SOURCE); try again when one ends`, {
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    }),
  tooManyForTeam: (limit: number) =>
    new AppError(429, `This team already has ${limit} export${limit === 1 ? '' : 's'} streaming (the limit per team, SDS_EXPORTS_PER_TEAM); try again when one ends`, {
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    }),
  targetBusy: (limit: number) =>
    new AppError(503, `Every export connection of this source's database is in use (${limit}, SDS_EXPORT_POOL_SIZE); try again shortly`, {
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    }),
};

export class ExportSlots {
  private readonly bySource = new Map<string, number>();
  private readonly byTeam = new Map<string, number>();
  private readonly byTarget = new Map<TargetConnection, number>();

  constructor(private readonly limits: ExportSlotLimits) {}

  /** Takes a slot for an export of a source of a team on `target`, or throws 429/503; the function returned gives it back (once). */
  acquire(owner: { sourceId: string; teamId: string }, target: TargetConnection): () => void {
    const { sourceId, teamId } = owner;
    const source = this.bySource.get(sourceId) ?? 0;
    if (this.limits.perSource > 0 && source >= this.limits.perSource) throw exportErrors.tooManyForSource(this.limits.perSource);
    const team = this.byTeam.get(teamId) ?? 0;
    if (this.limits.perTeam > 0 && team >= this.limits.perTeam) throw exportErrors.tooManyForTeam(this.limits.perTeam);
    const onTarget = this.byTarget.get(target) ?? 0;
    if (onTarget >= this.limits.perTarget) throw exportErrors.targetBusy(this.limits.perTarget);
    this.bySource.set(sourceId, source + 1);
    this.byTeam.set(teamId, team + 1);
    this.byTarget.set(target, onTarget + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.bySource, sourceId);
      decrement(this.byTeam, teamId);
      decrement(this.byTarget, target);
    };
  }

  /** Exports streaming now (tests, metrics). */
  inUse(sourceId?: string): number {
    if (sourceId !== undefined) return this.bySource.get(sourceId) ?? 0;
    let total = 0;
    for (const count of this.byTarget.values()) total += count;
    return total;
  }
}

function decrement<K>(counts: Map<K, number>, key: K): void {
  const count = (counts.get(key) ?? 1) - 1;
  if (count <= 0) counts.delete(key);
  else counts.set(key, count);
}

/**
 * `chunks` holding `release` until they end, fail or are left early (return), whether or not they
 * were ever started.
 */
export function releasingAtEnd<T>(chunks: AsyncIterable<T>, release: () => void): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: () => {
      const inner = chunks[Symbol.asyncIterator]();
      return {
        async next() {
          try {
            const result = await inner.next();
            if (result.done) release();
            return result;
          } catch (error) {
            release();
            throw error;
          }
        },
        async return(value?: unknown) {
          try {
            return (await inner.return?.(value)) ?? { done: true as const, value: undefined as T };
          } finally {
            release();
          }
        },
      };
    },
  };
}
