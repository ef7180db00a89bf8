import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/support/app.js';
import { runTaskCommand } from '../test/support/task-cli.js';
import type { Task } from './platform/tasks.js';
import { allTasks, runTask } from './tasks.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function runs(name: string) {
  return (
    await t.database.query<{ trigger: string; ok: boolean; message: string; as_of: Date }>(
      'SELECT trigger, ok, message, as_of FROM task_runs WHERE name = $1 ORDER BY id',
      [name],
    )
  ).rows;
}

describe('scheduled tasks', () => {
  it("tasks.prune-runs deletes runs older than 30 days but keeps each task's latest run", async () => {
    const insert = (name: string, finished: string) =>
      t.database.query(
        `INSERT INTO task_runs (name, trigger, as_of, ok, message, started_at, finished_at)
         VALUES ($1, 'schedule', $2, true, 'x', $2, $2)`,
        [name, finished],
      );
    await insert('prune.minutely', '2026-05-01T10:00:00Z'); // 61 days before: deleted
    await insert('prune.minutely', '2026-06-01T09:59:00Z'); // 30 days and a minute: deleted
    await insert('prune.minutely', '2026-06-01T10:01:00Z'); // within 30 days: kept
    await insert('prune.yearly', '2025-07-01T10:00:00Z'); // old, but the task's latest: kept
    const task = allTasks(t.app.ctx).find((x) => x.name === 'tasks.prune-runs')!;
    expect(task.cron).toBe('50 3 * * *');
    const result = await runTask(t.app.ctx, task, {
      asOf: new Date('2026-07-01T10:00:00Z'),
      trigger: 'command',
      options: {},
      out: () => {},
    });
    expect(result).toEqual({ ok: true, message: 'deleted 2 task run(s) older than 30 days' });
    const left = await t.database.query<{ name: string; finished_at: Date }>(
      "SELECT name, finished_at FROM task_runs WHERE name LIKE 'prune.%' ORDER BY id",
    );
    expect(left.rows.map((r) => [r.name, new Date(r.finished_at).toISOString()])).toEqual([
      ['prune.minutely', '2026-06-01T10:01:00.000Z'],
      ['prune.yearly', '2025-07-01T10:00:00.000Z'],
    ]);
  });

  it('records a run with its trigger, as-of date and outcome', async () => {
    const task: Task = {
      name: 'test.ok',
      describe: 'succeeds',
      async run(_ctx, run) {
        run.out('working');
        return { ok: true, message: `as of ${run.asOf.toISOString().slice(0, 10)}` };
      },
    };
    const out: string[] = [];
    const result = await runTask(t.app.ctx, task, {
      asOf: new Date('2026-07-01T00:00:00Z'),
      trigger: 'command',
      options: {},
      out: (l) => out.push(l),
    });
    expect(result).toEqual({ ok: true, message: 'as of 2026-07-01' });
    expect(out).toEqual(['working']);
    const [row] = await runs('test.ok');
    expect(row).toMatchObject({ trigger: 'command', ok: true, message: 'as of 2026-07-01' });
    expect(new Date(row.as_of).toISOString()).toBe('2026-07-01T00:00:00.000Z');
  });

  it('records a throwing task as a failed run instead of crashing', async () => {
    const task: Task = {
      name: 'test.throws',
      describe: 'fails',
      async run() {
        throw new Error('feed unreachable');
      },
    };
    const result = await runTask(t.app.ctx, task, { asOf: new Date(), trigger: 'schedule', options: {}, out() {} });
    expect(result).toEqual({ ok: false, message: 'feed unreachable' });
    expect(await runs('test.throws')).toMatchObject([{ trigger: 'schedule', ok: false, message: 'feed unreachable' }]);
  });

  it('the command refuses an unknown task, a bad --as-of and a missing name with exit 2', async () => {
    const unknown = await runTaskCommand(t, ['no.such-task']);
    expect(unknown.code).toBe(2);
    expect(unknown.lines.at(-1)).toBe('ERR unknown task: no.such-task (npm run task -- --list)');
    expect((await runTaskCommand(t, ['x', '--as-of=24/11/2026'])).code).toBe(2);
    expect((await runTaskCommand(t, [])).code).toBe(2);
    expect((await runTaskCommand(t, ['--list'])).code).toBe(0);
  });
});
