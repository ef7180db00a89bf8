// The one list of modules whose jobs the queue knows. A module exports `jobs(ctx)`: its job
// definitions, built on the process's context (handlers need the database, config and log).
import type { AppContext } from './context.js';
import { jobs as crmJobs } from './modules/crm/jobs.js';
import { jobs as flightJobs } from './modules/flights/jobs.js';
import { jobs as leadJobs } from './modules/leads/jobs.js';
import { jobs as marketingJobs } from './modules/marketing/jobs.js';
import { jobs as monitoringJobs, scheduleMonitoringJobs } from './modules/monitoring/jobs.js';
import { PRUNE_HEALTH_HISTORY_CRON, pruneHealthHistoryJob } from './modules/ops/jobs.js';
import type { JobDefinition } from './platform/queue.js';
import { scheduleTasks, taskJobs } from './tasks.js';

const modules: Array<(ctx: AppContext) => JobDefinition<any>[]> = [
  marketingJobs,
  crmJobs,
  leadJobs,
  flightJobs,
  (ctx) => [pruneHealthHistoryJob(ctx)],
  monitoringJobs,
  taskJobs,
];

export function allJobs(ctx: AppContext): JobDefinition<any>[] {
  return modules.flatMap((m) => m(ctx));
}

export function registerJobs(ctx: AppContext): void {
  for (const def of allJobs(ctx)) ctx.queue.register(def);
}

/** Recurring jobs: pg-boss stores each schedule once per cluster; calling this again is harmless. */
export async function scheduleJobs(ctx: AppContext): Promise<void> {
  await ctx.queue.schedule(pruneHealthHistoryJob(ctx), PRUNE_HEALTH_HISTORY_CRON, {});
  await scheduleMonitoringJobs(ctx);
  await scheduleTasks(ctx);
}
