// Deposit payment of a checkout: a payment intent for the deposit of the session total, and the
// confirmation that checks the intent's status with the gateway and finalizes the booking.
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { centsToNumber, formatCents, toCents } from '../../platform/money.js';
import { finalizeBooking } from '../bookings/finalization.js';
import { BookingStatus } from '../bookings/rules.js';
import { findOffer } from '../catalog/offers.js';
import { productHeroImage } from '../catalog/repository.js';
import { findBookingByReference } from '../checkout/repository.js';
import type { CheckoutSessions, FlightSession } from '../flights/checkout-session.js';
import * as flights from '../flights/repository.js';
import type { MarketScope } from '../markets/rules.js';
import { type PaymentGateway, paymentGatewayFor } from './gateway.js';
import { depositCents } from './rules.js';

const n = centsToNumber;

export class PaymentService {
  readonly gateway: PaymentGateway | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly sessions: CheckoutSessions,
    gateway?: PaymentGateway,
  ) {
    this.gateway = gateway ?? paymentGatewayFor(ctx.config);
  }

  private requireGateway(): PaymentGateway {
    if (!this.gateway) throw new AppError(503, 'payment_unavailable', 'Payments are not configured.');
    return this.gateway;
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

  async createIntent(session: FlightSession) {
    this.requireData(session);
    const gateway = this.requireGateway();
    const state = session.state;
    const total = this.totalCents(session);
    const percent = this.ctx.config.checkout.depositPercent;
    const deposit = depositCents(total, percent);
    const intent = await gateway.createIntent({
      amountCents: deposit,
      currency: state.currency.code,
      bookingReference: state.bookingReference,
      bookingId: state.bookingId,
      description: `Deposit for booking ${state.bookingReference}`,
      // the same booking, deposit and total make the same intent when the request is repeated
      idempotencyKey: `deposit-${state.bookingId}-${deposit}-${total}`,
    });
    await flights.savePayment(this.ctx.database.db, {
      bookingId: state.bookingId,
      intentId: intent.id,
      gatewayCode: gateway.code,
      methodCode: gateway.methodCode,
      amount: formatCents(deposit),
      totalPrice: formatCents(total),
      currency: state.currency.code,
      status: intent.status,
    });
    return {
      payment_intent_id: intent.id,
      client_secret: intent.clientSecret,
      amount: n(deposit),
      deposit_percent: percent,
      total_price: n(total),
      remaining_price: n(total - deposit),
      currency: state.currency,
      booking_reference: state.bookingReference,
      payment_gateway: gateway.code,
    };
  }

  async confirm(scope: MarketScope, session: FlightSession, intentId: string) {
    this.requireData(session);
    const gateway = this.requireGateway();
    const db = this.ctx.database.db;
    const payment = await flights.findPayment(db, intentId);
    if (!payment || payment.bookingId !== session.state.bookingId) {
      throw new AppError(422, 'payment_intent_mismatch', 'The payment intent does not belong to this checkout.');
    }
    const intent = await gateway.retrieveIntent(intentId);
    await flights.setPaymentStatus(db, intentId, intent.status);
    if (intent.status !== 'Succeeded') {
      throw new AppError(402, 'payment_not_succeeded', `The payment has not succeeded (status ${intent.status}).`);
    }
    const result = await finalizeBooking(this.ctx, session.state, {
      intentId,
      methodCode: payment.methodCode,
      gatewayCode: payment.gatewayCode,
      amountCents: intent.amountCents,
      // the total of what is finalized (the session's selections now), not the total the intent
      // was made for: a selection changed after the intent must not leave a booking whose total
      // misses its own upsells; the deposit paid is recorded as it is
      totalCents: this.totalCents(session),
    });
    await this.sessions.clear(session);
    return {
      booking_reference: result.reference,
      status: result.status,
      payment_status: 'Succeeded' as const,
      amount_paid: n(intent.amountCents),
      currency: session.state.currency,
      confirmation_url: `/api/${scope.market.code}/${scope.lang}/checkout/confirmation/${result.reference}`,
    };
  }

  /** Confirmation data of a paid booking of this market (unpaid or unknown: booking_not_found). */
  async confirmation(scope: MarketScope, reference: string) {
    const db = this.ctx.database.db;
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
    const travelers = (await flights.passengerCount(db, booking.id)) || booking.actualPaxCount;
    const days = offer?.tripDurationDays ?? null;
    return {
      booking_reference: booking.reference,
      tour_name: offer?.localizedTitle ?? null,
      duration_days: days,
      duration_nights: days === null ? null : Math.max(0, days - 1),
      travelers,
      hero_image: this.sessions.checkout.assetUrl(hero),
      trip_url: summary?.product_url ? `${this.ctx.config.frontendUrl}${summary.product_url}` : null,
    };
  }
}
