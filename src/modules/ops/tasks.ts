// Scheduled tasks of the ops module: the health checks every minute in the workers, so a failure
// is noticed (and its throttled e-mail sent) with nobody polling /health.
import type { AppContext } from '../../context.js';
import type { Task } from '../../platform/tasks.js';
import { healthMonitorOf } from './health.js';

export const HEALTH_CHECK_TASK = 'ops.health-check';

export function tasks(_ctx: AppContext): Task[] {
  return [
    {
      name: HEALTH_CHECK_TASK,
      describe: 'run the health checks, store the run and e-mail the failures (throttled to one an hour)',
      cron: '* * * * *',
      timeoutSeconds: 60,
      async run(ctx) {
        const monitor = healthMonitorOf(ctx);
        const report = await monitor.run();
        // the e-mail is part of the task: the run ends once it is sent (or throttled)
        await monitor.settled();
        const failed = report.checkResults.filter((r) => r.status === 'failed').map((r) => r.name);
        const warned = report.checkResults.filter((r) => r.status === 'warning').map((r) => r.name);
        const parts = [`${report.checkResults.length} checks`];
        if (failed.length) parts.push(`failed: ${failed.join(', ')}`);
        if (warned.length) parts.push(`warning: ${warned.join(', ')}`);
        if (!failed.length && !warned.length) parts.push('all ok');
        // the run itself worked; the checks' outcome is its message (and the stored health run)
        return { ok: true, message: parts.join('; ') };
      },
    },
  ];
}
