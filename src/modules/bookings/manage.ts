// "Manage my booking" (issue 27 section 3): the customer's signed link to their booking, valid until
// the return date, and what it lets them do: read the booking and correct the travelers' passport
// data and birth dates while the flights are not booked and departure is more than 14 days away.
import type { AppContext } from '../../context.js';
import { addDays, dateIn } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { amountToNumber, centsToNumber, toCents } from '../../platform/money.js';
import { verifyUrlSignature } from '../../platform/signed-url.js';
import { balanceSummary } from '../balance/service.js';
import { offerTrip } from '../catalog/offers.js';
import { flightBookingsOf } from '../flights/api.js';
import { paymentsOf } from '../payments/api.js';
import { moneyOf } from '../payments/refunds.js';
import { paymentSettlementOf } from '../payments/settlement.js';
import { amendTravelers, type TravelerChange } from './amendments.js';
import { cancelBooking, cancellationQuote } from './cancellation.js';
import { CANCELLABLE_STATUSES } from './cancellation-rules.js';
import { linkMessage } from './manage-link.js';
import * as repo from './repository.js';
import { TRAVELER_CHANGE_DAYS, travelerView } from './rules.js';

type Ctx = Pick<AppContext, 'config' | 'database' | 'clock' | 'log'>;

/** The booking a signed manage link names; 403 invalid_signature for a missing, forged or expired one. */
async function linkedBooking(ctx: Ctx, market: string, reference: string, expires?: string, signature?: string) {
  const ref = reference.slice(0, 20);
  if (!verifyUrlSignature(ctx.config.appKey, linkMessage(ref), expires, signature, ctx.clock.now())) {
    throw new AppError(403, 'invalid_signature', 'This link is not valid or has expired.');
  }
  const booking = await repo.findBookingByReference(ctx.database.db, ref);
  if (!booking || booking.marketCode !== market) {
    throw new AppError(404, 'booking_not_found', `Booking ${ref} not found.`);
  }
  return booking;
}

/** What the storefront's "manage my booking" page shows. */
export async function manageView(ctx: Ctx, market: string, reference: string, expires?: string, signature?: string) {
  const booking = await linkedBooking(ctx, market, reference, expires, signature);
  return viewOf(ctx, booking);
}

async function viewOf(ctx: Ctx, booking: repo.BookingRow) {
  const db = ctx.database.db;
  const [trip, people, upsells, payments, balance] = await Promise.all([
    offerTrip(db, booking.offerId),
    repo.passengersOf(db, booking.id),
    repo.upsellsOf(db, booking.id),
    paymentsOf(db, booking.id),
    balanceSummary(db, booking.id),
  ]);
  const paid = payments.filter((p) => p.status === 'Succeeded').reduce((sum, p) => sum + toCents(p.amount), 0);
  const money = await moneyOf(db, booking.id);
  const total = toCents(booking.totalPrice);
  return {
    booking_reference: booking.reference,
    status: booking.status,
    tour_name: trip?.tourName ?? null,
    departure_date: trip?.departureDate ?? null,
    return_date: trip?.returnDate ?? null,
    travelers: people.map((p, i) => travelerView(p, i)),
    selections: upsells.map((u) => ({
      type: u.type,
      name: u.name,
      day_number: u.dayNumber,
      nights_start: u.nightsStart,
      nights_end: u.nightsEnd,
      quantity: u.quantity,
      total_price: amountToNumber(u.totalPrice),
    })),
    payments: {
      total: centsToNumber(total),
      paid: centsToNumber(paid),
      refunded: centsToNumber(money.refundedCents),
      balance_due:
        booking.status === 'cancelled' ? 0 : centsToNumber(balance ? balance.balance_due : Math.max(0, total - paid)),
      balance_due_date: balance?.balance_due_date ?? null,
      currency: booking.currency,
    },
    cancellation: await cancellationOf(ctx, booking),
  };
}

/** Today's quote of a cancellation by the traveller; null when the booking cannot be cancelled. */
async function cancellationOf(ctx: Ctx, booking: repo.BookingRow) {
  if (!CANCELLABLE_STATUSES.includes(booking.status)) return null;
  try {
    const q = await cancellationQuote(ctx as AppContext, booking.id, 'traveller');
    return { fee: q.fee, refund: q.refund, policy_step: q.policy_step };
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

/** GET .../cancellation: what cancelling today would cost and give back (the traveller's quote). */
export async function manageCancellationQuote(
  ctx: Ctx,
  market: string,
  reference: string,
  expires?: string,
  signature?: string,
) {
  const booking = await linkedBooking(ctx, market, reference, expires, signature);
  return cancellationQuote(ctx as AppContext, booking.id, 'traveller');
}

/** POST .../cancel: the same cancellation as the operator's `by: traveller` (fee, refund, e-mails). */
export async function manageCancel(
  ctx: AppContext,
  market: string,
  reference: string,
  reason: string | undefined,
  expires?: string,
  signature?: string,
) {
  const booking = await linkedBooking(ctx, market, reference, expires, signature);
  return cancelBooking(ctx, paymentSettlementOf(ctx).gateway, {
    bookingId: booking.id,
    by: 'traveller',
    reason: reason?.trim() || 'Cancelled by the customer (manage my booking)',
    actor: { email: 'customer' },
  });
}

/**
 * The customer corrects passport data and birth dates (names stay: a name change goes through the
 * operator, who knows what the airline charges). Refused once a flight leg is booked (409
 * travelers_locked_flights_booked) or within 14 days of departure (409 travelers_locked_departure_soon).
 * Each change is an amendment row, with an admin notification and the customer's e-mail.
 */
export type { TravelerChange } from './amendments.js';

export async function updateTravelers(
  ctx: Ctx,
  market: string,
  reference: string,
  changes: TravelerChange[],
  expires?: string,
  signature?: string,
) {
  const booking = await linkedBooking(ctx, market, reference, expires, signature);
  const db = ctx.database.db;
  const trip = await offerTrip(db, booking.offerId);
  const today = dateIn('UTC', ctx.clock.now());
  if ((await flightBookingsOf(db, booking.id)).length > 0) {
    throw new AppError(
      409,
      'travelers_locked_flights_booked',
      'The flights are booked: contact us to change traveler data (the airline may charge for it).',
    );
  }
  if (trip && today > addDays(trip.departureDate, -TRAVELER_CHANGE_DAYS)) {
    throw new AppError(
      409,
      'travelers_locked_departure_soon',
      `Traveler data can be changed until ${TRAVELER_CHANGE_DAYS} days before departure; contact us.`,
    );
  }
  await amendTravelers(ctx, booking, changes, 'customer');
  return viewOf(ctx, (await repo.findBooking(db, booking.id))!);
}
