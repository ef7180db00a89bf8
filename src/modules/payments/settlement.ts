// Payments that finish without the browser: Stripe's webhook events, the reconciliation of
// intents nobody finished, and the release of expired seat holds. All of them end in the one
// finalization of bookings/finalization.ts, or in a hold released once the gateway says the intent
// is dead (so a paid booking always has its seats).
import type Stripe from 'stripe';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { finalizeBooking } from '../bookings/finalization.js';
import { type PaymentGateway, paymentGatewayFor } from './gateway.js';
import * as repo from './repository.js';

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
    const object = event.data?.object as { id?: string; object?: string } | undefined;
    const intentId = object?.object === 'payment_intent' && typeof object.id === 'string' ? object.id : null;
    if (!(await repo.recordEvent(this.db, { id: event.id, type: event.type, intentId }))) {
      return { handled: false, duplicate: true };
    }
    try {
      const handled = await this.applyEvent(event, intentId);
      if (!handled) this.ctx.log.info({ event: event.id, type: event.type, intentId }, 'stripe webhook: ignored');
      return { handled, duplicate: false };
    } catch (err) {
      await repo.forgetEvent(this.db, event.id);
      throw err;
    }
  }

  private async applyEvent(event: Stripe.Event, intentId: string | null): Promise<boolean> {
    if (!intentId) return false;
    const payment = await repo.findPayment(this.db, intentId);
    if (!payment?.quote) return false;
    const pi = event.data.object as Stripe.PaymentIntent;
    switch (event.type) {
      case 'payment_intent.succeeded': {
        await finalizeBooking(this.ctx, {
          intentId,
          amountCents: pi.amount_received || pi.amount,
          paymentMethodId: typeof pi.payment_method === 'string' ? pi.payment_method : (pi.payment_method?.id ?? null),
          source: 'webhook',
        });
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
      await finalizeBooking(this.ctx, {
        intentId: payment.intentId,
        amountCents: intent.amountCents,
        paymentMethodId: intent.paymentMethodId,
        source: 'reconciliation',
      });
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
    const counts: Record<string, number> = { finalized: 0, processing: 0, released: 0, open: 0, errors: 0 };
    for (const p of await repo.stalePayments(this.db, new Date(now.getTime() - minutes * 60_000))) {
      try {
        const hold = await repo.holdOf(this.db, p.bookingId);
        counts[await this.settle(p, !!hold && hold.intentId === p.intentId && hold.expiresAt < now)]++;
      } catch (err) {
        counts.errors++;
        this.ctx.log.warn({ err, intentId: p.intentId }, 'payment reconciliation failed for one intent');
      }
    }
    return counts;
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
