// Payments that finish without the browser: Stripe's webhook events, the reconciliation of
// intents nobody finished, and the release of expired seat holds. All of them end in the one
// finalization of bookings/finalization.ts, or in a hold released once the gateway says the intent
// is dead (so a paid booking always has its seats).
import type Stripe from 'stripe';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { type FinalizationResult, finalizeBooking, type PaymentFacts } from '../bookings/finalization.js';
import { CheckoutSessions } from '../flights/checkout-session.js';
import { notifyAdmins } from '../notifications/service.js';
import { finishBalancePayment, openBalancePayments } from './balance-payments.js';
import { type PaymentGateway, type PaymentIntent, paymentGatewayFor } from './gateway.js';
import { reconcileRefunds, refundEvent, sendRefunds } from './refunds.js';
import * as repo from './repository.js';
import { type Quote, quoteMismatch } from './rules.js';

export class PaymentSettlement {
  readonly gateway: PaymentGateway | undefined;

  constructor(
    private readonly ctx: AppContext,
    gateway?: PaymentGateway,
  ) {
    this.gateway = gateway ?? paymentGatewayFor(ctx.config, ctx.database);
  }

  private get db() {
    return this.ctx.database.db;
  }

  requireGateway(): PaymentGateway {
    if (!this.gateway) throw new AppError(503, 'payment_unavailable', 'Payments are not configured.');
    return this.gateway;
  }

  holdUntil(): Date {
    return new Date(this.ctx.clock.now().getTime() + this.ctx.config.checkout.holdMinutes * 60_000);
  }

  /**
   * A verified Stripe event. Each event id is processed once; unknown events and intents are
   * logged and acknowledged. A failure forgets the event so Stripe's redelivery tries again.
   */
  async handleEvent(event: Stripe.Event): Promise<{ handled: boolean; duplicate: boolean }> {
    const object = event.data?.object as { id?: string; object?: string; payment_intent?: unknown } | undefined;
    const intentId =
      object?.object === 'payment_intent' && typeof object.id === 'string'
        ? object.id
        : typeof object?.payment_intent === 'string'
          ? object.payment_intent
          : null;
    if (!(await repo.recordEvent(this.db, { id: event.id, type: event.type, intentId }))) {
      return { handled: false, duplicate: true };
    }
    try {
      const handled = event.type.startsWith('payment_intent.')
        ? await this.applyEvent(event, intentId)
        : await this.applyRefundEvent(event);
      if (!handled) this.ctx.log.info({ event: event.id, type: event.type, intentId }, 'stripe webhook: ignored');
      return { handled, duplicate: false };
    } catch (err) {
      await repo.forgetEvent(this.db, event.id);
      throw err;
    }
  }

  /** refund.updated, refund.failed, charge.refunded: the refunds as the gateway reports them. */
  private async applyRefundEvent(event: Stripe.Event): Promise<boolean> {
    if (!['refund.created', 'refund.updated', 'refund.failed', 'charge.refunded'].includes(event.type)) return false;
    return refundEvent(this.ctx, this.requireGateway(), event.data.object as { object?: string; id?: string });
  }

  /**
   * A payment intent event. The body only says which intent: its status, amount and currency are
   * read from the gateway, and a deposit is finalized only when they are what the quote froze.
   */
  private async applyEvent(event: Stripe.Event, intentId: string | null): Promise<boolean> {
    if (!intentId) return false;
    const payment = await repo.findPayment(this.db, intentId);
    if (!payment) return false;
    if (!payment.quote) {
      // a balance payment (pay link, or an off-session debit that was processing)
      if (!['payment_intent.succeeded', 'payment_intent.payment_failed'].includes(event.type)) return false;
      const intent = await this.requireGateway().retrieveIntent(intentId);
      return (await finishBalancePayment(this.ctx, this.requireGateway(), payment, intent)) !== 'open';
    }
    switch (event.type) {
      case 'payment_intent.succeeded': {
        const intent = await this.requireGateway().retrieveIntent(intentId);
        await repo.setStatus(this.db, intentId, intent.status);
        if (intent.status !== 'Succeeded') return true;
        try {
          await this.finalizePaid(payment, intent, 'webhook');
        } catch (err) {
          // recorded already (a mismatch, a duplicate refunded before): nothing for Stripe to resend
          if (err instanceof AppError && ['payment_amount_mismatch', 'booking_already_paid'].includes(err.code)) {
            return true;
          }
          throw err;
        }
        return true;
      }
      case 'payment_intent.payment_failed':
        await repo.setStatus(this.db, intentId, 'Failed');
        return true;
      case 'payment_intent.processing':
        // the money is on its way: the seats stay held while it is
        await repo.setStatus(this.db, intentId, 'Processing');
        await repo.extendHold(this.db, payment.bookingId, this.holdUntil());
        return true;
      default:
        return false;
    }
  }

  /** A paid intent whose amount or currency is not its quote's: the admins are told, once per intent. */
  private async recordMismatch(payment: repo.PaymentRow, intent: PaymentIntent, mismatch: string): Promise<void> {
    await notifyAdmins(this.db, {
      type: 'payment_mismatch',
      bookingId: payment.bookingId,
      title: 'Payment does not match its quote',
      message: `Intent ${intent.id} of booking ${payment.bookingId}: ${mismatch}. Nothing was finalized; check the payment at the gateway.`,
      data: {
        payment_intent_id: intent.id,
        gateway_amount: intent.amountCents / 100,
        gateway_currency: intent.currency,
        gateway_status: intent.status,
        quote_amount: payment.amount,
        quote_currency: payment.currency,
      },
    });
  }

  /**
   * Finalizes a deposit the gateway reports Succeeded, when it paid what its quote froze (amount
   * and currency); a mismatch is recorded for the admins and finalizes nothing. After the
   * finalization the checkout session is ended and a duplicate payment is refunded.
   */
  async finalizePaid(
    payment: repo.PaymentRow,
    intent: PaymentIntent,
    source: PaymentFacts['source'],
  ): Promise<FinalizationResult> {
    const quote = payment.quote as unknown as Quote;
    const mismatch = quoteMismatch(intent, quote);
    if (mismatch) {
      await this.recordMismatch(payment, intent, mismatch);
      this.ctx.log.error({ intentId: intent.id, mismatch }, 'payment does not match its quote: not finalized');
      throw new AppError(
        409,
        'payment_amount_mismatch',
        "The payment does not match the booking's quote; the booking team has been told.",
      );
    }
    const result = await finalizeBooking(this.ctx, {
      intentId: payment.intentId,
      amountCents: intent.amountCents,
      paymentMethodId: intent.paymentMethodId,
      source,
    });
    if (payment.sessionId) await CheckoutSessions.of(this.ctx).endById(payment.sessionId);
    if (result.refunds.length) await sendRefunds(this.ctx, this.requireGateway(), result.refunds);
    return result;
  }

  /**
   * Brings one open payment in line with the gateway: succeeded -> finalized; processing -> its
   * hold extended; with `cancelIfUnpaid` (its hold expired) anything unpaid is canceled at the
   * gateway; canceled -> its hold released. Returns what happened.
   */
  async settle(
    payment: repo.PaymentRow,
    cancelIfUnpaid: boolean,
  ): Promise<'finalized' | 'processing' | 'released' | 'open'> {
    const gateway = this.requireGateway();
    let intent = await gateway.retrieveIntent(payment.intentId);
    if (cancelIfUnpaid && !['Succeeded', 'Processing', 'Canceled'].includes(intent.status)) {
      intent = await gateway.cancelIntent(payment.intentId);
    }
    await repo.setStatus(this.db, payment.intentId, intent.status);
    if (intent.status === 'Succeeded') {
      try {
        await this.finalizePaid(payment, intent, 'reconciliation');
      } catch (err) {
        if (err instanceof AppError && err.code === 'payment_amount_mismatch') return 'open';
        throw err;
      }
      return 'finalized';
    }
    if (intent.status === 'Processing') {
      await repo.extendHold(this.db, payment.bookingId, this.holdUntil());
      return 'processing';
    }
    if (intent.status === 'Canceled') {
      await repo.releaseHold(this.db, payment.bookingId, payment.intentId);
      return 'released';
    }
    return 'open';
  }

  /** Payments neither finalized nor failed `minutes` after their intent: asked of the gateway. */
  async reconcile(now: Date, minutes = 15): Promise<Record<string, number>> {
    const counts: Record<string, number> = {
      finalized: 0,
      processing: 0,
      released: 0,
      open: 0,
      balance_paid: 0,
      balance_failed: 0,
      errors: 0,
    };
    for (const p of await repo.stalePayments(this.db, new Date(now.getTime() - minutes * 60_000))) {
      try {
        const hold = await repo.holdOf(this.db, p.bookingId);
        counts[await this.settle(p, !!hold && hold.intentId === p.intentId && hold.expiresAt < now)]++;
      } catch (err) {
        counts.errors++;
        this.ctx.log.warn({ err, intentId: p.intentId }, 'payment reconciliation failed for one intent');
      }
    }
    // balance payments nobody finished (a pay link whose page never confirmed, a debit processing)
    const gateway = this.requireGateway();
    for (const p of await openBalancePayments(this.db, new Date(now.getTime() - minutes * 60_000))) {
      try {
        const outcome = await finishBalancePayment(this.ctx, gateway, p, await gateway.retrieveIntent(p.intentId));
        counts[outcome === 'paid' ? 'balance_paid' : outcome === 'failed' ? 'balance_failed' : 'open']++;
      } catch (err) {
        counts.errors++;
        this.ctx.log.warn({ err, intentId: p.intentId }, 'balance payment reconciliation failed for one intent');
      }
    }
    const refunds = await reconcileRefunds(this.ctx, gateway, now, minutes);
    counts.errors += refunds.refund_errors;
    return { ...counts, refunds_sent: refunds.refunds_sent, refunds_checked: refunds.refunds_checked };
  }

  /** Expired holds: their intents are settled (canceled unless paid) and the seats released. */
  async releaseExpiredHolds(now: Date): Promise<Record<string, number>> {
    const counts: Record<string, number> = { finalized: 0, processing: 0, released: 0, open: 0, errors: 0 };
    for (const h of await repo.expiredHolds(this.db, now)) {
      try {
        const payment = h.intentId ? await repo.findPayment(this.db, h.intentId) : null;
        if (!payment) {
          // no intent was made (the gateway failed): nothing can be paid against it
          if (await repo.releaseHold(this.db, h.bookingId, null)) counts.released++;
          continue;
        }
        counts[await this.settle(payment, true)]++;
      } catch (err) {
        counts.errors++;
        this.ctx.log.warn({ err, bookingId: h.bookingId }, 'seat hold release failed for one booking');
      }
    }
    return counts;
  }
}

const byContext = new WeakMap<AppContext, PaymentSettlement>();

/** One settlement (one gateway) per app context: routes and tasks share it. */
export function paymentSettlementOf(ctx: AppContext): PaymentSettlement {
  let s = byContext.get(ctx);
  if (!s) {
    s = new PaymentSettlement(ctx);
    byContext.set(ctx, s);
  }
  return s;
}
