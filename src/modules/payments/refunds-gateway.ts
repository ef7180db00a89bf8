// The refund side of the payment gateway port: Stripe's Refunds API (refunds.create against a
// PaymentIntent, with an Idempotency-Key; retrieve) and the sandbox gateway's own refunds, which
// succeed at once so the demo can drive a cancellation to the end. Amounts cross in the currency's
// minor unit (ISO 4217 exponent).
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Database } from '../../db/database.js';
import { sandboxPaymentIntents, sandboxRefunds } from '../../db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { centsToMinorUnits, minorUnitsToCents } from '../../platform/minor-units.js';

/** Stripe's refund statuses. */
export type RefundStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';

export interface RefundRequest {
  intentId: string;
  amountCents: number;
  currency: string;
  /** refund-{bookingId}-{n}: a retried request makes one refund */
  idempotencyKey: string;
  /** Stripe's reason: `duplicate` for a second payment, `requested_by_customer` otherwise */
  reason: 'duplicate' | 'requested_by_customer';
  metadata: Record<string, string>;
}

export interface GatewayRefund {
  id: string;
  status: RefundStatus;
  amountCents: number;
  currency: string;
  intentId: string | null;
  failureReason: string | null;
}

function refundOf(r: Stripe.Refund): GatewayRefund {
  const pi = r.payment_intent;
  return {
    id: r.id,
    status: (r.status ?? 'pending') as RefundStatus,
    amountCents: minorUnitsToCents(r.amount, r.currency),
    currency: r.currency,
    intentId: typeof pi === 'string' ? pi : (pi?.id ?? null),
    failureReason: r.failure_reason ?? null,
  };
}

function refundError(err: unknown): AppError {
  const e = err as { statusCode?: number; message?: string; code?: string };
  if (e?.statusCode === 404) return new AppError(404, 'refund_not_found', 'Refund not found at the gateway.');
  if (e?.statusCode === 400) {
    // e.g. charge_already_refunded, amount_too_large: the gateway will not make this refund
    return new AppError(422, 'refund_refused', `The payment processor refused the refund: ${e.message ?? e.code}`);
  }
  return new AppError(502, 'payment_gateway_error', 'The payment processor could not be reached. Please try again.');
}

export class StripeRefunds {
  constructor(private readonly stripe: Stripe) {}

  async create(req: RefundRequest): Promise<GatewayRefund> {
    try {
      return refundOf(
        await this.stripe.refunds.create(
          {
            payment_intent: req.intentId,
            amount: centsToMinorUnits(req.amountCents, req.currency),
            reason: req.reason,
            metadata: req.metadata,
          },
          { idempotencyKey: req.idempotencyKey },
        ),
      );
    } catch (err) {
      throw refundError(err);
    }
  }

  async retrieve(id: string): Promise<GatewayRefund> {
    try {
      return refundOf(await this.stripe.refunds.retrieve(id));
    } catch (err) {
      throw refundError(err);
    }
  }
}

/** Refunds of sandbox intents: succeed at once, never more than the intent's amount. */
export class SandboxRefunds {
  constructor(private readonly database: Database) {}

  private static of(row: typeof sandboxRefunds.$inferSelect): GatewayRefund {
    return {
      id: row.id,
      status: row.status as RefundStatus,
      amountCents: minorUnitsToCents(row.amount, row.currency),
      currency: row.currency,
      intentId: row.intentId,
      failureReason: null,
    };
  }

  async create(req: RefundRequest): Promise<GatewayRefund> {
    const db = this.database.db;
    const [same] = await db.select().from(sandboxRefunds).where(eq(sandboxRefunds.idempotencyKey, req.idempotencyKey));
    if (same) return SandboxRefunds.of(same);
    const [intent] = await db.select().from(sandboxPaymentIntents).where(eq(sandboxPaymentIntents.id, req.intentId));
    if (intent?.status !== 'succeeded') {
      throw new AppError(
        422,
        'refund_refused',
        `The payment processor refused the refund: ${req.intentId} is not paid.`,
      );
    }
    const amount = centsToMinorUnits(req.amountCents, req.currency);
    const [done] = await db
      .select({ n: sql<number>`coalesce(sum(${sandboxRefunds.amount}), 0)::int` })
      .from(sandboxRefunds)
      .where(and(eq(sandboxRefunds.intentId, req.intentId), eq(sandboxRefunds.status, 'succeeded')));
    if (amount > intent.amount - Number(done?.n ?? 0)) {
      throw new AppError(422, 'refund_refused', 'The payment processor refused the refund: amount_too_large.');
    }
    const id = `re_sandbox_${createHash('sha256').update(req.idempotencyKey).digest('hex').slice(0, 24)}`;
    await db
      .insert(sandboxRefunds)
      .values({
        id,
        idempotencyKey: req.idempotencyKey,
        intentId: req.intentId,
        amount,
        currency: intent.currency,
        status: 'succeeded',
      })
      .onConflictDoNothing();
    return this.retrieve(id);
  }

  async retrieve(id: string): Promise<GatewayRefund> {
    const [row] = await this.database.db.select().from(sandboxRefunds).where(eq(sandboxRefunds.id, id));
    if (!row) throw new AppError(404, 'refund_not_found', 'Refund not found at the gateway.');
    return SandboxRefunds.of(row);
  }
}
