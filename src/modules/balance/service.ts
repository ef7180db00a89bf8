// Balance payments: each finalized booking gets a balance due BALANCE_DUE_DAYS before departure
// (scheduleBalance, the finalization hook). This module records what happens to it: payments (an
// off-session charge or the pay link), failed charges, and the customer e-mails of each. The
// hourly collection is collect.ts, the pay link's use cases pay.ts.
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { AppError } from '../../platform/errors.js';
import { amountToNumber, formatCents, toCents } from '../../platform/money.js';
import {
  type BookingRow,
  confirmIfReady,
  findBooking,
  manageLinkOf,
  transition,
  transitionsOf,
} from '../bookings/service.js';
import { offerDepartureDate } from '../catalog/offers.js';
import { findClient } from '../checkout/api.js';
import { queueMail } from '../mail/service.js';
import type { MailFacts, MailKind } from '../mail/templates.js';
import * as notifications from '../notifications/service.js';
import * as payments from '../payments/api.js';
import type { OffSessionCharge, PaymentGateway } from '../payments/gateway.js';
import { type RefundRow, recordRefunds, sendRefunds } from '../payments/refunds.js';
import { payLink } from './pay-link.js';
import * as repo from './repository.js';
import {
  BALANCE_OVERDUE,
  BalanceStatus,
  balanceDueDate,
  nextBalanceAttempt,
  statusWhenBalanceOverdue,
  statusWhenBalancePaid,
} from './rules.js';

export type Ctx = Pick<AppContext, 'config' | 'database' | 'clock' | 'log'>;

// ---------------------------------------------------------------------------------------------
// The saved card (written by the deposit payment, read by the balance charge)

/**
 * Records the card the deposit saved for off-session charges: the gateway's customer and payment
 * method of the succeeded deposit intent. Called by the payments module when it learns them.
 */
export async function saveCardForBalance(
  db: DbOrTx,
  card: { bookingId: number; gatewayCode: string; customerId: string; paymentMethodId: string },
): Promise<void> {
  await repo.upsertSavedCard(db, card);
}

export interface SavedCard {
  gatewayCode: string;
  customerId: string;
  paymentMethodId: string;
}

/**
 * The card the balance of this booking is charged to: one recorded with saveCardForBalance, else
 * the customer and payment method of the booking's succeeded deposit (the payments module stores
 * them from the intent made with setup_future_usage=off_session); null when there is none.
 */
export async function savedCardFor(db: DbOrTx, bookingId: number): Promise<SavedCard | null> {
  const saved = await repo.findSavedCard(db, bookingId);
  if (saved) return saved;
  const paid = (await payments.paymentsOf(db, bookingId))
    .filter((p) => p.status === 'Succeeded' && p.customerId && p.paymentMethodId)
    .at(-1);
  return paid
    ? { gatewayCode: paid.gatewayCode, customerId: paid.customerId!, paymentMethodId: paid.paymentMethodId! }
    : null;
}

// ---------------------------------------------------------------------------------------------
// Finalization hook

/**
 * Called inside the finalization transaction, after the booking's total is written: schedules the
 * balance (or records the booking as fully paid) and writes the booking confirmation e-mail.
 * Idempotent: a second call for the same booking changes nothing.
 */
export async function scheduleBalance(tx: DbOrTx, ctx: Ctx, bookingId: number, amountPaidCents: number) {
  const booking = await findBooking(tx, bookingId);
  if (!booking) return;
  const departure = (await offerDepartureDate(tx, booking.offerId)) ?? departureOfSelection(booking);
  if (!departure) {
    await notifications.notifyAdmins(tx, {
      type: 'balance_unscheduled',
      bookingId,
      title: 'Balance not scheduled',
      message: `Booking ${booking.reference} has no departure date: its balance must be collected by hand.`,
    });
    return;
  }
  const total = toCents(booking.totalPrice);
  // a gateway event without an amount: what the intent was made for (its payment row)
  const reported = Number.isFinite(amountPaidCents)
    ? amountPaidCents
    : toCents((await payments.paymentsOf(tx, bookingId)).at(-1)?.amount ?? '0');
  const paid = Math.min(reported, total);
  const fresh = await repo.insertBalance(tx, {
    bookingId,
    departureDate: departure,
    dueDate: balanceDueDate(departure, ctx.config.balance.dueDays),
    totalPrice: formatCents(total),
    amountPaid: formatCents(paid),
    remainingPrice: formatCents(total - paid),
    currency: booking.currency,
    status: total - paid > 0 ? BalanceStatus.scheduled : BalanceStatus.paid,
    paidAt: total - paid > 0 ? null : ctx.clock.now(),
  });
  if (fresh) await mailCustomer(tx, ctx, booking, 'booking_confirmation', `booking-confirmation:${bookingId}`);
}

function departureOfSelection(booking: BookingRow): string | null {
  const outbound = (booking.flightSelection as { outbound?: { departure_date?: string } } | null)?.outbound;
  return outbound?.departure_date ?? null;
}

// ---------------------------------------------------------------------------------------------
// What the confirmation page and the pay link show

export async function balanceSummary(db: DbOrTx, bookingId: number) {
  const b = await repo.findBalance(db, bookingId);
  if (!b) return null;
  return {
    departure_date: b.departureDate,
    total_price: toCents(b.totalPrice),
    amount_paid: toCents(b.amountPaid),
    balance_due: toCents(b.remainingPrice),
    balance_due_date: toCents(b.remainingPrice) > 0 ? b.dueDate : null,
    status: b.status,
    currency: b.currency,
  };
}

/** The balance as the admin's booking view shows it: dates, amounts, status, charge attempts. */
export async function balanceView(db: DbOrTx, bookingId: number) {
  const b = await repo.findBalance(db, bookingId);
  if (!b) return null;
  const attempts = await repo.attemptsOf(db, bookingId);
  return {
    departure_date: b.departureDate,
    due_date: b.dueDate,
    total_price: amountToNumber(b.totalPrice),
    amount_paid: amountToNumber(b.amountPaid),
    remaining_price: amountToNumber(b.remainingPrice),
    currency: b.currency,
    status: b.status,
    next_attempt_at: b.nextAttemptAt ? b.nextAttemptAt.toISOString() : null,
    reminder_sent_at: b.reminderSentAt ? b.reminderSentAt.toISOString() : null,
    paid_at: b.paidAt ? b.paidAt.toISOString() : null,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      idempotency_key: a.idempotencyKey,
      payment_intent_id: a.intentId,
      outcome: a.outcome,
      code: a.code,
      amount: amountToNumber(a.amount),
      at: a.createdAt.toISOString(),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Amendments

/**
 * An amendment changes the booking's total by `deltaCents`, in `tx`: the balance's total and what
 * remains move by it (the due date stays: it follows the departure). An increase on a balance
 * already paid reopens it (scheduled, the customer is e-mailed the pay link by the caller); a
 * decrease larger than what remains leaves nothing due and returns the excess (`refundCents`),
 * which the caller refunds to the card.
 */
export async function amendBalance(tx: DbOrTx, bookingId: number, deltaCents: number) {
  const b = await repo.lockBalance(tx, bookingId);
  if (!b) throw new AppError(409, 'booking_not_confirmed', 'The booking has no balance (not paid yet).');
  const total = toCents(b.totalPrice) + deltaCents;
  const owed = toCents(b.remainingPrice) + deltaCents;
  // a decrease beyond what is still due was paid already: the excess is refunded by the caller
  const refundCents = Math.max(0, -owed);
  const remaining = Math.max(0, owed);
  const reopened = b.status === BalanceStatus.paid && remaining > 0;
  await repo.updateBalance(tx, bookingId, {
    totalPrice: formatCents(total),
    remainingPrice: formatCents(remaining),
    ...(reopened ? { status: BalanceStatus.scheduled, paidAt: null } : {}),
    ...(remaining === 0 && b.status !== BalanceStatus.paid ? { status: BalanceStatus.paid } : {}),
  });
  if (refundCents > 0)
    await repo.updateBalance(tx, bookingId, { amountPaid: formatCents(toCents(b.amountPaid) - refundCents) });
  return { totalCents: total, remainingCents: remaining, refundCents, reopened, dueDate: b.dueDate };
}

// ---------------------------------------------------------------------------------------------
// E-mails

export async function mailCustomer(
  tx: DbOrTx,
  ctx: Ctx,
  booking: BookingRow,
  kind: MailKind,
  key: string,
  extra: Pick<MailFacts, 'changes' | 'priceDifferenceCents'> = {},
) {
  const client = booking.clientId ? await findClient(tx, booking.clientId) : null;
  const balance = await repo.findBalance(tx, booking.id);
  if (!client || !balance) return;
  const remaining = toCents(balance.remainingPrice);
  const facts: MailFacts = {
    firstName: client.firstName,
    reference: booking.reference,
    departureDate: balance.departureDate,
    totalCents: toCents(balance.totalPrice),
    amountPaidCents: toCents(balance.amountPaid),
    balanceCents: remaining,
    balanceDueDate: remaining > 0 ? balance.dueDate : null,
    currency: balance.currency,
    market: booking.marketCode,
    language: booking.language,
    payLink: payLink(ctx.config, booking, balance.departureDate),
    manageLink:
      kind === 'booking_confirmation' || kind === 'booking_amended'
        ? await manageLinkOf(tx, ctx.config, booking)
        : null,
    ...extra,
  };
  await queueMail(tx, { key, kind, bookingId: booking.id, to: client.email, facts, at: ctx.clock.now() });
}

// ---------------------------------------------------------------------------------------------
// Recording outcomes (off-session charges and pay-link payments alike)

export interface PaidIntent {
  id: string;
  amountCents: number;
  gatewayCode: string;
  methodCode: string;
}

/** The balance is paid: payment row, balance, status transition and receipt, in `tx`. */
export async function recordPaid(tx: DbOrTx, ctx: Ctx, balance: repo.BalanceRow, intent: PaidIntent, via: string) {
  const booking = await findBooking(tx, balance.bookingId);
  if (!booking) return;
  const total = toCents(balance.totalPrice);
  const paid = toCents(balance.amountPaid) + intent.amountCents;
  await payments.insertPayment(tx, {
    bookingId: booking.id,
    intentId: intent.id,
    gatewayCode: intent.gatewayCode,
    methodCode: intent.methodCode,
    amount: formatCents(intent.amountCents),
    totalPrice: formatCents(total),
    currency: balance.currency,
    status: 'Succeeded',
  });
  await repo.updateBalance(tx, booking.id, {
    amountPaid: formatCents(paid),
    remainingPrice: formatCents(Math.max(0, total - paid)),
    status: BalanceStatus.paid,
    paidAt: ctx.clock.now(),
    nextAttemptAt: null,
    chargingUntil: null,
  });
  const next = statusWhenBalancePaid(booking.status, await statusBeforeOverdue(tx, booking));
  if (next) {
    await transition(tx, booking.id, [booking.status], next, {
      payment_intent_id: intent.id,
      payment_status: 'Succeeded',
      purpose: 'balance',
      via,
      amount_paid: intent.amountCents / 100,
      remaining_price: 0,
      currency: balance.currency,
    });
    // suppliers that all confirmed while the balance was overdue
    await confirmIfReady(tx, booking.id, { purpose: 'balance' });
  }
  await mailCustomer(tx, ctx, booking, 'balance_receipt', `balance-receipt:${booking.id}`);
}

/** A balance payment's row (no quote: the booking's total is its balance's). */
async function saveBalancePayment(
  tx: DbOrTx,
  ctx: Ctx,
  balance: repo.BalanceRow,
  intent: PaidIntent,
  status: 'Succeeded' | 'Processing',
) {
  await payments.insertPayment(tx, {
    bookingId: balance.bookingId,
    intentId: intent.id,
    gatewayCode: intent.gatewayCode,
    methodCode: intent.methodCode,
    amount: formatCents(intent.amountCents),
    totalPrice: balance.totalPrice,
    currency: balance.currency,
    status,
    createdAt: ctx.clock.now(),
  });
}

/**
 * Money taken for a balance already paid (the customer paid the link as the charge went through):
 * recorded, and refunded in full (the refund row is written here, sent after the commit).
 */
export async function recordSecondPayment(
  tx: DbOrTx,
  balance: repo.BalanceRow,
  booking: BookingRow,
  intent: PaidIntent,
  ctx: Ctx,
): Promise<RefundRow[]> {
  await saveBalancePayment(tx, ctx, balance, intent, 'Succeeded');
  await notifications.notifyAdmins(tx, {
    type: 'balance_paid_twice',
    bookingId: booking.id,
    title: 'Balance paid twice',
    message: `Booking ${booking.reference} paid its balance again through the pay link (${intent.id}); that payment is refunded automatically.`,
    data: { payment_intent_id: intent.id, amount: intent.amountCents / 100, currency: balance.currency },
  });
  const payment = await payments.findPayment(tx, intent.id);
  return recordRefunds(tx, {
    bookingId: booking.id,
    amountCents: intent.amountCents,
    kind: 'duplicate_payment',
    reason: `Balance paid twice (${intent.id})`,
    requestedBy: 'system',
    paymentId: payment!.id,
    at: ctx.clock.now(),
  });
}

async function statusBeforeOverdue(tx: DbOrTx, booking: BookingRow): Promise<string | null> {
  if (booking.status !== BALANCE_OVERDUE) return null;
  const moves = await transitionsOf(tx, booking.id);
  return moves.filter((m) => m.toStatus === BALANCE_OVERDUE).at(-1)?.fromStatus ?? null;
}

type Failure = Exclude<OffSessionCharge, { outcome: 'succeeded' | 'processing' }>;

/** Charge attempt `attempt` failed: the next try, or overdue after the last; who is told. */
export async function recordFailure(tx: DbOrTx, ctx: Ctx, balance: repo.BalanceRow, attempt: number, failure: Failure) {
  const booking = await findBooking(tx, balance.bookingId);
  if (!booking) return 'failed' as const;
  const now = ctx.clock.now();
  if (failure.outcome === 'permanent') return recordUnusableCard(tx, ctx, balance, booking, attempt, failure);
  const firstFailedAt = balance.firstFailedAt ?? now;
  const next = nextBalanceAttempt(firstFailedAt, attempt);
  const lastError = { outcome: failure.outcome, code: failure.code, message: failure.message, attempt };
  await repo.updateBalance(tx, booking.id, {
    attempts: attempt,
    firstFailedAt,
    nextAttemptAt: next,
    chargingUntil: null,
    lastError,
    status: next ? BalanceStatus.retrying : BalanceStatus.overdue,
  });
  const amount = `${balance.remainingPrice} ${balance.currency}`;
  if (next) {
    if (attempt === 1) {
      await notifications.notifyAdmins(tx, {
        type: 'balance_payment_failed',
        bookingId: booking.id,
        title: 'Balance payment failed',
        message: `The balance of booking ${booking.reference} (${amount}) could not be charged (${failure.code}); the customer got a pay link, the charge is tried again on ${next.toISOString()}.`,
        data: lastError,
      });
      await mailCustomer(tx, ctx, booking, 'balance_failed', `balance-failed:${booking.id}`);
    }
    return 'failed' as const;
  }
  const to = statusWhenBalanceOverdue(booking.status);
  if (to) await transition(tx, booking.id, [booking.status], to, { purpose: 'balance', ...lastError });
  await notifications.notifyAdmins(tx, {
    type: 'balance_overdue',
    bookingId: booking.id,
    title: 'Balance overdue',
    message: `The balance of booking ${booking.reference} (${amount}) is overdue: ${attempt} charges failed (last: ${failure.code}).`,
    data: lastError,
  });
  return 'overdue' as const;
}

/**
 * The gateway refused the charge itself (the saved payment method is detached or unknown): no
 * automatic attempt can succeed, so they end now; the customer gets the pay link and the admins a
 * notice at once.
 */
async function recordUnusableCard(
  tx: DbOrTx,
  ctx: Ctx,
  balance: repo.BalanceRow,
  booking: BookingRow,
  attempt: number,
  failure: Failure,
) {
  const lastError = { outcome: failure.outcome, code: failure.code, message: failure.message, attempt };
  await repo.updateBalance(tx, booking.id, {
    attempts: attempt,
    firstFailedAt: balance.firstFailedAt ?? ctx.clock.now(),
    nextAttemptAt: null,
    chargingUntil: null,
    lastError,
    status: BalanceStatus.awaitingCustomer,
  });
  await notifications.notifyAdmins(tx, {
    type: 'balance_card_unusable',
    bookingId: booking.id,
    title: 'Saved card cannot be charged',
    message: `The balance of booking ${booking.reference} (${balance.remainingPrice} ${balance.currency}) cannot be charged automatically (${failure.code}: ${failure.message}); the customer got the pay link, no further automatic attempts.`,
    data: lastError,
  });
  await mailCustomer(tx, ctx, booking, 'balance_failed', `balance-failed:${booking.id}`);
  return 'failed' as const;
}

/**
 * A succeeded pay-link intent: the balance payment, or, when the balance was paid meanwhile (an
 * off-session charge went through as the customer paid), a second payment the admins must refund.
 */
export async function recordLinkPayment(
  ctx: Ctx,
  gateway: PaymentGateway,
  bookingId: number,
  intent: { id: string; amountCents: number },
): Promise<void> {
  const paid = {
    id: intent.id,
    amountCents: intent.amountCents,
    gatewayCode: gateway.code,
    methodCode: gateway.methodCode,
  };
  const refunds = await ctx.database.db.transaction(async (tx): Promise<RefundRow[]> => {
    const locked = await repo.lockBalance(tx, bookingId);
    const booking = await findBooking(tx, bookingId);
    if (!locked || !booking) return [];
    if ((await payments.findPayment(tx, intent.id))?.status === 'Succeeded') return [];
    if (locked.status !== BalanceStatus.paid && locked.status !== BalanceStatus.cancelled) {
      await recordPaid(tx, ctx, locked, paid, 'pay_link');
      return [];
    }
    return recordSecondPayment(tx, locked, booking, paid, ctx);
  });
  if (refunds.length) await sendRefunds(ctx, gateway, refunds);
}

/**
 * The booking was cancelled: nothing more is collected (no reminder, no charge, no overdue). What
 * remained due is returned so the cancellation can cap its fee.
 */
export async function stopBalance(tx: DbOrTx, bookingId: number): Promise<void> {
  await repo.updateBalance(tx, bookingId, {
    status: BalanceStatus.cancelled,
    nextAttemptAt: null,
    chargingUntil: null,
  });
}

/** What is still due on a booking's balance (0 when paid, cancelled or without a balance). */
export async function balanceDueCents(db: DbOrTx, bookingId: number): Promise<number> {
  const b = await repo.findBalance(db, bookingId);
  if (!b || b.status === BalanceStatus.paid || b.status === BalanceStatus.cancelled) return 0;
  return toCents(b.remainingPrice);
}

/**
 * An off-session debit that was `processing` failed at the bank: the attempt it belonged to
 * counts as a failed charge (the customer gets the pay link; the next try or overdue follows).
 */
export async function recordProcessingFailed(ctx: Ctx, bookingId: number, intentId: string): Promise<void> {
  await ctx.database.db.transaction(async (tx) => {
    const locked = await repo.lockBalance(tx, bookingId);
    if (!locked || locked.status !== BalanceStatus.processing) return;
    await payments.setStatus(tx, intentId, 'Failed');
    await recordFailure(tx, ctx, locked, locked.attempts, {
      outcome: 'declined',
      intentId,
      code: 'debit_failed',
      message: 'The bank debit did not go through.',
    });
  });
}

/**
 * The gateway answered `processing` (a SEPA or ACH debit): the payment is pending, the balance
 * waits for its webhook (or the reconciliation); no pay link, no other charge meanwhile.
 */
export async function recordProcessing(
  tx: DbOrTx,
  ctx: Ctx,
  balance: repo.BalanceRow,
  attempt: number,
  intent: PaidIntent,
): Promise<void> {
  await saveBalancePayment(tx, ctx, balance, intent, 'Processing');
  await repo.updateBalance(tx, balance.bookingId, {
    attempts: attempt,
    status: BalanceStatus.processing,
    nextAttemptAt: null,
    chargingUntil: null,
  });
}
