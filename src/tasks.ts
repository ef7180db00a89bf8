// The one list of scheduled tasks. A task is work that runs on a schedule in the workers (a pg-boss
// cron schedule, once per cluster) and on demand as `npm run task -- NAME [--as-of=YYYY-MM-DD]`.
// Each run is recorded in `task_runs` (name, trigger, outcome, message), where operators see it.
// A module exports `tasks(ctx)`: its task definitions, built on the process's context.
import type { AppContext } from './context.js';
import { tasks as adminTasks } from './modules/admin/tasks.js';
import { tasks as balanceTasks } from './modules/balance/tasks.js';
import { tasks as bookingTasks } from './modules/bookings/tasks.js';
import { tasks as checkoutTasks } from './modules/checkout/tasks.js';
import { tasks as exchangeRateTasks } from './modules/exchange-rates/tasks.js';
import { tasks as mailTasks } from './modules/mail/tasks.js';
import { tasks as offerGenerationTasks } from './modules/offer-generation/tasks.js';
import { tasks as opsTasks } from './modules/ops/tasks.js';
import { tasks as paymentTasks } from './modules/payments/tasks.js';
import { tasks as privacyTasks } from './modules/privacy/erase.js';
import { type JobDefinition, outcome } from './platform/queue.js';
import type { Task, TaskResult, TaskRun } from './platform/tasks.js';

/** How long task runs are kept; each task's latest run is kept whatever its age. */
export const TASK_RUN_RETENTION_DAYS = 30;

// the run records themselves: mail.deliver alone writes one a minute
function runRecordTasks(): Task[] {
  return [
    {
      name: 'tasks.prune-runs',
      describe: `delete task runs older than ${TASK_RUN_RETENTION_DAYS} days, keeping each task's latest`,
      cron: '50 3 * * *',
      timeoutSeconds: 300,
      async run(ctx, run) {
        const before = new Date(run.asOf.getTime() - TASK_RUN_RETENTION_DAYS * 86_400_000);
        const { rows } = await ctx.database.query<{ n: number }>(
          `WITH gone AS (
             DELETE FROM task_runs r WHERE r.finished_at < $1
               AND EXISTS (SELECT 1 FROM task_runs n WHERE n.name = r.name AND n.id > r.id)
             RETURNING 1)
           SELECT count(*)::int AS n FROM gone`,
          [before],
        );
        return { ok: true, message: `deleted ${rows[0].n} task run(s) older than ${TASK_RUN_RETENTION_DAYS} days` };
      },
    },
  ];
}

const modules: Array<(ctx: AppContext) => Task[]> = [
  runRecordTasks,
  adminTasks,
  paymentTasks,
  balanceTasks,
  bookingTasks,
  mailTasks,
  opsTasks,
  checkoutTasks,
  privacyTasks,
  exchangeRateTasks,
  offerGenerationTasks,
];

export function allTasks(ctx: AppContext): Task[] {
  const tasks = modules.flatMap((m) => m(ctx));
  const seen = new Set<string>();
  for (const t of tasks) {
    if (seen.has(t.name)) throw new Error(`task ${t.name} is defined twice`);
    seen.add(t.name);
  }
  return tasks;
}

/** Runs one task and records the run; an exception is a failed run, not a crash. */
export async function runTask(ctx: AppContext, task: Task, run: TaskRun): Promise<TaskResult> {
  const startedAt = ctx.clock.now();
  let result: TaskResult;
  try {
    result = await task.run(ctx, run);
  } catch (err) {
    ctx.log.error({ err, task: task.name }, 'task failed');
    result = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  await ctx.database.query(
    `INSERT INTO task_runs (name, trigger, as_of, ok, message, started_at, finished_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [task.name, run.trigger, run.asOf, result.ok, result.message.slice(0, 2000), startedAt, ctx.clock.now()],
  );
  return result;
}

/** The job that runs a scheduled task in the workers: one queue per task (one schedule a queue). */
export function taskJob(ctx: AppContext, task: Task): JobDefinition<Record<string, never>> {
  return {
    name: `task.${task.name}`,
    queue: `task-${task.name.replace(/[^a-z0-9-]/gi, '-')}`,
    tries: 1,
    timeoutSeconds: task.timeoutSeconds ?? 600,
    backoffSeconds: [60],
    async handler(_payload, job) {
      const result = await runTask(ctx, task, {
        asOf: ctx.clock.now(),
        trigger: 'schedule',
        options: {},
        out: (line) => ctx.log.info({ task: task.name }, line),
        signal: job.signal,
      });
      return result.ok ? outcome.done() : outcome.fail(result.message);
    },
  };
}

export function taskJobs(ctx: AppContext): JobDefinition<any>[] {
  return allTasks(ctx)
    .filter((t) => t.cron)
    .map((t) => taskJob(ctx, t));
}

export async function scheduleTasks(ctx: AppContext): Promise<void> {
  for (const task of allTasks(ctx)) {
    if (task.cron) await ctx.queue.schedule(taskJob(ctx, task), task.cron, {});
  }
}

/** The latest run of each task, for /pulse and the console. */
export async function latestTaskRuns(
  ctx: Pick<AppContext, 'database'>,
): Promise<Array<{ name: string; trigger: string; ok: boolean; message: string; finishedAt: Date }>> {
  const { rows } = await ctx.database.query<{
    name: string;
    trigger: string;
    ok: boolean;
    message: string;
    finished_at: Date;
  }>(
    `SELECT DISTINCT ON (name) name, trigger, ok, message, finished_at FROM task_runs
      ORDER BY name, finished_at DESC`,
  );
  return rows.map((r) => ({ ...r, finishedAt: new Date(r.finished_at) }));
}
