// One generation job, live: a progress bar per entity from the event stream, rows per second,
// warnings, and the failure reason when it fails. The job resource is read again at the end.
import { useEffect, useState } from 'preact/hooks';
import { dataOf, type GenerationEvent, type GenerationJob, type ManagementClient } from '../api.ts';
import { ErrorNote, useAnnounce } from '../ui.tsx';
import { pollJobEnd, watchJob, type JobRef } from './event-stream.ts';
import { advance, fromJob, rowsPerSecond, type Progress } from './progress.ts';

export function JobMonitor({ api, job: ref, onFinished }: { api: ManagementClient; job: JobRef; onFinished?: (job: GenerationJob) => void }) {
  const announce = useAnnounce();
  const [progress, setProgress] = useState<Progress>({ status: 'queued', entities: [], warnings: [] });
  const [error, setError] = useState<string>();

  useEffect(() => {
    const abort = new AbortController();
    let current: Progress = { status: 'queued', entities: [], warnings: [] };
    setProgress(current);
    setError(undefined);
    void (async () => {
      const stream = new AbortController();
      abort.signal.addEventListener('abort', () => stream.abort(), { once: true });
      try {
        const onEvent = (event: GenerationEvent) => {
          const before = current.status;
          setProgress((current = advance(current, event)));
          if (before !== 'running' && current.status === 'running') announce('Generation running');
        };
        // Whichever sees the end first: the event stream, or the job resource read every 1.5 s.
        const streamed = watchJob(api, ref, onEvent, stream.signal).catch((failure: unknown) => {
          if (!stream.signal.aborted) setError(`Lost the event stream (still following the job): ${(failure as Error).message}`);
          return new Promise<void>(() => {});
        });
        await Promise.race([streamed, pollJobEnd(api, ref, stream.signal)]);
        stream.abort();
        if (abort.signal.aborted) return;
        // The job resource has the final totals (the last progress event may be a second old).
        const job = dataOf(await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}', { params: { path: ref } }));
        setProgress({ ...fromJob(job), durationMs: current.durationMs, ...(current.tasks ? { tasks: current.tasks } : {}) });
        announce(
          job.status === 'succeeded' ? `Generation succeeded: ${job.rowsInserted} rows` : `Generation ${job.status}${job.error ? `: ${job.error}` : ''}`,
        );
        onFinished?.(job);
      } catch (failure) {
        if (!abort.signal.aborted) setError(`Cannot read the job: ${(failure as Error).message}`);
      }
    })();
    return () => abort.abort();
  }, [api, ref.projectId, ref.sourceId, ref.jobId]);

  const rate = rowsPerSecond(progress);
  const total = progress.entities.reduce((sum, entity) => sum + entity.rowsInserted, 0);
  return (
    <section class="job" aria-labelledby={`job-${ref.jobId}`} data-testid="job-monitor" data-status={progress.status}>
      <h3 id={`job-${ref.jobId}`}>
        Generation <span class={`badge ${progress.status}`}>{progress.status}</span>
      </h3>
      <p aria-live="polite" data-testid="job-summary">
        {total} rows
        {rate !== undefined ? ` · ${rate.toLocaleString('en')} rows/s` : ''}
      </p>
      <ul class="bars">
        {progress.entities.map((entity) => {
          const percent = entity.rowsPlanned ? Math.floor((entity.rowsInserted / entity.rowsPlanned) * 100) : progress.status === 'succeeded' ? 100 : 0;
          return (
            <li key={entity.id}>
              <label for={`bar-${ref.jobId}-${entity.id}`}>
                {entity.id}: {entity.rowsInserted} of {entity.rowsPlanned} rows ({percent}%)
              </label>
              <progress id={`bar-${ref.jobId}-${entity.id}`} max={100} value={percent} data-entity={entity.id} data-percent={percent} />
            </li>
          );
        })}
      </ul>
      {progress.tasks && progress.tasks.length > 0 && (
        <details class="tasks" data-testid="job-tasks">
          <summary>
            {progress.tasks.filter((task) => task.status === 'succeeded').length} of {progress.tasks.length} tasks done, by{' '}
            {new Set(progress.tasks.map((task) => task.worker)).size} workers
          </summary>
          <ul>
            {progress.tasks.map((task) => (
              <li key={task.task} data-task={task.task} data-status={task.status}>
                task {task.task} ({task.label}): {task.status}
                {task.status === 'succeeded' ? `, ${task.rows} rows` : ''} on {task.worker}
              </li>
            ))}
          </ul>
        </details>
      )}
      {progress.warnings.length > 0 && (
        <div class="warnings">
          <h4>Warnings</h4>
          <ul>
            {progress.warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
      <ErrorNote message={progress.status === 'failed' ? `Generation failed: ${progress.error ?? 'no reason given'}` : undefined} />
      <ErrorNote message={error} />
    </section>
  );
}
