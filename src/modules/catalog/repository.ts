// SQL of the catalog's read side. Everything of one locale is read in a few set queries (never
// one per product) and turned into plain objects; the service renders and caches them.
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import {
  accommodations,
  activities,
  airports,
  catalogRevision,
  hotelRates,
  hotels,
  itineraryDayActivities,
  itineraryDays,
  marketProductAirports,
  marketProducts,
  markets,
  offers,
  productTemplates,
} from '../../db/schema/index.js';
import { textLanguages } from './rules.js';
import { textIn } from './texts.js';

export type ProductRow = typeof marketProducts.$inferSelect & {
  templateCode: string;
  templateSlug: string;
  tripDurationDays: number;
  countrySlug: string;
};

export interface ProductAirportRow {
  marketProductId: number;
  iataCode: string;
  name: string;
  city: string;
  country: string;
}

export interface DayRow {
  id: number;
  marketProductId: number;
  dayNumber: number;
  title: string;
  description: string;
  city: string | null;
  country: string | null;
}

export interface DayActivityRow {
  itineraryDayId: number;
  tier: string;
  sortOrder: number;
  id: number;
  name: string;
  description: string | null;
  city: string | null;
  country: string | null;
  images: string[];
  reasons: string[] | null;
  amenities: { icon: string; label: string; description: string }[] | null;
}

export interface StayRow {
  templateId: number;
  tier: string;
  dayStart: number;
  dayEnd: number;
  hotelId: number;
  name: string;
  description: string | null;
  city: string | null;
  country: string | null;
  stars: number | null;
  images: string[];
}

export interface OfferRow {
  id: number;
  marketProductId: number;
  departureAirport: string;
  departureDate: string;
  status: string;
  paxCount: number;
  allotment: number;
  allotmentUsed: number;
  finalPrice: string;
  pricePerPerson: string;
}

export interface LocaleRows {
  products: ProductRow[];
  airports: ProductAirportRow[];
  days: DayRow[];
  activities: DayActivityRow[];
  stays: StayRow[];
  /** template id -> room types rated by each of its selection hotels */
  roomTypes: Map<number, string[]>;
}

/**
 * Archived products and offers are deleted for every catalog reader, previews included: they stay
 * in their tables only for the bookings and the history that point at them (the checkout, the
 * confirmation and the console read them by id, not through here).
 */
export const ARCHIVED_PRODUCT = 'archived';
export const ARCHIVED_OFFER = 'Archived';

/**
 * Everything of one locale. Supply texts (airports, hotels, activities) are in the locale's
 * language, falling back to the market's default language, then English, then the base row.
 */
export async function loadLocaleRows(
  db: DbOrTx,
  place: { locale: string; lang: string; defaultLanguage: string },
): Promise<LocaleRows> {
  const { locale } = place;
  const langs = textLanguages(place.lang, place.defaultLanguage);
  const products = await db
    .select({
      p: marketProducts,
      templateCode: productTemplates.code,
      templateSlug: productTemplates.slug,
      tripDurationDays: productTemplates.tripDurationDays,
      countrySlug: productTemplates.countrySlug,
    })
    .from(marketProducts)
    .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
    .where(and(eq(marketProducts.locale, locale), ne(marketProducts.status, ARCHIVED_PRODUCT)))
    .orderBy(asc(marketProducts.sortOrder), asc(marketProducts.id));
  const rows: ProductRow[] = products.map((r) => ({
    ...r.p,
    templateCode: r.templateCode,
    templateSlug: r.templateSlug,
    tripDurationDays: r.tripDurationDays,
    countrySlug: r.countrySlug,
  }));
  if (rows.length === 0)
    return { products: [], airports: [], days: [], activities: [], stays: [], roomTypes: new Map() };
  const ids = rows.map((r) => r.id);
  const templateIds = [...new Set(rows.map((r) => r.templateId))];

  const [airportRows, days, stays, rates] = await Promise.all([
    db
      .select({
        marketProductId: marketProductAirports.marketProductId,
        iataCode: airports.iataCode,
        name: textIn('airport', airports.name, langs),
        city: textIn('airport', airports.city, langs),
        country: textIn('airport', airports.country, langs),
      })
      .from(marketProductAirports)
      .innerJoin(airports, eq(airports.iataCode, marketProductAirports.iataCode))
      .where(inArray(marketProductAirports.marketProductId, ids))
      .orderBy(asc(marketProductAirports.sortOrder)),
    db
      .select()
      .from(itineraryDays)
      .where(inArray(itineraryDays.marketProductId, ids))
      .orderBy(asc(itineraryDays.dayNumber)),
    db
      .select({
        templateId: accommodations.templateId,
        tier: accommodations.tier,
        dayStart: accommodations.dayStart,
        dayEnd: accommodations.dayEnd,
        hotelId: hotels.id,
        name: textIn('hotel', hotels.name, langs),
        description: textIn('hotel', hotels.description, langs),
        city: textIn('hotel', hotels.city, langs),
        country: textIn('hotel', hotels.country, langs),
        stars: hotels.stars,
        images: hotels.images,
      })
      .from(accommodations)
      .innerJoin(hotels, eq(hotels.id, accommodations.hotelId))
      .where(inArray(accommodations.templateId, templateIds))
      .orderBy(asc(accommodations.dayStart), asc(accommodations.id)),
    db
      .select({ templateId: accommodations.templateId, hotelId: hotelRates.hotelId, roomType: hotelRates.roomType })
      .from(accommodations)
      .innerJoin(hotelRates, eq(hotelRates.hotelId, accommodations.hotelId))
      .where(and(inArray(accommodations.templateId, templateIds), eq(accommodations.tier, 'selection'))),
  ]);
  const dayIds = days.map((d) => d.id);
  const dayActivities = dayIds.length
    ? await db
        .select({
          itineraryDayId: itineraryDayActivities.itineraryDayId,
          tier: itineraryDayActivities.tier,
          sortOrder: itineraryDayActivities.sortOrder,
          id: activities.id,
          name: textIn('activity', activities.name, langs),
          description: textIn('activity', activities.description, langs),
          city: textIn('activity', activities.city, langs),
          country: textIn('activity', activities.country, langs),
          images: activities.images,
          reasons: textIn('activity', activities.reasons, langs),
          amenities: textIn('activity', activities.amenities, langs),
        })
        .from(itineraryDayActivities)
        .innerJoin(activities, eq(activities.id, itineraryDayActivities.activityId))
        .where(inArray(itineraryDayActivities.itineraryDayId, dayIds))
        .orderBy(asc(itineraryDayActivities.sortOrder))
    : [];

  return {
    products: rows,
    airports: airportRows,
    days,
    activities: dayActivities,
    stays,
    roomTypes: roomTypesOfSelection(stays, rates),
  };
}

/** Room types every selection hotel of the template has a rate for (sellable for the whole trip). */
function roomTypesOfSelection(
  stays: StayRow[],
  rates: { templateId: number; hotelId: number; roomType: string }[],
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const templates = new Set(stays.filter((s) => s.tier === 'selection').map((s) => s.templateId));
  for (const t of templates) {
    const hotelIds = new Set(stays.filter((s) => s.templateId === t && s.tier === 'selection').map((s) => s.hotelId));
    let common: Set<string> | undefined;
    for (const h of hotelIds) {
      const types = new Set(rates.filter((r) => r.templateId === t && r.hotelId === h).map((r) => r.roomType));
      common = common ? new Set([...common].filter((x) => types.has(x))) : types;
    }
    out.set(t, [...(common ?? [])]);
  }
  return out;
}

/** Offers of a locale's products; availability changes (bookings) make these the most volatile rows. */
export async function loadLocaleOffers(db: DbOrTx, locale: string): Promise<OfferRow[]> {
  return db
    .select({
      id: offers.id,
      marketProductId: offers.marketProductId,
      departureAirport: offers.departureAirport,
      departureDate: offers.departureDate,
      status: offers.status,
      paxCount: offers.paxCount,
      allotment: offers.allotment,
      allotmentUsed: offers.allotmentUsed,
      finalPrice: offers.finalPrice,
      pricePerPerson: offers.pricePerPerson,
    })
    .from(offers)
    .innerJoin(marketProducts, eq(marketProducts.id, offers.marketProductId))
    .where(
      and(
        eq(marketProducts.locale, locale),
        ne(marketProducts.status, ARCHIVED_PRODUCT),
        ne(offers.status, ARCHIVED_OFFER),
      ),
    )
    .orderBy(asc(offers.departureDate), asc(offers.id));
}

export async function readRevision(db: DbOrTx): Promise<number> {
  const rows = await db.select({ revision: catalogRevision.revision }).from(catalogRevision).limit(1);
  return rows[0]?.revision ?? 0;
}

/** market code and language of a market product, for building its preview URL */
export async function productPlace(db: DbOrTx, id: number): Promise<{ market: string; language: string } | undefined> {
  const rows = await db
    .select({ market: markets.code, language: marketProducts.language })
    .from(marketProducts)
    .innerJoin(markets, eq(markets.id, marketProducts.marketId))
    .where(eq(marketProducts.id, id))
    .limit(1);
  return rows[0];
}

/** The market product's own hero image (a storage path or URL), for the booking confirmation. */
export async function productHeroImage(db: DbOrTx, marketProductId: number): Promise<string | null> {
  const rows = await db
    .select({ hero: marketProducts.heroImage })
    .from(marketProducts)
    .where(eq(marketProducts.id, marketProductId))
    .limit(1);
  return rows[0]?.hero ?? null;
}

/**
 * Airports by IATA code (upper-cased), for naming the airports of a booking's flights; in the
 * first of `languages` that has a text (textLanguages), else as stored.
 */
export async function airportNames(db: DbOrTx, codes: string[], languages: string[] = ['en']) {
  const unique = [...new Set(codes.filter(Boolean).map((c) => c.toUpperCase()))];
  if (unique.length === 0) return new Map<string, { name: string; city: string; country: string }>();
  const rows = await db
    .select({
      iataCode: airports.iataCode,
      name: textIn('airport', airports.name, languages),
      city: textIn('airport', airports.city, languages),
      country: textIn('airport', airports.country, languages),
    })
    .from(airports)
    .where(inArray(airports.iataCode, unique));
  return new Map(rows.map((r) => [r.iataCode, { name: r.name, city: r.city, country: r.country }]));
}
