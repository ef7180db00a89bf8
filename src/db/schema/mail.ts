// Tables of the mail module (migration range 0630-0659): the transactional outbox of customer
// e-mails. A row is written in the same transaction as the event it tells about; the delivery
// task sends it over SMTP and marks it sent.
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { bookings } from './checkout.js';

/** status: pending (to send; next_attempt_at says when), sent, failed (gave up after the last try). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    /** what the mail is about, e.g. booking-confirmation:42; a second enqueue of a key is dropped */
    key: varchar('key', { length: 200 }).notNull(),
    kind: varchar('kind', { length: 40 }).notNull(),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    toAddress: varchar('to_address', { length: 255 }).notNull(),
    language: varchar('language', { length: 5 }).notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    status: varchar('status', { length: 20 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** lease of the delivery run sending it now */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mail_outbox_key').on(t.key),
    index('mail_outbox_pending').on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);
