// Refunds: money given back to the card of a booking's payments. A refund is recorded `pending`
// (inside the caller's transaction, with its key refund-{bookingId}-{n}) before the gateway is
// called, so nothing is lost when the call or the process dies: the reconciliation sends what was
// never sent and asks the gateway about what is still pending after 15 minutes. The gateway's
// answer, its webhooks (refund.updated, refund.failed, charge.refunded) and the reconciliation all
// end in applyGatewayRefund, which reads the refund from the gateway, never from an event body.
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { AppError } from '../../platform/errors.js';
import { roundToMinorUnit } from '../../platform/minor-units.js';
import { formatCents, toCents } from '../../platform/money.js';
import { insertAudit } from '../admin/api.js';
import { lockBooking } from '../bookings/service.js';
import * as notifications from '../notifications/service.js';
import type { PaymentGateway } from './gateway.js';
import { allocateRefund, isLiveRefund, type RefundablePayment, refundKey } from './refund-rules.js';
import type { GatewayRefund } from './refunds-gateway.js';
import * as repo from './refunds-repository.js';

export type RefundRow = repo.RefundRow;
export type RefundKind = 'duplicate_payment' | 'cancellation' | 'goodwill' | 'amendment';

type Ctx = Pick<AppContext, 'database' | 'log' | 'clock'>;

export interface RefundOrder {
  bookingId: number;
  amountCents: number;
  kind: RefundKind;
  reason: string | null;
  requestedBy: string;
  /** refund this payment only (a duplicate payment gives back its own money) */
  paymentId?: number;
  /** the clock's time: the reconciliation measures a refund's age with the same clock */
  at: Date;
}

/** What each of the booking's succeeded payments paid and has given back so far, oldest first. */
export async function refundablePayments(db: DbOrTx, bookingId: number): Promise<RefundablePayment[]> {
  const refunds = await repo.refundsOf(db, bookingId);
  return (await repo.paidPaymentsOf(db, bookingId)).map((p) => ({
    paymentId: p.id,
    intentId: p.intentId,
    paidCents: toCents(p.amount),
    refundedCents: refunds
      .filter((r) => r.paymentId === p.id && isLiveRefund(r.status))
      .reduce((sum, r) => sum + toCents(r.amount), 0),
  }));
}

/**
 * Records the refund rows of an order (one per payment it draws on), `pending`, in `tx`; the
 * caller holds the booking's row lock and sends them after the commit (sendRefunds).
 */
export async function recordRefunds(tx: DbOrTx, order: RefundOrder): Promise<RefundRow[]> {
  const payments = (await refundablePayments(tx, order.bookingId)).filter(
    (p) => order.paymentId === undefined || p.paymentId === order.paymentId,
  );
  const shares = allocateRefund(payments, order.amountCents);
  const currency = (await repo.paymentById(tx, shares[0].paymentId))!.currency;
  const rows: RefundRow[] = [];
  for (const share of shares) {
    const n = await repo.nextSequence(tx, order.bookingId);
    rows.push(
      await repo.insertRefund(tx, {
        bookingId: order.bookingId,
        paymentId: share.paymentId,
        sequence: n,
        idempotencyKey: refundKey(order.bookingId, n),
        amount: formatCents(share.amountCents),
        currency,
        status: 'pending',
        kind: order.kind,
        reason: order.reason?.slice(0, 500) ?? null,
        requestedBy: order.requestedBy.slice(0, 255),
        createdAt: order.at,
        updatedAt: order.at,
      }),
    );
  }
  return rows;
}

/** Sends recorded refunds to the gateway (after their transaction committed); the rows as they end. */
export async function sendRefunds(ctx: Ctx, gateway: PaymentGateway, rows: RefundRow[]): Promise<RefundRow[]> {
  const out: RefundRow[] = [];
  for (const row of rows) out.push(await sendRefund(ctx, gateway, row));
  return out;
}

async function sendRefund(ctx: Ctx, gateway: PaymentGateway, row: RefundRow): Promise<RefundRow> {
  const db = ctx.database.db;
  if (row.gatewayRefundId || row.status !== 'pending') return row;
  const payment = await repo.paymentById(db, row.paymentId);
  if (!payment) return row;
  let refund: GatewayRefund;
  try {
    refund = await gateway.refund({
      intentId: payment.intentId,
      amountCents: toCents(row.amount),
      currency: row.currency,
      idempotencyKey: row.idempotencyKey,
      reason: row.kind === 'duplicate_payment' ? 'duplicate' : 'requested_by_customer',
      metadata: { booking_id: String(row.bookingId), refund_id: String(row.id), kind: row.kind },
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'refund_refused') {
      await finishFailed(db, row, 'refused', err.message);
      return (await repo.findRefund(db, row.id))!;
    }
    // unknown outcome: the reconciliation sends it again with the same key
    ctx.log.warn({ err, refundId: row.id, key: row.idempotencyKey }, 'refund: gateway unreachable');
    return row;
  }
  return applyGatewayRefund(ctx, row, refund);
}

/** Moves a refund row to what the gateway says about it; a failure is told to the admins once. */
export async function applyGatewayRefund(ctx: Ctx, row: RefundRow, refund: GatewayRefund): Promise<RefundRow> {
  const db = ctx.database.db;
  return db.transaction(async (tx) => {
    const current = (await repo.findRefund(tx, row.id))!;
    if (refund.status === 'failed' || refund.status === 'canceled') {
      if (current.status !== refund.status) {
        await repo.updateRefund(tx, row.id, { gatewayRefundId: refund.id, status: refund.status });
        await finishFailed(tx, { ...current, gatewayRefundId: refund.id }, refund.status, refund.failureReason);
      }
    } else if (current.status !== refund.status || current.gatewayRefundId !== refund.id) {
      // only a change moves updated_at: the console counts a succeeded refund on that day
      await repo.updateRefund(tx, row.id, { gatewayRefundId: refund.id, status: refund.status });
    }
    return (await repo.findRefund(tx, row.id))!;
  });
}

async function finishFailed(db: DbOrTx, row: RefundRow, status: string, reason: string | null) {
  await repo.updateRefund(db, row.id, {
    status: status === 'canceled' ? 'canceled' : 'failed',
    failureReason: reason?.slice(0, 100) ?? null,
  });
  await notifications.notifyAdmins(db, {
    type: 'refund_failed',
    bookingId: row.bookingId,
    title: 'Refund failed',
    message: `Refund ${row.idempotencyKey} (${row.amount} ${row.currency}) ${status === 'canceled' ? 'was canceled' : 'failed'}${reason ? `: ${reason}` : ''}. Refund the customer again or by other means.`,
    data: { refund_id: row.id, gateway_refund_id: row.gatewayRefundId, failure_reason: reason },
  });
}

/**
 * A refund event of the webhook (refund.updated, refund.failed) or a charge.refunded: the refunds
 * it concerns, as the gateway reports them now. False when none is ours.
 */
export async function refundEvent(
  ctx: Ctx,
  gateway: PaymentGateway,
  object: { object?: string; id?: string; payment_intent?: unknown },
): Promise<boolean> {
  const db = ctx.database.db;
  if (object.object === 'refund' && object.id) {
    const row = await repo.findRefundByGatewayId(db, object.id);
    if (!row) return false;
    await applyGatewayRefund(ctx, row, await gateway.retrieveRefund(object.id));
    return true;
  }
  const intentId = typeof object.payment_intent === 'string' ? object.payment_intent : null;
  if (object.object !== 'charge' || !intentId) return false;
  const payment = await repo.paymentByIntent(db, intentId);
  if (!payment) return false;
  const rows = (await repo.refundsOf(db, payment.bookingId)).filter(
    (r) => r.paymentId === payment.id && r.gatewayRefundId && ['pending', 'requires_action'].includes(r.status),
  );
  for (const r of rows) await applyGatewayRefund(ctx, r, await gateway.retrieveRefund(r.gatewayRefundId!));
  return rows.length > 0;
}

/** Refunds unfinished after `minutes`: sent again when they never reached the gateway, else asked about. */
export async function reconcileRefunds(ctx: Ctx, gateway: PaymentGateway, now: Date, minutes = 15) {
  const counts = { refunds_sent: 0, refunds_checked: 0, refund_errors: 0 };
  for (const row of await repo.unfinishedRefunds(ctx.database.db, new Date(now.getTime() - minutes * 60_000))) {
    try {
      if (!row.gatewayRefundId) {
        await sendRefund(ctx, gateway, row);
        counts.refunds_sent++;
      } else {
        await applyGatewayRefund(ctx, row, await gateway.retrieveRefund(row.gatewayRefundId));
        counts.refunds_checked++;
      }
    } catch (err) {
      counts.refund_errors++;
      ctx.log.warn({ err, refundId: row.id }, 'refund reconciliation failed for one refund');
    }
  }
  return counts;
}

/** The refunds of a booking as the booking view and the API show them. */
export async function refundsView(db: DbOrTx, bookingId: number) {
  return (await repo.refundsOf(db, bookingId)).map((r) => ({
    id: r.id,
    amount: Number(formatCents(toCents(r.amount))),
    currency: r.currency,
    status: r.status,
    kind: r.kind,
    reason: r.reason,
    idempotency_key: r.idempotencyKey,
    gateway_refund_id: r.gatewayRefundId,
    failure_reason: r.failureReason,
    requested_by: r.requestedBy,
    created_at: r.createdAt.toISOString(),
  }));
}

/** Paid, refunded (live refunds) and net, in cents. */
export async function moneyOf(db: DbOrTx, bookingId: number) {
  const payments = await refundablePayments(db, bookingId);
  const paid = payments.reduce((s, p) => s + p.paidCents, 0);
  const refunded = payments.reduce((s, p) => s + p.refundedCents, 0);
  return { paidCents: paid, refundedCents: refunded, netCents: paid - refunded };
}

/**
 * A refund without a cancellation (a goodwill gesture, a removed extra): never more than what was
 * paid less what was refunded (422 refund_exceeds_paid); recorded, audited, told to the admins,
 * then sent to the gateway.
 */
export async function refundBooking(
  ctx: AppContext,
  gateway: PaymentGateway | undefined,
  input: {
    bookingId: number;
    amountCents: number;
    reason: string;
    actor: { email: string; userId?: number | null; ip?: string | null };
  },
) {
  if (!gateway) throw new AppError(503, 'payment_unavailable', 'Payments are not configured.');
  const db = ctx.database.db;
  const rows = await db.transaction(async (tx) => {
    const booking = await lockBooking(tx, input.bookingId);
    if (!booking) throw new AppError(404, 'booking_not_found', `Booking ${input.bookingId} not found.`);
    if (roundToMinorUnit(input.amountCents, booking.currency) !== input.amountCents) {
      throw new AppError(
        422,
        'refund_amount_invalid',
        `${booking.currency} is refunded in whole units of its currency.`,
      );
    }
    const recorded = await recordRefunds(tx, {
      bookingId: booking.id,
      amountCents: input.amountCents,
      kind: 'goodwill',
      reason: input.reason,
      requestedBy: input.actor.email,
      at: ctx.clock.now(),
    });
    const details = {
      amount: input.amountCents / 100,
      currency: booking.currency,
      reason: input.reason,
      refund_ids: recorded.map((r) => r.id),
    };
    await notifications.notifyAdmins(tx, {
      type: 'refund_issued',
      bookingId: booking.id,
      title: 'Refund issued',
      message: `${input.actor.email} refunded ${formatCents(input.amountCents)} ${booking.currency} on booking ${booking.reference}: ${input.reason}`,
      data: details,
    });
    await insertAudit(tx, {
      userId: input.actor.userId ?? null,
      actor: input.actor.email,
      action: 'booking.refund',
      resourceType: 'booking',
      resourceId: booking.reference,
      details,
      ip: input.actor.ip ?? null,
      createdAt: ctx.clock.now(),
    });
    return recorded;
  });
  const sent = await sendRefunds(ctx, gateway, rows);
  const status = sent.some((r) => r.status === 'failed')
    ? 'failed'
    : sent.every((r) => r.status === 'succeeded')
      ? 'succeeded'
      : 'pending';
  return {
    id: sent[0].id,
    amount: input.amountCents / 100,
    currency: sent[0].currency,
    status,
    refunds: sent.map((r) => ({
      id: r.id,
      amount: toCents(r.amount) / 100,
      status: r.status,
      idempotency_key: r.idempotencyKey,
    })),
  };
}
