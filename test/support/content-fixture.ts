// Builders for content tests: catalog rows (templates, market products with day cities and
// offers) written directly with Drizzle, and content applied through the import section.
import { eq } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../src/db/database.js';
import { itineraryDays, marketProducts, markets, offers, productTemplates } from '../../src/db/schema/index.js';
import type { ImportContext } from '../../src/import/section.js';
import { contentSection } from '../../src/modules/content/import.js';

export async function addTemplate(
  database: Database,
  t: { code: string; days: number; countrySlug: string; heroImage?: string },
): Promise<number> {
  const [row] = await database.db
    .insert(productTemplates)
    .values({
      code: t.code,
      slug: t.code,
      title: t.code,
      tripDurationDays: t.days,
      countrySlug: t.countrySlug,
      heroImage: t.heroImage ?? `tours/${t.code}.jpg`,
    })
    .returning({ id: productTemplates.id });
  return row!.id;
}

export interface OfferSpec {
  date: string;
  pricePerPerson: string;
  status?: string;
}

let skuSeq = 0;

/** A market product of `templateId` in market `marketCode` and `lang`, with day cities and offers. */
export async function addMarketProduct(
  database: Database,
  p: {
    templateId: number;
    market: string;
    lang: string;
    status?: string;
    title: string;
    urlSlug: string;
    countryName: string;
    heroImage?: string | null;
    cities?: (string | null)[];
    offers?: OfferSpec[];
  },
): Promise<number> {
  const [market] = await database.db.select().from(markets).where(eq(markets.code, p.market));
  skuSeq += 1;
  const [row] = await database.db
    .insert(marketProducts)
    .values({
      templateId: p.templateId,
      marketId: market!.id,
      language: p.lang,
      locale: `${p.lang}_${p.market.toUpperCase()}`,
      sku: `${p.market.toUpperCase()}-${p.templateId}MAD${skuSeq}-${p.lang.toUpperCase()}1`,
      status: p.status ?? 'active',
      title: p.title,
      urlSlug: p.urlSlug,
      countryName: p.countryName,
      heroImage: p.heroImage ?? null,
    })
    .returning({ id: marketProducts.id });
  const id = row!.id;
  const cities = p.cities ?? [];
  if (cities.length) {
    await database.db
      .insert(itineraryDays)
      .values(cities.map((city, i) => ({ marketProductId: id, dayNumber: i + 1, title: `Day ${i + 1}`, city })));
  }
  for (const [i, o] of (p.offers ?? []).entries()) {
    await database.db.insert(offers).values({
      code: `OF-${id}-${i}`,
      marketProductId: id,
      departureAirport: 'MAD',
      departureDate: o.date,
      status: o.status ?? 'Active',
      allotment: 10,
      landBasePrice: '1000.00',
      flightPrice: '400.00',
      finalPrice: o.pricePerPerson,
      pricePerPerson: o.pricePerPerson,
    });
  }
  return id;
}

/** Applies a content import document the way the importer does: one transaction. */
export async function applyContent(database: Database, doc: Record<string, unknown>): Promise<void> {
  const problems = await contentSection.check(doc, importContext(database.db));
  if (problems.length) throw new Error(`content document problems: ${JSON.stringify(problems)}`);
  await database.db.transaction((tx) => contentSection.apply(tx, doc, importContext(tx)));
}

/** An import context for calling the content section directly (the importer builds the real one). */
export function importContext(db: DbOrTx): ImportContext {
  return { today: '2026-06-15', db, count: () => {}, changed: () => {} };
}
