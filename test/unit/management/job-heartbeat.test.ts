// A job's heartbeat as its worker keeps it (job-heartbeat.ts): the run stops when the job is another
// worker's or no longer runs, and when the control plane cannot be reached for so long that other
// workers may take the job as stale and start the source's staging namespace anew (a worker cut off
// used to go on writing into it).
import { describe, expect, it } from 'vitest';
import { startJobHeartbeat } from '../../../src/management/job-heartbeat.ts';
import { JobTakenOver } from '../../../src/management/task-worker.ts';

const gone = new Error('the job no longer runs');

/** Starts the heartbeat over fake renewals; resolves with the abort reason. */
function run(heartbeat: () => Promise<boolean>, runningWorker: () => Promise<string | undefined>, options = { everyMs: 5, staleMs: 25 }) {
  const abort = new AbortController();
  const calls = { heartbeat: 0 };
  const stop = startJobHeartbeat(
    {
      heartbeat: () => {
        calls.heartbeat += 1;
        return heartbeat();
      },
      runningWorker,
    },
    'job-1',
    'worker-a',
    abort,
    gone,
    options,
  );
  const reason = new Promise<unknown>((resolve) => abort.signal.addEventListener('abort', () => resolve(abort.signal.reason)));
  return { reason, stop, calls, abort };
}

describe('a job heartbeat', () => {
  it('stops the run when the control plane does not answer for the stale time less one interval, renewing one at a time', async () => {
    const hung = run(() => new Promise<boolean>(() => {}), async () => 'worker-a');
    const reason = await hung.reason;
    hung.stop();
    expect(reason).toBeInstanceOf(Error);
    expect((reason as Error).message).toMatch(/could not be renewed in the control plane .* other workers may take the job as stale/);
    // The renewal in flight was never doubled up (a swap holding the job's row makes renewals wait).
    expect(hung.calls.heartbeat).toBe(1);
  });

  it('stops the run when renewals keep failing', async () => {
    const failing = run(() => Promise.reject(new Error('connection refused')), async () => undefined);
    const reason = await failing.reason;
    failing.stop();
    expect((reason as Error).message).toMatch(/could not be renewed/);
    expect(failing.calls.heartbeat).toBeGreaterThan(0);
  });

  it('names the worker that took the job over, or says the job is gone', async () => {
    // A stale time no loaded machine reaches: the answer, not the clock, stops these runs.
    const patient = { everyMs: 5, staleMs: 60_000 };
    const takenOver = run(async () => false, async () => 'worker-b', patient);
    const reason = await takenOver.reason;
    takenOver.stop();
    expect(reason).toBeInstanceOf(JobTakenOver);
    expect((reason as JobTakenOver).worker).toBe('worker-b');

    const failed = run(async () => false, async () => undefined, patient);
    expect(await failed.reason).toBe(gone);
    failed.stop();
  });

  it('goes on while renewals succeed', async () => {
    let renewed!: () => void;
    const fifth = new Promise<void>((resolve) => (renewed = resolve));
    let count = 0;
    const alive = run(
      async () => {
        if (++count === 5) renewed();
        return true;
      },
      async () => 'worker-a',
      { everyMs: 5, staleMs: 60_000 },
    );
    await fifth;
    alive.stop();
    expect(alive.abort.signal.aborted).toBe(false);
  });
});
