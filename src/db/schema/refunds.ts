// Refunds (migration range 1100-1149): money given back to the card of a payment, one row per
// refund, recorded `pending` before the gateway is called (so a crash between the two is finished
// by the reconciliation), then moved by the gateway's answer, its webhooks or the reconciliation.
// The sandbox gateway's own refunds live beside them (embedded demo).
import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { bookings } from './checkout.js';
import { timestamps } from './columns.js';
import { bookingPayments } from './payments.js';

export const bookingRefunds = pgTable(
  'booking_refunds',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** the payment whose card gets the money back */
    paymentId: integer('payment_id')
      .notNull()
      .references(() => bookingPayments.id, { onDelete: 'cascade' }),
    /** n-th refund of the booking: the idempotency key is refund-{bookingId}-{n} */
    sequence: integer('sequence').notNull(),
    idempotencyKey: varchar('idempotency_key', { length: 100 }).notNull(),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    /** pending, succeeded, failed, canceled, requires_action (Stripe's refund statuses) */
    status: varchar('status', { length: 20 }).notNull(),
    /** duplicate_payment, cancellation, goodwill */
    kind: varchar('kind', { length: 30 }).notNull(),
    reason: varchar('reason', { length: 500 }),
    gatewayRefundId: varchar('gateway_refund_id', { length: 255 }),
    failureReason: varchar('failure_reason', { length: 100 }),
    /** who asked for it: a console user's e-mail, an API token name, or `system` */
    requestedBy: varchar('requested_by', { length: 255 }).notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('booking_refunds_key').on(t.idempotencyKey),
    uniqueIndex('booking_refunds_sequence').on(t.bookingId, t.sequence),
    index('booking_refunds_pending').on(t.createdAt).where(sql`status IN ('pending', 'requires_action')`),
  ],
);

/** The sandbox gateway's refunds (no Stripe key, not production), keyed like Stripe's. */
export const sandboxRefunds = pgTable('sandbox_refunds', {
  id: varchar('id', { length: 255 }).primaryKey(),
  idempotencyKey: varchar('idempotency_key', { length: 255 }).notNull().unique(),
  intentId: varchar('intent_id', { length: 255 }).notNull(),
  /** minor units of the currency, as the gateway counts */
  amount: integer('amount').notNull(),
  currency: varchar('currency', { length: 3 }).notNull(),
  status: varchar('status', { length: 20 }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
