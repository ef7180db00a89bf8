// Catalog use cases behind the market-scoped routes. Hot reads never query per request: the
// rendered JSON of a locale (listing, each product's detail) is built once and kept until the
// catalog changes; offers are re-read at most every OFFERS_TTL_MS (bookings consume allotment),
// at once in this process after 'offers:changed' (a booking consumed allotment, a search re-priced),
// and what depends on "today" (leading price, configurator) is cached per market-local date.
// Another process's import is noticed through the catalog revision row, checked at most once a second.
import type { AppContext } from '../../context.js';
import { dateIn } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { formatCents, toCents } from '../../platform/money.js';
import { PreparedBody } from '../../platform/prepared-body.js';
import { assetUrl } from '../../platform/urls.js';
import type { MarketScope } from '../markets/rules.js';
import { dayLabel, labelsFor, monthLabel, roomTypeLabel } from './labels.js';
import {
  type DayActivityRow,
  type LocaleRows,
  loadLocaleOffers,
  loadLocaleRows,
  type OfferRow,
  type ProductRow,
} from './repository.js';
import { catalogRevision } from './revision.js';
import { cityCountry, isBookable, leadingPriceCents } from './rules.js';

const OFFERS_TTL_MS = 30_000;
const ACTIVITY_TIER_ORDER = ['included', 'extra', 'substitution'];
const STAY_TIER_ORDER = ['selection', 'luxury', 'grand_luxury'] as const;
/** Room types offered when a tour has no selection hotels (legacy package tours). */
const DEFAULT_ROOM_TYPES = ['1A', '2A', '3A', '4A'];

interface ProductEntry {
  row: ProductRow;
  active: boolean;
  detailJson: PreparedBody;
  roomTypes: string[];
  airports: { iata_code: string; city: string }[];
}

interface DailyData {
  day: string;
  leading: Map<number, PreparedBody>;
  configurator: Map<number, PreparedBody>;
  preview: Map<number, PreparedBody>;
}

interface LocaleCatalog {
  scope: MarketScope;
  products: Map<number, ProductEntry>;
  listingJson: PreparedBody;
  bySlug: Map<string, number>;
  byTemplateSlug: Map<string, number>;
  bySku: Map<string, number>;
  offers: Map<number, OfferRow[]>;
  offersAt: number;
  offersLoading?: Promise<void>;
  daily?: DailyData;
}

export function notFound(): AppError {
  return new AppError(404, 'product_not_found', 'Product not found.');
}

export class CatalogService {
  private locales = new Map<string, Promise<LocaleCatalog>>();
  constructor(private readonly ctx: AppContext) {
    ctx.events.on('catalog:changed', () => this.invalidate());
    ctx.events.on('offers:changed', () => this.offersChanged());
  }

  /** A booking or a re-pricing changed offers: every locale re-reads them on its next read. */
  offersChanged(): void {
    for (const entry of this.locales.values()) {
      void entry.then(
        (cat) => {
          cat.offersAt = 0;
        },
        () => {},
      );
    }
  }

  invalidate(): void {
    this.locales.clear();
  }

  private async locale(scope: MarketScope): Promise<LocaleCatalog> {
    await catalogRevision(this.ctx).fresh();
    let entry = this.locales.get(scope.locale);
    if (!entry) {
      entry = this.build(scope);
      this.locales.set(scope.locale, entry);
      entry.catch(() => this.locales.delete(scope.locale));
    }
    return entry;
  }

  private async build(scope: MarketScope): Promise<LocaleCatalog> {
    const rows = await loadLocaleRows(this.ctx.database.db, {
      locale: scope.locale,
      lang: scope.lang,
      defaultLanguage: scope.market.defaultLanguage,
    });
    const offers = await loadLocaleOffers(this.ctx.database.db, scope.locale);
    return renderLocale(rows, groupOffers(offers), scope, this.ctx.config.assetBaseUrl);
  }

  /** Offers of the locale, re-read when older than OFFERS_TTL_MS (then the daily data is rebuilt). */
  private async offers(cat: LocaleCatalog): Promise<void> {
    if (Date.now() - cat.offersAt < OFFERS_TTL_MS) return;
    cat.offersLoading ??= loadLocaleOffers(this.ctx.database.db, cat.scope.locale)
      .then((list) => {
        cat.offers = groupOffers(list);
        cat.offersAt = Date.now();
        cat.daily = undefined;
      })
      .finally(() => {
        cat.offersLoading = undefined;
      });
    await cat.offersLoading;
  }

  private today(scope: MarketScope): string {
    return dateIn(scope.market.timezone, this.ctx.clock.now());
  }

  private daily(cat: LocaleCatalog, today: string): DailyData {
    if (!cat.daily || cat.daily.day !== today) {
      cat.daily = { day: today, leading: new Map(), configurator: new Map(), preview: new Map() };
    }
    return cat.daily;
  }

  async listingJson(scope: MarketScope): Promise<PreparedBody> {
    return (await this.locale(scope)).listingJson;
  }

  private async listed(scope: MarketScope, id: number | undefined): Promise<[LocaleCatalog, ProductEntry]> {
    const cat = await this.locale(scope);
    const entry = id === undefined ? undefined : cat.products.get(id);
    if (!entry?.active) throw notFound();
    return [cat, entry];
  }

  async detailJson(scope: MarketScope, id: number): Promise<PreparedBody> {
    return (await this.listed(scope, id))[1].detailJson;
  }

  /** The translated slug first, then the template's base slug. */
  async detailBySlugJson(scope: MarketScope, slug: string): Promise<PreparedBody> {
    const cat = await this.locale(scope);
    const key = slug.toLowerCase();
    return (await this.listed(scope, cat.bySlug.get(key) ?? cat.byTemplateSlug.get(key)))[1].detailJson;
  }

  async detailBySkuJson(scope: MarketScope, sku: string): Promise<PreparedBody> {
    const cat = await this.locale(scope);
    return (await this.listed(scope, cat.bySku.get(sku.toUpperCase())))[1].detailJson;
  }

  /**
   * A draft, active or inactive product (archived ones are not loaded: see loadLocaleRows) with its leading price and configurator under `leading_price` and
   * `configurator`, computed as for an active product (bookable offers only). The caller has
   * checked the preview signature; the market may be one that is not active yet.
   */
  async previewJson(scope: MarketScope, id: number): Promise<PreparedBody> {
    const cat = await this.locale(scope);
    const entry = cat.products.get(id);
    if (!entry) throw notFound();
    await this.offers(cat);
    const today = this.today(scope);
    const daily = this.daily(cat, today);
    let json = daily.preview.get(id);
    if (!json) {
      // previews are rare: the detail is read back from its bytes rather than kept twice in memory
      const detail = JSON.parse(entry.detailJson.raw.toString('utf8')).data;
      const offers = cat.offers.get(id) ?? [];
      json = body({
        data: {
          ...detail,
          leading_price: leadingPriceData(entry, offers, scope, today),
          configurator: renderConfigurator(entry, offers, scope, today),
        },
      });
      daily.preview.set(id, json);
    }
    return json;
  }

  async leadingPriceJson(scope: MarketScope, id: number): Promise<PreparedBody> {
    const [cat, entry] = await this.listed(scope, id);
    await this.offers(cat);
    const today = this.today(scope);
    const daily = this.daily(cat, today);
    let json = daily.leading.get(id);
    if (!json) {
      json = body({ data: leadingPriceData(entry, cat.offers.get(id) ?? [], scope, today) });
      daily.leading.set(id, json);
    }
    return json;
  }

  async configuratorJson(scope: MarketScope, id: number): Promise<PreparedBody> {
    const [cat, entry] = await this.listed(scope, id);
    await this.offers(cat);
    const today = this.today(scope);
    const daily = this.daily(cat, today);
    let json = daily.configurator.get(id);
    if (!json) {
      json = body({ data: renderConfigurator(entry, cat.offers.get(id) ?? [], scope, today) });
      daily.configurator.set(id, json);
    }
    return json;
  }
}

function leadingPriceData(entry: ProductEntry, offers: OfferRow[], scope: MarketScope, today: string) {
  const { cents, count } = leadingPriceCents(offers, today);
  return {
    product_by_market_id: entry.row.id,
    price_from: cents === undefined ? null : formatCents(cents),
    currency: scope.market.currency.code,
    offers_count: count,
  };
}

/** Bodies are kept UTF-8 encoded with their ETag: a hot read costs no serialization and no encoding. */
const body = PreparedBody.of;

function groupOffers(list: OfferRow[]): Map<number, OfferRow[]> {
  const out = new Map<number, OfferRow[]>();
  for (const o of list) {
    const l = out.get(o.marketProductId);
    if (l) l.push(o);
    else out.set(o.marketProductId, [o]);
  }
  return out;
}

function renderActivity(a: DayActivityRow, lang: string, assets: string) {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    tier: a.tier,
    tier_label: labelsFor(lang).activityTiers[a.tier as 'included'] ?? a.tier,
    image_url: assetUrl(assets, a.images[0]),
    city: cityCountry(a.city, a.country),
    reasons: a.reasons?.length ? a.reasons : null,
    amenities: a.amenities?.length ? a.amenities : null,
  };
}

function renderLocale(
  rows: LocaleRows,
  offers: Map<number, OfferRow[]>,
  scope: MarketScope,
  assets: string,
): LocaleCatalog {
  const lang = scope.lang;
  const labels = labelsFor(lang);
  const products = new Map<number, ProductEntry>();
  const listing: unknown[] = [];
  const bySlug = new Map<string, number>();
  const byTemplateSlug = new Map<string, number>();
  const bySku = new Map<string, number>();

  for (const p of rows.products) {
    const airports = rows.airports.filter((a) => a.marketProductId === p.id);
    const item = {
      id: p.id,
      product_template_id: p.templateId,
      sku: p.sku,
      locale: p.locale,
      status: p.status,
      sort_order: p.sortOrder,
      trip_duration_days: p.tripDurationDays,
      title: p.title,
      subtitle: p.subtitle,
      short_description: p.shortDescription,
      long_description: p.longDescription,
      highlights: p.highlights,
      destination_info: p.destinationInfo,
      url_slug: p.urlSlug,
      hero_image: assetUrl(assets, p.heroImage),
      country_name: p.countryName,
      country_slug: p.countrySlug,
      departure_airports: airports.map((a) => ({
        iata_code: a.iataCode,
        name: a.name,
        city: a.city,
        country: a.country,
      })),
    };

    const stays = rows.stays.filter((s) => s.templateId === p.templateId);
    const accommodations = STAY_TIER_ORDER.map((tier) => ({
      tier,
      tier_label: labels.stayTiers[tier],
      stays: stays
        .filter((s) => s.tier === tier)
        .map((s) => ({
          day_start: s.dayStart,
          day_end: s.dayEnd,
          nights: s.dayEnd - s.dayStart + 1,
          hotel: {
            id: s.hotelId,
            name: s.name,
            description: s.description,
            city: cityCountry(s.city, s.country),
            stars: s.stars,
            image_url: assetUrl(assets, s.images[0]),
          },
        })),
    })).filter((g) => g.stays.length > 0);

    const days = rows.days
      .filter((d) => d.marketProductId === p.id)
      .map((d) => ({
        day_number: d.dayNumber,
        title: d.title,
        description: d.description,
        city: cityCountry(d.city, d.country),
        activities: rows.activities
          .filter((a) => a.itineraryDayId === d.id)
          .sort((x, y) => ACTIVITY_TIER_ORDER.indexOf(x.tier) - ACTIVITY_TIER_ORDER.indexOf(y.tier))
          .map((a) => renderActivity(a, lang, assets)),
      }));
    // consecutive days in the same place form one stop of the itinerary
    const itinerary: { city: string | null; day_start: number; day_end: number; days: typeof days }[] = [];
    for (const day of days) {
      const last = itinerary.at(-1);
      if (last && last.city === day.city && last.day_end + 1 === day.day_number) {
        last.days.push(day);
        last.day_end = day.day_number;
      } else itinerary.push({ city: day.city, day_start: day.day_number, day_end: day.day_number, days: [day] });
    }

    const active = p.status === 'active';
    products.set(p.id, {
      row: p,
      active,
      detailJson: body({ data: { ...item, accommodations, itinerary } }),
      roomTypes: rows.roomTypes.get(p.templateId) ?? DEFAULT_ROOM_TYPES,
      airports: airports.map((a) => ({ iata_code: a.iataCode, city: a.city })),
    });
    if (active) {
      listing.push(item);
      bySlug.set(p.urlSlug.toLowerCase(), p.id);
      if (!byTemplateSlug.has(p.templateSlug.toLowerCase())) byTemplateSlug.set(p.templateSlug.toLowerCase(), p.id);
      bySku.set(p.sku.toUpperCase(), p.id);
    }
  }
  return {
    scope,
    products,
    listingJson: body({ data: listing, meta: { market: scope.market.code, locale: scope.locale } }),
    bySlug,
    byTemplateSlug,
    bySku,
    offers,
    offersAt: Date.now(),
  };
}

const ROOM_ORDER = (code: string) => {
  const m = /^(\d+)A(?:\+(\d+)CH)?$/.exec(code);
  return m ? Number(m[1]) * 10 + Number(m[2] ?? 0) : 999;
};

function renderConfigurator(entry: ProductEntry, offers: OfferRow[], scope: MarketScope, today: string) {
  const lang = scope.lang;
  // only bookable offers with allotment left; sold-out ones are left out silently
  const open = offers
    .filter((o) => isBookable(o, today) && o.allotment - o.allotmentUsed > 0)
    .sort(
      (a, b) => a.departureDate.localeCompare(b.departureDate) || a.departureAirport.localeCompare(b.departureAirport),
    );
  const months: {
    year: number;
    month: number;
    label: string;
    min_price: string;
    min_price_per_person: string;
    dates: unknown[];
  }[] = [];
  let current: { key: string; min: number; minPp: number } | undefined;
  for (const o of open) {
    const year = Number(o.departureDate.slice(0, 4));
    const month = Number(o.departureDate.slice(5, 7));
    const key = `${year}-${month}`;
    const price = toCents(o.finalPrice);
    const pp = toCents(o.pricePerPerson);
    if (current?.key !== key) {
      current = { key, min: price, minPp: pp };
      months.push({
        year,
        month,
        label: monthLabel(lang, year, month),
        min_price: '',
        min_price_per_person: '',
        dates: [],
      });
    }
    current.min = Math.min(current.min, price);
    current.minPp = Math.min(current.minPp, pp);
    const m = months[months.length - 1];
    m.min_price = formatCents(current.min);
    m.min_price_per_person = formatCents(current.minPp);
    m.dates.push({
      offer_id: o.id,
      date: o.departureDate,
      day_label: dayLabel(lang, o.departureDate),
      price: formatCents(price),
      price_per_person: formatCents(pp),
      // the default party of pax_count travellers still fits
      available: o.allotment - o.allotmentUsed >= o.paxCount,
      departure_airport: o.departureAirport,
    });
  }
  const used = new Set(open.map((o) => o.departureAirport));
  return {
    product_id: entry.row.id,
    departure_airports: entry.airports.filter((a) => used.has(a.iata_code)),
    months,
    room_types: [...entry.roomTypes]
      .sort((a, b) => ROOM_ORDER(a) - ROOM_ORDER(b))
      .map((code) => ({ code, label: roomTypeLabel(code, lang) })),
    labels: labelsFor(lang).configurator,
    currency: { code: scope.market.currency.code, symbol: scope.market.currency.symbol },
  };
}
