// Per-language texts of the supply shared by every market: activities, hotels, transfers and
// airports. A null field (or a missing row) falls back: the requested language, then the market's
// default language, then English, then the base row's own text (docs/decisions.md, "Supply
// translations"). Rows are keyed by the base record and a lower-case ISO 639-1 language code.
import { integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { activities, airports, hotels, transfers } from './catalog.js';

export type Amenity = { icon: string; label: string; description: string };

export const activityTranslations = pgTable(
  'activity_translations',
  {
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    name: text('name'),
    description: text('description'),
    city: text('city'),
    country: text('country'),
    reasons: jsonb('reasons').$type<string[] | null>(),
    amenities: jsonb('amenities').$type<Amenity[] | null>(),
  },
  (t) => [primaryKey({ columns: [t.activityId, t.language] })],
);

export const hotelTranslations = pgTable(
  'hotel_translations',
  {
    hotelId: integer('hotel_id')
      .notNull()
      .references(() => hotels.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    name: text('name'),
    description: text('description'),
    city: text('city'),
    country: text('country'),
  },
  (t) => [primaryKey({ columns: [t.hotelId, t.language] })],
);

export const transferTranslations = pgTable(
  'transfer_translations',
  {
    transferId: integer('transfer_id')
      .notNull()
      .references(() => transfers.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    name: text('name'),
    description: text('description'),
    city: text('city'),
    country: text('country'),
  },
  (t) => [primaryKey({ columns: [t.transferId, t.language] })],
);

export const airportTranslations = pgTable(
  'airport_translations',
  {
    iataCode: text('iata_code')
      .notNull()
      .references(() => airports.iataCode, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    name: text('name'),
    city: text('city'),
    country: text('country'),
  },
  (t) => [primaryKey({ columns: [t.iataCode, t.language] })],
);
