// Balance payments: each finalized booking gets a balance due BALANCE_DUE_DAYS before departure;
// the hourly `balance.collect` task reminds the customer 7 days before and charges the saved card
// off-session on the due date. A decline (or a bank asking for the customer) tells the admins and
// mails the customer a signed pay link; the charge is tried again 24 h and 72 h after the first
// failure, then the booking is `balance_overdue`. Attempt n always uses the idempotency key
// `balance-{bookingId}-n`, and its outcome is recorded once, so a run killed between the charge and
// its record charges nothing more when the next run repeats it.
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { addDays } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { amountToNumber, centsToNumber, formatCents, toCents } from '../../platform/money.js';
import { transition } from '../bookings/status.js';
import { offerDepartureDate } from '../catalog/offers.js';
import { type BookingRow, findBooking, findBookingByReference, findClient } from '../checkout/repository.js';
import * as flights from '../flights/repository.js';
import { queueMail } from '../mail/service.js';
import type { MailFacts, MailKind } from '../mail/templates.js';
import type { OffSessionCharge, PaymentGateway } from '../payments/gateway.js';
import { payLink, verifyPayLink } from './pay-link.js';
import * as repo from './repository.js';
import {
  BALANCE_OVERDUE,
  BALANCE_REMINDER_DAYS,
  BalanceStatus,
  balanceChargeKey,
  balanceDueDate,
  nextBalanceAttempt,
  statusWhenBalanceOverdue,
  statusWhenBalancePaid,
} from './rules.js';

type Ctx = Pick<AppContext, 'config' | 'database' | 'clock' | 'log'>;

/** How long a collecting run holds a balance it is charging (longer than the task's time-out). */
const CHARGE_LEASE_MS = 15 * 60_000;

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

/** The card the balance of this booking is charged to, or null when the deposit saved none. */
export async function savedCardFor(db: DbOrTx, bookingId: number): Promise<repo.SavedCard | null> {
  return repo.findSavedCard(db, bookingId);
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
    await flights.notifyAdmins(tx, {
      type: 'balance_unscheduled',
      bookingId,
      title: 'Balance not scheduled',
      message: `Booking ${booking.reference} has no departure date: its balance must be collected by hand.`,
    });
    return;
  }
  const total = toCents(booking.totalPrice);
  const paid = Math.min(amountPaidCents, total);
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
// E-mails

async function mailCustomer(tx: DbOrTx, ctx: Ctx, booking: BookingRow, kind: MailKind, key: string) {
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
async function recordPaid(tx: DbOrTx, ctx: Ctx, balance: repo.BalanceRow, intent: PaidIntent, via: string) {
  const booking = await findBooking(tx, balance.bookingId);
  if (!booking) return;
  const total = toCents(balance.totalPrice);
  const paid = toCents(balance.amountPaid) + intent.amountCents;
  await flights.savePayment(tx, {
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
  }
  await mailCustomer(tx, ctx, booking, 'balance_receipt', `balance-receipt:${booking.id}`);
}

/** Money taken for a balance already paid (the customer paid the link as the charge went through). */
async function recordSecondPayment(tx: DbOrTx, balance: repo.BalanceRow, booking: BookingRow, intent: PaidIntent) {
  await flights.savePayment(tx, {
    bookingId: booking.id,
    intentId: intent.id,
    gatewayCode: intent.gatewayCode,
    methodCode: intent.methodCode,
    amount: formatCents(intent.amountCents),
    totalPrice: balance.totalPrice,
    currency: balance.currency,
    status: 'Succeeded',
  });
  await flights.notifyAdmins(tx, {
    type: 'balance_paid_twice',
    bookingId: booking.id,
    title: 'Balance paid twice',
    message: `Booking ${booking.reference} paid its balance again through the pay link (${intent.id}); refund one payment.`,
    data: { payment_intent_id: intent.id, amount: intent.amountCents / 100, currency: balance.currency },
  });
}

async function statusBeforeOverdue(tx: DbOrTx, booking: BookingRow): Promise<string | null> {
  if (booking.status !== BALANCE_OVERDUE) return null;
  const moves = await flights.transitionsOf(tx, booking.id);
  return moves.filter((m) => m.toStatus === BALANCE_OVERDUE).at(-1)?.fromStatus ?? null;
}

type Failure = Exclude<OffSessionCharge, { outcome: 'succeeded' }>;

/** Charge attempt `attempt` failed: the next try, or overdue after the last; who is told. */
async function recordFailure(tx: DbOrTx, ctx: Ctx, balance: repo.BalanceRow, attempt: number, failure: Failure) {
  const booking = await findBooking(tx, balance.bookingId);
  if (!booking) return 'failed' as const;
  const now = ctx.clock.now();
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
      await flights.notifyAdmins(tx, {
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
  await flights.notifyAdmins(tx, {
    type: 'balance_overdue',
    bookingId: booking.id,
    title: 'Balance overdue',
    message: `The balance of booking ${booking.reference} (${amount}) is overdue: ${attempt} charges failed (last: ${failure.code}).`,
    data: lastError,
  });
  return 'overdue' as const;
}

// ---------------------------------------------------------------------------------------------
// The hourly collection

export interface CollectReport {
  reminded: number;
  paid: number;
  failed: number;
  overdue: number;
  /** the gateway could not be reached: tried again on the next run with the same key */
  errors: number;
}

/** Reminds and charges what is due by `asOf` (its UTC date; retries whose time has come). */
export async function collectBalances(
  ctx: Ctx,
  gateway: PaymentGateway,
  opts: { asOf: Date; out?: (line: string) => void },
): Promise<CollectReport> {
  const report: CollectReport = { reminded: 0, paid: 0, failed: 0, overdue: 0, errors: 0 };
  const today = opts.asOf.toISOString().slice(0, 10);
  report.reminded = await sendReminders(ctx, today);
  const seen = new Set<number>();
  for (;;) {
    const now = ctx.clock.now();
    const until = new Date(Math.max(now.getTime(), opts.asOf.getTime()));
    const claimed = await repo.claimDueBalances(ctx.database.db, {
      dueBy: today,
      now: until,
      leaseUntil: new Date(now.getTime() + CHARGE_LEASE_MS),
      limit: 20,
    });
    const fresh = claimed.filter((b) => !seen.has(b.bookingId));
    // handled in this run already (the gateway was unreachable): leave it to the next run
    for (const b of claimed) if (seen.has(b.bookingId)) await repo.releaseBalance(ctx.database.db, b.bookingId);
    if (!fresh.length) break;
    for (const balance of fresh) {
      seen.add(balance.bookingId);
      const result = await chargeBalance(ctx, gateway, balance);
      if (result !== 'skipped') report[result]++;
      opts.out?.(`booking ${balance.bookingId}: ${result}`);
    }
  }
  return report;
}

async function sendReminders(ctx: Ctx, today: string): Promise<number> {
  const db = ctx.database.db;
  let sent = 0;
  for (const b of await repo.balancesToRemind(db, today, addDays(today, BALANCE_REMINDER_DAYS))) {
    await db.transaction(async (tx) => {
      const locked = await repo.lockBalance(tx, b.bookingId);
      const booking = await findBooking(tx, b.bookingId);
      if (!locked || locked.reminderSentAt || !booking) return;
      await mailCustomer(tx, ctx, booking, 'balance_reminder', `balance-reminder:${b.bookingId}`);
      await repo.updateBalance(tx, b.bookingId, { reminderSentAt: ctx.clock.now() });
      sent++;
    });
  }
  return sent;
}

/** The customer paid through the link but its confirm never reached us: record that, charge nothing. */
async function paidThroughLink(ctx: Ctx, gateway: PaymentGateway, balance: repo.BalanceRow): Promise<boolean> {
  let intent: Awaited<ReturnType<PaymentGateway['retrieveIntent']>>;
  try {
    intent = await gateway.retrieveIntent(balance.linkIntentId!);
  } catch {
    return false;
  }
  if (intent.status !== 'Succeeded') return false;
  await recordLinkPayment(ctx, gateway, balance.bookingId, intent);
  return true;
}

/**
 * A succeeded pay-link intent: the balance payment, or, when the balance was paid meanwhile (an
 * off-session charge went through as the customer paid), a second payment the admins must refund.
 */
async function recordLinkPayment(
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
  await ctx.database.db.transaction(async (tx) => {
    const locked = await repo.lockBalance(tx, bookingId);
    const booking = await findBooking(tx, bookingId);
    if (!locked || !booking) return;
    if (locked.status !== BalanceStatus.paid) return recordPaid(tx, ctx, locked, paid, 'pay_link');
    if ((await flights.findPayment(tx, intent.id))?.status === 'Succeeded') return;
    await recordSecondPayment(tx, locked, booking, paid);
  });
}

type ChargeResult = 'paid' | 'failed' | 'overdue' | 'errors' | 'skipped';

/** One off-session charge of a leased balance, recorded once. */
async function chargeBalance(ctx: Ctx, gateway: PaymentGateway, balance: repo.BalanceRow): Promise<ChargeResult> {
  const db = ctx.database.db;
  const attempt = balance.attempts + 1;
  const key = balanceChargeKey(balance.bookingId, attempt);
  const booking = await findBooking(db, balance.bookingId);
  const remaining = toCents(balance.remainingPrice);
  if (!booking || remaining <= 0) {
    await repo.releaseBalance(db, balance.bookingId);
    return 'skipped';
  }
  if (balance.linkIntentId && (await paidThroughLink(ctx, gateway, balance))) return 'paid';
  const card = await savedCardFor(db, balance.bookingId);
  let charge: OffSessionCharge;
  if (!card || card.gatewayCode !== gateway.code) {
    charge = { outcome: 'declined', intentId: null, code: 'no_saved_card', message: 'No card was saved for this.' };
  } else {
    try {
      charge = await gateway.chargeOffSession({
        amountCents: remaining,
        currency: balance.currency,
        customerId: card.customerId,
        paymentMethodId: card.paymentMethodId,
        bookingReference: booking.reference,
        bookingId: booking.id,
        description: `Balance for booking ${booking.reference}`,
        idempotencyKey: key,
      });
    } catch (err) {
      // nothing is known about the charge: the next run repeats it with the same key
      ctx.log.warn({ err, bookingId: booking.id, key }, 'balance charge: gateway unreachable');
      await repo.releaseBalance(db, balance.bookingId);
      return 'errors';
    }
  }
  return db.transaction(async (tx) => {
    const locked = await repo.lockBalance(tx, balance.bookingId);
    if (!locked || locked.status === BalanceStatus.paid || locked.attempts >= attempt) return 'skipped';
    const recorded = await repo.recordAttempt(tx, {
      bookingId: balance.bookingId,
      attempt,
      idempotencyKey: key,
      intentId: charge.outcome === 'succeeded' ? charge.intent.id : charge.intentId,
      outcome: charge.outcome,
      code: charge.outcome === 'succeeded' ? null : charge.code.slice(0, 100),
      message: charge.outcome === 'succeeded' ? null : charge.message.slice(0, 500),
      amount: formatCents(remaining),
    });
    if (!recorded) return 'skipped';
    if (charge.outcome === 'succeeded') {
      await repo.updateBalance(tx, balance.bookingId, { attempts: attempt });
      await recordPaid(
        tx,
        ctx,
        locked,
        {
          id: charge.intent.id,
          amountCents: charge.intent.amountCents,
          gatewayCode: gateway.code,
          methodCode: gateway.methodCode,
        },
        'off_session',
      );
      return 'paid';
    }
    return recordFailure(tx, ctx, locked, attempt, charge);
  });
}

// ---------------------------------------------------------------------------------------------
// Paying through the signed link (after a failed charge, or early)

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
  const intent = await gateway.createIntent({
    amountCents: remaining,
    currency: balance.currency,
    bookingReference: booking.reference,
    bookingId: booking.id,
    description: `Balance for booking ${booking.reference}`,
    // the same balance asked for again makes the same intent
    idempotencyKey: `balance-${booking.id}-link-${balance.attempts}-${remaining}`,
  });
  await flights.savePayment(ctx.database.db, {
    bookingId: booking.id,
    intentId: intent.id,
    gatewayCode: gateway.code,
    methodCode: gateway.methodCode,
    amount: formatCents(remaining),
    totalPrice: balance.totalPrice,
    currency: balance.currency,
    status: intent.status,
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

/** Records a succeeded pay-link intent as the balance payment (a second confirm changes nothing). */
export async function confirmBalancePayment(
  ctx: Ctx,
  gateway: PaymentGateway,
  market: string,
  reference: string,
  intentId: string,
  expires?: string,
  sig?: string,
) {
  const { booking } = await linkedBooking(ctx, market, reference, expires, sig);
  const db = ctx.database.db;
  const payment = await flights.findPayment(db, intentId);
  if (!payment || payment.bookingId !== booking.id) {
    throw new AppError(422, 'payment_intent_mismatch', 'The payment intent does not belong to this booking.');
  }
  const intent = await gateway.retrieveIntent(intentId);
  if (intent.status !== 'Succeeded') {
    await flights.setPaymentStatus(db, intentId, intent.status);
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
