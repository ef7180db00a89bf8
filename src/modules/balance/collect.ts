// The hourly balance collection (`balance.collect`): reminds the customer 7 days before the due
// date and charges the saved card off-session on it. A decline (or a bank asking for the customer)
// tells the admins and mails a signed pay link; the charge is tried again 24 h and 72 h after the
// first failure, then the booking is `balance_overdue`. Attempt n always uses the idempotency key
// `balance-{bookingId}-n`, and its outcome is recorded once, so a run killed between the charge and
// its record charges nothing more when the next run repeats it.
import { addDays } from '../../platform/clock.js';
import { formatCents, toCents } from '../../platform/money.js';
import { findBooking } from '../bookings/service.js';
import type { OffSessionCharge, PaymentGateway } from '../payments/gateway.js';
import { type RefundRow, sendRefunds } from '../payments/refunds.js';
import * as repo from './repository.js';
import { BALANCE_REMINDER_DAYS, BalanceStatus, balanceChargeKey } from './rules.js';
import {
  type Ctx,
  mailCustomer,
  recordFailure,
  recordLinkPayment,
  recordPaid,
  recordProcessing,
  recordSecondPayment,
  savedCardFor,
} from './service.js';

/** How long a collecting run holds a balance it is charging (longer than the task's time-out). */
const CHARGE_LEASE_MS = 15 * 60_000;

export interface CollectReport {
  reminded: number;
  paid: number;
  /** debits the gateway is processing (finished by their webhook or the reconciliation) */
  processing: number;
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
  const report: CollectReport = { reminded: 0, paid: 0, processing: 0, failed: 0, overdue: 0, errors: 0 };
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

type ChargeResult = 'paid' | 'processing' | 'failed' | 'overdue' | 'errors' | 'skipped';

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
  let refunds: RefundRow[] = [];
  const result = await db.transaction(async (tx): Promise<ChargeResult> => {
    const locked = await repo.lockBalance(tx, balance.bookingId);
    if (locked?.status === BalanceStatus.cancelled && charge.outcome === 'succeeded') {
      // the booking was cancelled while this charge was on its way: the money goes back
      const intent = { id: charge.intent.id, amountCents: charge.intent.amountCents, gatewayCode: gateway.code };
      refunds = await recordSecondPayment(tx, locked, booking, { ...intent, methodCode: gateway.methodCode }, ctx);
      return 'skipped';
    }
    if (!locked || locked.status !== balance.status || locked.attempts >= attempt) return 'skipped';
    const recorded = await repo.recordAttempt(tx, {
      bookingId: balance.bookingId,
      attempt,
      idempotencyKey: key,
      intentId: 'intent' in charge ? charge.intent.id : charge.intentId,
      outcome: charge.outcome,
      code: 'code' in charge ? charge.code.slice(0, 100) : null,
      message: 'message' in charge ? charge.message.slice(0, 500) : null,
      amount: formatCents(remaining),
    });
    if (!recorded) return 'skipped';
    if (charge.outcome === 'processing') {
      await recordProcessing(tx, ctx, locked, attempt, {
        id: charge.intent.id,
        amountCents: charge.intent.amountCents,
        gatewayCode: gateway.code,
        methodCode: gateway.methodCode,
      });
      return 'processing';
    }
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
  if (refunds.length) await sendRefunds(ctx, gateway, refunds);
  return result;
}
