// Stopping a worker whose slot is claiming (a query in flight, no idle slot to wake) ends its loop
// once the claim returns, without sleeping out the poll interval first: every test service's close,
// and every server's shutdown, took a second longer while the slot slept.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { TaskWorker } from '../../../src/management/task-worker.ts';

/** A task store whose claims wait until `release` is called, then find nothing. */
function slowClaims() {
  let claims = 0;
  let release = () => {};
  let signalClaimed = () => {};
  const claimed = new Promise<void>((resolve) => (signalClaimed = resolve));
  const store = {
    claim: () => {
      claims += 1;
      signalClaimed();
      return new Promise<null>((done) => (release = () => done(null)));
    },
  };
  return { store, claimed, release: () => release(), claims: () => claims };
}

describe('a task worker stopped while a slot claims', () => {
  it('ends its loop when the claim returns instead of idling a poll interval (here an hour)', async () => {
    const claims = slowClaims();
    const worker = new TaskWorker('host:1:test', { tasks: claims.store, logger: pino({ level: 'silent' }) } as never, { slots: 1, pollMs: 3_600_000 });
    worker.start();
    await claims.claimed;
    const stopped = worker.stop();
    claims.release();
    // With the slot idling after the claim, this would wait an hour (the test fails at its timeout).
    await expect(stopped).resolves.toBeUndefined();
    expect(claims.claims()).toBe(1);
  }, 5_000);
});
