// Tables of the bookings module for the booking after the sale (issue 27): the confirmation of each
// booked land service by its supplier, the operators' internal notes and the amendments.
import { index, integer, jsonb, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { bookings } from './checkout.js';
import { timestamps } from './columns.js';

/**
 * One booked land service (a base hotel of a night group, an upgraded hotel, an activity, a
 * transfer) and its supplier's answer: requested, then confirmed (with their reference) or
 * declined (with a reason); cancelled when an amendment removes the service.
 */
export const supplierConfirmations = pgTable(
  'supplier_confirmations',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** hotel, activity or transfer */
    serviceType: text('service_type').notNull(),
    serviceId: integer('service_id').notNull(),
    serviceName: text('service_name').notNull(),
    /** hotels: first and last night (tour days); activities and transfers: the day, twice */
    dayStart: integer('day_start').notNull(),
    dayEnd: integer('day_end').notNull(),
    /** YYYY-MM-DD of the first day and of the day after the last night (hotels) */
    serviceDate: text('service_date').notNull(),
    endDate: text('end_date'),
    roomType: text('room_type'),
    /** hotels: selection (the base hotel) or the upgrade tier */
    tier: text('tier'),
    supplierEmail: text('supplier_email'),
    supplierName: text('supplier_name'),
    status: text('status').notNull().default('requested'),
    supplierReference: text('supplier_reference'),
    declineReason: text('decline_reason'),
    /** 'supplier' (the signed link) or 'admin:<e-mail>' (recorded in the console) */
    answeredBy: text('answered_by'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    remindedAt: timestamp('reminded_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('supplier_confirmations_booking').on(t.bookingId), index('supplier_confirmations_open').on(t.status)],
);

/** Internal notes operators add on the booking page (never shown to the customer). */
export const bookingNotes = pgTable(
  'booking_notes',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    author: text('author').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('booking_notes_booking').on(t.bookingId)],
);

/** Every change made to a booking after the sale: what, old and new values, price difference, who. */
export const bookingAmendments = pgTable(
  'booking_amendments',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** travelers, extras or departure */
    kind: text('kind').notNull(),
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull(),
    priceDifference: numeric('price_difference', { precision: 12, scale: 2 }).notNull().default('0'),
    currency: text('currency').notNull(),
    actor: text('actor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('booking_amendments_booking').on(t.bookingId)],
);
