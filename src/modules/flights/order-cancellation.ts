// The job that cancels a cancelled booking's flight orders at the provider (Duffel: the order
// cancellation quote, then its confirmation; the sandbox does the same). Each booked leg is
// cancelled once and its record keeps the provider's cancellation and the airline refund; a leg
// already cancelled is skipped, so a retried job only does what is left. After the last try the
// admins are told which legs are still booked.
import type { AppContext } from '../../context.js';
import { formatCents } from '../../platform/money.js';
import { type JobDefinition, outcome } from '../../platform/queue.js';
import * as notifications from '../notifications/service.js';
import { FlightProviderError } from './provider.js';
import { flightProvider } from './providers.js';
import * as repo from './repository.js';
import { FLIGHTS_QUEUE } from './rules.js';

export interface CancelOrdersPayload {
  bookingId: number;
}

const byContext = new WeakMap<AppContext, JobDefinition<CancelOrdersPayload>>();

export function orderCancellationJob(ctx: AppContext): JobDefinition<CancelOrdersPayload> {
  const cached = byContext.get(ctx);
  if (cached) return cached;
  const db = ctx.database.db;
  const job: JobDefinition<CancelOrdersPayload> = {
    name: 'flights.cancel-orders',
    queue: FLIGHTS_QUEUE,
    tries: 3,
    timeoutSeconds: 300,
    backoffSeconds: [120, 600],
    uniqueSeconds: 600,
    async handler({ bookingId }, info) {
      const legs = (await repo.flightBookingsOf(db, bookingId)).filter((l) => l.status !== 'cancelled');
      if (legs.length === 0) return outcome.done();
      const provider = flightProvider(ctx);
      for (const leg of legs) {
        try {
          const c = await provider.cancelOrder(leg.reservationId, { signal: info.signal });
          const cancellation = {
            cancellation_id: c.cancellationId,
            airline_refund_amount: formatCents(c.refundCents),
            airline_refund_currency: c.currency,
            refund_to: c.refundTo,
            confirmed_at: c.confirmedAt,
          };
          await repo.updateFlightBooking(db, leg.id, { status: 'cancelled', cancellation });
          await notifications.notifyAdmins(db, {
            type: 'flight_order_cancelled',
            bookingId,
            title: 'Flight order cancelled',
            message: `Leg ${leg.legIndex} (${leg.pnr ?? leg.reservationId}) cancelled at ${leg.provider}: the airline refunds ${cancellation.airline_refund_amount} ${c.currency} to the ${c.refundTo ?? 'provider'}.`,
            data: { leg_index: leg.legIndex, ...cancellation },
          });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          ctx.log.warn({ err, bookingId, leg: leg.legIndex }, 'flight order cancellation failed');
          if (err instanceof FlightProviderError && err.kind === 'validation') return outcome.fail(message);
          return outcome.retry(message);
        }
      }
      return outcome.done();
    },
    async onExhausted({ bookingId }, _info, error) {
      const left = (await repo.flightBookingsOf(db, bookingId)).filter((l) => l.status !== 'cancelled');
      await notifications.notifyAdmins(db, {
        type: 'flight_order_cancellation_failed',
        bookingId,
        title: 'Flight orders not cancelled',
        message: `The cancelled booking still has ${left.length} flight order(s) at the provider (${left.map((l) => l.pnr ?? l.reservationId).join(', ')}): cancel them by hand. Last error: ${error}`,
        data: { legs: left.map((l) => l.legIndex), error },
      });
    },
  };
  byContext.set(ctx, job);
  return job;
}

/** Queues the cancellation of a booking's flight orders (once per booking within ten minutes). */
export async function dispatchOrderCancellations(ctx: AppContext, bookingId: number): Promise<void> {
  await ctx.queue.dispatch(orderCancellationJob(ctx), { bookingId }, { uniqueKey: `cancel-orders:${bookingId}` });
}
