// Scheduled tasks of the booking after the sale: reminding suppliers who have not answered a
// confirmation request, and completing confirmed trips that are over.
import type { AppContext } from '../../context.js';
import type { Task } from '../../platform/tasks.js';
import { completeTrips, remindSuppliers } from './supplier-confirmations.js';

export function tasks(_ctx: AppContext): Task[] {
  return [
    {
      name: 'bookings.remind-suppliers',
      describe: 'e-mail again the suppliers whose confirmation request is unanswered after 48 hours',
      cron: '15 * * * *',
      timeoutSeconds: 300,
      async run(ctx, run) {
        const r = await remindSuppliers(ctx, run.asOf);
        return { ok: true, message: `${r.reminded} supplier(s) reminded` };
      },
    },
    {
      name: 'bookings.complete-trips',
      describe: 'move confirmed bookings whose return date has passed to completed (--as-of: that day)',
      cron: '30 2 * * *',
      timeoutSeconds: 300,
      async run(ctx, run) {
        const r = await completeTrips(ctx, run.asOf);
        return { ok: true, message: `${r.completed} booking(s) completed` };
      },
    },
  ];
}
