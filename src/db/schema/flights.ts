// Tables of the flights module (migration range 0350-0399), written by the bookings and payments
// modules through flights/repository.ts: passengers attached to bookings, upsell records, payment
// intents per booking, per-leg flight bookings, booking status transitions with metadata and
// admin notifications.
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

/** Payment intents made for a booking's deposit (one per amount; confirm looks them up). */
export const bookingPayments = pgTable(
  'booking_payments',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    intentId: varchar('intent_id', { length: 255 }).notNull(),
    gatewayCode: varchar('gateway_code', { length: 50 }).notNull(),
    methodCode: varchar('method_code', { length: 50 }).notNull(),
    amount: numeric('amount', { precision: 12, scale: 2 }).notNull(),
    totalPrice: numeric('total_price', { precision: 12, scale: 2 }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    status: varchar('status', { length: 30 }).notNull(),
    /** the frozen quote (migration 0600): totals, selection fingerprint and the session state to finalize */
    quote: jsonb('quote').$type<Record<string, unknown> | null>(),
    fingerprint: varchar('fingerprint', { length: 64 }),
    /** sha256 of the checkout session token that made the intent (idempotent confirm after the session ends) */
    sessionId: varchar('session_id', { length: 64 }),
    /** the gateway's customer the card is saved to, and the saved payment method after success */
    customerId: varchar('customer_id', { length: 255 }),
    paymentMethodId: varchar('payment_method_id', { length: 255 }),
    /** the confirm answer, stored by the finalization that paid the booking */
    confirmation: jsonb('confirmation').$type<Record<string, unknown> | null>(),
    finalizedAt: timestamp('finalized_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('booking_payments_intent').on(t.intentId),
    index('booking_payments_booking').on(t.bookingId),
    index('booking_payments_open').on(t.createdAt).where(sql`finalized_at IS NULL`),
  ],
);

/** One flight booking per booking and leg (the job's idempotency anchor). */
export const flightBookings = pgTable(
  'flight_bookings',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    legIndex: integer('leg_index').notNull(),
    /** international | domestic */
    flightType: varchar('flight_type', { length: 20 }).notNull(),
    cabinClass: varchar('cabin_class', { length: 10 }).notNull(),
    provider: varchar('provider', { length: 30 }).notNull(),
    fareId: text('fare_id').notNull(),
    flowId: text('flow_id'),
    reservationId: text('reservation_id').notNull(),
    pnr: varchar('pnr', { length: 20 }),
    status: varchar('status', { length: 30 }).notNull(),
    totalPrice: numeric('total_price', { precision: 12, scale: 2 }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    /** what the provider billed in its own currency, when it is not `currency` (Duffel) */
    billedTotal: numeric('billed_total', { precision: 12, scale: 2 }),
    billedCurrency: varchar('billed_currency', { length: 3 }),
    flightNumbers: text('flight_numbers').array().notNull(),
    /** reservation details from the provider, filled by the retrieval job */
    details: jsonb('details').$type<Record<string, unknown>>(),
    retrievedAt: timestamp('retrieved_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('flight_bookings_booking_leg').on(t.bookingId, t.legIndex)],
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

/** In-app notifications for admin users (flight legs booked, failed, all booked). */
export const adminNotifications = pgTable(
  'admin_notifications',
  {
    id: serial('id').primaryKey(),
    type: varchar('type', { length: 50 }).notNull(),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    message: text('message').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_notifications_unread').on(t.createdAt).where(sql`read_at IS NULL`)],
);

/**
 * Per-leg booking attempts the job has to remember across runs: how often no matching fare was
 * found (released once, then failed) and the last failure, for the operator.
 */
export const flightLegAttempts = pgTable(
  'flight_leg_attempts',
  {
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    legIndex: integer('leg_index').notNull(),
    noMatchCount: integer('no_match_count').notNull().default(0),
    lastError: jsonb('last_error').$type<Record<string, unknown>>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** set just before the provider's booking call: an order may exist from here on */
    bookingStartedAt: timestamp('booking_started_at', { withTimezone: true }),
    /** unclassified exceptions of the leg's job (the spec's max exceptions) */
    exceptionCount: integer('exception_count').notNull().default(0),
    /** the admin's last re-booking search for the leg: {flow_id, searched_at, fares} */
    rebookSearch: jsonb('rebook_search').$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.legIndex] })],
);
