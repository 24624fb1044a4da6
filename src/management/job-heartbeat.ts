// A running job's heartbeat, as its worker keeps it: renewed every few seconds in the control plane,
// and the worker's run stopped when the job is no longer its own, or when the worker could not renew
// it for so long that other workers may take the job as stale (and fail it, or take it over, and start
// the source's staging namespace anew): a worker cut off from the control plane stops writing before
// anyone else may write there.
import type { JobStore } from '../store/jobs.ts';
import { JobTakenOver } from './task-worker.ts';

export interface JobHeartbeatOptions {
  /** Renewal interval. */
  everyMs: number;
  /** Heartbeat age at which other workers take the job as stale (GenerationWorker's staleMs). */
  staleMs: number;
}

/**
 * Renews `jobId` for `worker` every `everyMs` and aborts `abort` with JobTakenOver (another worker
 * runs the job now), `gone` (it no longer runs: failed, or its source deleted) or a lost-control-plane
 * error once no renewal has succeeded for `staleMs − everyMs`. Returns the function that stops it.
 */
export function startJobHeartbeat(
  jobs: Pick<JobStore, 'heartbeat' | 'runningWorker'>,
  jobId: string,
  worker: string,
  abort: AbortController,
  gone: Error,
  options: JobHeartbeatOptions,
): () => void {
  let renewed = Date.now();
  // One renewal at a time: while the worker swaps it holds the job's row, and a renewal waits for that.
  let pending = false;
  const lostAfterMs = Math.max(options.everyMs, options.staleMs - options.everyMs);
  const timer = setInterval(() => {
    if (Date.now() - renewed >= lostAfterMs) {
      const seconds = Math.round((Date.now() - renewed) / 1000);
      abort.abort(new Error(`the job's heartbeat could not be renewed in the control plane for ${seconds} s: other workers may take the job as stale, so it stopped; the previous data still serves`));
      return;
    }
    if (pending) return;
    pending = true;
    jobs
      .heartbeat(jobId, worker)
      .then(async (alive) => {
        renewed = Date.now();
        if (alive) return;
        // Still running, on another worker: this one's heartbeat had gone stale and the job was taken over.
        const holder = await jobs.runningWorker(jobId);
        abort.abort(holder && holder !== worker ? new JobTakenOver(holder) : gone);
      })
      .catch(() => {})
      .finally(() => (pending = false));
  }, options.everyMs);
  return () => clearInterval(timer);
}
