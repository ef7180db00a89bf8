// Balance payments that finish without the browser: a pay-link intent whose page never confirmed
// and an off-session debit the gateway answered `processing`. The webhook and the reconciliation
// hand them here with the intent as the gateway reports it; the balance module records them.
import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { bookingBalances, bookingPayments } from '../../db/schema/index.js';
import { recordLinkPayment, recordProcessingFailed } from '../balance/service.js';
import type { PaymentGateway, PaymentIntent } from './gateway.js';
import type { PaymentRow } from './repository.js';

/** Balance payment rows (no quote) not succeeded, failed or canceled, made before `before`, of balances not paid. */
export async function openBalancePayments(db: DbOrTx, before: Date, limit = 200): Promise<PaymentRow[]> {
  const rows = await db
    .select({ payment: bookingPayments })
    .from(bookingPayments)
    .innerJoin(bookingBalances, eq(bookingBalances.bookingId, bookingPayments.bookingId))
    .where(
      and(
        isNull(bookingPayments.quote),
        isNull(bookingPayments.finalizedAt),
        lt(bookingPayments.createdAt, before),
        sql`${bookingPayments.status} NOT IN ('Succeeded', 'Failed', 'Canceled')`,
        sql`${bookingBalances.status} <> 'paid'`,
      ),
    )
    .orderBy(asc(bookingPayments.createdAt))
    .limit(limit);
  return rows.map((r) => r.payment);
}

/**
 * A balance payment as the gateway reports it: succeeded -> recorded as the balance payment (or,
 * when the balance was paid otherwise meanwhile, refunded as a duplicate); failed after
 * processing -> a failed charge attempt; anything else stays open.
 */
export async function finishBalancePayment(
  ctx: AppContext,
  gateway: PaymentGateway,
  payment: PaymentRow,
  intent: PaymentIntent,
): Promise<'paid' | 'failed' | 'open'> {
  if (intent.status === 'Succeeded') {
    await recordLinkPayment(ctx, gateway, payment.bookingId, intent);
    return 'paid';
  }
  if (intent.status === 'Failed' || (payment.status === 'Processing' && intent.status === 'Pending')) {
    // a debit that was processing and bounced: Stripe puts it back to requires_payment_method
    await recordProcessingFailed(ctx, payment.bookingId, intent.id);
    return 'failed';
  }
  return 'open';
}
