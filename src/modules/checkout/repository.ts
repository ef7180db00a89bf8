// SQL of the checkout: reads of the catalog rows a checkout prices from, bookings and their funnel,
// API tokens. Plain objects out; money as NUMERIC strings or cents.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/database.js';
import {
  accommodations,
  activities,
  activityRates,
  apiTokens,
  bookingStepVisits,
  bookings,
  exchangeRates,
  hotelRates,
  hotels,
  itineraryDayActivities,
  itineraryDays,
  marketProducts,
  markets,
  offers,
  productTemplates,
  tourDayTransfers,
  transferRates,
  transfers,
} from '../../db/schema/index.js';
import { toCents } from '../../platform/money.js';
import { FUNNEL_STEPS, type FunnelStep, type Rate, type RatesPerEur, type Stay, TIERS, type Tier } from './rules.js';

export interface OfferRow {
  id: number;
  status: string;
  departureDate: string;
  returnDate: string | null;
  paxCount: number;
  landBasePrice: string;
  flightPrice: string;
  marginPercent: string;
  finalPrice: string;
  pricePerPerson: string;
  marketProductId: number;
  productStatus: string;
  sku: string;
  marketId: number;
  marketCode: string;
  templateId: number;
  tripDurationDays: number;
  packageServiceName: string | null;
  /** title and slug of the product in the requested language (same template and market), if any */
  localizedTitle: string | null;
  localizedSlug: string | null;
  localizedStatus: string | null;
}

/** The offer with its product, template and the product of the requested language. */
export async function findOffer(db: DbOrTx, offerId: number, lang: string): Promise<OfferRow | null> {
  const local = alias(marketProducts, 'local');
  const rows = await db
    .select({
      id: offers.id,
      status: offers.status,
      departureDate: offers.departureDate,
      returnDate: offers.returnDate,
      paxCount: offers.paxCount,
      landBasePrice: offers.landBasePrice,
      flightPrice: offers.flightPrice,
      marginPercent: offers.marginPercent,
      finalPrice: offers.finalPrice,
      pricePerPerson: offers.pricePerPerson,
      marketProductId: marketProducts.id,
      productStatus: marketProducts.status,
      sku: marketProducts.sku,
      marketId: marketProducts.marketId,
      marketCode: markets.code,
      templateId: productTemplates.id,
      tripDurationDays: productTemplates.tripDurationDays,
      packageServiceName: productTemplates.packageServiceName,
      localizedTitle: local.title,
      localizedSlug: local.urlSlug,
      localizedStatus: local.status,
    })
    .from(offers)
    .innerJoin(marketProducts, eq(marketProducts.id, offers.marketProductId))
    .innerJoin(markets, eq(markets.id, marketProducts.marketId))
    .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
    .leftJoin(
      local,
      and(
        eq(local.templateId, marketProducts.templateId),
        eq(local.marketId, marketProducts.marketId),
        eq(local.language, lang),
      ),
    )
    .where(eq(offers.id, offerId))
    .limit(1);
  return rows[0] ?? null;
}

export async function offerFinalPrice(db: DbOrTx, offerId: number): Promise<string | null> {
  const rows = await db.select({ p: offers.finalPrice }).from(offers).where(eq(offers.id, offerId)).limit(1);
  return rows[0]?.p ?? null;
}

export async function loadExchangeRates(db: DbOrTx): Promise<RatesPerEur> {
  const rows = await db.select().from(exchangeRates);
  return new Map(rows.map((r) => [r.currency, r.ratePerEur]));
}

export interface HotelInfo {
  id: number;
  name: string;
  city: string | null;
  country: string | null;
  description: string | null;
  images: string[];
}

export interface TourStays {
  stays: Stay[];
  hotels: Map<number, HotelInfo>;
}

export async function loadStays(db: DbOrTx, templateId: number): Promise<TourStays> {
  const rows = await db
    .select({
      hotelId: accommodations.hotelId,
      tier: accommodations.tier,
      dayStart: accommodations.dayStart,
      dayEnd: accommodations.dayEnd,
      name: hotels.name,
      city: hotels.city,
      country: hotels.country,
      description: hotels.description,
      images: hotels.images,
    })
    .from(accommodations)
    .innerJoin(hotels, eq(hotels.id, accommodations.hotelId))
    .where(eq(accommodations.templateId, templateId))
    .orderBy(asc(accommodations.dayStart));
  const hotelMap = new Map<number, HotelInfo>();
  const stays: Stay[] = [];
  for (const r of rows) {
    // the import spells the top tier grand_luxury; tolerate "grand luxury" as well
    const tier = r.tier.replace(' ', '_') as Tier;
    if (!TIERS.includes(tier)) continue;
    stays.push({ hotelId: r.hotelId, tier, dayStart: r.dayStart, dayEnd: r.dayEnd });
    hotelMap.set(r.hotelId, {
      id: r.hotelId,
      name: r.name,
      city: r.city,
      country: r.country,
      description: r.description,
      images: r.images,
    });
  }
  return { stays, hotels: hotelMap };
}

/** hotelId -> roomType -> rate */
export async function loadHotelRates(db: DbOrTx, hotelIds: number[]): Promise<Map<number, Map<string, Rate>>> {
  const out = new Map<number, Map<string, Rate>>();
  if (hotelIds.length === 0) return out;
  const rows = await db.select().from(hotelRates).where(inArray(hotelRates.hotelId, hotelIds));
  for (const r of rows) {
    const m = out.get(r.hotelId) ?? new Map<string, Rate>();
    m.set(r.roomType, { cents: toCents(r.pricePerNight), currency: r.currency });
    out.set(r.hotelId, m);
  }
  return out;
}

export interface DayRow {
  dayNumber: number;
  city: string | null;
  country: string | null;
}

export async function loadItineraryDays(db: DbOrTx, marketProductId: number): Promise<DayRow[]> {
  return db
    .select({ dayNumber: itineraryDays.dayNumber, city: itineraryDays.city, country: itineraryDays.country })
    .from(itineraryDays)
    .where(eq(itineraryDays.marketProductId, marketProductId))
    .orderBy(asc(itineraryDays.dayNumber));
}

export interface DayActivityRow {
  dayNumber: number;
  tier: string;
  id: number;
  name: string;
  description: string | null;
  city: string | null;
  country: string | null;
  images: string[];
  rate: Rate | null;
}

export async function loadDayActivities(db: DbOrTx, marketProductId: number): Promise<DayActivityRow[]> {
  const rows = await db
    .select({
      dayNumber: itineraryDays.dayNumber,
      tier: itineraryDayActivities.tier,
      id: activities.id,
      name: activities.name,
      description: activities.description,
      city: activities.city,
      country: activities.country,
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
  return rows.map(({ price, currency, ...r }) => ({
    ...r,
    rate: price !== null && currency !== null ? { cents: toCents(price), currency } : null,
  }));
}

export interface DayTransferRow {
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
  rate: Rate | null;
}

export async function loadDayTransfers(db: DbOrTx, templateId: number): Promise<DayTransferRow[]> {
  const rows = await db
    .select({
      dayNumber: tourDayTransfers.dayNumber,
      kind: tourDayTransfers.kind,
      id: transfers.id,
      name: transfers.name,
      description: transfers.description,
      city: transfers.city,
      country: transfers.country,
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
  return rows.map(({ price, currency, ...r }) => ({
    ...r,
    rate: price !== null && currency !== null ? { cents: toCents(price), currency } : null,
  }));
}

// ---------------------------------------------------------------------------------------------
// Bookings and funnel

export interface NewBooking {
  reference: string;
  offerId: number;
  marketCode: string;
  language: string;
  paxCount: number;
  actualPaxCount: number;
  actualRoomType: string;
  isNonStandardPax: boolean;
  totalPrice: string;
  currency: string;
}

/**
 * Runs writes in a transaction that does not wait for the WAL flush (synchronous_commit off).
 * Used for checkout sessions and just-started bookings: after a crash the last few hundred
 * milliseconds of them may be lost (the visitor starts again), never corrupted; the commit does not
 * wait for a disk flush, which is most of a start's latency on PostgreSQL.
 */
export async function relaxedCommit<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL synchronous_commit = off`);
    return fn(tx);
  });
}

/** Inserts the booking; null when the reference is taken (the caller draws another one). */
export async function insertBooking(db: DbOrTx, b: NewBooking): Promise<{ id: number; reference: string } | null> {
  const rows = await db
    .insert(bookings)
    .values(b)
    .onConflictDoNothing({ target: bookings.reference })
    .returning({ id: bookings.id, reference: bookings.reference });
  return rows[0] ?? null;
}

// rank of the stored checkout_step in the funnel order, -1 when none
const STEP_RANK = sql.raw(
  `CASE checkout_step ${FUNNEL_STEPS.map((s, i) => `WHEN '${s}' THEN ${i}`).join(' ')} ELSE -1 END`,
);

/**
 * Records a view of a funnel step: checkout_step moves forward only (compared inside the UPDATE,
 * so concurrent calls cannot move it back), current_step always, the first visit once. False when
 * the booking does not exist.
 */
export async function recordFunnelStep(db: DbOrTx, bookingId: number, step: FunnelStep, at: Date): Promise<boolean> {
  const rank = FUNNEL_STEPS.indexOf(step);
  const rows = await db
    .update(bookings)
    .set({
      currentStep: step,
      checkoutStep: sql`CASE WHEN ${STEP_RANK} < ${rank} THEN ${step} ELSE ${bookings.checkoutStep} END`,
      updatedAt: at,
    })
    .where(eq(bookings.id, bookingId))
    .returning({ id: bookings.id });
  if (rows.length === 0) return false;
  await db.insert(bookingStepVisits).values({ bookingId, step, firstVisitedAt: at }).onConflictDoNothing();
  return true;
}

export async function findBooking(db: DbOrTx, bookingId: number) {
  const rows = await db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1);
  return rows[0] ?? null;
}

// ---------------------------------------------------------------------------------------------
// API tokens

export async function insertToken(db: DbOrTx, name: string, tokenHash: string, abilities: string[]): Promise<number> {
  const rows = await db.insert(apiTokens).values({ name, tokenHash, abilities }).returning({ id: apiTokens.id });
  return rows[0].id;
}

export async function findTokenAbilities(db: DbOrTx, tokenHash: string): Promise<string[] | null> {
  const rows = await db
    .select({ abilities: apiTokens.abilities })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt)))
    .limit(1);
  return rows[0]?.abilities ?? null;
}
