// The hourly balance collection (spec 3's scheduled balance payments).
import type { AppContext } from '../../context.js';
import type { Task } from '../../platform/tasks.js';
import { paymentGatewayFor } from '../payments/gateway.js';
import { collectBalances } from './collect.js';

export function tasks(_ctx: AppContext): Task[] {
  return [
    {
      name: 'balance.collect',
      describe: 'remind balances due within 7 days and charge the due ones off-session (--as-of: due by that date)',
      cron: '0 * * * *',
      timeoutSeconds: 600,
      async run(ctx, run) {
        const gateway = paymentGatewayFor(ctx.config, ctx.database);
        if (!gateway) return { ok: false, message: 'payments are not configured (STRIPE_SECRET_KEY)' };
        const r = await collectBalances(ctx, gateway, { asOf: run.asOf, out: run.out });
        return {
          ok: r.errors === 0,
          message:
            `${r.reminded} reminded, ${r.paid} paid, ${r.failed} failed (retrying), ${r.overdue} overdue` +
            (r.processing ? `, ${r.processing} processing` : '') +
            (r.errors ? `, ${r.errors} not reached (tried again next run)` : ''),
        };
      },
    },
  ];
}
