// Scheduled tasks of the payments module: the reconciliation of intents nobody finished and the
// release of expired seat holds (both ask the gateway before anything is released).
import type { AppContext } from '../../context.js';
import type { Task } from '../../platform/tasks.js';
import { paymentSettlementOf } from './settlement.js';

const summary = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

export function tasks(_ctx: AppContext): Task[] {
  return [
    {
      name: 'payments.reconcile',
      describe: 'ask the gateway about payment intents unfinished after 15 minutes; finalize the paid ones',
      cron: '*/10 * * * *',
      timeoutSeconds: 540,
      async run(ctx) {
        const counts = await paymentSettlementOf(ctx).reconcile(ctx.clock.now());
        return { ok: counts.errors === 0, message: `payments: ${summary(counts)}` };
      },
    },
    {
      name: 'checkout.release-holds',
      describe: 'release the seats of expired holds whose intents the gateway reports unpaid (canceling them)',
      cron: '*/5 * * * *',
      timeoutSeconds: 240,
      async run(ctx) {
        const counts = await paymentSettlementOf(ctx).releaseExpiredHolds(ctx.clock.now());
        return { ok: counts.errors === 0, message: `holds: ${summary(counts)}` };
      },
    },
  ];
}
