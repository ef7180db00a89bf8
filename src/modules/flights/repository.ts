// SQL of the flights module: the offer's flight cache and prices (refreshed by the live economy
// search, as the contract asks), and airport names for enriching a booking's flight selection.
import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { airports, offers } from '../../db/schema/index.js';

export async function offerFlightData(db: DbOrTx, offerId: number): Promise<unknown> {
  const rows = await db.select({ d: offers.flightData }).from(offers).where(eq(offers.id, offerId)).limit(1);
  return rows[0]?.d ?? null;
}

/** The offer's per-person flight price (NUMERIC string), or null when the offer is gone. */
export async function offerFlightPrice(db: DbOrTx, offerId: number): Promise<string | null> {
  const rows = await db.select({ p: offers.flightPrice }).from(offers).where(eq(offers.id, offerId)).limit(1);
  return rows[0]?.p ?? null;
}

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

export async function saveOfferFlightData(db: DbOrTx, offerId: number, flightData: Record<string, unknown>) {
  await db.update(offers).set({ flightData, updatedAt: sql`now()` }).where(eq(offers.id, offerId));
}

export interface AirportInfo {
  iata_code: string;
  name: string;
  city: string;
  country: string;
}

export async function airportsByCode(db: DbOrTx, codes: string[]): Promise<Map<string, AirportInfo>> {
  const unique = [...new Set(codes.filter(Boolean).map((c) => c.toUpperCase()))];
  if (unique.length === 0) return new Map();
  const rows = await db.select().from(airports).where(inArray(airports.iataCode, unique));
  return new Map(
    rows.map((r) => [r.iataCode, { iata_code: r.iataCode, name: r.name, city: r.city, country: r.country }]),
  );
}
