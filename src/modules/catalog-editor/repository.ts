// Reads of the catalog editor: lists and the stored state of one record, shaped as the import
// document names things (codes, snake_case values), so a form shows what a save would send. The
// editor writes nothing here: every save goes through the importer.
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import {
  accommodations,
  activities,
  hotels,
  itineraryDayActivities,
  itineraryDays,
  marketAirports,
  marketProductAirports,
  marketProducts,
  markets,
  offerRules,
  offers,
  productTemplates,
  tourDayTransfers,
  transfers,
} from '../../db/schema/index.js';

export interface ProductListFilter {
  market?: string;
  status?: string;
  q?: string;
}

export interface ProductListRow {
  id: number;
  template: string;
  market: string;
  language: string;
  status: string;
  title: string;
  sku: string;
  updatedAt: Date;
}

const productColumns = {
  id: marketProducts.id,
  template: productTemplates.code,
  market: markets.code,
  language: marketProducts.language,
  status: marketProducts.status,
  title: marketProducts.title,
  sku: marketProducts.sku,
  updatedAt: marketProducts.updatedAt,
};

function productWhere(f: ProductListFilter): SQL | undefined {
  const q = f.q?.replace(/[%_\\]/g, (c) => `\\${c}`);
  return and(
    f.market ? eq(markets.code, f.market) : undefined,
    f.status ? eq(marketProducts.status, f.status) : undefined,
    q
      ? or(
          ilike(marketProducts.title, `%${q}%`),
          ilike(productTemplates.code, `${q}%`),
          ilike(marketProducts.sku, `${q}%`),
        )
      : undefined,
  );
}

export async function listProducts(
  db: DbOrTx,
  f: ProductListFilter,
  page: number,
  perPage: number,
): Promise<{ rows: ProductListRow[]; total: number }> {
  const where = productWhere(f);
  const [rows, [total]] = await Promise.all([
    db
      .select(productColumns)
      .from(marketProducts)
      .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
      .innerJoin(markets, eq(markets.id, marketProducts.marketId))
      .where(where)
      .orderBy(asc(markets.code), asc(productTemplates.code), asc(marketProducts.language))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db
      .select({ n: count() })
      .from(marketProducts)
      .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
      .innerJoin(markets, eq(markets.id, marketProducts.marketId))
      .where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function productRow(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      ...productColumns,
      locale: marketProducts.locale,
      version: marketProducts.version,
      sortOrder: marketProducts.sortOrder,
      subtitle: marketProducts.subtitle,
      shortDescription: marketProducts.shortDescription,
      longDescription: marketProducts.longDescription,
      highlights: marketProducts.highlights,
      destinationInfo: marketProducts.destinationInfo,
      urlSlug: marketProducts.urlSlug,
      countryName: marketProducts.countryName,
      heroImage: marketProducts.heroImage,
      cancellationPolicy: marketProducts.cancellationPolicy,
      templateId: marketProducts.templateId,
      marketId: marketProducts.marketId,
      currency: markets.currencyCode,
      templateTitle: productTemplates.title,
      tripDurationDays: productTemplates.tripDurationDays,
    })
    .from(marketProducts)
    .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
    .innerJoin(markets, eq(markets.id, marketProducts.marketId))
    .where(eq(marketProducts.id, id));
  return row;
}
export type ProductRecord = NonNullable<Awaited<ReturnType<typeof productRow>>>;

/** The languages the tour is sold in within the market: language -> market product id. */
export async function siblingLanguages(db: DbOrTx, templateId: number, marketId: number) {
  const rows = await db
    .select({ id: marketProducts.id, language: marketProducts.language })
    .from(marketProducts)
    .where(and(eq(marketProducts.templateId, templateId), eq(marketProducts.marketId, marketId)));
  return new Map(rows.map((r) => [r.language, r.id]));
}

/** The id of a market product by its natural key (after a create). */
export async function productIdByKey(db: DbOrTx, template: string, market: string, language: string) {
  const [row] = await db
    .select({ id: marketProducts.id })
    .from(marketProducts)
    .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
    .innerJoin(markets, eq(markets.id, marketProducts.marketId))
    .where(and(eq(productTemplates.code, template), eq(markets.code, market), eq(marketProducts.language, language)));
  return row?.id;
}

export async function productAirports(db: DbOrTx, id: number): Promise<string[]> {
  const rows = await db
    .select({ iata: marketProductAirports.iataCode })
    .from(marketProductAirports)
    .where(eq(marketProductAirports.marketProductId, id))
    .orderBy(asc(marketProductAirports.sortOrder));
  return rows.map((r) => r.iata);
}

export interface DayRecord {
  day: number;
  title: string;
  description: string;
  city: string | null;
  country: string | null;
  activities: { activity: string; tier: string }[];
}

export async function productDays(db: DbOrTx, id: number): Promise<DayRecord[]> {
  const days = await db
    .select()
    .from(itineraryDays)
    .where(eq(itineraryDays.marketProductId, id))
    .orderBy(asc(itineraryDays.dayNumber));
  const acts = days.length
    ? await db
        .select({
          dayId: itineraryDayActivities.itineraryDayId,
          code: activities.code,
          tier: itineraryDayActivities.tier,
        })
        .from(itineraryDayActivities)
        .innerJoin(activities, eq(activities.id, itineraryDayActivities.activityId))
        .where(
          inArray(
            itineraryDayActivities.itineraryDayId,
            days.map((d) => d.id),
          ),
        )
        .orderBy(asc(itineraryDayActivities.sortOrder))
    : [];
  return days.map((d) => ({
    day: d.dayNumber,
    title: d.title,
    description: d.description,
    city: d.city,
    country: d.country,
    activities: acts.filter((a) => a.dayId === d.id).map((a) => ({ activity: a.code, tier: a.tier })),
  }));
}

export async function templateParts(db: DbOrTx, templateId: number) {
  const [stays, moves, others] = await Promise.all([
    db
      .select({
        hotel: hotels.code,
        tier: accommodations.tier,
        dayStart: accommodations.dayStart,
        dayEnd: accommodations.dayEnd,
      })
      .from(accommodations)
      .innerJoin(hotels, eq(hotels.id, accommodations.hotelId))
      .where(eq(accommodations.templateId, templateId))
      .orderBy(asc(accommodations.tier), asc(accommodations.dayStart)),
    db
      .select({ day: tourDayTransfers.dayNumber, transfer: transfers.code, kind: tourDayTransfers.kind })
      .from(tourDayTransfers)
      .innerJoin(transfers, eq(transfers.id, tourDayTransfers.transferId))
      .where(eq(tourDayTransfers.templateId, templateId))
      .orderBy(asc(tourDayTransfers.dayNumber)),
    db
      .select({ status: marketProducts.status })
      .from(marketProducts)
      .where(and(eq(marketProducts.templateId, templateId), ne(marketProducts.status, 'draft'))),
  ]);
  return { accommodations: stays, dayTransfers: moves, nonDraftProducts: others.length };
}

/** The template's id and how many of its market products are not drafts (the publishing rule). */
export async function templateByCode(db: DbOrTx, code: string) {
  const [t] = await db.select().from(productTemplates).where(eq(productTemplates.code, code));
  return t;
}

/** Codes and names for the form's choices. */
export async function choices(db: DbOrTx) {
  const [h, a, t, tpl, m] = await Promise.all([
    db.select({ code: hotels.code, name: hotels.name }).from(hotels).orderBy(asc(hotels.code)),
    db.select({ code: activities.code, name: activities.name }).from(activities).orderBy(asc(activities.code)),
    db.select({ code: transfers.code, name: transfers.name }).from(transfers).orderBy(asc(transfers.code)),
    db
      .select({ code: productTemplates.code, name: productTemplates.title })
      .from(productTemplates)
      .orderBy(asc(productTemplates.code)),
    db
      .select({ code: markets.code, name: markets.name, languages: markets.languages })
      .from(markets)
      .orderBy(asc(markets.code)),
  ]);
  return { hotels: h, activities: a, transfers: t, templates: tpl, markets: m };
}
export type Choices = Awaited<ReturnType<typeof choices>>;

// ------------------------------------------------------------------------------------ offers

const offerColumns = {
  id: offers.id,
  code: offers.code,
  marketProductId: offers.marketProductId,
  departureAirport: offers.departureAirport,
  departureDate: offers.departureDate,
  returnDate: offers.returnDate,
  status: offers.status,
  paxCount: offers.paxCount,
  allotment: offers.allotment,
  allotmentUsed: offers.allotmentUsed,
  landBasePrice: offers.landBasePrice,
  flightPrice: offers.flightPrice,
  marginPercent: offers.marginPercent,
  finalPrice: offers.finalPrice,
  pricePerPerson: offers.pricePerPerson,
  template: productTemplates.code,
  market: markets.code,
  language: marketProducts.language,
  productTitle: marketProducts.title,
};
function selectOffers(db: DbOrTx) {
  return db
    .select(offerColumns)
    .from(offers)
    .innerJoin(marketProducts, eq(marketProducts.id, offers.marketProductId))
    .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
    .innerJoin(markets, eq(markets.id, marketProducts.marketId));
}
export type OfferRecord = Awaited<ReturnType<typeof selectOffers>>[number];

export interface OfferListFilter {
  market?: string;
  status?: string;
  product?: number;
  q?: string;
}

export async function listOffers(
  db: DbOrTx,
  f: OfferListFilter,
  page: number,
  perPage: number,
): Promise<{ rows: OfferRecord[]; total: number }> {
  const where = and(
    f.market ? eq(markets.code, f.market) : undefined,
    f.status ? eq(offers.status, f.status) : undefined,
    f.product ? eq(offers.marketProductId, f.product) : undefined,
    f.q ? ilike(offers.code, `${f.q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    selectOffers(db)
      .where(where)
      .orderBy(desc(offers.departureDate), asc(offers.code))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db
      .select({ n: count() })
      .from(offers)
      .innerJoin(marketProducts, eq(marketProducts.id, offers.marketProductId))
      .innerJoin(markets, eq(markets.id, marketProducts.marketId))
      .where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function offerRow(db: DbOrTx, id: number): Promise<OfferRecord | undefined> {
  const [row] = await selectOffers(db).where(eq(offers.id, id));
  return row;
}

export async function offerIdByCode(db: DbOrTx, code: string) {
  const [row] = await db.select({ id: offers.id }).from(offers).where(eq(offers.code, code));
  return row?.id;
}

// ------------------------------------------------------------------------------------ departure rules

export async function productRules(db: DbOrTx, productId: number) {
  return db.select().from(offerRules).where(eq(offerRules.marketProductId, productId)).orderBy(asc(offerRules.code));
}

export async function ruleRow(db: DbOrTx, id: number) {
  const [row] = await db.select().from(offerRules).where(eq(offerRules.id, id));
  return row;
}
export type RuleRecord = NonNullable<Awaited<ReturnType<typeof ruleRow>>>;

export async function ruleIdByCode(db: DbOrTx, code: string) {
  const [row] = await db.select({ id: offerRules.id }).from(offerRules).where(eq(offerRules.code, code));
  return row?.id;
}

// ------------------------------------------------------------------------------------ markets

export async function listMarkets(db: DbOrTx) {
  return db.select().from(markets).orderBy(asc(markets.code));
}

export async function marketRow(db: DbOrTx, code: string) {
  const [m] = await db.select().from(markets).where(eq(markets.code, code));
  if (!m) return undefined;
  const airports = await db
    .select({ iata: marketAirports.iataCode })
    .from(marketAirports)
    .where(eq(marketAirports.marketId, m.id))
    .orderBy(asc(marketAirports.sortOrder));
  return { ...m, airports: airports.map((a) => a.iata) };
}
export type MarketRecord = NonNullable<Awaited<ReturnType<typeof marketRow>>>;
