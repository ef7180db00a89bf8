import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { airports, airportTranslations, marketAirports, markets } from '../../db/schema/index.js';

export interface MarketAirport {
  iata_code: string;
  name: string;
  city: string;
  is_primary: boolean;
  /** language -> the airport's translated texts (a null field falls back; see airportsIn) */
  texts: Record<string, { name: string | null; city: string | null }>;
}

export interface Market {
  id: number;
  code: string;
  name: string;
  isActive: boolean;
  defaultLanguage: string;
  languages: string[];
  tourPathSlugs: Record<string, string>;
  currency: { code: string; name: string; symbol: string };
  timezone: string;
  airports: MarketAirport[];
}

export async function loadMarkets(db: DbOrTx): Promise<Market[]> {
  const rows = await db.select().from(markets).orderBy(asc(markets.id));
  const links = await db
    .select({
      marketId: marketAirports.marketId,
      iata: airports.iataCode,
      name: airports.name,
      city: airports.city,
      isPrimary: marketAirports.isPrimary,
    })
    .from(marketAirports)
    .innerJoin(airports, eq(airports.iataCode, marketAirports.iataCode))
    .orderBy(asc(marketAirports.sortOrder), asc(airports.iataCode));
  // the few translations of the markets' airports, kept with the markets (no query per request)
  const texts = await db
    .select({
      iata: airportTranslations.iataCode,
      language: airportTranslations.language,
      name: airportTranslations.name,
      city: airportTranslations.city,
    })
    .from(airportTranslations)
    .innerJoin(marketAirports, eq(marketAirports.iataCode, airportTranslations.iataCode));
  const textsOf = (iata: string) =>
    Object.fromEntries(texts.filter((t) => t.iata === iata).map((t) => [t.language, { name: t.name, city: t.city }]));
  return rows.map((m) => ({
    id: m.id,
    code: m.code,
    name: m.name,
    isActive: m.isActive,
    defaultLanguage: m.defaultLanguage,
    languages: m.languages,
    tourPathSlugs: m.tourPathSlugs,
    currency: { code: m.currencyCode, name: m.currencyName, symbol: m.currencySymbol },
    timezone: m.timezone,
    airports: links
      .filter((l) => l.marketId === m.id)
      .map((l) => ({
        iata_code: l.iata,
        name: l.name,
        city: l.city,
        is_primary: l.isPrimary,
        texts: textsOf(l.iata),
      })),
  }));
}

/** The market's default language (undefined for an unknown code), read inside a caller's transaction. */
export async function marketDefaultLanguage(db: DbOrTx, code: string): Promise<string | undefined> {
  const rows = await db.select({ lang: markets.defaultLanguage }).from(markets).where(eq(markets.code, code)).limit(1);
  return rows[0]?.lang;
}
