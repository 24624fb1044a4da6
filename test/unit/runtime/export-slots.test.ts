// Export admission: per source (429) and per target server (503), slots given back once, whether the
// stream ended, failed, was left early or never started.
import { describe, expect, it } from 'vitest';
import type { TargetConnection } from '../../../src/dialects/dialect.ts';
import { ExportSlots, releasingAtEnd } from '../../../src/runtime/export-slots.ts';

const target = {} as TargetConnection;
const other = {} as TargetConnection;
/** Source `sourceId` of team `teamId` (default t1). */
const of = (sourceId: string, teamId = 't1') => ({ sourceId, teamId });

describe('ExportSlots', () => {
  it('refuses the third export of a source with 429 and Retry-After, and admits it once one ends', () => {
    const slots = new ExportSlots({ perSource: 2, perTeam: 0, perTarget: 10 });
    const first = slots.acquire(of('s1'), target);
    slots.acquire(of('s1'), target);
    expect(() => slots.acquire(of('s1'), target)).toThrow(expect.objectContaining({ status: 429, headers: { 'Retry-After': '5' } }));
    // Another source is not affected.
    expect(() => slots.acquire(of('s2'), target)).not.toThrow();
    first();
    first();
    expect(slots.inUse('s1')).toBe(1);
    expect(() => slots.acquire(of('s1'), target)).not.toThrow();
  });

  it('refuses with 503 when the target server has no export connection left, per target', () => {
    const slots = new ExportSlots({ perSource: 0, perTeam: 0, perTarget: 2 });
    slots.acquire(of('a'), target);
    slots.acquire(of('b'), target);
    expect(() => slots.acquire(of('c'), target)).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => slots.acquire(of('c'), other)).not.toThrow();
    expect(slots.inUse()).toBe(3);
  });
});

describe('ExportSlots per team', () => {
  it("refuses a team's exports past its limit whichever of its sources they read, with 429; other teams go on", () => {
    const slots = new ExportSlots({ perSource: 2, perTeam: 3, perTarget: 4 });
    slots.acquire(of('a1'), target);
    slots.acquire(of('a2'), target);
    const third = slots.acquire(of('a3'), target);
    expect(() => slots.acquire(of('a4'), target)).toThrow(expect.objectContaining({ status: 429, message: expect.stringContaining('SDS_EXPORTS_PER_TEAM') }));
    // The pool's last connection is still there for another team.
    expect(() => slots.acquire(of('b1', 't2'), target)).not.toThrow();
    third();
    expect(() => slots.acquire(of('a4'), target)).not.toThrow();
    // Four of four connections in use: anyone's next export is 503.
    expect(() => slots.acquire(of('c1', 't3'), target)).toThrow(expect.objectContaining({ status: 503 }));
  });
});

describe('releasingAtEnd', () => {
  async function* pieces(fail = false) {
    yield 'a';
    if (fail) throw new Error('broken');
    yield 'b';
  }
  const counting = () => {
    let released = 0;
    return { release: () => void released++, released: () => released };
  };

  it('releases at the end, on failure, when left early, and when returned before it started', async () => {
    const end = counting();
    const all: string[] = [];
    for await (const piece of releasingAtEnd(pieces(), end.release)) all.push(piece);
    expect([all, end.released()]).toEqual([['a', 'b'], 1]);

    const failed = counting();
    await expect((async () => {
      for await (const _ of releasingAtEnd(pieces(true), failed.release));
    })()).rejects.toThrow('broken');
    expect(failed.released()).toBe(1);

    const early = counting();
    for await (const _ of releasingAtEnd(pieces(), early.release)) break;
    expect(early.released()).toBe(1);

    const never = counting();
    await releasingAtEnd(pieces(), never.release)[Symbol.asyncIterator]().return!();
    expect(never.released()).toBe(1);
  });
});
