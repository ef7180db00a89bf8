// The catalog's part of the import document: markets, airports, exchange rates, hotels,
// activities, transfers, product templates and market products (with itinerary and offers).
// Children listed under a parent replace that parent's children; a child key left out of the
// document leaves them as they are. Offers are never deleted (bookings point at them).

import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../db/database.js';
import {
  accommodations,
  activities,
  activityRates,
  activityTranslations,
  airports,
  airportTranslations,
  exchangeRates,
  hotelRates,
  hotels,
  hotelTranslations,
  itineraryDayActivities,
  itineraryDays,
  marketAirports,
  marketProductAirports,
  marketProducts,
  markets,
  offers,
  productTemplates,
  tourDayTransfers,
  transferRates,
  transfers,
  transferTranslations,
} from '../../db/schema/index.js';
import { deleteMissing, type FieldChange, mergeRows, namedColumns } from '../../import/rows.js';
import type { ImportContext, ImportProblem, ImportSection } from '../../import/section.js';
import { formatCents, toCents } from '../../platform/money.js';
import { policyErrors } from '../bookings/cancellation-rules.js';
import { paidBookingsByOfferCode } from '../bookings/offer-bookings.js';
import type { CatalogDoc } from './import-schema.js';
import { catalogProperties } from './import-schema.js';
import { skuOf } from './rules.js';

/** What the database already holds, for references the document does not define itself. */
interface Known {
  markets: Map<string, { languages: string[]; airports: string[] }>;
  airports: Set<string>;
  hotels: Set<string>;
  activities: Set<string>;
  transfers: Set<string>;
  templates: Map<string, { days: number; slug: string }>;
  currencies: Set<string>;
  /** stored market products by template/market/language, with their departure airports */
  products: Map<string, { airports: string[] }>;
}

async function loadKnown(db: DbOrTx): Promise<Known> {
  const [m, ma, a, h, ac, tr, t, x, mp, mpa] = await Promise.all([
    db.select({ id: markets.id, code: markets.code, languages: markets.languages }).from(markets),
    db.select().from(marketAirports).orderBy(marketAirports.sortOrder),
    db.select({ code: airports.iataCode }).from(airports),
    db.select({ code: hotels.code }).from(hotels),
    db.select({ code: activities.code }).from(activities),
    db.select({ code: transfers.code }).from(transfers),
    db
      .select({ code: productTemplates.code, days: productTemplates.tripDurationDays, slug: productTemplates.slug })
      .from(productTemplates),
    db.select({ currency: exchangeRates.currency }).from(exchangeRates),
    db
      .select({
        id: marketProducts.id,
        template: productTemplates.code,
        market: markets.code,
        language: marketProducts.language,
      })
      .from(marketProducts)
      .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
      .innerJoin(markets, eq(markets.id, marketProducts.marketId)),
    db.select().from(marketProductAirports).orderBy(marketProductAirports.sortOrder),
  ]);
  return {
    markets: new Map(
      m.map((r) => [
        r.code,
        { languages: r.languages, airports: ma.filter((l) => l.marketId === r.id).map((l) => l.iataCode) },
      ]),
    ),
    airports: new Set(a.map((r) => r.code)),
    hotels: new Set(h.map((r) => r.code)),
    activities: new Set(ac.map((r) => r.code)),
    transfers: new Set(tr.map((r) => r.code)),
    templates: new Map(t.map((r) => [r.code, { days: r.days, slug: r.slug }])),
    currencies: new Set(x.map((r) => r.currency)),
    products: new Map(
      mp.map((r) => [
        `${r.template}/${r.market}/${r.language}`,
        { airports: mpa.filter((l) => l.marketProductId === r.id).map((l) => l.iataCode) },
      ]),
    ),
  };
}

/**
 * The fields a new record must name. A stored record may be updated with any subset of its fields
 * (the rest keep their stored values); a new one has nothing stored to fall back on, and nothing
 * becomes active, or visible, by default.
 */
export const REQUIRED_FOR_NEW = {
  market: ['name', 'is_active', 'languages', 'currency', 'timezone', 'airports'],
  airport: ['name', 'city', 'country'],
  hotel: ['name'],
  activity: ['name'],
  transfer: ['name'],
  'product template': ['title', 'trip_duration_days', 'country_slug'],
  'market product': ['status', 'title', 'url_slug', 'country_name', 'departure_airports'],
  offer: [
    'departure_airport',
    'departure_date',
    'status',
    'allotment',
    'land_base_price',
    'flight_price',
    'final_price',
    'price_per_person',
  ],
} as const;

/** Adds a problem for every field a new record must name and does not. */
export function requireForNew(
  add: (path: string, reason: string) => void,
  path: string,
  record: object,
  fields: readonly string[],
  what: string,
): void {
  for (const f of fields) {
    if ((record as Record<string, unknown>)[f] === undefined) add(`${path}/${f}`, `is required for a new ${what}`);
  }
}

/**
 * The market product (template/market/language) each stored offer of `codes` belongs to: an
 * offer code is its natural key, so the document must not move an offer (and its bookings) to
 * another product. Codes travel as one JSON parameter (thousands of bind parameters are slow).
 */
/** The stored schedule and prices of the offers named, by code. */
async function storedOffers(db: DbOrTx, codes: string[]) {
  if (codes.length === 0) return new Map<string, typeof offers.$inferSelect>();
  const rows = await db.select().from(offers).where(inArray(offers.code, codes));
  return new Map(rows.map((r) => [r.code, r]));
}

async function offerOwners(db: DbOrTx, codes: string[]): Promise<Map<string, string>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({
      code: offers.code,
      template: productTemplates.code,
      market: markets.code,
      language: marketProducts.language,
    })
    .from(offers)
    .innerJoin(marketProducts, eq(marketProducts.id, offers.marketProductId))
    .innerJoin(productTemplates, eq(productTemplates.id, marketProducts.templateId))
    .innerJoin(markets, eq(markets.id, marketProducts.marketId))
    .where(sql`${offers.code} IN (SELECT value FROM json_array_elements_text(${JSON.stringify(codes)}::json))`);
  return new Map(rows.map((r) => [r.code, `${r.template}/${r.market}/${r.language}`]));
}

function validDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export async function checkCatalog(raw: Record<string, unknown>, ctx: ImportContext): Promise<ImportProblem[]> {
  const doc = raw as CatalogDoc;
  const problems: ImportProblem[] = [];
  const add = (path: string, reason: string) => problems.push({ path, reason });
  const known = await loadKnown(ctx.db);

  const unique = <T>(
    key: string,
    items: T[] | undefined,
    keyOf: (t: T) => string | undefined,
    field: string,
    what = 'value',
  ) => {
    const seen = new Map<string, number>();
    (items ?? []).forEach((item, i) => {
      const k = keyOf(item);
      if (k === undefined) return;
      const first = seen.get(k);
      if (first !== undefined) add(`/${key}/${i}/${field}`, `duplicate ${what} '${k}' (first at /${key}/${first})`);
      else seen.set(k, i);
    });
  };
  unique('airports', doc.airports, (a) => a.iata_code, 'iata_code', 'airport');
  unique('exchange_rates', doc.exchange_rates, (x) => x.currency, 'currency', 'currency');
  unique('markets', doc.markets, (m) => m.code, 'code', 'market code');
  unique('hotels', doc.hotels, (h) => h.code, 'code', 'hotel code');
  unique('activities', doc.activities, (a) => a.code, 'code', 'activity code');
  unique('transfers', doc.transfers, (t) => t.code, 'code', 'transfer code');
  unique('product_templates', doc.product_templates, (t) => t.code, 'code', 'template code');
  unique(
    'product_templates',
    doc.product_templates,
    (t) => t.slug ?? (known.templates.has(t.code) ? undefined : t.code),
    'slug',
    'template slug',
  );
  unique(
    'market_products',
    doc.market_products,
    (p) => `${p.template}/${p.market}/${p.language}`,
    'language',
    'market product (template/market/language)',
  );
  unique(
    'market_products',
    doc.market_products,
    (p) => (p.url_slug === undefined ? undefined : `${p.language}_${p.market}/${p.url_slug}`),
    'url_slug',
    'url_slug in the locale',
  );

  (doc.market_products ?? []).forEach((mp, i) => {
    if (!mp.cancellation_policy) return;
    for (const reason of policyErrors(mp.cancellation_policy)) add(`/market_products/${i}/cancellation_policy`, reason);
  });

  (doc.airports ?? []).forEach((a, i) => {
    if (!known.airports.has(a.iata_code)) requireForNew(add, `/airports/${i}`, a, REQUIRED_FOR_NEW.airport, 'airport');
  });
  const airportsKnown = new Set([...known.airports, ...(doc.airports ?? []).map((a) => a.iata_code)]);
  const currencies = new Set(['EUR', ...known.currencies, ...(doc.exchange_rates ?? []).map((x) => x.currency)]);
  const hotelsKnown = new Set([...known.hotels, ...(doc.hotels ?? []).map((h) => h.code)]);
  const activitiesKnown = new Set([...known.activities, ...(doc.activities ?? []).map((a) => a.code)]);
  const transfersKnown = new Set([...known.transfers, ...(doc.transfers ?? []).map((t) => t.code)]);
  const marketsKnown = new Map(known.markets);
  const templatesKnown = new Map(known.templates);

  (doc.markets ?? []).forEach((m, i) => {
    const p = `/markets/${i}`;
    const stored = known.markets.get(m.code);
    if (!stored) requireForNew(add, p, m, REQUIRED_FOR_NEW.market, 'market');
    const languages = m.languages ?? stored?.languages ?? [];
    marketsKnown.set(m.code, { languages, airports: m.airports ?? stored?.airports ?? [] });
    if (m.languages && new Set(m.languages).size !== m.languages.length)
      add(`${p}/languages`, 'languages must not repeat');
    for (const lang of Object.keys(m.tour_path_slugs ?? {})) {
      if (!languages.includes(lang)) add(`${p}/tour_path_slugs/${lang}`, `'${lang}' is not a language of the market`);
    }
    if (m.timezone !== undefined && !validTimeZone(m.timezone))
      add(`${p}/timezone`, `unknown time zone '${m.timezone}'`);
    if (m.currency && !currencies.has(m.currency.code))
      add(`${p}/currency/code`, `no exchange rate for ${m.currency.code}`);
    (m.airports ?? []).forEach((a, j) => {
      if (!airportsKnown.has(a)) add(`${p}/airports/${j}`, `unknown airport '${a}'`);
    });
    if (m.airports && new Set(m.airports).size !== m.airports.length) add(`${p}/airports`, 'airports must not repeat');
  });

  const rateCurrency = (path: string, currency: string) => {
    if (!currencies.has(currency)) add(path, `no exchange rate for ${currency}`);
  };
  (doc.hotels ?? []).forEach((h, i) => {
    if (!known.hotels.has(h.code)) requireForNew(add, `/hotels/${i}`, h, REQUIRED_FOR_NEW.hotel, 'hotel');
    const seen = new Set<string>();
    (h.rates ?? []).forEach((r, j) => {
      if (seen.has(r.room_type)) add(`/hotels/${i}/rates/${j}/room_type`, `duplicate room type '${r.room_type}'`);
      seen.add(r.room_type);
      rateCurrency(`/hotels/${i}/rates/${j}/currency`, r.currency);
    });
  });
  (doc.activities ?? []).forEach((a, i) => {
    if (!known.activities.has(a.code)) requireForNew(add, `/activities/${i}`, a, REQUIRED_FOR_NEW.activity, 'activity');
    if (a.rate) rateCurrency(`/activities/${i}/rate/currency`, a.rate.currency);
  });
  (doc.transfers ?? []).forEach((t, i) => {
    if (!known.transfers.has(t.code)) requireForNew(add, `/transfers/${i}`, t, REQUIRED_FOR_NEW.transfer, 'transfer');
    if (t.rate) rateCurrency(`/transfers/${i}/rate/currency`, t.rate.currency);
  });

  (doc.product_templates ?? []).forEach((t, i) => {
    const p = `/product_templates/${i}`;
    const stored = known.templates.get(t.code);
    if (!stored) requireForNew(add, p, t, REQUIRED_FOR_NEW['product template'], 'product template');
    const days = t.trip_duration_days ?? stored?.days ?? 0;
    const slug = t.slug ?? stored?.slug ?? t.code;
    for (const [code, other] of known.templates) {
      if (other.slug === slug && code !== t.code) add(`${p}/slug`, `slug '${slug}' belongs to template '${code}'`);
    }
    templatesKnown.set(t.code, { days, slug });
    (t.accommodations ?? []).forEach((a, j) => {
      const q = `${p}/accommodations/${j}`;
      if (!hotelsKnown.has(a.hotel)) add(`${q}/hotel`, `unknown hotel '${a.hotel}'`);
      if (a.day_start > a.day_end) add(`${q}/day_end`, 'day_end must not be before day_start');
      if (a.day_end > days) add(`${q}/day_end`, `day ${a.day_end} is after the last day (${days})`);
    });
    (t.day_transfers ?? []).forEach((d, j) => {
      const q = `${p}/day_transfers/${j}`;
      if (!transfersKnown.has(d.transfer)) add(`${q}/transfer`, `unknown transfer '${d.transfer}'`);
      if (d.day > days) add(`${q}/day`, `day ${d.day} is after the last day (${days})`);
    });
  });

  const offerCodes = new Map<string, string>();
  const owners = await offerOwners(
    ctx.db,
    (doc.market_products ?? []).flatMap((mp) => (mp.offers ?? []).map((o) => o.code)),
  );
  const namedOffers = (doc.market_products ?? []).flatMap((mp) => (mp.offers ?? []).map((o) => o.code));
  const [offersBefore, booked] = await Promise.all([
    storedOffers(ctx.db, namedOffers),
    paidBookingsByOfferCode(ctx.db, namedOffers),
  ]);
  (doc.market_products ?? []).forEach((mp, i) => {
    const p = `/market_products/${i}`;
    const product = `${mp.template}/${mp.market}/${mp.language}`;
    const stored = known.products.get(product);
    if (!stored) requireForNew(add, p, mp, REQUIRED_FOR_NEW['market product'], 'market product');
    const template = templatesKnown.get(mp.template);
    const market = marketsKnown.get(mp.market);
    if (!template) add(`${p}/template`, `unknown product template '${mp.template}'`);
    if (!market) add(`${p}/market`, `unknown market '${mp.market}'`);
    else if (!market.languages.includes(mp.language)) {
      add(`${p}/language`, `'${mp.language}' is not a language of market '${mp.market}'`);
    }
    const productAirports = mp.departure_airports ?? stored?.airports ?? [];
    (mp.departure_airports ?? []).forEach((a, j) => {
      if (!airportsKnown.has(a)) add(`${p}/departure_airports/${j}`, `unknown airport '${a}'`);
      else if (market && !market.airports.includes(a)) {
        add(`${p}/departure_airports/${j}`, `'${a}' is not a departure airport of market '${mp.market}'`);
      }
    });
    if (mp.departure_airports && new Set(mp.departure_airports).size !== mp.departure_airports.length) {
      add(`${p}/departure_airports`, 'departure airports must not repeat');
    }
    const days = new Set<number>();
    (mp.itinerary ?? []).forEach((d, j) => {
      const q = `${p}/itinerary/${j}`;
      if (days.has(d.day)) add(`${q}/day`, `duplicate day ${d.day}`);
      days.add(d.day);
      if (template && d.day > template.days) add(`${q}/day`, `day ${d.day} is after the last day (${template.days})`);
      const acts = new Set<string>();
      (d.activities ?? []).forEach((a, k) => {
        if (!activitiesKnown.has(a.activity)) add(`${q}/activities/${k}/activity`, `unknown activity '${a.activity}'`);
        if (acts.has(a.activity)) add(`${q}/activities/${k}/activity`, `activity '${a.activity}' repeats on the day`);
        acts.add(a.activity);
      });
    });
    (mp.offers ?? []).forEach((o, j) => {
      const q = `${p}/offers/${j}`;
      const first = offerCodes.get(o.code);
      if (first) add(`${q}/code`, `duplicate offer code '${o.code}' (first at ${first})`);
      else offerCodes.set(o.code, q);
      const owner = owners.get(o.code);
      if (owner && owner !== product) add(`${q}/code`, `offer '${o.code}' belongs to market product '${owner}'`);
      if (!owner) requireForNew(add, q, o, REQUIRED_FOR_NEW.offer, 'offer');
      if (o.departure_airport !== undefined && !productAirports.includes(o.departure_airport)) {
        add(`${q}/departure_airport`, `'${o.departure_airport}' is not among the product's departure airports`);
      }
      const departureOk = o.departure_date !== undefined && validDate(o.departure_date);
      if (o.departure_date !== undefined && !departureOk) {
        add(`${q}/departure_date`, `'${o.departure_date}' is not a calendar date`);
      }
      if (o.return_date !== undefined && o.return_date !== null) {
        if (!validDate(o.return_date)) add(`${q}/return_date`, `'${o.return_date}' is not a calendar date`);
        else if (departureOk && o.return_date < o.departure_date!) {
          add(`${q}/return_date`, 'return_date is before departure_date');
        }
      }
      if (o.allotment !== undefined && (o.allotment_used ?? 0) > o.allotment) {
        add(`${q}/allotment_used`, 'allotment_used exceeds allotment');
      }
      const before = offersBefore.get(o.code);
      const paid = booked.get(o.code) ?? 0;
      if (before && paid > 0) {
        // paid bookings keep the departure they bought: moving them is its own operation
        const fixed: [string, unknown, unknown][] = [
          ['departure_date', o.departure_date, before.departureDate],
          ['return_date', o.return_date, before.returnDate],
          ['departure_airport', o.departure_airport, before.departureAirport],
          ['pax_count', o.pax_count, before.paxCount],
        ];
        for (const [field, value, stored] of fixed) {
          if (value !== undefined && value !== stored) {
            add(
              `${q}/${field}`,
              `offer_has_bookings: offer '${o.code}' has ${paid} paid booking${paid === 1 ? '' : 's'}; its ${field} stays ${stored ?? 'empty'} (moving bookings is a separate operation)`,
            );
          }
        }
      }
      // the two price fields are one price: per person x travellers = final
      const pax = o.pax_count ?? before?.paxCount;
      const final = o.final_price ?? before?.finalPrice;
      const perPerson = o.price_per_person ?? before?.pricePerPerson;
      const named = o.final_price !== undefined || o.price_per_person !== undefined || o.pax_count !== undefined;
      if (named && pax && final && perPerson && toCents(perPerson) * pax !== toCents(final)) {
        add(
          `${q}/price_per_person`,
          `price_per_person ${perPerson} x ${pax} travellers is ${formatCents(toCents(perPerson) * pax)}, not the final_price ${final}`,
        );
      }
    });
  });
  return problems;
}

function counted(ctx: ImportContext, entity: string, total: number, c: { inserted: number; updated: number }) {
  ctx.count(entity, { total, ...c });
}

/** mergeRows' report of changed fields, under a readable key (natural key parts joined by '/'). */
function reportTo(ctx: ImportContext, entity: string, label: (key: unknown[]) => string = (k) => k.join('/')) {
  return (key: unknown[], changes: FieldChange[]) => ctx.changed(entity, label(key), changes);
}

async function idsByCode(tx: Tx, table: typeof hotels | typeof activities | typeof transfers, codes: string[]) {
  if (codes.length === 0) return new Map<string, number>();
  const rows = await tx.select({ id: table.id, code: table.code }).from(table).where(inArray(table.code, codes));
  return new Map(rows.map((r) => [r.code, r.id]));
}

const PLACE = { city: 'city', country: 'country' } as const;

/** the supplier contact of a hotel, activity or transfer: three columns, all cleared by null */
const SUPPLIER = {
  supplier: (s: { email: string; name?: string | null; phone?: string | null } | null) => ({
    supplierEmail: s?.email ?? null,
    supplierName: s?.name ?? null,
    supplierPhone: s?.phone ?? null,
  }),
};

/**
 * A list a record names replaces the record's rows of `table` (a record that leaves the list out
 * keeps them): the rows whose key is not in the new list are deleted, the others merged.
 */
async function replaceChildren<T extends PgTable>(
  tx: Tx,
  ctx: ImportContext,
  entity: string,
  table: T,
  parent: { table: string; column: string; ids: number[] },
  keyColumns: [string, 'int' | 'text'][],
  rows: T['$inferInsert'][],
  conflict: PgColumn[],
  neverLower: PgColumn[] = [],
): Promise<void> {
  const keyProps = conflict.map((c) => c.name);
  await deleteMissing(
    tx,
    parent.table,
    parent.column,
    parent.ids,
    keyColumns,
    rows.map((r) => {
      const out: Record<string, unknown> = {};
      const columns = getTableColumns(table) as Record<string, PgColumn>;
      for (const [prop, col] of Object.entries(columns)) {
        if (keyProps.includes(col.name)) out[col.name] = (r as Record<string, unknown>)[prop];
      }
      return out;
    }),
  );
  counted(
    ctx,
    entity,
    rows.length,
    await mergeRows(tx, table, rows, conflict, {
      neverLower,
      complete: (r) => r as T['$inferInsert'],
      changed: reportTo(ctx, entity),
    }),
  );
}

type TranslationEntries = Record<string, Record<string, unknown> | null> | undefined;

/**
 * The `translations` of a section's records. `"<lang>": {...}` merges the fields it names into the
 * language's row (a new row leaves the others null: they fall back); `"<lang>": null` deletes the
 * row. A record without `translations`, and every language it leaves out, keeps what is stored.
 */
async function applyTranslations<T extends PgTable>(
  tx: Tx,
  ctx: ImportContext,
  entity: string,
  table: T,
  parent: PgColumn,
  language: PgColumn,
  records: { key: number | string; label: string; translations: TranslationEntries }[],
  fields: Record<string, string>,
): Promise<void> {
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const prop = (col: PgColumn) => Object.keys(columns).find((k) => columns[k] === col)!;
  const parentProp = prop(parent);
  const labels = new Map(records.map((r) => [String(r.key), r.label]));
  const rows: Record<string, unknown>[] = [];
  const removed: { k: number | string; l: string }[] = [];
  for (const r of records) {
    for (const [lang, entry] of Object.entries(r.translations ?? {})) {
      if (entry === null) removed.push({ k: r.key, l: lang });
      else rows.push({ [parentProp]: r.key, language: lang, ...namedColumns(entry, fields) });
    }
  }
  if (rows.length + removed.length === 0) return;
  const blank = Object.fromEntries(Object.values(fields).map((f) => [f, null]));
  const written = await mergeRows(tx, table, rows as Partial<T['$inferInsert']>[], [parent, language], {
    complete: (r) => ({ ...blank, ...r }) as T['$inferInsert'],
    changed: reportTo(ctx, entity, ([k, l]) => `${labels.get(String(k)) ?? k}/${l}`),
  });
  let deleted = 0;
  if (removed.length) {
    const gone = await tx.execute(
      sql`DELETE FROM ${table} WHERE (${parent}, ${language}) IN
            (SELECT k, l FROM json_to_recordset(${JSON.stringify(removed)}::json) AS x(k ${sql.raw(parent.getSQLType())}, l text))
          RETURNING ${parent} AS k, ${language} AS l`,
    );
    for (const g of ((gone as { rows?: unknown[] }).rows ?? (gone as unknown as unknown[])) as {
      k: unknown;
      l: string;
    }[]) {
      deleted++;
      ctx.changed(entity, `${labels.get(String(g.k)) ?? g.k}/${g.l}`, [
        { field: 'translation', from: 'stored', to: null },
      ]);
    }
  }
  counted(ctx, entity, rows.length + removed.length, {
    inserted: written.inserted,
    updated: written.updated + deleted,
  });
}

const PLACE_TEXTS = { name: 'name', description: 'description', city: 'city', country: 'country' } as const;

export async function applyCatalog(tx: Tx, raw: Record<string, unknown>, ctx: ImportContext): Promise<void> {
  const doc = raw as CatalogDoc;

  if (doc.airports) {
    const rows = doc.airports.map((a) => ({
      iataCode: a.iata_code,
      ...namedColumns(a, { name: 'name', city: 'city', country: 'country' }),
    }));
    counted(
      ctx,
      'airports',
      rows.length,
      await mergeRows(tx, airports, rows, [airports.iataCode], {
        complete: (r) => r as typeof airports.$inferInsert,
        changed: reportTo(ctx, 'airports'),
      }),
    );
    await applyTranslations(
      tx,
      ctx,
      'airport_translations',
      airportTranslations,
      airportTranslations.iataCode,
      airportTranslations.language,
      doc.airports.map((a) => ({ key: a.iata_code, label: a.iata_code, translations: a.translations })),
      { name: 'name', city: 'city', country: 'country' },
    );
  }
  if (doc.exchange_rates) {
    const rows = doc.exchange_rates.map((x) => ({ currency: x.currency, ratePerEur: x.rate_per_eur }));
    counted(
      ctx,
      'exchange_rates',
      rows.length,
      await mergeRows(tx, exchangeRates, rows, [exchangeRates.currency], {
        complete: (r) => r as typeof exchangeRates.$inferInsert,
        changed: reportTo(ctx, 'exchange_rates'),
      }),
    );
  }

  if (doc.markets) {
    const rows = doc.markets.map((m) => ({
      code: m.code,
      ...namedColumns(m, {
        name: 'name',
        is_active: 'isActive',
        languages: (v) => ({ languages: v, defaultLanguage: v[0] }),
        tour_path_slugs: 'tourPathSlugs',
        currency: (v) => ({ currencyCode: v.code, currencyName: v.name, currencySymbol: v.symbol }),
        timezone: 'timezone',
      }),
    }));
    counted(
      ctx,
      'markets',
      rows.length,
      await mergeRows(tx, markets, rows, [markets.code], {
        complete: (r) => ({ tourPathSlugs: {}, ...r }) as typeof markets.$inferInsert,
        changed: reportTo(ctx, 'markets'),
      }),
    );
    const ids = await marketIds(tx);
    const withAirports = doc.markets.filter((m) => m.airports);
    await replaceChildren(
      tx,
      ctx,
      'market_airports',
      marketAirports,
      { table: 'market_airports', column: 'market_id', ids: withAirports.map((m) => ids.get(m.code)!) },
      [
        ['market_id', 'int'],
        ['iata_code', 'text'],
      ],
      withAirports.flatMap((m) =>
        m.airports!.map((iata, i) => ({
          marketId: ids.get(m.code)!,
          iataCode: iata,
          isPrimary: i === 0,
          sortOrder: i,
        })),
      ),
      [marketAirports.marketId, marketAirports.iataCode],
    );
  }

  if (doc.hotels) {
    const rows = doc.hotels.map((h) => ({
      code: h.code,
      ...namedColumns(h, {
        name: 'name',
        ...PLACE,
        description: 'description',
        images: 'images',
        stars: 'stars',
        ...SUPPLIER,
      }),
    }));
    counted(
      ctx,
      'hotels',
      rows.length,
      await mergeRows(tx, hotels, rows, [hotels.code], {
        complete: (r) =>
          ({
            city: null,
            country: null,
            description: null,
            images: [],
            stars: null,
            ...r,
          }) as typeof hotels.$inferInsert,
        changed: reportTo(ctx, 'hotels'),
      }),
    );
    const ids = await idsByCode(
      tx,
      hotels,
      doc.hotels.map((h) => h.code),
    );
    const withRates = doc.hotels.filter((h) => h.rates);
    await replaceChildren(
      tx,
      ctx,
      'hotel_rates',
      hotelRates,
      { table: 'hotel_rates', column: 'hotel_id', ids: withRates.map((h) => ids.get(h.code)!) },
      [
        ['hotel_id', 'int'],
        ['room_type', 'text'],
      ],
      withRates.flatMap((h) =>
        h.rates!.map((r) => ({
          hotelId: ids.get(h.code)!,
          roomType: r.room_type,
          pricePerNight: r.price_per_night,
          currency: r.currency,
        })),
      ),
      [hotelRates.hotelId, hotelRates.roomType],
    );
    await applyTranslations(
      tx,
      ctx,
      'hotel_translations',
      hotelTranslations,
      hotelTranslations.hotelId,
      hotelTranslations.language,
      doc.hotels.map((h) => ({ key: ids.get(h.code)!, label: h.code, translations: h.translations })),
      PLACE_TEXTS,
    );
  }

  if (doc.activities) {
    const rows = doc.activities.map((a) => ({
      code: a.code,
      ...namedColumns(a, {
        name: 'name',
        description: 'description',
        ...PLACE,
        images: 'images',
        reasons: 'reasons',
        amenities: 'amenities',
        ...SUPPLIER,
      }),
    }));
    counted(
      ctx,
      'activities',
      rows.length,
      await mergeRows(tx, activities, rows, [activities.code], {
        complete: (r) =>
          ({
            description: null,
            city: null,
            country: null,
            images: [],
            reasons: null,
            amenities: null,
            ...r,
          }) as typeof activities.$inferInsert,
        changed: reportTo(ctx, 'activities'),
      }),
    );
    const ids = await idsByCode(
      tx,
      activities,
      doc.activities.map((a) => a.code),
    );
    // a rate named (or null) replaces the stored one; an activity leaving `rate` out keeps it
    const withRate = doc.activities.filter((a) => a.rate !== undefined);
    await replaceChildren(
      tx,
      ctx,
      'activity_rates',
      activityRates,
      { table: 'activity_rates', column: 'activity_id', ids: withRate.map((a) => ids.get(a.code)!) },
      [['activity_id', 'int']],
      withRate
        .filter((a) => a.rate)
        .map((a) => ({
          activityId: ids.get(a.code)!,
          pricePerPerson: a.rate!.price_per_person,
          currency: a.rate!.currency,
        })),
      [activityRates.activityId],
    );
    await applyTranslations(
      tx,
      ctx,
      'activity_translations',
      activityTranslations,
      activityTranslations.activityId,
      activityTranslations.language,
      doc.activities.map((a) => ({ key: ids.get(a.code)!, label: a.code, translations: a.translations })),
      { ...PLACE_TEXTS, reasons: 'reasons', amenities: 'amenities' },
    );
  }

  if (doc.transfers) {
    const rows = doc.transfers.map((t) => ({
      code: t.code,
      ...namedColumns(t, {
        name: 'name',
        description: 'description',
        ...PLACE,
        images: 'images',
        vehicle_type: 'vehicleType',
        duration_minutes: 'durationMinutes',
        ...SUPPLIER,
      }),
    }));
    counted(
      ctx,
      'transfers',
      rows.length,
      await mergeRows(tx, transfers, rows, [transfers.code], {
        complete: (r) =>
          ({
            description: null,
            city: null,
            country: null,
            images: [],
            vehicleType: null,
            durationMinutes: null,
            ...r,
          }) as typeof transfers.$inferInsert,
        changed: reportTo(ctx, 'transfers'),
      }),
    );
    const ids = await idsByCode(
      tx,
      transfers,
      doc.transfers.map((t) => t.code),
    );
    const withRate = doc.transfers.filter((t) => t.rate !== undefined);
    await replaceChildren(
      tx,
      ctx,
      'transfer_rates',
      transferRates,
      { table: 'transfer_rates', column: 'transfer_id', ids: withRate.map((t) => ids.get(t.code)!) },
      [['transfer_id', 'int']],
      withRate
        .filter((t) => t.rate)
        .map((t) => ({
          transferId: ids.get(t.code)!,
          pricePerTrip: t.rate!.price_per_trip,
          currency: t.rate!.currency,
        })),
      [transferRates.transferId],
    );
    await applyTranslations(
      tx,
      ctx,
      'transfer_translations',
      transferTranslations,
      transferTranslations.transferId,
      transferTranslations.language,
      doc.transfers.map((t) => ({ key: ids.get(t.code)!, label: t.code, translations: t.translations })),
      PLACE_TEXTS,
    );
  }

  if (doc.product_templates) await applyTemplates(tx, doc, ctx);
  if (doc.market_products) await applyMarketProducts(tx, doc, ctx);
}

async function marketIds(tx: Tx): Promise<Map<string, number>> {
  const rows = await tx.select({ id: markets.id, code: markets.code }).from(markets);
  return new Map(rows.map((r) => [r.code, r.id]));
}

async function templateRows(tx: Tx, codes: string[]) {
  const rows = await tx
    .select({ id: productTemplates.id, code: productTemplates.code, days: productTemplates.tripDurationDays })
    .from(productTemplates)
    .where(inArray(productTemplates.code, codes));
  return new Map(rows.map((r) => [r.code, r]));
}

async function applyTemplates(tx: Tx, doc: CatalogDoc, ctx: ImportContext): Promise<void> {
  const list = doc.product_templates!;
  const rows = list.map((t) => ({
    code: t.code,
    ...namedColumns(t, {
      slug: 'slug',
      title: 'title',
      trip_duration_days: 'tripDurationDays',
      country_slug: 'countrySlug',
      hero_image: 'heroImage',
      package_service_name: 'packageServiceName',
    }),
  }));
  counted(
    ctx,
    'product_templates',
    rows.length,
    await mergeRows(tx, productTemplates, rows, [productTemplates.code], {
      complete: (r) =>
        ({ slug: r.code, heroImage: null, packageServiceName: null, ...r }) as typeof productTemplates.$inferInsert,
      changed: reportTo(ctx, 'product_templates'),
    }),
  );
  const templates = await templateRows(
    tx,
    list.map((t) => t.code),
  );

  const withStays = list.filter((t) => t.accommodations);
  const hotelIds = await idsByCode(
    tx,
    hotels,
    withStays.flatMap((t) => t.accommodations!.map((a) => a.hotel)),
  );
  await replaceChildren(
    tx,
    ctx,
    'accommodations',
    accommodations,
    { table: 'accommodations', column: 'template_id', ids: withStays.map((t) => templates.get(t.code)!.id) },
    [
      ['template_id', 'int'],
      ['tier', 'text'],
      ['day_start', 'int'],
      ['hotel_id', 'int'],
    ],
    withStays.flatMap((t) =>
      t.accommodations!.map((a) => ({
        templateId: templates.get(t.code)!.id,
        hotelId: hotelIds.get(a.hotel)!,
        tier: a.tier,
        dayStart: a.day_start,
        dayEnd: a.day_end,
      })),
    ),
    [accommodations.templateId, accommodations.tier, accommodations.dayStart, accommodations.hotelId],
  );

  const withTransfers = list.filter((t) => t.day_transfers);
  const transferIds = await idsByCode(
    tx,
    transfers,
    withTransfers.flatMap((t) => t.day_transfers!.map((d) => d.transfer)),
  );
  await replaceChildren(
    tx,
    ctx,
    'tour_day_transfers',
    tourDayTransfers,
    { table: 'tour_day_transfers', column: 'template_id', ids: withTransfers.map((t) => templates.get(t.code)!.id) },
    [
      ['template_id', 'int'],
      ['day_number', 'int'],
      ['transfer_id', 'int'],
    ],
    withTransfers.flatMap((t) =>
      t.day_transfers!.map((d) => ({
        templateId: templates.get(t.code)!.id,
        dayNumber: d.day,
        transferId: transferIds.get(d.transfer)!,
        kind: d.kind,
      })),
    ),
    [tourDayTransfers.templateId, tourDayTransfers.dayNumber, tourDayTransfers.transferId],
  );
}

/** Stored version and SKU airport of market products, for SKUs of records that name neither. */
async function storedSkuParts(tx: Tx, templateIds: number[]) {
  if (templateIds.length === 0) return new Map<string, { version: number; airport: string | undefined }>();
  const rows = await tx
    .select({
      id: marketProducts.id,
      templateId: marketProducts.templateId,
      marketId: marketProducts.marketId,
      language: marketProducts.language,
      version: marketProducts.version,
    })
    .from(marketProducts)
    .where(inArray(marketProducts.templateId, templateIds));
  const firsts = rows.length
    ? await tx
        .select({ id: marketProductAirports.marketProductId, iata: marketProductAirports.iataCode })
        .from(marketProductAirports)
        .where(
          and(
            inArray(
              marketProductAirports.marketProductId,
              rows.map((r) => r.id),
            ),
            eq(marketProductAirports.sortOrder, 0),
          ),
        )
    : [];
  const airportOf = new Map(firsts.map((f) => [f.id, f.iata]));
  return new Map(
    rows.map((r) => [
      `${r.templateId}/${r.marketId}/${r.language}`,
      { version: r.version, airport: airportOf.get(r.id) },
    ]),
  );
}

async function applyMarketProducts(tx: Tx, doc: CatalogDoc, ctx: ImportContext): Promise<void> {
  const list = doc.market_products!;
  const mIds = await marketIds(tx);
  const templates = await templateRows(tx, [...new Set(list.map((p) => p.template))]);
  const stored = await storedSkuParts(
    tx,
    [...templates.values()].map((t) => t.id),
  );
  const rows = list.map((p) => {
    const t = templates.get(p.template)!;
    const marketId = mIds.get(p.market)!;
    const before = stored.get(`${t.id}/${marketId}/${p.language}`);
    // the SKU follows the product's version and first airport: named here, or as stored
    const version = p.version ?? before?.version ?? 1;
    const airport = p.departure_airports?.[0] ?? before?.airport;
    return {
      templateId: t.id,
      marketId,
      language: p.language,
      ...(airport
        ? {
            sku: skuOf({ market: p.market, templateId: t.id, airport, days: t.days, language: p.language, version }),
          }
        : {}),
      ...namedColumns(p, {
        version: 'version',
        status: 'status',
        sort_order: 'sortOrder',
        title: 'title',
        subtitle: 'subtitle',
        short_description: 'shortDescription',
        long_description: 'longDescription',
        highlights: 'highlights',
        destination_info: 'destinationInfo',
        url_slug: 'urlSlug',
        country_name: 'countryName',
        hero_image: 'heroImage',
        cancellation_policy: 'cancellationPolicy',
      }),
    };
  });
  const label = new Map(
    list.map((p, i) => [
      `${rows[i].templateId}/${rows[i].marketId}/${p.language}`,
      `${p.template}/${p.market}/${p.language}`,
    ]),
  );
  counted(
    ctx,
    'market_products',
    rows.length,
    await mergeRows(
      tx,
      marketProducts,
      rows,
      [marketProducts.marketId, marketProducts.templateId, marketProducts.language],
      {
        complete: (r) => {
          const p = list.find(
            (d) =>
              templates.get(d.template)!.id === r.templateId &&
              mIds.get(d.market) === r.marketId &&
              d.language === r.language,
          )!;
          return {
            locale: `${p.language}_${p.market.toUpperCase()}`,
            version: 1,
            sortOrder: 0,
            subtitle: '',
            shortDescription: '',
            longDescription: '',
            highlights: [],
            destinationInfo: '',
            heroImage: null,
            ...r,
          } as typeof marketProducts.$inferInsert;
        },
        changed: reportTo(
          ctx,
          'market_products',
          ([marketId, templateId, language]) =>
            label.get(`${templateId}/${marketId}/${language}`) ?? `${templateId}/${marketId}/${language}`,
        ),
      },
    ),
  );
  const storedIds = await tx
    .select({
      id: marketProducts.id,
      marketId: marketProducts.marketId,
      templateId: marketProducts.templateId,
      language: marketProducts.language,
    })
    .from(marketProducts)
    .where(
      inArray(
        marketProducts.templateId,
        [...templates.values()].map((t) => t.id),
      ),
    );
  const idOf = new Map(storedIds.map((r) => [`${r.templateId}/${r.marketId}/${r.language}`, r.id]));
  const mpId = (i: number) => idOf.get(`${rows[i].templateId}/${rows[i].marketId}/${rows[i].language}`)!;

  const withAirports = list.map((p, i) => ({ p, id: mpId(i) })).filter(({ p }) => p.departure_airports);
  await replaceChildren(
    tx,
    ctx,
    'market_product_airports',
    marketProductAirports,
    { table: 'market_product_airports', column: 'market_product_id', ids: withAirports.map((w) => w.id) },
    [
      ['market_product_id', 'int'],
      ['iata_code', 'text'],
    ],
    withAirports.flatMap(({ p, id }) =>
      p.departure_airports!.map((iata, k) => ({ marketProductId: id, iataCode: iata, sortOrder: k })),
    ),
    [marketProductAirports.marketProductId, marketProductAirports.iataCode],
  );

  // itinerary: days replace the product's days; activities replace each listed day's activities
  const withDays = list.map((p, i) => ({ p, id: mpId(i) })).filter(({ p }) => p.itinerary);
  await replaceChildren(
    tx,
    ctx,
    'itinerary_days',
    itineraryDays,
    { table: 'itinerary_days', column: 'market_product_id', ids: withDays.map((w) => w.id) },
    [
      ['market_product_id', 'int'],
      ['day_number', 'int'],
    ],
    withDays.flatMap(({ p, id }) =>
      p.itinerary!.map((d) => ({
        marketProductId: id,
        dayNumber: d.day,
        title: d.title,
        description: d.description ?? '',
        city: d.city ?? null,
        country: d.country ?? null,
      })),
    ),
    [itineraryDays.marketProductId, itineraryDays.dayNumber],
  );
  if (withDays.length) {
    const dayRows = await tx
      .select({ id: itineraryDays.id, mp: itineraryDays.marketProductId, day: itineraryDays.dayNumber })
      .from(itineraryDays)
      .where(
        inArray(
          itineraryDays.marketProductId,
          withDays.map((w) => w.id),
        ),
      );
    const dayId = new Map(dayRows.map((r) => [`${r.mp}/${r.day}`, r.id]));
    const activityIds = await idsByCode(
      tx,
      activities,
      withDays.flatMap(({ p }) => p.itinerary!.flatMap((d) => (d.activities ?? []).map((a) => a.activity))),
    );
    await replaceChildren(
      tx,
      ctx,
      'itinerary_day_activities',
      itineraryDayActivities,
      { table: 'itinerary_day_activities', column: 'itinerary_day_id', ids: [...dayId.values()] },
      [
        ['itinerary_day_id', 'int'],
        ['activity_id', 'int'],
      ],
      withDays.flatMap(({ p, id }) =>
        p.itinerary!.flatMap((d) =>
          (d.activities ?? []).map((a, k) => ({
            itineraryDayId: dayId.get(`${id}/${d.day}`)!,
            activityId: activityIds.get(a.activity)!,
            tier: a.tier,
            sortOrder: k,
          })),
        ),
      ),
      [itineraryDayActivities.itineraryDayId, itineraryDayActivities.activityId],
    );
  }

  const offerRows = list.flatMap((p, i) =>
    (p.offers ?? []).map((o) => ({
      code: o.code,
      marketProductId: mpId(i),
      ...namedColumns(o, {
        departure_airport: 'departureAirport',
        departure_date: 'departureDate',
        return_date: 'returnDate',
        status: 'status',
        pax_count: 'paxCount',
        allotment: 'allotment',
        allotment_used: 'allotmentUsed',
        land_base_price: 'landBasePrice',
        flight_price: 'flightPrice',
        margin_percent: 'marginPercent',
        final_price: 'finalPrice',
        price_per_person: 'pricePerPerson',
        flight_data: 'flightData',
      }),
    })),
  );
  // allotment_used counts seats bookings took: an import may raise it, never give seats back
  counted(
    ctx,
    'offers',
    offerRows.length,
    await mergeRows(tx, offers, offerRows, [offers.code], {
      neverLower: [offers.allotmentUsed],
      complete: (r) =>
        ({
          returnDate: null,
          paxCount: 2,
          allotmentUsed: 0,
          marginPercent: '0',
          flightData: null,
          ...r,
        }) as typeof offers.$inferInsert,
      changed: reportTo(ctx, 'offers'),
    }),
  );
}

export const catalogSection: ImportSection = {
  name: 'catalog',
  properties: catalogProperties,
  check: checkCatalog,
  apply: applyCatalog,
};

/** True when no market exists yet (first start: the demo may be loaded). */
export async function catalogIsEmpty(db: DbOrTx): Promise<boolean> {
  const rows = await db.select({ id: markets.id }).from(markets).limit(1);
  return rows.length === 0;
}
