// The catalog's part of the import document: markets, airports, exchange rates, hotels,
// activities, transfers, product templates and market products (with itinerary and offers).
// Children listed under a parent replace that parent's children; a child key left out of the
// document leaves them as they are. Offers are never deleted (bookings point at them).
import { eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/database.js';
import {
  accommodations,
  activities,
  activityRates,
  airports,
  exchangeRates,
  hotelRates,
  hotels,
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
} from '../../db/schema/index.js';
import type { ImportContext, ImportProblem, ImportSection } from '../../import/section.js';
import type { CatalogDoc } from './import-schema.js';
import { catalogProperties } from './import-schema.js';
import { skuOf } from './rules.js';
import { deleteMissing, upsertRows } from './upsert.js';

/** What the database already holds, for references the document does not define itself. */
interface Known {
  markets: Map<string, { languages: string[]; airports: string[] }>;
  airports: Set<string>;
  hotels: Set<string>;
  activities: Set<string>;
  transfers: Set<string>;
  templates: Map<string, { days: number; slug: string }>;
  currencies: Set<string>;
}

async function loadKnown(db: DbOrTx): Promise<Known> {
  const [m, ma, a, h, ac, tr, t, x] = await Promise.all([
    db.select({ id: markets.id, code: markets.code, languages: markets.languages }).from(markets),
    db.select().from(marketAirports),
    db.select({ code: airports.iataCode }).from(airports),
    db.select({ code: hotels.code }).from(hotels),
    db.select({ code: activities.code }).from(activities),
    db.select({ code: transfers.code }).from(transfers),
    db
      .select({ code: productTemplates.code, days: productTemplates.tripDurationDays, slug: productTemplates.slug })
      .from(productTemplates),
    db.select({ currency: exchangeRates.currency }).from(exchangeRates),
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
  };
}

/**
 * The market product (template/market/language) each stored offer of `codes` belongs to: an
 * offer code is its natural key, so the document must not move an offer (and its bookings) to
 * another product. Codes travel as one JSON parameter (thousands of bind parameters are slow).
 */
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

  const unique = <T>(key: string, items: T[] | undefined, keyOf: (t: T) => string, field: string, what = 'value') => {
    const seen = new Map<string, number>();
    (items ?? []).forEach((item, i) => {
      const k = keyOf(item);
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
  unique('product_templates', doc.product_templates, (t) => t.slug ?? t.code, 'slug', 'template slug');
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
    (p) => `${p.language}_${p.market}/${p.url_slug}`,
    'url_slug',
    'url_slug in the locale',
  );

  const airportsKnown = new Set([...known.airports, ...(doc.airports ?? []).map((a) => a.iata_code)]);
  const currencies = new Set(['EUR', ...known.currencies, ...(doc.exchange_rates ?? []).map((x) => x.currency)]);
  const hotelsKnown = new Set([...known.hotels, ...(doc.hotels ?? []).map((h) => h.code)]);
  const activitiesKnown = new Set([...known.activities, ...(doc.activities ?? []).map((a) => a.code)]);
  const transfersKnown = new Set([...known.transfers, ...(doc.transfers ?? []).map((t) => t.code)]);
  const marketsKnown = new Map(known.markets);
  const templatesKnown = new Map(known.templates);

  (doc.markets ?? []).forEach((m, i) => {
    const p = `/markets/${i}`;
    marketsKnown.set(m.code, { languages: m.languages, airports: m.airports });
    if (new Set(m.languages).size !== m.languages.length) add(`${p}/languages`, 'languages must not repeat');
    for (const lang of Object.keys(m.tour_path_slugs ?? {})) {
      if (!m.languages.includes(lang)) add(`${p}/tour_path_slugs/${lang}`, `'${lang}' is not a language of the market`);
    }
    if (!validTimeZone(m.timezone)) add(`${p}/timezone`, `unknown time zone '${m.timezone}'`);
    if (!currencies.has(m.currency.code)) add(`${p}/currency/code`, `no exchange rate for ${m.currency.code}`);
    m.airports.forEach((a, j) => {
      if (!airportsKnown.has(a)) add(`${p}/airports/${j}`, `unknown airport '${a}'`);
    });
    if (new Set(m.airports).size !== m.airports.length) add(`${p}/airports`, 'airports must not repeat');
  });

  const rateCurrency = (path: string, currency: string) => {
    if (!currencies.has(currency)) add(path, `no exchange rate for ${currency}`);
  };
  (doc.hotels ?? []).forEach((h, i) => {
    const seen = new Set<string>();
    (h.rates ?? []).forEach((r, j) => {
      if (seen.has(r.room_type)) add(`/hotels/${i}/rates/${j}/room_type`, `duplicate room type '${r.room_type}'`);
      seen.add(r.room_type);
      rateCurrency(`/hotels/${i}/rates/${j}/currency`, r.currency);
    });
  });
  (doc.activities ?? []).forEach((a, i) => {
    if (a.rate) rateCurrency(`/activities/${i}/rate/currency`, a.rate.currency);
  });
  (doc.transfers ?? []).forEach((t, i) => {
    if (t.rate) rateCurrency(`/transfers/${i}/rate/currency`, t.rate.currency);
  });

  (doc.product_templates ?? []).forEach((t, i) => {
    const p = `/product_templates/${i}`;
    const days = t.trip_duration_days;
    const slug = t.slug ?? t.code;
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
  (doc.market_products ?? []).forEach((mp, i) => {
    const p = `/market_products/${i}`;
    const template = templatesKnown.get(mp.template);
    const market = marketsKnown.get(mp.market);
    if (!template) add(`${p}/template`, `unknown product template '${mp.template}'`);
    if (!market) add(`${p}/market`, `unknown market '${mp.market}'`);
    else if (!market.languages.includes(mp.language)) {
      add(`${p}/language`, `'${mp.language}' is not a language of market '${mp.market}'`);
    }
    mp.departure_airports.forEach((a, j) => {
      if (!airportsKnown.has(a)) add(`${p}/departure_airports/${j}`, `unknown airport '${a}'`);
      else if (market && !market.airports.includes(a)) {
        add(`${p}/departure_airports/${j}`, `'${a}' is not a departure airport of market '${mp.market}'`);
      }
    });
    if (new Set(mp.departure_airports).size !== mp.departure_airports.length) {
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
      const product = `${mp.template}/${mp.market}/${mp.language}`;
      if (owner && owner !== product) add(`${q}/code`, `offer '${o.code}' belongs to market product '${owner}'`);
      if (!mp.departure_airports.includes(o.departure_airport)) {
        add(`${q}/departure_airport`, `'${o.departure_airport}' is not among the product's departure airports`);
      }
      if (!validDate(o.departure_date)) add(`${q}/departure_date`, `'${o.departure_date}' is not a calendar date`);
      if (o.return_date !== undefined) {
        if (!validDate(o.return_date)) add(`${q}/return_date`, `'${o.return_date}' is not a calendar date`);
        else if (o.return_date < o.departure_date) add(`${q}/return_date`, 'return_date is before departure_date');
      }
      if ((o.allotment_used ?? 0) > o.allotment) add(`${q}/allotment_used`, 'allotment_used exceeds allotment');
    });
  });
  return problems;
}

function counted(ctx: ImportContext, entity: string, total: number, c: { inserted: number; updated: number }) {
  ctx.count(entity, { total, ...c });
}

async function idsByCode(tx: Tx, table: typeof hotels | typeof activities | typeof transfers, codes: string[]) {
  if (codes.length === 0) return new Map<string, number>();
  const rows = await tx.select({ id: table.id, code: table.code }).from(table).where(inArray(table.code, codes));
  return new Map(rows.map((r) => [r.code, r.id]));
}

export async function applyCatalog(tx: Tx, raw: Record<string, unknown>, ctx: ImportContext): Promise<void> {
  const doc = raw as CatalogDoc;

  if (doc.airports) {
    const rows = doc.airports.map((a) => ({ iataCode: a.iata_code, name: a.name, city: a.city, country: a.country }));
    counted(ctx, 'airports', rows.length, await upsertRows(tx, airports, rows, [airports.iataCode]));
  }
  if (doc.exchange_rates) {
    const rows = doc.exchange_rates.map((x) => ({ currency: x.currency, ratePerEur: x.rate_per_eur }));
    counted(ctx, 'exchange_rates', rows.length, await upsertRows(tx, exchangeRates, rows, [exchangeRates.currency]));
  }

  if (doc.markets) {
    const rows = doc.markets.map((m) => ({
      code: m.code,
      name: m.name,
      isActive: m.is_active ?? true,
      defaultLanguage: m.languages[0],
      languages: m.languages,
      tourPathSlugs: m.tour_path_slugs ?? {},
      currencyCode: m.currency.code,
      currencyName: m.currency.name,
      currencySymbol: m.currency.symbol,
      timezone: m.timezone,
    }));
    counted(ctx, 'markets', rows.length, await upsertRows(tx, markets, rows, [markets.code]));
    const ids = await marketIds(tx);
    const links = doc.markets.flatMap((m) =>
      m.airports.map((iata, i) => ({ marketId: ids.get(m.code)!, iataCode: iata, isPrimary: i === 0, sortOrder: i })),
    );
    await deleteMissing(
      tx,
      'market_airports',
      'market_id',
      doc.markets.map((m) => ids.get(m.code)!),
      [
        ['market_id', 'int'],
        ['iata_code', 'text'],
      ],
      links.map((l) => ({ market_id: l.marketId, iata_code: l.iataCode })),
    );
    counted(
      ctx,
      'market_airports',
      links.length,
      await upsertRows(tx, marketAirports, links, [marketAirports.marketId, marketAirports.iataCode]),
    );
  }

  if (doc.hotels) {
    const rows = doc.hotels.map((h) => ({
      code: h.code,
      name: h.name,
      city: h.city ?? null,
      country: h.country ?? null,
      description: h.description ?? null,
      images: h.images ?? [],
      stars: h.stars ?? null,
    }));
    counted(ctx, 'hotels', rows.length, await upsertRows(tx, hotels, rows, [hotels.code]));
    const ids = await idsByCode(
      tx,
      hotels,
      doc.hotels.map((h) => h.code),
    );
    const withRates = doc.hotels.filter((h) => h.rates);
    const rates = withRates.flatMap((h) =>
      h.rates!.map((r) => ({
        hotelId: ids.get(h.code)!,
        roomType: r.room_type,
        pricePerNight: r.price_per_night,
        currency: r.currency,
      })),
    );
    await deleteMissing(
      tx,
      'hotel_rates',
      'hotel_id',
      withRates.map((h) => ids.get(h.code)!),
      [
        ['hotel_id', 'int'],
        ['room_type', 'text'],
      ],
      rates.map((r) => ({ hotel_id: r.hotelId, room_type: r.roomType })),
    );
    counted(
      ctx,
      'hotel_rates',
      rates.length,
      await upsertRows(tx, hotelRates, rates, [hotelRates.hotelId, hotelRates.roomType]),
    );
  }

  if (doc.activities) {
    const rows = doc.activities.map((a) => ({
      code: a.code,
      name: a.name,
      description: a.description ?? null,
      city: a.city ?? null,
      country: a.country ?? null,
      images: a.images ?? [],
      reasons: a.reasons ?? null,
      amenities: a.amenities ?? null,
    }));
    counted(ctx, 'activities', rows.length, await upsertRows(tx, activities, rows, [activities.code]));
    const ids = await idsByCode(
      tx,
      activities,
      doc.activities.map((a) => a.code),
    );
    const rates = doc.activities
      .filter((a) => a.rate)
      .map((a) => ({
        activityId: ids.get(a.code)!,
        pricePerPerson: a.rate!.price_per_person,
        currency: a.rate!.currency,
      }));
    await deleteMissing(
      tx,
      'activity_rates',
      'activity_id',
      [...ids.values()],
      [['activity_id', 'int']],
      rates.map((r) => ({ activity_id: r.activityId })),
    );
    counted(
      ctx,
      'activity_rates',
      rates.length,
      await upsertRows(tx, activityRates, rates, [activityRates.activityId]),
    );
  }

  if (doc.transfers) {
    const rows = doc.transfers.map((t) => ({
      code: t.code,
      name: t.name,
      description: t.description ?? null,
      city: t.city ?? null,
      country: t.country ?? null,
      images: t.images ?? [],
      vehicleType: t.vehicle_type ?? null,
      durationMinutes: t.duration_minutes ?? null,
    }));
    counted(ctx, 'transfers', rows.length, await upsertRows(tx, transfers, rows, [transfers.code]));
    const ids = await idsByCode(
      tx,
      transfers,
      doc.transfers.map((t) => t.code),
    );
    const rates = doc.transfers
      .filter((t) => t.rate)
      .map((t) => ({ transferId: ids.get(t.code)!, pricePerTrip: t.rate!.price_per_trip, currency: t.rate!.currency }));
    await deleteMissing(
      tx,
      'transfer_rates',
      'transfer_id',
      [...ids.values()],
      [['transfer_id', 'int']],
      rates.map((r) => ({ transfer_id: r.transferId })),
    );
    counted(
      ctx,
      'transfer_rates',
      rates.length,
      await upsertRows(tx, transferRates, rates, [transferRates.transferId]),
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
    slug: t.slug ?? t.code,
    title: t.title,
    tripDurationDays: t.trip_duration_days,
    countrySlug: t.country_slug,
    heroImage: t.hero_image ?? null,
    packageServiceName: t.package_service_name ?? null,
  }));
  counted(ctx, 'product_templates', rows.length, await upsertRows(tx, productTemplates, rows, [productTemplates.code]));
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
  const stays = withStays.flatMap((t) =>
    t.accommodations!.map((a) => ({
      templateId: templates.get(t.code)!.id,
      hotelId: hotelIds.get(a.hotel)!,
      tier: a.tier,
      dayStart: a.day_start,
      dayEnd: a.day_end,
    })),
  );
  await deleteMissing(
    tx,
    'accommodations',
    'template_id',
    withStays.map((t) => templates.get(t.code)!.id),
    [
      ['template_id', 'int'],
      ['tier', 'text'],
      ['day_start', 'int'],
      ['hotel_id', 'int'],
    ],
    stays.map((s) => ({ template_id: s.templateId, tier: s.tier, day_start: s.dayStart, hotel_id: s.hotelId })),
  );
  counted(
    ctx,
    'accommodations',
    stays.length,
    await upsertRows(tx, accommodations, stays, [
      accommodations.templateId,
      accommodations.tier,
      accommodations.dayStart,
      accommodations.hotelId,
    ]),
  );

  const withTransfers = list.filter((t) => t.day_transfers);
  const transferIds = await idsByCode(
    tx,
    transfers,
    withTransfers.flatMap((t) => t.day_transfers!.map((d) => d.transfer)),
  );
  const links = withTransfers.flatMap((t) =>
    t.day_transfers!.map((d) => ({
      templateId: templates.get(t.code)!.id,
      dayNumber: d.day,
      transferId: transferIds.get(d.transfer)!,
      kind: d.kind,
    })),
  );
  await deleteMissing(
    tx,
    'tour_day_transfers',
    'template_id',
    withTransfers.map((t) => templates.get(t.code)!.id),
    [
      ['template_id', 'int'],
      ['day_number', 'int'],
      ['transfer_id', 'int'],
    ],
    links.map((l) => ({ template_id: l.templateId, day_number: l.dayNumber, transfer_id: l.transferId })),
  );
  counted(
    ctx,
    'tour_day_transfers',
    links.length,
    await upsertRows(tx, tourDayTransfers, links, [
      tourDayTransfers.templateId,
      tourDayTransfers.dayNumber,
      tourDayTransfers.transferId,
    ]),
  );
}

async function applyMarketProducts(tx: Tx, doc: CatalogDoc, ctx: ImportContext): Promise<void> {
  const list = doc.market_products!;
  const mIds = await marketIds(tx);
  const templates = await templateRows(tx, [...new Set(list.map((p) => p.template))]);
  const rows = list.map((p) => {
    const t = templates.get(p.template)!;
    const version = p.version ?? 1;
    return {
      templateId: t.id,
      marketId: mIds.get(p.market)!,
      language: p.language,
      locale: `${p.language}_${p.market.toUpperCase()}`,
      version,
      sku: skuOf({
        market: p.market,
        templateId: t.id,
        airport: p.departure_airports[0],
        days: t.days,
        language: p.language,
        version,
      }),
      status: p.status,
      sortOrder: p.sort_order ?? 0,
      title: p.title,
      subtitle: p.subtitle ?? '',
      shortDescription: p.short_description ?? '',
      longDescription: p.long_description ?? '',
      highlights: p.highlights ?? [],
      destinationInfo: p.destination_info ?? '',
      urlSlug: p.url_slug,
      countryName: p.country_name,
      heroImage: p.hero_image ?? null,
    };
  });
  counted(
    ctx,
    'market_products',
    rows.length,
    await upsertRows(tx, marketProducts, rows, [
      marketProducts.marketId,
      marketProducts.templateId,
      marketProducts.language,
    ]),
  );
  const stored = await tx
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
  const idOf = new Map(stored.map((r) => [`${r.templateId}/${r.marketId}/${r.language}`, r.id]));
  const mpId = (i: number) => idOf.get(`${rows[i].templateId}/${rows[i].marketId}/${rows[i].language}`)!;
  const allIds = list.map((_, i) => mpId(i));

  const airportLinks = list.flatMap((p, i) =>
    p.departure_airports.map((iata, k) => ({ marketProductId: mpId(i), iataCode: iata, sortOrder: k })),
  );
  await deleteMissing(
    tx,
    'market_product_airports',
    'market_product_id',
    allIds,
    [
      ['market_product_id', 'int'],
      ['iata_code', 'text'],
    ],
    airportLinks.map((l) => ({ market_product_id: l.marketProductId, iata_code: l.iataCode })),
  );
  counted(
    ctx,
    'market_product_airports',
    airportLinks.length,
    await upsertRows(tx, marketProductAirports, airportLinks, [
      marketProductAirports.marketProductId,
      marketProductAirports.iataCode,
    ]),
  );

  // itinerary: days replace the product's days; activities replace each listed day's activities
  const withDays = list.map((p, i) => ({ p, id: mpId(i) })).filter(({ p }) => p.itinerary);
  const days = withDays.flatMap(({ p, id }) =>
    p.itinerary!.map((d) => ({
      marketProductId: id,
      dayNumber: d.day,
      title: d.title,
      description: d.description ?? '',
      city: d.city ?? null,
      country: d.country ?? null,
    })),
  );
  await deleteMissing(
    tx,
    'itinerary_days',
    'market_product_id',
    withDays.map((w) => w.id),
    [
      ['market_product_id', 'int'],
      ['day_number', 'int'],
    ],
    days.map((d) => ({ market_product_id: d.marketProductId, day_number: d.dayNumber })),
  );
  counted(
    ctx,
    'itinerary_days',
    days.length,
    await upsertRows(tx, itineraryDays, days, [itineraryDays.marketProductId, itineraryDays.dayNumber]),
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
    const links = withDays.flatMap(({ p, id }) =>
      p.itinerary!.flatMap((d) =>
        (d.activities ?? []).map((a, k) => ({
          itineraryDayId: dayId.get(`${id}/${d.day}`)!,
          activityId: activityIds.get(a.activity)!,
          tier: a.tier,
          sortOrder: k,
        })),
      ),
    );
    await deleteMissing(
      tx,
      'itinerary_day_activities',
      'itinerary_day_id',
      [...dayId.values()],
      [
        ['itinerary_day_id', 'int'],
        ['activity_id', 'int'],
      ],
      links.map((l) => ({ itinerary_day_id: l.itineraryDayId, activity_id: l.activityId })),
    );
    counted(
      ctx,
      'itinerary_day_activities',
      links.length,
      await upsertRows(tx, itineraryDayActivities, links, [
        itineraryDayActivities.itineraryDayId,
        itineraryDayActivities.activityId,
      ]),
    );
  }

  const offerRows = list.flatMap((p, i) =>
    (p.offers ?? []).map((o) => ({
      code: o.code,
      marketProductId: mpId(i),
      departureAirport: o.departure_airport,
      departureDate: o.departure_date,
      returnDate: o.return_date ?? null,
      status: o.status,
      paxCount: o.pax_count ?? 2,
      allotment: o.allotment,
      allotmentUsed: o.allotment_used ?? 0,
      landBasePrice: o.land_base_price,
      flightPrice: o.flight_price,
      marginPercent: o.margin_percent ?? '0',
      finalPrice: o.final_price,
      pricePerPerson: o.price_per_person,
      flightData: o.flight_data ?? null,
    })),
  );
  // allotment_used counts seats bookings took: an import may raise it, never give seats back
  counted(
    ctx,
    'offers',
    offerRows.length,
    await upsertRows(tx, offers, offerRows, [offers.code], [offers.allotmentUsed]),
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
