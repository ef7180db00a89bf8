// The supply a tour is priced from, for the checkout and the flights re-pricing: hotel stays and
// nightly rates, the days' activities and transfers with their supplier rates, exchange rates.
// Rows as stored (money as NUMERIC text); the checkout turns them into its pricing terms.
import { asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import {
  accommodations,
  activities,
  activityRates,
  exchangeRates,
  hotelRates,
  hotels,
  itineraryDayActivities,
  itineraryDays,
  tourDayTransfers,
  transferRates,
  transfers,
} from '../../db/schema/index.js';
import { textIn } from './texts.js';

/** currency -> units per 1 EUR */
export async function loadExchangeRates(db: DbOrTx): Promise<Map<string, string>> {
  const rows = await db.select().from(exchangeRates);
  return new Map(rows.map((r) => [r.currency, r.ratePerEur]));
}

export interface TourStayRow {
  hotelId: number;
  tier: string;
  dayStart: number;
  dayEnd: number;
  name: string;
  city: string | null;
  country: string | null;
  description: string | null;
  images: string[];
}

/**
 * The template's hotel stays of every tier, first night first, with their hotels; texts in the
 * first of `languages` that has them (textLanguages), else as stored.
 */
export async function loadStays(db: DbOrTx, templateId: number, languages: string[] = ['en']): Promise<TourStayRow[]> {
  return db
    .select({
      hotelId: accommodations.hotelId,
      tier: accommodations.tier,
      dayStart: accommodations.dayStart,
      dayEnd: accommodations.dayEnd,
      name: textIn('hotel', hotels.name, languages),
      city: textIn('hotel', hotels.city, languages),
      country: textIn('hotel', hotels.country, languages),
      description: textIn('hotel', hotels.description, languages),
      images: hotels.images,
    })
    .from(accommodations)
    .innerJoin(hotels, eq(hotels.id, accommodations.hotelId))
    .where(eq(accommodations.templateId, templateId))
    .orderBy(asc(accommodations.dayStart));
}

export type HotelRateRow = typeof hotelRates.$inferSelect;

export async function loadHotelRates(db: DbOrTx, hotelIds: number[]): Promise<HotelRateRow[]> {
  if (hotelIds.length === 0) return [];
  return db.select().from(hotelRates).where(inArray(hotelRates.hotelId, hotelIds));
}

export interface TourDayRow {
  dayNumber: number;
  city: string | null;
  country: string | null;
}

export async function loadItineraryDays(db: DbOrTx, marketProductId: number): Promise<TourDayRow[]> {
  return db
    .select({ dayNumber: itineraryDays.dayNumber, city: itineraryDays.city, country: itineraryDays.country })
    .from(itineraryDays)
    .where(eq(itineraryDays.marketProductId, marketProductId))
    .orderBy(asc(itineraryDays.dayNumber));
}

/** A supplier rate as stored: both null when the item has none. */
export interface StoredRate {
  price: string | null;
  currency: string | null;
}

export interface DayActivitySupplyRow extends StoredRate {
  dayNumber: number;
  tier: string;
  id: number;
  name: string;
  description: string | null;
  city: string | null;
  country: string | null;
  images: string[];
}

export async function loadDayActivities(
  db: DbOrTx,
  marketProductId: number,
  languages: string[] = ['en'],
): Promise<DayActivitySupplyRow[]> {
  return db
    .select({
      dayNumber: itineraryDays.dayNumber,
      tier: itineraryDayActivities.tier,
      id: activities.id,
      name: textIn('activity', activities.name, languages),
      description: textIn('activity', activities.description, languages),
      city: textIn('activity', activities.city, languages),
      country: textIn('activity', activities.country, languages),
      images: activities.images,
      price: activityRates.pricePerPerson,
      currency: activityRates.currency,
    })
    .from(itineraryDayActivities)
    .innerJoin(itineraryDays, eq(itineraryDays.id, itineraryDayActivities.itineraryDayId))
    .innerJoin(activities, eq(activities.id, itineraryDayActivities.activityId))
    .leftJoin(activityRates, eq(activityRates.activityId, activities.id))
    .where(eq(itineraryDays.marketProductId, marketProductId))
    .orderBy(asc(itineraryDays.dayNumber), asc(itineraryDayActivities.sortOrder), asc(activities.id));
}

export interface DayTransferSupplyRow extends StoredRate {
  dayNumber: number;
  kind: string;
  id: number;
  name: string;
  description: string | null;
  city: string | null;
  country: string | null;
  images: string[];
  vehicleType: string | null;
  durationMinutes: number | null;
}

export async function loadDayTransfers(
  db: DbOrTx,
  templateId: number,
  languages: string[] = ['en'],
): Promise<DayTransferSupplyRow[]> {
  return db
    .select({
      dayNumber: tourDayTransfers.dayNumber,
      kind: tourDayTransfers.kind,
      id: transfers.id,
      name: textIn('transfer', transfers.name, languages),
      description: textIn('transfer', transfers.description, languages),
      city: textIn('transfer', transfers.city, languages),
      country: textIn('transfer', transfers.country, languages),
      images: transfers.images,
      vehicleType: transfers.vehicleType,
      durationMinutes: transfers.durationMinutes,
      price: transferRates.pricePerTrip,
      currency: transferRates.currency,
    })
    .from(tourDayTransfers)
    .innerJoin(transfers, eq(transfers.id, tourDayTransfers.transferId))
    .leftJoin(transferRates, eq(transferRates.transferId, transfers.id))
    .where(eq(tourDayTransfers.templateId, templateId))
    .orderBy(asc(tourDayTransfers.dayNumber), asc(transfers.id));
}

export interface SupplierContact {
  email: string | null;
  name: string | null;
  phone: string | null;
}

/** The supplier contacts of the given hotels, activities and transfers, by kind and id. */
export async function supplierContacts(
  db: DbOrTx,
  ids: { hotels: number[]; activities: number[]; transfers: number[] },
): Promise<Record<'hotel' | 'activity' | 'transfer', Map<number, SupplierContact>>> {
  const read = async (table: typeof hotels | typeof activities | typeof transfers, list: number[]) => {
    if (list.length === 0) return new Map<number, SupplierContact>();
    const rows = await db
      .select({ id: table.id, email: table.supplierEmail, name: table.supplierName, phone: table.supplierPhone })
      .from(table)
      .where(inArray(table.id, list));
    return new Map(rows.map((r) => [r.id, { email: r.email, name: r.name, phone: r.phone }]));
  };
  const [h, a, t] = await Promise.all([
    read(hotels, ids.hotels),
    read(activities, ids.activities),
    read(transfers, ids.transfers),
  ]);
  return { hotel: h, activity: a, transfer: t };
}
