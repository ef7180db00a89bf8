// What content needs of the catalog: the market product of a product template in one locale
// (active only), with its day cities and the prices of its Active upcoming offers, and the
// product templates' codes and ids. Content names tours by template code; this is the one place
// that turns a code into the product a market sells.
import { and, asc, eq, gte, inArray, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { itineraryDays, marketProducts, offers, productTemplates } from '../../db/schema/catalog.js';
import { addDays } from '../../platform/clock.js';
import { LEAD_TIME_DAYS, type PricedOffer } from './rules.js';

export interface Tour {
  templateCode: string;
  marketProductId: number;
  title: string;
  urlSlug: string;
  countryName: string;
  heroImage: string | null;
  durationDays: number;
  /** day cities in day order (nulls kept; rules.itineraryLine tidies them) */
  cities: (string | null)[];
  /** Active offers departing from the lead-time date on; rules.leadingPrice applies isBookable */
  offers: PricedOffer[];
}

/** Tours by template code for the locale; codes without an active product there are absent. */
export async function toursByTemplateCode(
  db: DbOrTx,
  locale: string,
  codes: string[],
  today: string,
): Promise<Map<string, Tour>> {
  const unique = [...new Set(codes)];
  if (unique.length === 0) return new Map();
  const products = await db
    .select({
      templateCode: productTemplates.code,
      marketProductId: marketProducts.id,
      title: marketProducts.title,
      urlSlug: marketProducts.urlSlug,
      countryName: marketProducts.countryName,
      heroImage: marketProducts.heroImage,
      durationDays: productTemplates.tripDurationDays,
    })
    .from(marketProducts)
    .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
    .where(
      and(
        eq(marketProducts.locale, locale),
        eq(marketProducts.status, 'active'),
        inArray(productTemplates.code, unique),
      ),
    );
  if (products.length === 0) return new Map();
  const ids = products.map((p) => p.marketProductId);
  const [days, prices] = await Promise.all([
    db
      .select({ marketProductId: itineraryDays.marketProductId, city: itineraryDays.city })
      .from(itineraryDays)
      .where(inArray(itineraryDays.marketProductId, ids))
      .orderBy(asc(itineraryDays.marketProductId), asc(itineraryDays.dayNumber)),
    db
      .select({
        marketProductId: offers.marketProductId,
        status: offers.status,
        departureDate: offers.departureDate,
        pricePerPerson: offers.pricePerPerson,
      })
      .from(offers)
      .where(
        and(
          inArray(offers.marketProductId, ids),
          eq(offers.status, 'Active'),
          gte(offers.departureDate, addDays(today, LEAD_TIME_DAYS)),
        ),
      ),
  ]);
  const tours = new Map<string, Tour>();
  for (const p of products) {
    tours.set(p.templateCode, {
      templateCode: p.templateCode,
      marketProductId: p.marketProductId,
      title: p.title,
      urlSlug: p.urlSlug,
      countryName: p.countryName,
      // the market product's own image: no fallback to the template (spec 1, rule 3)
      heroImage: p.heroImage,
      durationDays: p.durationDays,
      cities: days.filter((d) => d.marketProductId === p.marketProductId).map((d) => d.city),
      offers: prices.filter((o) => o.marketProductId === p.marketProductId),
    });
  }
  return tours;
}

/** Template codes by template id; ids without a template are absent. */
export async function templateCodes(db: DbOrTx, ids: number[]): Promise<Map<number, string>> {
  const rows = ids.length ? await templateKeys(db, inArray(productTemplates.id, ids)) : [];
  return new Map(rows.map((r) => [r.id, r.code]));
}

/** Template ids by code; codes without a template are absent. */
export async function templateIdsByCode(db: DbOrTx, codes: string[]): Promise<Map<string, number>> {
  const rows = codes.length ? await templateKeys(db, inArray(productTemplates.code, codes)) : [];
  return new Map(rows.map((r) => [r.code, r.id]));
}

function templateKeys(db: DbOrTx, where: SQL): Promise<{ id: number; code: string }[]> {
  return db.select({ id: productTemplates.id, code: productTemplates.code }).from(productTemplates).where(where);
}
