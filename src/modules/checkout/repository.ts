// SQL of the checkout: reads of the catalog rows a checkout prices from, bookings and their funnel,
// API tokens. Plain objects out; money as NUMERIC strings or cents.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/database.js';
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
  offers,
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

// One named statement (checkout's hottest read: every start and option GET): parsed and planned
// once per connection; dates and money as text, as Drizzle's string modes give them.
const FIND_OFFER = `SELECT o.id, o.status, o.departure_date::text AS "departureDate", o.return_date::text AS "returnDate",
  o.pax_count AS "paxCount", o.land_base_price::text AS "landBasePrice", o.flight_price::text AS "flightPrice",
  o.margin_percent::text AS "marginPercent", o.final_price::text AS "finalPrice",
  o.price_per_person::text AS "pricePerPerson", mp.id AS "marketProductId", mp.status AS "productStatus", mp.sku,
  mp.market_id AS "marketId", m.code AS "marketCode", t.id AS "templateId", t.trip_duration_days AS "tripDurationDays",
  t.package_service_name AS "packageServiceName", l.title AS "localizedTitle", l.url_slug AS "localizedSlug",
  l.status AS "localizedStatus"
  FROM offers o
  JOIN market_products mp ON mp.id = o.market_product_id
  JOIN markets m ON m.id = mp.market_id
  JOIN product_templates t ON t.id = mp.template_id
  LEFT JOIN market_products l ON l.template_id = mp.template_id AND l.market_id = mp.market_id AND l.language = $2
 WHERE o.id = $1`;

/** The offer with its product, template and the product of the requested language. */
export async function findOffer(database: Database, offerId: number, lang: string): Promise<OfferRow | null> {
  const { rows } = await database.query<OfferRow>(FIND_OFFER, [offerId, lang], 'checkout_find_offer');
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
 * Relaxed commits: writes of checkout sessions and just-started bookings do not wait for the WAL
 * flush (synchronous_commit off for that transaction only). After a crash the last few hundred
 * milliseconds of them may be lost (the visitor starts again), never corrupted; the flush wait is
 * most of a write's latency on PostgreSQL. A statement that starts with this CTE and reads from
 * `relaxed` (INSERT ... SELECT ... FROM relaxed, UPDATE ... FROM relaxed) sets it for its own
 * implicit transaction, as SET LOCAL would, so a relaxed write is one round trip instead of four
 * (BEGIN, SET LOCAL, the write, COMMIT).
 */
export const RELAXED_CTE = `relaxed AS (SELECT set_config('synchronous_commit', 'off', true) AS sc)`;

const BOOKING_COLUMNS = `reference, offer_id, market_code, language, pax_count, actual_pax_count, actual_room_type,
  is_non_standard_pax, total_price, currency`;
const BOOKING_VALUES = `$1::varchar, $2::int, $3::varchar, $4::varchar, $5::int, $6::int, $7::varchar, $8::boolean,
  $9::numeric, $10::varchar`;

export function bookingParams(b: NewBooking): unknown[] {
  return [
    b.reference,
    b.offerId,
    b.marketCode,
    b.language,
    b.paxCount,
    b.actualPaxCount,
    b.actualRoomType,
    b.isNonStandardPax,
    b.totalPrice,
    b.currency,
  ];
}

/**
 * The booking insert of a start (relaxed commit, one statement): `FROM relaxed` first, then the
 * caller's own CTEs may follow; `inserted` holds the new row, none when the reference is taken.
 */
export const INSERT_BOOKING_CTE = `WITH ${RELAXED_CTE},
inserted AS (
  INSERT INTO bookings (${BOOKING_COLUMNS})
  SELECT ${BOOKING_VALUES} FROM relaxed
  ON CONFLICT (reference) DO NOTHING
  RETURNING id, reference
)`;

/** Inserts the booking (relaxed commit); null when the reference is taken (the caller draws another one). */
export async function insertBooking(
  database: Database,
  b: NewBooking,
): Promise<{ id: number; reference: string } | null> {
  const { rows } = await database.query<{ id: number; reference: string }>(
    `${INSERT_BOOKING_CTE} SELECT id, reference FROM inserted`,
    bookingParams(b),
    'checkout_insert_booking',
  );
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
