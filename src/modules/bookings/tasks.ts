// Scheduled tasks of the booking after the sale: reminding suppliers who have not answered a
// confirmation request, completing confirmed trips that are over, and cancelling at the provider
// the flight orders a cancellation could not queue.
import type { AppContext } from '../../context.js';
import type { Task } from '../../platform/tasks.js';
import { sweepOrderCancellations } from './cancellation.js';
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
    {
      name: 'bookings.cancel-flight-orders',
      describe:
        'queue again the flight order cancellations of bookings cancelled in the last 30 days whose legs are still booked',
      cron: '20 * * * *',
      timeoutSeconds: 300,
      async run(ctx) {
        const r = await sweepOrderCancellations(ctx, ctx.clock.now());
        return { ok: true, message: `${r.queued} booking(s) with flight orders still booked` };
      },
    },
  ];
}
