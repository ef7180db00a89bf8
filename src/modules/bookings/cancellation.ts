// Cancelling a paid booking: the quote (fee and refund by the market product's policy, for today
// in the market's time zone) and the cancellation itself. In one transaction: the status
// `cancelled` with who, why, fee and refund in its transition; the seats back to the offer; the
// balance stopped; the refund rows; the customer's e-mail in the booking's language; the admins'
// notification; the audit log. After the commit: the refunds go to the gateway and a job cancels
// the booked flight legs at the provider. Queued leg jobs find the booking cancelled and end.
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { dateIn } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { centsToNumber, toCents } from '../../platform/money.js';
import { insertAudit } from '../admin/api.js';
import * as balances from '../balance/api.js';
import { balanceDueCents, stopBalance } from '../balance/service.js';
import { offerCancellationPolicy, returnSeats } from '../catalog/cancellation-policy.js';
import { offerDepartureDate } from '../catalog/offers.js';
import { findClient } from '../checkout/api.js';
import * as flights from '../flights/api.js';
import { dispatchOrderCancellations } from '../flights/order-cancellation.js';
import { queueMail } from '../mail/service.js';
import * as notifications from '../notifications/service.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { moneyOf, type RefundRow, recordRefunds, sendRefunds } from '../payments/refunds.js';
import {
  assertCancellable,
  BOOKING_CANCELLED,
  type CancellationQuote,
  type CancelledBy,
  quoteCancellation,
} from './cancellation-rules.js';
import { type BookingRow, cancelledSince, findBooking, lockBooking } from './repository.js';
import { transition } from './status.js';

export interface CancellationActor {
  /** who did it, for the audit log: a console user's e-mail or an API token's name */
  email: string;
  userId?: number | null;
  ip?: string | null;
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

interface Priced {
  booking: BookingRow;
  quote: CancellationQuote;
  departureDate: string | null;
  today: string;
}

async function priced(ctx: AppContext, db: DbOrTx, booking: BookingRow, by: CancelledBy): Promise<Priced> {
  assertCancellable(booking.status);
  const market = (await ctx.markets.all()).get(booking.marketCode);
  const today = dateIn(market?.timezone ?? 'UTC', ctx.clock.now());
  const departureDate =
    (await balances.findBalance(db, booking.id))?.departureDate ?? (await offerDepartureDate(db, booking.offerId));
  const policy = (await offerCancellationPolicy(db, booking.offerId)) ?? ctx.config.cancellation.defaultPolicy;
  const money = await moneyOf(db, booking.id);
  const quote = quoteCancellation({
    totalCents: toCents(booking.totalPrice),
    paidCents: money.netCents,
    dueCents: await balanceDueCents(db, booking.id),
    policy,
    daysLeft: departureDate ? daysBetween(today, departureDate) : 0,
    by,
  });
  return { booking, quote, departureDate, today };
}

function quoteBody(p: Priced, by: CancelledBy) {
  return {
    fee: centsToNumber(p.quote.feeCents),
    refund: centsToNumber(p.quote.refundCents),
    currency: p.booking.currency,
    paid: centsToNumber(p.quote.paidCents),
    policy_step: p.quote.step,
    by,
    departure_date: p.departureDate,
    days_before_departure: p.departureDate ? daysBetween(p.today, p.departureDate) : null,
  };
}

/** GET .../cancellation: what cancelling today would cost and give back. */
export async function cancellationQuote(ctx: AppContext, bookingId: number, by: CancelledBy) {
  const booking = await findBooking(ctx.database.db, bookingId);
  if (!booking) throw new AppError(404, 'booking_not_found', `Booking ${bookingId} not found.`);
  return quoteBody(await priced(ctx, ctx.database.db, booking, by), by);
}

/** POST .../cancel: cancels the booking and issues its refund; 409 booking_already_cancelled. */
export async function cancelBooking(
  ctx: AppContext,
  gateway: PaymentGateway | undefined,
  input: { bookingId: number; by: CancelledBy; reason: string; actor: CancellationActor },
) {
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const done = await db.transaction(async (tx) => {
    const booking = await lockBooking(tx, input.bookingId);
    if (!booking) throw new AppError(404, 'booking_not_found', `Booking ${input.bookingId} not found.`);
    const p = await priced(ctx, tx, booking, input.by);
    if (p.quote.refundCents > 0 && !gateway) {
      throw new AppError(503, 'payment_unavailable', 'Payments are not configured: the refund cannot be made.');
    }
    const refunds: RefundRow[] =
      p.quote.refundCents > 0
        ? await recordRefunds(tx, {
            bookingId: booking.id,
            amountCents: p.quote.refundCents,
            kind: 'cancellation',
            reason: input.reason,
            requestedBy: input.actor.email,
            at: now,
          })
        : [];
    const metadata = {
      cancelled_at: now.toISOString(),
      cancelled_by: input.by,
      reason: input.reason,
      fee: centsToNumber(p.quote.feeCents),
      refund: centsToNumber(p.quote.refundCents),
      paid: centsToNumber(p.quote.paidCents),
      currency: booking.currency,
      policy_step: p.quote.step,
      actor: input.actor.email,
      refund_ids: refunds.map((r) => r.id),
    };
    if (!(await transition(tx, booking.id, [booking.status], BOOKING_CANCELLED, metadata))) {
      throw new AppError(409, 'booking_already_cancelled', 'This booking is already cancelled.');
    }
    await returnSeats(tx, booking.offerId, booking.actualPaxCount);
    await stopBalance(tx, booking.id);
    await mailCancellation(tx, ctx, booking, p);
    await notifications.notifyAdmins(tx, {
      type: 'booking_cancelled',
      bookingId: booking.id,
      title: 'Booking cancelled',
      message: `Booking ${booking.reference} was cancelled by the ${input.by} (${input.actor.email}): fee ${metadata.fee} ${booking.currency}, refund ${metadata.refund} ${booking.currency}. ${input.reason}`,
      data: metadata,
    });
    await insertAudit(tx, {
      userId: input.actor.userId ?? null,
      actor: input.actor.email,
      action: 'booking.cancel',
      resourceType: 'booking',
      resourceId: booking.reference,
      details: metadata,
      ip: input.actor.ip ?? null,
      createdAt: now,
    });
    const legs = (await flights.flightBookingsOf(tx, booking.id)).filter((l) => l.status !== 'cancelled');
    return { booking, p, refunds, hasLegs: legs.length > 0 };
  });
  const sent = gateway && done.refunds.length ? await sendRefunds(ctx, gateway, done.refunds) : done.refunds;
  if (done.hasLegs) await dispatchOrderCancellations(ctx, done.booking.id);
  ctx.events.emit('offers:changed');
  return {
    status: BOOKING_CANCELLED,
    fee: centsToNumber(done.p.quote.feeCents),
    refund: {
      amount: centsToNumber(done.p.quote.refundCents),
      currency: done.booking.currency,
      status: refundStatusOf(sent),
    },
  };
}

/** One status for a refund drawn on several payments: the least finished of them. */
function refundStatusOf(rows: RefundRow[]): string {
  if (rows.length === 0) return 'none';
  for (const s of ['failed', 'requires_action', 'pending', 'canceled']) if (rows.some((r) => r.status === s)) return s;
  return 'succeeded';
}

async function mailCancellation(tx: DbOrTx, ctx: AppContext, booking: BookingRow, p: Priced) {
  const client = booking.clientId ? await findClient(tx, booking.clientId) : null;
  if (!client) return;
  await queueMail(tx, {
    key: `booking-cancelled:${booking.id}`,
    kind: 'booking_cancelled',
    bookingId: booking.id,
    to: client.email,
    facts: {
      firstName: client.firstName,
      reference: booking.reference,
      departureDate: p.departureDate ?? p.today,
      totalCents: toCents(booking.totalPrice),
      amountPaidCents: p.quote.paidCents,
      balanceCents: 0,
      balanceDueDate: null,
      currency: booking.currency,
      market: booking.marketCode,
      language: booking.language,
      cancellation: { feeCents: p.quote.feeCents, refundCents: p.quote.refundCents },
    },
    at: ctx.clock.now(),
  });
}

/**
 * The order cancellations a cancel could not queue: the job is queued after the cancel's
 * transaction commits, so a process that dies in between leaves a cancelled booking whose flight
 * orders are still booked at the provider (and the customer already refunded). Every booking
 * cancelled in the last `days` days that still has a leg not cancelled gets the job again; its
 * unique key keeps a job already queued from running twice.
 */
export async function sweepOrderCancellations(ctx: AppContext, now: Date, days = 30): Promise<{ queued: number }> {
  const db = ctx.database.db;
  let queued = 0;
  for (const id of await cancelledSince(db, new Date(now.getTime() - days * 86_400_000))) {
    const legs = await flights.flightBookingsOf(db, id);
    if (!legs.some((l) => l.status !== 'cancelled')) continue;
    await dispatchOrderCancellations(ctx, id);
    queued += 1;
  }
  return { queued };
}
