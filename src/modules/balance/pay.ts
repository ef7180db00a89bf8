// Paying the balance through the signed link of the balance e-mails (after a failed charge, or
// early): the balance, a PaymentIntent for it, and its confirmation.
import { AppError } from '../../platform/errors.js';
import { centsToNumber, formatCents, toCents } from '../../platform/money.js';
import { findBookingByReference } from '../bookings/service.js';
import { findClient } from '../checkout/api.js';
import * as payments from '../payments/api.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { DEFAULT_TEST_METHOD } from '../payments/service.js';
import { verifyPayLink } from './pay-link.js';
import * as repo from './repository.js';
import { BalanceStatus } from './rules.js';
import { balanceSummary, type Ctx, recordLinkPayment } from './service.js';

async function linkedBooking(ctx: Ctx, market: string, reference: string, expires?: string, signature?: string) {
  if (!verifyPayLink(ctx.config.appKey, reference, expires, signature, ctx.clock.now())) {
    throw new AppError(403, 'invalid_pay_link', 'This payment link is not valid or has expired.');
  }
  const db = ctx.database.db;
  const booking = /^[\w-]{1,20}$/.test(reference) ? await findBookingByReference(db, reference) : null;
  const balance = booking && booking.marketCode === market ? await repo.findBalance(db, booking.id) : null;
  if (!booking || !balance) throw new AppError(404, 'booking_not_found', `Booking ${reference} not found.`);
  return { booking, balance };
}

/** What the pay page shows: the booking's balance. */
export async function payLinkBalance(ctx: Ctx, market: string, reference: string, expires?: string, sig?: string) {
  const { booking, balance } = await linkedBooking(ctx, market, reference, expires, sig);
  const summary = (await balanceSummary(ctx.database.db, booking.id))!;
  return {
    booking_reference: booking.reference,
    departure_date: summary.departure_date,
    total_price: centsToNumber(summary.total_price),
    amount_paid: centsToNumber(summary.amount_paid),
    balance_due: centsToNumber(summary.balance_due),
    balance_due_date: summary.balance_due_date,
    balance_status: balance.status,
    currency: balance.currency,
  };
}

/** A PaymentIntent for the whole remaining balance, for Stripe.js on the pay page. */
export async function createBalanceIntent(
  ctx: Ctx,
  gateway: PaymentGateway,
  market: string,
  reference: string,
  expires?: string,
  sig?: string,
) {
  const { booking, balance } = await linkedBooking(ctx, market, reference, expires, sig);
  const remaining = toCents(balance.remainingPrice);
  if (balance.status === BalanceStatus.paid || remaining <= 0) {
    throw new AppError(409, 'balance_already_paid', 'The balance of this booking is paid.');
  }
  const client = booking.clientId ? await findClient(ctx.database.db, booking.clientId) : null;
  const intent = await gateway.createIntent({
    amountCents: remaining,
    currency: balance.currency,
    bookingReference: booking.reference,
    bookingId: booking.id,
    description: `Balance for booking ${booking.reference}`,
    customer: {
      email: client?.email ?? '',
      name: client ? `${client.firstName} ${client.lastName}` : booking.reference,
    },
    // the same balance asked for again makes the same intent
    idempotencyKey: `balance-${booking.id}-link-${balance.attempts}-${remaining}`,
  });
  await payments.insertPayment(ctx.database.db, {
    bookingId: booking.id,
    intentId: intent.id,
    gatewayCode: gateway.code,
    methodCode: gateway.methodCode,
    amount: formatCents(remaining),
    totalPrice: balance.totalPrice,
    currency: balance.currency,
    status: intent.status,
    // the clock's time: the reconciliation measures a payment's age with the same clock
    createdAt: ctx.clock.now(),
  });
  // the hourly charge asks about it first: a balance the customer paid here is not charged again
  await repo.updateBalance(ctx.database.db, booking.id, { linkIntentId: intent.id });
  return {
    payment_intent_id: intent.id,
    client_secret: intent.clientSecret,
    amount: centsToNumber(remaining),
    currency: balance.currency,
    booking_reference: booking.reference,
    payment_gateway: gateway.code,
  };
}

/**
 * Records a succeeded pay-link intent as the balance payment (a second confirm changes nothing).
 * `paymentMethod` confirms the intent server-side first, as the checkout's confirm does: the
 * sandbox takes Stripe's test methods (pm_card_visa by default), Stripe a method id.
 */
export async function confirmBalancePayment(
  ctx: Ctx,
  gateway: PaymentGateway,
  market: string,
  reference: string,
  intentId: string,
  expires?: string,
  sig?: string,
  paymentMethod?: string,
) {
  const { booking } = await linkedBooking(ctx, market, reference, expires, sig);
  const db = ctx.database.db;
  const payment = await payments.findPayment(db, intentId);
  if (!payment || payment.bookingId !== booking.id) {
    throw new AppError(422, 'payment_intent_mismatch', 'The payment intent does not belong to this booking.');
  }
  let intent = await gateway.retrieveIntent(intentId);
  const method = paymentMethod ?? (gateway.code === 'sandbox' ? DEFAULT_TEST_METHOD : undefined);
  if (intent.status !== 'Succeeded' && intent.status !== 'Processing' && method) {
    intent = await gateway.confirmIntent(intentId, method);
  }
  if (intent.status !== 'Succeeded') {
    await payments.setStatus(db, intentId, intent.status);
    throw new AppError(402, 'payment_not_succeeded', `The payment has not succeeded (status ${intent.status}).`);
  }
  // confirmed before: nothing more to record
  if (payment.status !== 'Succeeded') await recordLinkPayment(ctx, gateway, booking.id, intent);
  const summary = (await balanceSummary(db, booking.id))!;
  return {
    booking_reference: booking.reference,
    payment_status: 'Succeeded' as const,
    amount_paid: centsToNumber(summary.amount_paid),
    balance_due: centsToNumber(summary.balance_due),
    currency: summary.currency,
  };
}
