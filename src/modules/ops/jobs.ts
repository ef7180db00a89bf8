// Scheduled job of the ops module: pruning the health history daily (the lead schedules it with
// queue.schedule(pruneHealthHistoryJob(ctx), PRUNE_HEALTH_HISTORY_CRON, {})).
import type { AppContext } from '../../context.js';
import { type JobDefinition, outcome } from '../../platform/queue.js';
import { pruneHealthHistory } from './service.js';

/** every day at 03:00 (server time of the queue's scheduler) */
export const PRUNE_HEALTH_HISTORY_CRON = '0 3 * * *';

export function pruneHealthHistoryJob(ctx: AppContext): JobDefinition<Record<string, never>> {
  return {
    name: 'ops.prune-health-history',
    queue: 'ops-maintenance',
    tries: 3,
    timeoutSeconds: 300,
    backoffSeconds: [60, 300],
    async handler() {
      const deleted = await pruneHealthHistory(ctx);
      ctx.log.info({ deleted }, 'health history pruned');
      return outcome.done();
    },
    async onExhausted(_payload, job, error) {
      ctx.log.error({ jobId: job.id, error }, 'health history pruning failed on every try');
    },
  };
}
