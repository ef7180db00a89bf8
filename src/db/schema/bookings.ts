// Tables of the bookings module beside the booking row itself (which is in checkout.ts, next to
// the checkout's session and funnel tables that reference it): passengers attached to bookings,
// upsell records and the record of every status move. Created by migrations of the flights range
// (0350-0399); moved here without a change (issue 24).
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { bookings, clients } from './checkout.js';
import { timestamps } from './columns.js';

/** Travelers, created from traveler_data at finalization and attached to the client. */
export const passengers = pgTable(
  'passengers',
  {
    id: serial('id').primaryKey(),
    clientId: integer('client_id').references(() => clients.id),
    firstName: varchar('first_name', { length: 57 }).notNull(),
    lastName: varchar('last_name', { length: 57 }).notNull(),
    nationality: varchar('nationality', { length: 2 }).notNull(),
    passportNumber: varchar('passport_number', { length: 50 }).notNull(),
    passportExpiry: date('passport_expiry', { mode: 'string' }).notNull(),
    birthDate: date('birth_date', { mode: 'string' }).notNull(),
    phone: varchar('phone', { length: 30 }).notNull(),
    email: varchar('email', { length: 255 }).notNull(),
    ...timestamps,
    /** mr, ms, mrs, miss, dr: asked when the flight provider needs it (Duffel) */
    title: varchar('title', { length: 4 }),
    /** m or f: asked when the flight provider needs it (Duffel) */
    gender: varchar('gender', { length: 1 }),
  },
  (t) => [index('passengers_client').on(t.clientId)],
);

/** Passengers of a booking in traveler order; the first attached is the lead. */
export const bookingPassengers = pgTable(
  'booking_passengers',
  {
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    passengerId: integer('passenger_id')
      .notNull()
      .references(() => passengers.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    isLead: boolean('is_lead').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.passengerId] }),
    uniqueIndex('booking_passengers_lead').on(t.bookingId).where(sql`is_lead`),
  ],
);

/** Extras bought with a booking: hotel_upgrade, activity, transfer, flight_upgrade. */
export const bookingUpsells = pgTable(
  'booking_upsells',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    type: varchar('type', { length: 30 }).notNull(),
    /** upgrade hotel, activity or transfer id; null for flight_upgrade */
    itemId: integer('item_id'),
    name: text('name'),
    dayNumber: integer('day_number'),
    nightsStart: integer('nights_start'),
    nightsEnd: integer('nights_end'),
    unitPrice: numeric('unit_price', { precision: 12, scale: 2 }).notNull(),
    quantity: integer('quantity').notNull().default(1),
    totalPrice: numeric('total_price', { precision: 12, scale: 2 }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    /** flight_upgrade: the flight search parameters (route, dates, cabin, pax, fare id) */
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('booking_upsells_booking').on(t.bookingId)],
);

/** Every booking status change, with the metadata of its cause (failure details, leg index). */
export const bookingStatusTransitions = pgTable(
  'booking_status_transitions',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    fromStatus: varchar('from_status', { length: 40 }),
    toStatus: varchar('to_status', { length: 40 }).notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('booking_status_transitions_booking').on(t.bookingId, t.createdAt)],
);
