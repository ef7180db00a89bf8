// The import document's `offer_rules` key: departure rules per market product and departure
// airport, upserted on their code (editable later by importing them again). An additive section:
// it owns only this key and runs after the catalog's, whose market products it refers to.
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { DbOrTx } from '../../db/database.js';
import { airports, marketProducts, markets, offerRules, productTemplates } from '../../db/schema/index.js';
import type { ImportProblem, ImportSection } from '../../import/section.js';

const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });

export const OfferRuleInput = Type.Object(
  {
    code: Type.String({
      pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
      description: 'natural key; generated offers are coded <code>-<YYYYMMDD>',
    }),
    product: Type.Object(
      {
        template: Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' }),
        market: Type.String({ pattern: '^[a-z]{2,3}$' }),
        language: Type.String({ pattern: '^[a-z]{2}$' }),
      },
      { additionalProperties: false, description: 'the market product (its natural key)' },
    ),
    departure_airport: Type.String({ pattern: '^[A-Z]{3}$', description: 'IATA airport code' }),
    weekdays: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), {
        uniqueItems: true,
        description: 'ISO weekdays of departure: 1 Monday ... 7 Sunday',
      }),
    ),
    dates: Type.Optional(Type.Array(IsoDate, { uniqueItems: true, description: 'single departure dates' })),
    season_start: IsoDate,
    season_end: IsoDate,
    pax_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 9, default: 2 })),
    seats: Type.Integer({ minimum: 0, description: 'allotment of each generated departure' }),
    margin_percent: Type.Optional(Type.String({ pattern: '^\\d{1,3}(?:\\.\\d{1,2})?$' })),
    fallback_flight_price: Type.Optional(
      Type.String({
        pattern: '^\\d{1,10}(?:\\.\\d{1,2})?$',
        description: 'per person in the market currency, when no live search cached a fare for the date',
      }),
    ),
    active: Type.Optional(Type.Boolean({ default: true })),
  },
  { additionalProperties: false, description: 'offers.generate creates the departures of this rule' },
);

interface RuleDoc {
  code: string;
  product: { template: string; market: string; language: string };
  departure_airport: string;
  weekdays?: number[];
  dates?: string[];
  season_start: string;
  season_end: string;
  pax_count?: number;
  seats: number;
  margin_percent?: string;
  fallback_flight_price?: string;
  active?: boolean;
}

async function productId(db: DbOrTx, p: RuleDoc['product']): Promise<number | null> {
  const [row] = await db
    .select({ id: marketProducts.id })
    .from(marketProducts)
    .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
    .innerJoin(markets, eq(markets.id, marketProducts.marketId))
    .where(
      and(eq(productTemplates.code, p.template), eq(markets.code, p.market), eq(marketProducts.language, p.language)),
    );
  return row?.id ?? null;
}

export const offerRulesSection: ImportSection = {
  name: 'offer_rules',
  properties: { offer_rules: Type.Array(OfferRuleInput) },

  async check(doc, ctx) {
    const rules = (doc.offer_rules ?? []) as RuleDoc[];
    const problems: ImportProblem[] = [];
    const inDoc = new Set(
      ((doc.market_products ?? []) as Array<{ template: string; market: string; language: string }>).map(
        (p) => `${p.template}|${p.market}|${p.language}`,
      ),
    );
    const airportsInDoc = new Set(((doc.airports ?? []) as Array<{ iata_code?: string }>).map((a) => a.iata_code));
    const seen = new Set<string>();
    for (const [i, r] of rules.entries()) {
      const at = `/offer_rules/${i}`;
      if (seen.has(r.code)) problems.push({ path: `${at}/code`, reason: `code ${r.code} is listed twice` });
      seen.add(r.code);
      if (r.season_end < r.season_start) {
        problems.push({ path: `${at}/season_end`, reason: 'the season ends before it starts' });
      }
      if (!r.weekdays?.length && !r.dates?.length) {
        problems.push({ path: at, reason: 'a rule needs weekdays or dates' });
      }
      const key = `${r.product.template}|${r.product.market}|${r.product.language}`;
      if (!inDoc.has(key) && (await productId(ctx.db, r.product)) === null) {
        problems.push({ path: `${at}/product`, reason: `no market product ${key.replaceAll('|', '/')}` });
      }
      if (!airportsInDoc.has(r.departure_airport)) {
        const [a] = await ctx.db.select().from(airports).where(eq(airports.iataCode, r.departure_airport));
        if (!a) problems.push({ path: `${at}/departure_airport`, reason: `unknown airport ${r.departure_airport}` });
      }
    }
    return problems;
  },

  async apply(tx, doc, ctx) {
    const rules = (doc.offer_rules ?? []) as RuleDoc[];
    if (!rules.length) return;
    let inserted = 0;
    let updated = 0;
    for (const r of rules) {
      const values = {
        code: r.code,
        marketProductId: (await productId(tx, r.product))!,
        departureAirport: r.departure_airport,
        weekdays: r.weekdays ?? [],
        dates: r.dates ?? [],
        seasonStart: r.season_start,
        seasonEnd: r.season_end,
        paxCount: r.pax_count ?? 2,
        seats: r.seats,
        marginPercent: r.margin_percent ?? '0',
        fallbackFlightPrice: r.fallback_flight_price ?? null,
        active: r.active ?? true,
      };
      const [row] = await tx
        .insert(offerRules)
        .values(values)
        .onConflictDoUpdate({ target: offerRules.code, set: { ...values, updatedAt: sql`now()` } })
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      if (row?.inserted) inserted++;
      else updated++;
    }
    ctx.count('offer_rules', { total: rules.length, inserted, updated });
  },
};
