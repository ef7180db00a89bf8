// Deposit payment of a checkout. The intent freezes a quote (totals, selection fingerprint and the
// session state to book) after checking the offer is still bookable and holding its seats; every
// path that can finish the payment (the browser's confirm, Stripe's webhook, the reconciliation
// task) runs the one finalization of bookings/finalization.ts with the intent id.
import { createHash } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { roundToMinorUnit } from '../../platform/minor-units.js';
import { centsToNumber, formatCents, toCents } from '../../platform/money.js';
import { depositFor } from '../balance/rules.js';
import { balanceSummary } from '../balance/service.js';
import type { Confirmation } from '../bookings/finalization.js';
import { BookingStatus } from '../bookings/rules.js';
import { findBooking, findBookingByReference, passengerCount } from '../bookings/service.js';
import { productHeroImage } from '../catalog/api.js';
import { findOffer, lockOfferSeats, offerDepartureDate, offerFlightData } from '../catalog/offers.js';
import { parseFlightCache } from '../flights/cache.js';
import type { CheckoutSessions, FlightSession, FlightSessionState } from '../flights/checkout-session.js';
import type { MarketScope } from '../markets/rules.js';
import type { PaymentGateway, PaymentIntent } from './gateway.js';
import { moneyOf } from './refunds.js';
import * as repo from './repository.js';
import { canonicalJson, depositCents, type Quote, seatsLeft, selectionText } from './rules.js';
import { type PaymentSettlement, paymentSettlementOf } from './settlement.js';

const n = centsToNumber;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The payment method a sandbox confirm uses when the body names none. */
export const DEFAULT_TEST_METHOD = 'pm_card_visa';

export function fingerprintOf(state: FlightSessionState): string {
  return sha256(selectionText(state));
}

/** The contact and travelers a quote books: a change after the intent is a changed quote too. */
function bookedDataOf(state: Pick<FlightSessionState, 'clientData' | 'travelerData'>): string {
  return canonicalJson({ client: state.clientData ?? null, travelers: state.travelerData ?? null });
}

const booking_already_paid = () =>
  new AppError(
    409,
    'booking_already_paid',
    'This booking is already paid; it cannot be paid again through the checkout. Start a new checkout for another booking.',
  );

/** The session state a quote keeps: everything but the flight searches' metadata. */
function quotedState(state: FlightSessionState): FlightSessionState {
  const { economySearch: _e, businessSearch: _b, ...rest } = state;
  return rest as FlightSessionState;
}

export class PaymentService {
  constructor(
    private readonly ctx: AppContext,
    private readonly sessions: CheckoutSessions,
    private readonly settlement: PaymentSettlement = paymentSettlementOf(ctx),
  ) {}

  get gateway(): PaymentGateway | undefined {
    return this.settlement.gateway;
  }

  private get db() {
    return this.ctx.database.db;
  }

  private requireGateway(): PaymentGateway {
    return this.settlement.requireGateway();
  }

  private requireData(s: FlightSession): void {
    if (!s.state.clientData) throw new AppError(400, 'client_data_required', 'Enter the booking contact first.');
    if (!s.state.travelerData?.length) {
      throw new AppError(400, 'traveler_data_required', 'Enter the travelers first.');
    }
  }

  private totalCents(s: FlightSession): number {
    return toCents(this.sessions.checkout.view(s.state).total_price);
  }

  private holdUntil(): Date {
    return this.settlement.holdUntil();
  }

  private intentAnswer(payment: repo.PaymentRow, quote: Quote<FlightSessionState>, clientSecret: string | null) {
    // the whole total when the balance was due before the checkout (balance depositFor rule)
    const percent =
      quote.depositCents === quote.totalCents && quote.totalCents > 0 ? 100 : this.ctx.config.checkout.depositPercent;
    return {
      payment_intent_id: payment.intentId,
      client_secret: clientSecret,
      amount: n(quote.depositCents),
      deposit_percent: percent,
      total_price: n(quote.totalCents),
      remaining_price: n(quote.totalCents - quote.depositCents),
      currency: quote.state.currency,
      booking_reference: quote.state.bookingReference,
      payment_gateway: payment.gatewayCode,
    };
  }

  /**
   * The offer is still bookable (Active, in its market, outside the lead time) and, on an offer
   * with flights, a flight is chosen. 404 / 410 as at start.
   */
  private async checkBookable(scope: MarketScope, state: FlightSessionState): Promise<void> {
    await this.sessions.checkout.offerFor(scope, state.offerId, 'start');
    if (!state.flightSelection?.cabin_class && parseFlightCache(await offerFlightData(this.db, state.offerId))) {
      throw new AppError(
        400,
        'flight_selection_required',
        'This tour includes flights: choose them (PUT /flights) before paying.',
      );
    }
  }

  /**
   * Holds the session's seats for `holdMinutes` (409 offer_sold_out when they are not there). The
   * offer row is locked while seats are counted and the hold written, so two checkouts racing for
   * the last seats cannot both hold them.
   */
  private async holdSeats(state: FlightSessionState): Promise<void> {
    await this.db.transaction(async (tx) => {
      const seats = await lockOfferSeats(tx, state.offerId);
      if (!seats) throw new AppError(404, 'offer_not_found', `Offer ${state.offerId} not found.`);
      const held = await repo.seatsHeldByOthers(tx, state.offerId, state.bookingId);
      if (seatsLeft(seats.allotment, seats.allotmentUsed, held) < state.actualPaxCount) {
        throw new AppError(
          409,
          'offer_sold_out',
          `Offer ${state.offerId} has no seats left for ${state.actualPaxCount} travelers.`,
        );
      }
      await repo.holdSeats(tx, {
        bookingId: state.bookingId,
        offerId: state.offerId,
        seats: state.actualPaxCount,
        expiresAt: this.holdUntil(),
      });
    });
  }

  /** A booking no longer in checkout (paid by any path) is never paid again through the checkout. */
  private async refuseIfPaid(bookingId: number): Promise<void> {
    const booking = await findBooking(this.db, bookingId);
    if (booking && booking.status !== BookingStatus.checkout && booking.status !== BookingStatus.abandoned) {
      throw booking_already_paid();
    }
  }

  /**
   * Without a live session: 409 booking_already_paid when this session token paid a booking (its
   * session was ended by the finalization), else nothing (the caller answers no_checkout_session).
   */
  async refuseEndedCheckout(token: string | undefined): Promise<void> {
    if (!token) return;
    if (await repo.sessionPaid(this.db, sha256(token))) throw booking_already_paid();
  }

  async createIntent(scope: MarketScope, session: FlightSession) {
    this.requireData(session);
    const gateway = this.requireGateway();
    const state = session.state;
    await this.refuseIfPaid(state.bookingId);
    await this.checkBookable(scope, state);
    const fingerprint = fingerprintOf(state);

    const open = await repo.openPaymentOf(this.db, state.bookingId);
    if (open?.quote && open.fingerprint === fingerprint && open.gatewayCode === gateway.code) {
      // same selections: the same intent (no second charge object); contact and travelers as now
      const quote = open.quote as unknown as Quote<FlightSessionState>;
      const next = {
        ...quote,
        state: { ...quote.state, clientData: state.clientData, travelerData: state.travelerData },
      };
      await repo.refreshQuote(this.db, open.intentId, next as unknown as Record<string, unknown>);
      if (await repo.holdOf(this.db, state.bookingId))
        await repo.extendHold(this.db, state.bookingId, this.holdUntil());
      else await this.holdSeats(state);
      const intent = await gateway.retrieveIntent(open.intentId);
      return this.intentAnswer(open, next, intent.clientSecret);
    }
    if (open) {
      // the selections changed: the old intent must not be paid any more
      const old = await gateway.cancelIntent(open.intentId);
      await repo.setStatus(this.db, open.intentId, old.status);
      // money already taken or on its way for the old quote: it is finalized as it was paid
      if (old.status === 'Succeeded') {
        throw new AppError(409, 'payment_already_succeeded', 'This booking is already paid; it is being confirmed.');
      }
      if (old.status === 'Processing') {
        throw new AppError(409, 'payment_processing', 'A payment for this booking is being processed; wait for it.');
      }
    }

    await this.holdSeats(state);
    const total = this.totalCents(session);
    // what the currency can be paid in (whole yen for JPY): the gateway takes minor units
    const deposit = roundToMinorUnit(await this.depositOf(state.offerId, total), state.currency.code);
    const attempt = (await repo.paymentsOf(this.db, state.bookingId)).length;
    const client = state.clientData!;
    let intent: PaymentIntent;
    try {
      intent = await gateway.createIntent({
        amountCents: deposit,
        currency: state.currency.code,
        bookingReference: state.bookingReference,
        bookingId: state.bookingId,
        description: `Deposit for booking ${state.bookingReference}`,
        customer: { email: client.email, name: `${client.first_name} ${client.last_name}` },
        // one key per booking, selections and attempt: a retried request makes one intent
        idempotencyKey: `deposit-${state.bookingId}-${fingerprint.slice(0, 16)}-${attempt}`,
      });
    } catch (err) {
      await repo.releaseHold(this.db, state.bookingId, null);
      throw err;
    }
    const quote: Quote<FlightSessionState> = {
      totalCents: total,
      depositCents: deposit,
      currency: state.currency.code,
      fingerprint,
      state: quotedState(state),
    };
    const row = {
      bookingId: state.bookingId,
      intentId: intent.id,
      gatewayCode: gateway.code,
      methodCode: gateway.methodCode,
      amount: formatCents(deposit),
      totalPrice: formatCents(total),
      currency: state.currency.code,
      status: intent.status,
      quote: quote as unknown as Record<string, unknown>,
      fingerprint,
      sessionId: session.id,
      customerId: intent.customerId,
      // the clock's time: the reconciliation measures a payment's age with the same clock
      createdAt: this.ctx.clock.now(),
    };
    await repo.insertPayment(this.db, row);
    await repo.attachHold(this.db, state.bookingId, intent.id);
    return this.intentAnswer(row as repo.PaymentRow, quote, intent.clientSecret);
  }

  /**
   * The deposit of a total: the configured percentage, or the whole total when the balance's due
   * date has already passed (balance depositFor rule).
   */
  private async depositOf(offerId: number, totalCents: number): Promise<number> {
    const percent = this.ctx.config.checkout.depositPercent;
    const departureDate = await offerDepartureDate(this.db, offerId);
    if (!departureDate) return depositCents(totalCents, percent);
    return depositFor({
      totalCents,
      depositPercent: percent,
      departureDate,
      today: this.ctx.clock.now().toISOString().slice(0, 10),
      balanceDueDays: this.ctx.config.balance.dueDays,
    }).depositCents;
  }

  /**
   * Confirms a payment intent of this checkout. Without a live session only the owner of an
   * already finalized intent (same session token) gets its answer again.
   */
  async confirm(
    session: FlightSession | null,
    token: string | undefined,
    intentId: string,
    paymentMethod: string | undefined,
  ): Promise<Confirmation> {
    const payment = await repo.findPayment(this.db, intentId);
    if (!session) {
      if (token && payment?.confirmation && payment.sessionId === sha256(token)) {
        return payment.confirmation as unknown as Confirmation;
      }
      await this.refuseEndedCheckout(token);
      throw new AppError(400, 'no_checkout_session', 'No active checkout session.');
    }
    if (!payment?.quote || payment.bookingId !== session.state.bookingId) {
      throw new AppError(422, 'payment_intent_mismatch', 'The payment intent does not belong to this checkout.');
    }
    if (payment.confirmation) {
      await this.sessions.clear(session);
      return payment.confirmation as unknown as Confirmation;
    }
    const gateway = this.requireGateway();
    const booking = await findBooking(this.db, payment.bookingId);
    if (booking && booking.status !== BookingStatus.checkout && booking.status !== BookingStatus.abandoned) {
      // paid through another intent: this one must not take money; if it did, it is refunded
      const other = await gateway.cancelIntent(intentId);
      if (other.status === 'Succeeded') await this.settlement.finalizePaid(payment, other, 'confirm');
      await this.sessions.clear(session);
      throw booking_already_paid();
    }
    const quoted = (payment.quote as unknown as Quote<FlightSessionState>).state;
    if (payment.fingerprint !== fingerprintOf(session.state) || bookedDataOf(quoted) !== bookedDataOf(session.state)) {
      throw new AppError(
        409,
        'quote_changed',
        'The selections, the contact or the travelers changed after this payment intent was made: create the payment intent again.',
      );
    }
    this.requireData(session);
    let intent = await gateway.retrieveIntent(intentId);
    const method = paymentMethod ?? (gateway.code === 'sandbox' ? DEFAULT_TEST_METHOD : undefined);
    if (intent.status !== 'Succeeded' && intent.status !== 'Processing' && method) {
      intent = await gateway.confirmIntent(intentId, method);
    }
    await repo.setStatus(this.db, intentId, intent.status);
    if (intent.status === 'RequiresAction') {
      throw new AppError(
        402,
        'payment_requires_action',
        'The card needs the customer to authenticate: finish it with the client_secret (Stripe.js), then confirm again.',
        undefined,
        undefined,
        { client_secret: intent.clientSecret, payment_intent_id: intentId },
      );
    }
    if (intent.status !== 'Succeeded') {
      throw new AppError(
        402,
        'payment_not_succeeded',
        `The payment has not succeeded (status ${intent.status}). Try again, with another payment method if it was declined.`,
      );
    }
    const result = await this.settlement.finalizePaid(payment, intent, 'confirm');
    await this.sessions.clear(session);
    return result.confirmation;
  }

  /** Confirmation data of a paid booking of this market (unpaid or unknown: booking_not_found). */
  async confirmation(scope: MarketScope, reference: string) {
    const db = this.db;
    const booking = /^[\w-]{1,20}$/.test(reference) ? await findBookingByReference(db, reference) : null;
    if (
      !booking ||
      booking.marketCode !== scope.market.code ||
      booking.status === BookingStatus.checkout ||
      booking.status === BookingStatus.abandoned
    ) {
      throw new AppError(404, 'booking_not_found', `Booking ${reference} not found.`);
    }
    const offer = await findOffer(this.ctx.database, booking.offerId, scope.lang);
    const summary = offer ? this.sessions.checkout.offerSummary(scope, offer) : null;
    const hero = offer ? await productHeroImage(db, offer.marketProductId) : null;
    const travelers = (await passengerCount(db, booking.id)) || booking.actualPaxCount;
    const days = offer?.tripDurationDays ?? null;
    const balance = await balanceSummary(db, booking.id);
    return {
      booking_reference: booking.reference,
      tour_name: offer?.localizedTitle ?? null,
      duration_days: days,
      duration_nights: days === null ? null : Math.max(0, days - 1),
      travelers,
      hero_image: this.sessions.checkout.assetUrl(hero),
      trip_url: summary?.product_url ? `${this.ctx.config.frontendUrl}${summary.product_url}` : null,
      status: booking.status,
      amount_paid: balance ? n(balance.amount_paid) : null,
      balance_due: balance ? (balance.status === 'cancelled' ? 0 : n(balance.balance_due)) : null,
      refunded: n((await moneyOf(db, booking.id)).refundedCents),
    };
  }
}
