// Pure rules of refunds: which payments give the money back (deposit first, then balance
// payments, each never more than what it paid less what it gave back already), and the key of a
// refund.
import { AppError } from '../../platform/errors.js';

export interface RefundablePayment {
  paymentId: number;
  intentId: string;
  paidCents: number;
  /** refunds of this payment not failed or canceled */
  refundedCents: number;
}

export interface RefundShare {
  paymentId: number;
  intentId: string;
  amountCents: number;
}

/** What can still be refunded across the payments. */
export function refundableCents(payments: RefundablePayment[]): number {
  return payments.reduce((sum, p) => sum + Math.max(0, p.paidCents - p.refundedCents), 0);
}

/**
 * Splits a refund over the payments in their order (the deposit first): each gives what it has
 * left until the amount is covered. More than what is left: 422 refund_exceeds_paid.
 */
export function allocateRefund(payments: RefundablePayment[], amountCents: number): RefundShare[] {
  if (!Number.isInteger(amountCents) || amountCents <= 0) {
    throw new AppError(422, 'refund_amount_invalid', 'A refund must be a positive amount.');
  }
  const left = refundableCents(payments);
  if (amountCents > left) {
    throw new AppError(
      422,
      'refund_exceeds_paid',
      `The refund (${(amountCents / 100).toFixed(2)}) is more than what was paid and not refunded yet (${(left / 100).toFixed(2)}).`,
      undefined,
      undefined,
      { refundable: left / 100 },
    );
  }
  const shares: RefundShare[] = [];
  let rest = amountCents;
  for (const p of payments) {
    if (rest === 0) break;
    const share = Math.min(rest, Math.max(0, p.paidCents - p.refundedCents));
    if (share > 0) shares.push({ paymentId: p.paymentId, intentId: p.intentId, amountCents: share });
    rest -= share;
  }
  return shares;
}

/** The idempotency key of a booking's n-th refund. */
export function refundKey(bookingId: number, n: number): string {
  return `refund-${bookingId}-${n}`;
}

/** Refund statuses that still count as money given back (or on its way). */
export const LIVE_REFUND_STATUSES = ['pending', 'requires_action', 'succeeded'] as const;

export function isLiveRefund(status: string): boolean {
  return (LIVE_REFUND_STATUSES as readonly string[]).includes(status);
}
