// Daily pruning of the monitoring tables. Each job has its own queue: pg-boss keeps one schedule
// per queue name.
import type { AppContext } from '../../context.js';
import { type JobDefinition, outcome } from '../../platform/queue.js';
import { prunePulse, pruneTelescope } from './service.js';

export const PRUNE_PULSE_CRON = '10 3 * * *';
export const PRUNE_TELESCOPE_CRON = '20 3 * * *';

function pruneJob(
  ctx: AppContext,
  name: string,
  queue: string,
  prune: (ctx: AppContext) => Promise<number>,
): JobDefinition<Record<string, never>> {
  return {
    name,
    queue,
    tries: 3,
    timeoutSeconds: 300,
    backoffSeconds: [60, 300],
    async handler() {
      const deleted = await prune(ctx);
      ctx.log.info({ deleted, job: name }, 'monitoring history pruned');
      return outcome.done();
    },
    async onExhausted(_payload, job, error) {
      ctx.log.error({ jobId: job.id, job: name, error }, 'monitoring pruning failed on every try');
    },
  };
}

/** deletes /pulse aggregates older than 7 days */
export function prunePulseJob(ctx: AppContext): JobDefinition<Record<string, never>> {
  return pruneJob(ctx, 'monitoring.prune-pulse', 'monitoring-prune-pulse', prunePulse);
}

/** deletes /telescope entries older than 14 days */
export function pruneTelescopeJob(ctx: AppContext): JobDefinition<Record<string, never>> {
  return pruneJob(ctx, 'monitoring.prune-telescope', 'monitoring-prune-telescope', pruneTelescope);
}

export function jobs(ctx: AppContext): JobDefinition<any>[] {
  return [prunePulseJob(ctx), pruneTelescopeJob(ctx)];
}

/** the monitoring module's recurring jobs, for scheduleJobs in src/jobs.ts */
export async function scheduleMonitoringJobs(ctx: AppContext): Promise<void> {
  await ctx.queue.schedule(prunePulseJob(ctx), PRUNE_PULSE_CRON, {});
  await ctx.queue.schedule(pruneTelescopeJob(ctx), PRUNE_TELESCOPE_CRON, {});
}
