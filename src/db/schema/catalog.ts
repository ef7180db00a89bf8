// Catalog data model: markets, airports, tours (templates and their per-market, per-language
// products), itineraries, hotels/activities/transfers with supplier rates, offers, exchange rates.
// Natural keys (code, slug, sku, ...) are unique so the import can upsert on them.
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
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';

export const markets = pgTable('markets', {
  id: serial('id').primaryKey(),
  /** lower-case market code: es, de, us, uk, ca */
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  isActive: boolean('is_active').notNull().default(true),
  defaultLanguage: text('default_language').notNull(),
  /** language codes in display order, default first */
  languages: text('languages').array().notNull(),
  /** language code -> localized tour path segment */
  tourPathSlugs: jsonb('tour_path_slugs').$type<Record<string, string>>().notNull().default({}),
  currencyCode: text('currency_code').notNull(),
  currencyName: text('currency_name').notNull(),
  currencySymbol: text('currency_symbol').notNull(),
  timezone: text('timezone').notNull(),
  ...timestamps,
});

export const airports = pgTable('airports', {
  iataCode: text('iata_code').primaryKey(),
  name: text('name').notNull(),
  city: text('city').notNull(),
  country: text('country').notNull(),
});

export const marketAirports = pgTable(
  'market_airports',
  {
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id, { onDelete: 'cascade' }),
    iataCode: text('iata_code')
      .notNull()
      .references(() => airports.iataCode),
    isPrimary: boolean('is_primary').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.marketId, t.iataCode] })],
);

export const exchangeRates = pgTable('exchange_rates', {
  /** ISO currency code; the rate is units of this currency per 1 EUR */
  currency: text('currency').primaryKey(),
  ratePerEur: numeric('rate_per_eur', { precision: 18, scale: 8 }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The base tour, shared by every market product made from it. */
export const productTemplates = pgTable('product_templates', {
  id: serial('id').primaryKey(),
  /** natural key used by the import */
  code: text('code').notNull().unique(),
  slug: text('slug').notNull().unique(),
  title: text('title').notNull(),
  tripDurationDays: integer('trip_duration_days').notNull(),
  countrySlug: text('country_slug').notNull(),
  heroImage: text('hero_image'),
  /** legacy package tours price land services as one package service */
  packageServiceName: text('package_service_name'),
  ...timestamps,
});

/** A template sold in one market and one language (one locale). Holds the localized content. */
export const marketProducts = pgTable(
  'market_products',
  {
    id: serial('id').primaryKey(),
    templateId: integer('template_id')
      .notNull()
      .references(() => productTemplates.id, { onDelete: 'cascade' }),
    marketId: integer('market_id')
      .notNull()
      .references(() => markets.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    /** `<lang>_<MARKET>`, e.g. ca_ES */
    locale: text('locale').notNull(),
    version: integer('version').notNull().default(1),
    sku: text('sku').notNull().unique(),
    /** active | draft | inactive */
    status: text('status').notNull().default('draft'),
    sortOrder: integer('sort_order').notNull().default(0),
    title: text('title').notNull(),
    subtitle: text('subtitle').notNull().default(''),
    shortDescription: text('short_description').notNull().default(''),
    longDescription: text('long_description').notNull().default(''),
    highlights: jsonb('highlights').$type<string[]>().notNull().default([]),
    destinationInfo: text('destination_info').notNull().default(''),
    urlSlug: text('url_slug').notNull(),
    countryName: text('country_name').notNull(),
    heroImage: text('hero_image'),
    /**
     * {days_before_departure, fee_percent} steps of the cancellation fee (migration 1101); null:
     * the configured default (CANCELLATION_POLICY)
     */
    cancellationPolicy: jsonb('cancellation_policy').$type<
      { days_before_departure: number; fee_percent: number }[] | null
    >(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('market_products_natural_key').on(t.marketId, t.templateId, t.language),
    uniqueIndex('market_products_locale_slug').on(t.locale, t.urlSlug),
    index('market_products_listing').on(t.locale, t.status, t.sortOrder),
  ],
);

/** Departure airports a market product is sold from, in display order (first is the SKU's). */
export const marketProductAirports = pgTable(
  'market_product_airports',
  {
    marketProductId: integer('market_product_id')
      .notNull()
      .references(() => marketProducts.id, { onDelete: 'cascade' }),
    iataCode: text('iata_code')
      .notNull()
      .references(() => airports.iataCode),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.marketProductId, t.iataCode] })],
);

export const itineraryDays = pgTable(
  'itinerary_days',
  {
    id: serial('id').primaryKey(),
    marketProductId: integer('market_product_id')
      .notNull()
      .references(() => marketProducts.id, { onDelete: 'cascade' }),
    dayNumber: integer('day_number').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** destination city of the day */
    city: text('city'),
    country: text('country'),
  },
  (t) => [uniqueIndex('itinerary_days_natural_key').on(t.marketProductId, t.dayNumber)],
);

export const hotels = pgTable('hotels', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  city: text('city'),
  country: text('country'),
  description: text('description'),
  images: jsonb('images').$type<string[]>().notNull().default([]),
  stars: integer('stars'),
  /** who confirms the booked service (supplier confirmation requests go to supplier_email) */
  supplierEmail: text('supplier_email'),
  supplierName: text('supplier_name'),
  supplierPhone: text('supplier_phone'),
  ...timestamps,
});

/** Supplier rate per room and night for one room type (1A, 2A, 3A, 4A, 2A+1CH). */
export const hotelRates = pgTable(
  'hotel_rates',
  {
    hotelId: integer('hotel_id')
      .notNull()
      .references(() => hotels.id, { onDelete: 'cascade' }),
    roomType: text('room_type').notNull(),
    pricePerNight: numeric('price_per_night', { precision: 12, scale: 2 }).notNull(),
    currency: text('currency').notNull(),
  },
  (t) => [primaryKey({ columns: [t.hotelId, t.roomType] })],
);

/** Hotel stays of a template per tier: selection (base), luxury, grand_luxury; nights by tour day. */
export const accommodations = pgTable(
  'accommodations',
  {
    id: serial('id').primaryKey(),
    templateId: integer('template_id')
      .notNull()
      .references(() => productTemplates.id, { onDelete: 'cascade' }),
    hotelId: integer('hotel_id')
      .notNull()
      .references(() => hotels.id),
    tier: text('tier').notNull(),
    dayStart: integer('day_start').notNull(),
    dayEnd: integer('day_end').notNull(),
  },
  (t) => [uniqueIndex('accommodations_natural_key').on(t.templateId, t.tier, t.dayStart, t.hotelId)],
);

export const activities = pgTable('activities', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  description: text('description'),
  city: text('city'),
  country: text('country'),
  images: jsonb('images').$type<string[]>().notNull().default([]),
  reasons: jsonb('reasons').$type<string[] | null>(),
  amenities: jsonb('amenities').$type<{ icon: string; label: string; description: string }[] | null>(),
  /** who confirms the booked service (supplier confirmation requests go to supplier_email) */
  supplierEmail: text('supplier_email'),
  supplierName: text('supplier_name'),
  supplierPhone: text('supplier_phone'),
  ...timestamps,
});

/** Per-person supplier price of an activity. No row: price unavailable. */
export const activityRates = pgTable('activity_rates', {
  activityId: integer('activity_id')
    .primaryKey()
    .references(() => activities.id, { onDelete: 'cascade' }),
  pricePerPerson: numeric('price_per_person', { precision: 12, scale: 2 }).notNull(),
  currency: text('currency').notNull(),
});

/** Activities of an itinerary day by tier: included, extra (paid add-on), substitution. */
export const itineraryDayActivities = pgTable(
  'itinerary_day_activities',
  {
    itineraryDayId: integer('itinerary_day_id')
      .notNull()
      .references(() => itineraryDays.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id),
    tier: text('tier').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.itineraryDayId, t.activityId] })],
);

export const transfers = pgTable('transfers', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  description: text('description'),
  city: text('city'),
  country: text('country'),
  images: jsonb('images').$type<string[]>().notNull().default([]),
  vehicleType: text('vehicle_type'),
  durationMinutes: integer('duration_minutes'),
  /** who confirms the booked service (supplier confirmation requests go to supplier_email) */
  supplierEmail: text('supplier_email'),
  supplierName: text('supplier_name'),
  supplierPhone: text('supplier_phone'),
  ...timestamps,
});

/** Flat per-trip supplier price of a transfer. No row: price unavailable. */
export const transferRates = pgTable('transfer_rates', {
  transferId: integer('transfer_id')
    .primaryKey()
    .references(() => transfers.id, { onDelete: 'cascade' }),
  pricePerTrip: numeric('price_per_trip', { precision: 12, scale: 2 }).notNull(),
  currency: text('currency').notNull(),
});

/** Transfers of a template's tour day: included (part of the tour) or upsell (optional upgrade). */
export const tourDayTransfers = pgTable(
  'tour_day_transfers',
  {
    templateId: integer('template_id')
      .notNull()
      .references(() => productTemplates.id, { onDelete: 'cascade' }),
    dayNumber: integer('day_number').notNull(),
    transferId: integer('transfer_id')
      .notNull()
      .references(() => transfers.id),
    kind: text('kind').notNull(),
  },
  (t) => [primaryKey({ columns: [t.templateId, t.dayNumber, t.transferId] })],
);

/**
 * A dated departure of a market product from one airport. Prices are in the market's currency:
 * final_price is the total for pax_count travellers (2 adults by default), price_per_person the
 * marketing price per person, land_base_price the land part for the default room, flight_price
 * the per-person flight fare.
 */
export const offers = pgTable(
  'offers',
  {
    id: serial('id').primaryKey(),
    /** natural key used by the import */
    code: text('code').notNull().unique(),
    marketProductId: integer('market_product_id')
      .notNull()
      .references(() => marketProducts.id, { onDelete: 'cascade' }),
    departureAirport: text('departure_airport')
      .notNull()
      .references(() => airports.iataCode),
    departureDate: date('departure_date', { mode: 'string' }).notNull(),
    returnDate: date('return_date', { mode: 'string' }),
    /** Active is bookable; others (Inactive, SoldOut, Cancelled, Draft) are not */
    status: text('status').notNull().default('Active'),
    paxCount: integer('pax_count').notNull().default(2),
    allotment: integer('allotment').notNull().default(0),
    allotmentUsed: integer('allotment_used').notNull().default(0),
    landBasePrice: numeric('land_base_price', { precision: 12, scale: 2 }).notNull(),
    flightPrice: numeric('flight_price', { precision: 12, scale: 2 }).notNull(),
    marginPercent: numeric('margin_percent', { precision: 6, scale: 2 }).notNull().default('0'),
    finalPrice: numeric('final_price', { precision: 12, scale: 2 }).notNull(),
    pricePerPerson: numeric('price_per_person', { precision: 12, scale: 2 }).notNull(),
    /** cached flight route and fares (outbound/inbound/legs), used by checkout and flight booking */
    flightData: jsonb('flight_data').$type<Record<string, unknown> | null>(),
    ...timestamps,
  },
  (t) => [
    index('offers_product_departure').on(t.marketProductId, t.departureDate),
    // the console's booking list sorted or filtered by departure
    index('offers_departure').on(t.departureDate, t.id),
    index('offers_bookable').on(t.status, t.departureDate).where(sql`status = 'Active'`),
  ],
);

/**
 * A single row whose revision every catalog import bumps. Caches of other processes compare it
 * (at most once a second) to notice an import they did not run.
 */
export const catalogRevision = pgTable('catalog_revision', {
  id: integer('id').primaryKey().default(1),
  revision: integer('revision').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
