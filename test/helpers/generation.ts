// Waiting for generation jobs through the API.
import { expect } from 'vitest';
import type { TestService } from './service.ts';

export async function waitForJob(t: TestService, projectId: string, sourceId: string, jobId: string, timeoutMs = 60_000) {
  const api = t.client(t.teamKey);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs/{jobId}', {
      params: { path: { projectId, sourceId, jobId } },
    });
    if (data && (data.status === 'succeeded' || data.status === 'failed')) return data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${data?.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The newest job of a source, waited for until it ends; asserts it succeeded. */
export async function waitForLatestJob(t: TestService, projectId: string, sourceId: string, expected: 'succeeded' | 'failed' = 'succeeded') {
  const api = t.client(t.teamKey);
  const { data: jobs } = await api.GET('/public/v1/projects/{projectId}/sources/{sourceId}/generation-jobs', {
    params: { path: { projectId, sourceId } },
  });
  expect(jobs!.length).toBeGreaterThan(0);
  const job = await waitForJob(t, projectId, sourceId, jobs![0]!.id);
  expect(job.status, job.error ?? '').toBe(expected);
  return job;
}
