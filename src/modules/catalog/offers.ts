// Offer reads and writes for the checkout, the flights and the bookings: the offer a checkout
// prices from, its final price, the flight cache and prices the live economy search refreshes,
// and the allotment a paid booking consumes.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/database.js';
import { marketProducts, offers } from '../../db/schema/index.js';

export interface OfferWithProduct {
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
// once per connection; dates and money as text, as Drizzle's string modes give them. The name
// keeps its checkout_ prefix: it is the checkout's statement, only its SQL lives here.
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
export async function findOffer(database: Database, offerId: number, lang: string): Promise<OfferWithProduct | null> {
  const { rows } = await database.query<OfferWithProduct>(FIND_OFFER, [offerId, lang], 'checkout_find_offer');
  return rows[0] ?? null;
}

export async function offerFinalPrice(db: DbOrTx, offerId: number): Promise<string | null> {
  const rows = await db.select({ p: offers.finalPrice }).from(offers).where(eq(offers.id, offerId)).limit(1);
  return rows[0]?.p ?? null;
}

export async function offerFlightData(db: DbOrTx, offerId: number): Promise<unknown> {
  const rows = await db.select({ d: offers.flightData }).from(offers).where(eq(offers.id, offerId)).limit(1);
  return rows[0]?.d ?? null;
}

/** The offer's departure date (YYYY-MM-DD), or null when the offer is gone. */
export async function offerDepartureDate(db: DbOrTx, offerId: number): Promise<string | null> {
  const rows = await db.select({ d: offers.departureDate }).from(offers).where(eq(offers.id, offerId)).limit(1);
  return rows[0]?.d ?? null;
}

/** The offer's per-person flight price (NUMERIC string), or null when the offer is gone. */
export async function offerFlightPrice(db: DbOrTx, offerId: number): Promise<string | null> {
  const rows = await db.select({ p: offers.flightPrice }).from(offers).where(eq(offers.id, offerId)).limit(1);
  return rows[0]?.p ?? null;
}

/** The live economy search's new prices and flight cache (the contract has it update the offer). */
export async function refreshOfferFlights(
  db: DbOrTx,
  offerId: number,
  set: { flightPrice: string; finalPrice: string; pricePerPerson: string; flightData: Record<string, unknown> },
): Promise<void> {
  await db
    .update(offers)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(offers.id, offerId));
}

/**
 * Takes a fare's cards out of the offer's cached flight options (the fare has expired at the
 * provider: it must not be listed again). One statement: a concurrent refresh is not undone.
 */
export async function dropOfferFlightCard(db: DbOrTx, offerId: number, fareId: string): Promise<void> {
  const without = (key: string) =>
    sql`coalesce((select jsonb_agg(e) from jsonb_array_elements(${offers.flightData}->${key}) e where e->>'fareId' <> ${fareId}), '[]'::jsonb)`;
  await db
    .update(offers)
    .set({
      flightData: sql`${offers.flightData} || jsonb_build_object('outbound_options', ${without('outbound_options')}, 'inbound_options', ${without('inbound_options')})`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(offers.id, offerId), sql`jsonb_typeof(${offers.flightData}->'outbound_options') = 'array'`));
}

/** The offer's allotment and seats used, its row locked until the caller's transaction ends. */
export async function lockOfferSeats(
  tx: DbOrTx,
  offerId: number,
): Promise<{ allotment: number; allotmentUsed: number } | null> {
  const rows = await tx
    .select({ allotment: offers.allotment, allotmentUsed: offers.allotmentUsed })
    .from(offers)
    .where(eq(offers.id, offerId))
    .for('update');
  return rows[0] ?? null;
}

/**
 * Adds a paid booking's seats (its passengers) to the offer's allotment_used. The seats were held
 * from the payment intent on, so they are there; taken unconditionally (a paid booking keeps them).
 * Takes the caller's transaction (a booking's finalization).
 */
export async function takeSeats(tx: DbOrTx, offerId: number, seats: number): Promise<void> {
  await tx
    .update(offers)
    .set({ allotmentUsed: sql`${offers.allotmentUsed} + ${seats}` })
    .where(eq(offers.id, offerId));
}

export interface OfferTrip {
  offerId: number;
  departureDate: string;
  returnDate: string | null;
  templateId: number;
  marketProductId: number;
  /** the market product's title (the offer's own language) */
  tourName: string;
}

/** What the booking after the sale needs of its offer: dates, the tour and its title. */
export async function offerTrip(db: DbOrTx, offerId: number): Promise<OfferTrip | null> {
  const rows = await db
    .select({
      offerId: offers.id,
      departureDate: offers.departureDate,
      returnDate: offers.returnDate,
      templateId: marketProducts.templateId,
      marketProductId: marketProducts.id,
      tourName: marketProducts.title,
    })
    .from(offers)
    .innerJoin(marketProducts, eq(marketProducts.id, offers.marketProductId))
    .where(eq(offers.id, offerId))
    .limit(1);
  return rows[0] ?? null;
}

/** The return dates (YYYY-MM-DD, null when unknown) of the given offers. */
export async function offerReturnDates(db: DbOrTx, offerIds: number[]): Promise<Map<number, string | null>> {
  if (offerIds.length === 0) return new Map();
  const rows = await db
    .select({ id: offers.id, returnDate: offers.returnDate })
    .from(offers)
    .where(inArray(offers.id, offerIds));
  return new Map(rows.map((r) => [r.id, r.returnDate]));
}
