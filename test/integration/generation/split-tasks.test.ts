// A generation split into tasks (issue 30) writes the same rows as one run, on both engines: tasks
// run in any order and at once, a task run twice writes its rows once, and a task stopped midway
// (its transaction rolled back, as when its worker dies) leaves nothing behind for the retry.
import { afterAll, describe, expect, it } from 'vitest';
import type { TargetConnection } from '../../../src/dialects/dialect.ts';
import { runGeneration } from '../../../src/generation/run.ts';
import { planTasks } from '../../../src/generation/tasks/plan-tasks.ts';
import { finishStaging, prepareStaging, runTask, type TaskResult } from '../../../src/generation/tasks/run-task.ts';
import { splitConfig } from '../../fixtures/split-config.ts';
import { dialectTargets, uniqueNamespace } from '../../helpers/dialect-targets.ts';
import { tableDigest } from '../../helpers/target-sql.ts';

const targets = await dialectTargets();
const options = { seed: 'split-tasks', rowCounts: { users: 300, posts: 400, events: 5_000, nodes: 200 }, generatorVersion: 3 as const, referenceDate: '2026-11-01' };
const opened: Array<{ connection: TargetConnection; namespaces: string[] }> = [];

afterAll(async () => {
  for (const { connection, namespaces } of opened) {
    for (const namespace of namespaces) await connection.dropNamespace(namespace).catch(() => {});
    await connection.close();
  }
});

describe.each(targets)('a generation split into tasks on $name', (target) => {
  it('plans ranges of the entities made by row index (unique emails from their draws too) and one ordered task for the rest', () => {
    const tasks = planTasks(splitConfig(), options, 1_000);
    expect([...tasks.ranged]).toEqual(['users', 'posts', 'tags', 'events']);
    expect(tasks.tasks[0]).toEqual({ kind: 'ordered', entities: ['nodes'] });
    expect([...tasks.draws.keys()]).toEqual(['users']);
    expect(tasks.tasks.filter((task) => task.kind === 'range' && task.entity === 'events').map((task) => task.kind === 'range' && [task.from, task.to])).toEqual([
      [0, 1000],
      [1000, 2000],
      [2000, 3000],
      [3000, 4000],
      [4000, 5000],
    ]);
  });

  it('writes the rows of one run, whatever the order of its tasks, a task run twice or stopped midway', async () => {
    const connection = await target.dialect.connect(target.url);
    const whole = uniqueNamespace('dist_whole');
    const split = uniqueNamespace('dist_split');
    const staging = `${split}__next`;
    opened.push({ connection, namespaces: [whole, split, staging] });
    const config = splitConfig();
    const summary = await runGeneration(connection, whole, config, options);

    const tasks = planTasks(config, options, 1_000);
    await prepareStaging(connection, staging, tasks);
    const numbered = tasks.tasks.map((task, seq) => ({ task, seq }));
    // A range stopped after its first rows: its transaction rolls back, as a dead worker's does.
    const stopped = numbered.find(({ task }) => task.kind === 'range' && task.entity === 'events')!;
    const stop = new AbortController();
    await expect(
      runTask(connection, staging, config, tasks, stopped.seq, stopped.task, { batchSize: 100, signal: stop.signal, onRows: (rows) => rows >= 200 && stop.abort(new Error('worker died')) }),
    ).rejects.toThrow('worker died');
    // The rest in reverse order, two at a time, then every task once more (a lease that ran out under a living worker).
    const results: TaskResult[] = [];
    const reversed = [...numbered].reverse();
    for (let i = 0; i < reversed.length; i += 2) {
      results.push(...(await Promise.all(reversed.slice(i, i + 2).map(({ task, seq }) => runTask(connection, staging, config, tasks, seq, task)))));
    }
    const again = await Promise.all(numbered.map(({ task, seq }) => runTask(connection, staging, config, tasks, seq, task)));
    expect(again).toEqual([...results].reverse());
    await finishStaging(connection, staging, split, tasks, (swap) => swap());

    const rows: Record<string, number> = {};
    for (const result of results) for (const [entity, count] of Object.entries(result.rows)) rows[entity] = (rows[entity] ?? 0) + count;
    expect(rows).toEqual(Object.fromEntries(summary.entities.map((entity) => [entity.id, entity.rowsInserted])));
    expect(rows.events).toBe(5_000);
    for (const entity of config.entities) {
      expect(await tableDigest(target.name, target.url, split, entity.id, 'id'), entity.id).toBe(await tableDigest(target.name, target.url, whole, entity.id, 'id'));
    }
    // Keys and foreign keys were built after the rows: a second row with an existing key is refused.
    const q = (name: string) => connection.dialect.quoteIdentifier(name);
    await expect(connection.query(`INSERT INTO ${q(split)}.${q('tags')} (${q('id')}, ${q('label')}) VALUES (1, 'red')`, [])).rejects.toThrow();
    expect(await connection.namespaceExists(staging)).toBe(false);
  });
});
