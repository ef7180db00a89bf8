// SQL of offer generation: the rules, the departures that exist, the fares live searches cached,
// and the generated offers (written only where the generator still owns them).
import { and, asc, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import {
  bookings,
  generatedOffers,
  marketProducts,
  markets,
  offerRules,
  offers,
  productTemplates,
} from '../../db/schema/index.js';
import { formatCents } from '../../platform/money.js';
import { type DeparturePrice, fingerprintOf } from './rules.js';

export type RuleRow = typeof offerRules.$inferSelect & { templateId: number; currency: string; tripDays: number };

/** Active rules of active market products, with the product's tour and the market's currency. */
export async function activeRules(db: DbOrTx): Promise<RuleRow[]> {
  const rows = await db
    .select({
      rule: offerRules,
      templateId: marketProducts.templateId,
      currency: markets.currencyCode,
      tripDays: productTemplates.tripDurationDays,
    })
    .from(offerRules)
    .innerJoin(marketProducts, eq(marketProducts.id, offerRules.marketProductId))
    .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
    .innerJoin(markets, eq(markets.id, marketProducts.marketId))
    .where(and(eq(offerRules.active, true), eq(marketProducts.status, 'active')))
    .orderBy(asc(offerRules.id));
  return rows.map((r) => ({ ...r.rule, templateId: r.templateId, currency: r.currency, tripDays: r.tripDays }));
}

/** Dates of `dates` on which the product already departs from the rule's airport (any offer). */
export async function existingDepartures(db: DbOrTx, rule: RuleRow, dates: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ d: offers.departureDate })
    .from(offers)
    .where(
      and(
        eq(offers.marketProductId, rule.marketProductId),
        eq(offers.departureAirport, rule.departureAirport),
        inArray(offers.departureDate, dates),
      ),
    );
  return new Set(rows.map((r) => r.d));
}

export interface CachedFare {
  /** per person, in `currency` */
  flightPrice: string;
  currency: string;
  flightData: Record<string, unknown>;
}

/**
 * Per date, the fare a live search cached for this tour from this airport: an offer of the same
 * tour (any market; this product's first) whose flight cache has `searched_at`, newest search first.
 */
export async function cachedFares(db: DbOrTx, rule: RuleRow, dates: string[]): Promise<Map<string, CachedFare>> {
  const rows = await db
    .select({
      date: offers.departureDate,
      flightPrice: offers.flightPrice,
      currency: markets.currencyCode,
      flightData: offers.flightData,
    })
    .from(offers)
    .innerJoin(marketProducts, eq(marketProducts.id, offers.marketProductId))
    .innerJoin(markets, eq(markets.id, marketProducts.marketId))
    .where(
      and(
        eq(marketProducts.templateId, rule.templateId),
        eq(offers.departureAirport, rule.departureAirport),
        inArray(offers.departureDate, dates),
        isNotNull(sql`${offers.flightData}->>'searched_at'`),
        sql`${offers.flightPrice} > 0`,
      ),
    )
    .orderBy(
      asc(offers.departureDate),
      desc(sql`${offers.marketProductId} = ${rule.marketProductId}`),
      desc(sql`${offers.flightData}->>'searched_at'`),
    );
  const out = new Map<string, CachedFare>();
  for (const r of rows) {
    if (!out.has(r.date) && r.flightData) {
      out.set(r.date, { flightPrice: r.flightPrice, currency: r.currency, flightData: r.flightData });
    }
  }
  return out;
}

export interface NewDeparture extends DeparturePrice {
  code: string;
  departureDate: string;
  returnDate: string;
  landBaseCents: number;
  flightData: Record<string, unknown> | null;
  fingerprint: string;
}

/** Creates the departure unless its code exists (another run made it); true when created. */
export async function insertGeneratedOffer(db: DbOrTx, rule: RuleRow, d: NewDeparture): Promise<boolean> {
  const [row] = await db
    .insert(offers)
    .values({
      code: d.code,
      marketProductId: rule.marketProductId,
      departureAirport: rule.departureAirport,
      departureDate: d.departureDate,
      returnDate: d.returnDate,
      status: d.status,
      paxCount: rule.paxCount,
      allotment: rule.seats,
      allotmentUsed: 0,
      landBasePrice: formatCents(d.landBaseCents),
      flightPrice: d.flightPrice,
      marginPercent: rule.marginPercent,
      finalPrice: d.finalPrice,
      pricePerPerson: d.pricePerPerson,
      flightData: d.flightData,
    })
    .onConflictDoNothing({ target: offers.code })
    .returning({ id: offers.id });
  if (!row) return false;
  await db.insert(generatedOffers).values({ offerId: row.id, ruleId: rule.id, fingerprint: d.fingerprint });
  return true;
}

export interface GeneratedDraft {
  id: number;
  departureDate: string;
  allotment: number;
  paxCount: number;
  finalPrice: string;
  flightPrice: string;
}

/** The rule's generated Drafts from `from` on that nobody changed (fingerprint) or booked. */
export async function generatedDrafts(db: DbOrTx, ruleId: number, from: string): Promise<GeneratedDraft[]> {
  const rows = await db
    .select({
      id: offers.id,
      status: offers.status,
      departureDate: offers.departureDate,
      allotment: offers.allotment,
      paxCount: offers.paxCount,
      finalPrice: offers.finalPrice,
      flightPrice: offers.flightPrice,
      fingerprint: generatedOffers.fingerprint,
    })
    .from(generatedOffers)
    .innerJoin(offers, eq(offers.id, generatedOffers.offerId))
    .where(
      and(
        eq(generatedOffers.ruleId, ruleId),
        eq(offers.status, 'Draft'),
        eq(offers.allotmentUsed, 0),
        gte(offers.departureDate, from),
        sql`NOT EXISTS (SELECT 1 FROM ${bookings} WHERE ${bookings.offerId} = ${offers.id})`,
      ),
    );
  return rows.filter((r) => fingerprintOf(r) === r.fingerprint);
}

/** Prices a generated Draft, only if its row is still as read (a concurrent run or edit wins). */
export async function repriceGeneratedOffer(
  db: DbOrTx,
  draft: GeneratedDraft,
  p: DeparturePrice & { flightData: Record<string, unknown> | null; fingerprint: string },
): Promise<boolean> {
  const rows = await db
    .update(offers)
    .set({
      status: p.status,
      flightPrice: p.flightPrice,
      finalPrice: p.finalPrice,
      pricePerPerson: p.pricePerPerson,
      flightData: p.flightData,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(offers.id, draft.id),
        eq(offers.status, 'Draft'),
        eq(offers.allotmentUsed, 0),
        eq(offers.finalPrice, draft.finalPrice),
        eq(offers.flightPrice, draft.flightPrice),
      ),
    )
    .returning({ id: offers.id });
  if (!rows.length) return false;
  await db.update(generatedOffers).set({ fingerprint: p.fingerprint }).where(eq(generatedOffers.offerId, draft.id));
  return true;
}
