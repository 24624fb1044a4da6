// The config-work pool (config-work.ts) with real worker threads: a team runs one task at a time and
// queues only so many (429), every team's queue together only so many (503), a task past its time
// limit fails with 422 and its worker is replaced, a comparison of runtime APIs longer than the limit
// runs in slices within it, and closing fails what still waits.
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.ts';
import { ConfigWork, QUEUED_PER_WORKER, type ConfigWorkLimits } from '../../../src/management/config-work.ts';
import { compareRuntimeApis } from '../../../src/management/api-changes.ts';
import type { Source } from '../../../src/store/sources.ts';
import { blogConfig } from '../../fixtures/configs.ts';
import { wideConfig } from '../../fixtures/wide-configs.ts';

const LIMITS: ConfigWorkLimits = { workers: 2, timeoutMs: 60_000, queuePerTeam: 1, memoryMb: 256 };
let pool: ConfigWork | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** The AppError a call throws at once (the pool refuses before queueing). */
function refusal(call: () => unknown): AppError {
  try {
    const pending = call() as Promise<unknown>;
    void pending.catch(() => undefined);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('the call was not refused');
}

/** A preview that makes 190,000 users before the posts shown (their email key cannot be computed row by row). */
function slowPreview() {
  const config = blogConfig();
  const [users, posts] = config.entities;
  const byEmail = posts!.fields.map((field) => (field.id === 'authorId' ? { id: 'authorEmail', type: 'string' as const, maxLength: 120, references: { entity: 'users', field: 'email' } } : field));
  return { schema: { ...config, entities: [{ ...users!, generation: { rowCount: 190_000 } }, { ...posts!, fields: byEmail }] }, entity: 'posts', rows: 1 };
}

describe('ConfigWork', () => {
  it('runs one task of a team at a time, queues queuePerTeam more, and refuses the next with 429 and Retry-After', async () => {
    pool = new ConfigWork(LIMITS);
    const first = pool.validate('a', blogConfig());
    const second = pool.validate('a', blogConfig());
    const third = refusal(() => pool!.validate('a', blogConfig()));
    expect(third.status).toBe(429);
    expect(third.headers).toEqual({ 'Retry-After': '60' });
    expect(third.message).toMatch(/already has 2 schema-config validations or previews running or waiting/);
    // Another team takes the second worker at once; team a never holds both.
    const other = pool.validate('b', blogConfig());
    expect(pool.load).toEqual({ running: 2, queued: 1 });
    for (const result of await Promise.all([first, second, other])) expect(result).toEqual({ valid: true, errors: [], warnings: [] });
    expect(pool.load).toEqual({ running: 0, queued: 0 });
  }, 60_000);

  it('gives teams turns: a team that queued later runs before another team’s second task', async () => {
    pool = new ConfigWork({ ...LIMITS, workers: 1, queuePerTeam: 3 });
    const finished: string[] = [];
    const track = (label: string, pending: Promise<unknown>) => pending.then(() => finished.push(label));
    await Promise.all([
      track('a1', pool.validate('a', blogConfig())),
      track('a2', pool.validate('a', blogConfig())),
      track('a3', pool.validate('a', blogConfig())),
      track('b1', pool.validate('b', blogConfig())),
    ]);
    expect(finished.indexOf('b1')).toBeLessThan(finished.indexOf('a3'));
    expect(finished.slice(0, 2)).toEqual(['a1', 'b1']);
  }, 60_000);

  it('answers 503 with Retry-After when every queue together holds QUEUED_PER_WORKER tasks a worker', () => {
    pool = new ConfigWork({ ...LIMITS, workers: 1, queuePerTeam: 100 });
    for (let i = 0; i <= QUEUED_PER_WORKER; i++) void pool.validate(`team ${i}`, blogConfig()).catch(() => undefined);
    expect(pool.load).toEqual({ running: 1, queued: QUEUED_PER_WORKER });
    const refused = refusal(() => pool!.validate('late', blogConfig()));
    expect(refused.status).toBe(503);
    expect(refused.headers).toEqual({ 'Retry-After': '60' });
  });

  it('fails a task past its time limit with 422 and serves the next with a fresh worker', async () => {
    pool = new ConfigWork({ ...LIMITS, workers: 1, timeoutMs: 300 });
    const failure = await pool.preview('a', slowPreview() as never).then(
      () => undefined,
      (error: unknown) => error as AppError,
    );
    expect(failure).toBeInstanceOf(AppError);
    expect(failure!.status).toBe(422);
    expect(failure!.message).toMatch(/^The preview took longer than 0\.3 s, the limit of one request/);
    expect(await pool.validate('a', blogConfig())).toMatchObject({ valid: true });
  }, 60_000);

  it('fails a task past its memory limit with 422 and serves the next with a fresh worker', async () => {
    pool = new ConfigWork({ ...LIMITS, workers: 1, memoryMb: 24 });
    const failure = await pool.preview('a', slowPreview() as never).then(
      () => undefined,
      (error: unknown) => error as AppError,
    );
    expect(failure).toMatchObject({ status: 422, message: expect.stringMatching(/^The preview needed more than 24 MB of memory, the limit of one request/) });
    expect(await pool.validate('a', blogConfig())).toMatchObject({ valid: true });
  }, 60_000);

  it('compares runtime APIs that take longer than the limit in slices within it, answering what one comparison answers', async () => {
    const source = { id: '5d8f2a3c-1b4e-4c7d-9a6f-3e2b1c0d8a79', schemaVersionId: '9c4e7a1b-3d2f-4b6a-8e5c-7f1a0d2b4c68', name: 'Wide', slug: 'wide', requireAuth: true } as Source;
    const comparison = { source, from: wideConfig(16, 1, 'full'), to: wideConfig(16, 2, 'full'), baseUrl: 'http://localhost:3000' };
    const began = performance.now();
    const whole = compareRuntimeApis(comparison.source, comparison.from, comparison.to, comparison.baseUrl);
    // A third of what the whole comparison takes here: as one task it could not finish.
    pool = new ConfigWork({ ...LIMITS, workers: 1, timeoutMs: Math.max(1000, (performance.now() - began) / 3) });
    const sliced = await pool.compareRuntimeApis('a', comparison);
    expect(sliced.counts.breaking).toBeGreaterThan(1000);
    expect(sliced).toEqual(whole);
  }, 120_000);

  it('passes AppErrors of a task on with their status and details', async () => {
    pool = new ConfigWork(LIMITS);
    const failure = await pool.preview('a', { schema: blogConfig(), entity: 'comments' } as never).catch((error: unknown) => error as AppError);
    expect(failure).toMatchObject({ status: 400, details: [{ path: '/body/entity', message: expect.stringMatching(/entity "comments" is not in the config/) }] });
  }, 60_000);

  it('fails what still waits when closed', async () => {
    pool = new ConfigWork({ ...LIMITS, workers: 1 });
    const running = pool.validate('a', blogConfig()).catch((error: unknown) => error);
    const waiting = pool.validate('b', blogConfig()).catch((error: unknown) => error);
    await pool.close();
    expect(await waiting).toMatchObject({ status: 503 });
    expect(await running).toMatchObject({ status: 503 });
    await expect(pool.validate('c', blogConfig())).rejects.toMatchObject({ status: 503 });
  });
});
