// Drizzle fixture builders for checkout tests: a small tour with selection hotels and upgrades,
// optional activities and transfers priced in several currencies, and offers in every state the
// checkout distinguishes. Prices are chosen so expected values are easy to derive by hand.
import { eq } from 'drizzle-orm';
import type { Database } from '../../src/db/database.js';
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
  marketProducts,
  markets,
  offers,
  productTemplates,
  tourDayTransfers,
  transferRates,
  transfers,
} from '../../src/db/schema/index.js';
import { addDays, dateIn } from '../../src/platform/clock.js';
import { TEST_NOW } from './app.js';
import { seedMarkets } from './markets.js';

type Db = Database['db'];

/** Builds one template with a market product per (market, language) and returns their ids. */
export async function templateWithProducts(
  db: Db,
  t: { code: string; days: number; packageServiceName?: string },
  products: { marketId: number; language: string; status?: string; title: string; urlSlug: string }[],
) {
  const [template] = await db
    .insert(productTemplates)
    .values({
      code: t.code,
      slug: t.code,
      title: t.code,
      tripDurationDays: t.days,
      countrySlug: 'japan',
      packageServiceName: t.packageServiceName ?? null,
    })
    .returning();
  const codes = new Map(
    (await db.select({ id: markets.id, code: markets.code }).from(markets)).map((m) => [m.id, m.code]),
  );
  const rows = [];
  for (const p of products) {
    const [mp] = await db
      .insert(marketProducts)
      .values({
        templateId: template.id,
        marketId: p.marketId,
        language: p.language,
        locale: `${p.language}_${codes.get(p.marketId)!.toUpperCase()}`,
        sku: `${t.code}-${codes.get(p.marketId)}-${p.language}`,
        status: p.status ?? 'active',
        title: p.title,
        urlSlug: p.urlSlug,
        countryName: 'Japan',
      })
      .returning();
    rows.push(mp);
  }
  return { template, products: rows };
}

export interface OfferSpec {
  code: string;
  marketProductId: number;
  departureInDays: number;
  status?: string;
  paxCount?: number;
  landBasePrice?: string;
  flightPrice?: string;
  marginPercent?: string;
  finalPrice?: string;
  pricePerPerson?: string;
  airport?: string;
}

export async function offer(db: Db, o: OfferSpec, today: string) {
  const departure = addDays(today, o.departureInDays);
  const [row] = await db
    .insert(offers)
    .values({
      code: o.code,
      marketProductId: o.marketProductId,
      departureAirport: o.airport ?? 'MAD',
      departureDate: departure,
      returnDate: addDays(departure, 4),
      status: o.status ?? 'Active',
      paxCount: o.paxCount ?? 2,
      allotment: 10,
      landBasePrice: o.landBasePrice ?? '2000.00',
      flightPrice: o.flightPrice ?? '700.00',
      marginPercent: o.marginPercent ?? '15.00',
      finalPrice: o.finalPrice ?? '3910.00',
      pricePerPerson: o.pricePerPerson ?? '1955.00',
    })
    .returning();
  return row;
}

export interface CheckoutCatalog {
  marketIds: { es: number; de: number; fr: number; us: number };
  hotels: Record<'tokyo' | 'kyoto' | 'tokyoLuxury' | 'tokyoGrand' | 'kyotoLuxury', number>;
  activities: Record<'tea' | 'sushi' | 'sake' | 'noRate' | 'swap', number>;
  transfers: Record<'arrival' | 'privateArrival' | 'bulletTrain' | 'noRate' | 'departure', number>;
  offers: {
    /** Active, in 60 days, 2 pax: land 2000, flight 700 pp, margin 15% -> final 3910 */
    active: number;
    /** Active, departs in 3 days (inside the lead time) */
    soon: number;
    inactive: number;
    past: number;
    /** Active offer of the de market */
    otherMarket: number;
    /** Active offer of a draft market product */
    draftProduct: number;
    /** legacy package tour (no selection hotels) */
    legacy: number;
    /** Active offer of the us market (USD) */
    usd: number;
  };
  today: string;
}

/**
 * The checkout tour (5 days, nights 1-4):
 * - selection: Tokyo hotel nights 1-2 and 3 (one group 1-3), Kyoto hotel night 4 (rates in JPY);
 * - upgrades: Tokyo luxury 1-3 (EUR), Tokyo grand luxury 1-3 (USD, no 4A rate), Kyoto luxury 4 (JPY);
 * - activities: day 2 tea ceremony included, sushi class extra 40 EUR; day 3 sake tasting extra
 *   55 USD, a no-rate extra; day 4 a substitution;
 * - transfers: day 1 included arrival + private arrival upsell 80 EUR; day 4 bullet train upsell
 *   110 USD + a no-rate upsell; day 5 included departure.
 * Exchange rates per EUR: USD 1.10, JPY 160.
 */
/** `now`: the clock of the app that will read it (tests: TEST_NOW; a real process: the real time) */
export async function seedCheckoutCatalog(database: Database, now = TEST_NOW): Promise<CheckoutCatalog> {
  const db = database.db;
  await seedMarkets(database);
  await db.insert(airports).values({ iataCode: 'JFK', name: 'John F. Kennedy', city: 'New York', country: 'USA' });
  const [us] = await db
    .insert(markets)
    .values({
      code: 'us',
      name: 'United States',
      defaultLanguage: 'en',
      languages: ['en', 'es'],
      tourPathSlugs: { en: 'tours', es: 'viajes' },
      currencyCode: 'USD',
      currencyName: 'US Dollar',
      currencySymbol: '$',
      timezone: 'America/New_York',
    })
    .returning();
  await db.insert(marketAirports).values({ marketId: us.id, iataCode: 'JFK', isPrimary: true });
  const all = await db.select().from(markets);
  const id = (code: string) => all.find((m) => m.code === code)!.id;
  const es = id('es');
  const de = id('de');
  const today = dateIn('Europe/Madrid', new Date(now));

  await db.insert(exchangeRates).values([
    { currency: 'EUR', ratePerEur: '1' },
    { currency: 'USD', ratePerEur: '1.10' },
    { currency: 'JPY', ratePerEur: '160' },
  ]);

  const tour = await templateWithProducts(db, { code: 'japan-essentials', days: 5 }, [
    { marketId: es, language: 'es', title: 'Japón esencial', urlSlug: 'japon-esencial' },
    { marketId: es, language: 'en', title: 'Japan essentials', urlSlug: 'japan-essentials' },
    { marketId: es, language: 'ca', status: 'draft', title: 'Japó essencial', urlSlug: 'japo-essencial' },
    { marketId: de, language: 'de', title: 'Japan kompakt', urlSlug: 'japan-kompakt' },
    { marketId: us.id, language: 'en', title: 'Japan essentials', urlSlug: 'japan-essentials' },
  ]);
  const [esProduct, , caDraft, deProduct, usProduct] = tour.products;

  const cities = ['Tokyo', 'Tokyo', 'Tokyo', 'Kyoto', 'Kyoto'];
  const days = await db
    .insert(itineraryDays)
    .values(
      cities.map((city, i) => ({
        marketProductId: esProduct.id,
        dayNumber: i + 1,
        title: `Day ${i + 1}`,
        city,
        country: 'Japan',
      })),
    )
    .returning();
  await db
    .insert(itineraryDays)
    .values(
      cities.map((city, i) => ({ marketProductId: usProduct.id, dayNumber: i + 1, title: `Day ${i + 1}`, city })),
    );

  const hotelRows = await db
    .insert(hotels)
    .values([
      { code: 'tokyo-sel', name: 'Hotel Gracery', city: 'Tokyo', country: 'Japan', images: ['hotels/gracery.jpg'] },
      { code: 'kyoto-sel', name: 'Kyoto Tower Hotel', city: 'Kyoto', country: 'Japan' },
      { code: 'tokyo-lux', name: 'Park Hyatt Tokyo', city: 'Tokyo', country: 'Japan', description: 'Views' },
      { code: 'tokyo-gl', name: 'Aman Tokyo', city: 'Tokyo', country: 'Japan', images: ['https://cdn.test/aman.jpg'] },
      { code: 'kyoto-lux', name: 'Ritz-Carlton Kyoto', city: 'Kyoto', country: 'Japan' },
    ])
    .returning();
  const [tokyo, kyoto, tokyoLuxury, tokyoGrand, kyotoLuxury] = hotelRows.map((h) => h.id);
  const rates = (hotelId: number, currency: string, byType: Record<string, string>) =>
    Object.entries(byType).map(([roomType, pricePerNight]) => ({ hotelId, roomType, pricePerNight, currency }));
  await db
    .insert(hotelRates)
    .values([
      ...rates(tokyo, 'EUR', { '1A': '100.00', '2A': '150.00', '3A': '200.00', '4A': '260.00', '2A+1CH': '180.00' }),
      ...rates(kyoto, 'JPY', { '1A': '16000', '2A': '24000', '3A': '32000', '4A': '40000', '2A+1CH': '28000' }),
      ...rates(tokyoLuxury, 'EUR', { '1A': '200.00', '2A': '300.00', '3A': '380.00', '4A': '450.00' }),
      ...rates(tokyoGrand, 'USD', { '1A': '440.00', '2A': '550.00', '3A': '660.00' }),
      ...rates(kyotoLuxury, 'JPY', { '1A': '30000', '2A': '40000', '3A': '50000', '4A': '60000' }),
    ]);
  const stay = (hotelId: number, tier: string, dayStart: number, dayEnd: number) => ({
    templateId: tour.template.id,
    hotelId,
    tier,
    dayStart,
    dayEnd,
  });
  await db
    .insert(accommodations)
    .values([
      stay(tokyo, 'selection', 1, 2),
      stay(tokyo, 'selection', 3, 3),
      stay(kyoto, 'selection', 4, 4),
      stay(tokyoLuxury, 'luxury', 1, 3),
      stay(tokyoGrand, 'grand_luxury', 1, 3),
      stay(kyotoLuxury, 'luxury', 4, 4),
    ]);

  const actRows = await db
    .insert(activities)
    .values([
      { code: 'tea', name: 'Tea ceremony', city: 'Tokyo', country: 'Japan' },
      { code: 'sushi', name: 'Sushi class', city: 'Tokyo', country: 'Japan', images: ['act/sushi.jpg'] },
      { code: 'sake', name: 'Sake tasting', city: 'Tokyo' },
      { code: 'norate', name: 'Sumo morning practice' },
      { code: 'swap', name: 'Bamboo forest walk', city: 'Kyoto', country: 'Japan' },
    ])
    .returning();
  const [tea, sushi, sake, noRate, swap] = actRows.map((a) => a.id);
  await db.insert(activityRates).values([
    { activityId: sushi, pricePerPerson: '40.00', currency: 'EUR' },
    { activityId: sake, pricePerPerson: '55.00', currency: 'USD' },
  ]);
  const dayId = (n: number) => days.find((d) => d.dayNumber === n)!.id;
  await db.insert(itineraryDayActivities).values([
    { itineraryDayId: dayId(2), activityId: tea, tier: 'included', sortOrder: 0 },
    { itineraryDayId: dayId(2), activityId: sushi, tier: 'extra', sortOrder: 1 },
    { itineraryDayId: dayId(3), activityId: sake, tier: 'extra', sortOrder: 0 },
    { itineraryDayId: dayId(3), activityId: noRate, tier: 'extra', sortOrder: 1 },
    { itineraryDayId: dayId(4), activityId: swap, tier: 'substitution', sortOrder: 0 },
  ]);

  const trRows = await db
    .insert(transfers)
    .values([
      { code: 'arrival', name: 'Shared arrival transfer', city: 'Tokyo' },
      {
        code: 'private-arrival',
        name: 'Private arrival transfer',
        city: 'Tokyo',
        country: 'Japan',
        vehicleType: 'sedan',
        durationMinutes: 60,
        images: ['tr/sedan.jpg'],
      },
      { code: 'bullet', name: 'Green car bullet train', city: 'Kyoto', vehicleType: 'train', durationMinutes: 135 },
      { code: 'norate-tr', name: 'Helicopter hop' },
      { code: 'departure', name: 'Shared departure transfer' },
    ])
    .returning();
  const [arrival, privateArrival, bulletTrain, noRateTransfer, departure] = trRows.map((t) => t.id);
  await db.insert(transferRates).values([
    { transferId: privateArrival, pricePerTrip: '80.00', currency: 'EUR' },
    { transferId: bulletTrain, pricePerTrip: '110.00', currency: 'USD' },
    { transferId: arrival, pricePerTrip: '20.00', currency: 'EUR' },
  ]);
  const tdt = (dayNumber: number, transferId: number, kind: string) => ({
    templateId: tour.template.id,
    dayNumber,
    transferId,
    kind,
  });
  await db
    .insert(tourDayTransfers)
    .values([
      tdt(1, arrival, 'included'),
      tdt(1, privateArrival, 'upsell'),
      tdt(4, bulletTrain, 'upsell'),
      tdt(4, noRateTransfer, 'upsell'),
      tdt(5, departure, 'included'),
    ]);

  const legacyTour = await templateWithProducts(
    db,
    { code: 'india-golden-triangle', days: 9, packageServiceName: 'Golden Triangle land package' },
    [{ marketId: es, language: 'es', title: 'Triángulo de oro', urlSlug: 'triangulo-de-oro' }],
  );

  const o = (spec: OfferSpec) => offer(db, spec, today);
  const active = await o({ code: 'O-ACTIVE', marketProductId: esProduct.id, departureInDays: 60 });
  const soon = await o({ code: 'O-SOON', marketProductId: esProduct.id, departureInDays: 3 });
  const inactive = await o({
    code: 'O-INACTIVE',
    marketProductId: esProduct.id,
    departureInDays: 60,
    status: 'Inactive',
  });
  const past = await o({ code: 'O-PAST', marketProductId: esProduct.id, departureInDays: -10 });
  const otherMarket = await o({ code: 'O-DE', marketProductId: deProduct.id, departureInDays: 60, airport: 'FRA' });
  const draftProduct = await o({ code: 'O-DRAFT', marketProductId: caDraft.id, departureInDays: 60 });
  const legacy = await o({
    code: 'O-LEGACY',
    marketProductId: legacyTour.products[0].id,
    departureInDays: 45,
    landBasePrice: '1500.00',
    flightPrice: '600.00',
    marginPercent: '10.00',
    finalPrice: '2970.00',
    pricePerPerson: '1485.00',
  });
  const usd = await o({
    code: 'O-USD',
    marketProductId: usProduct.id,
    departureInDays: 60,
    airport: 'JFK',
    landBasePrice: '2200.00',
    flightPrice: '800.00',
    finalPrice: '4370.00',
    pricePerPerson: '2185.00',
  });

  return {
    marketIds: { es, de, fr: id('fr'), us: us.id },
    hotels: { tokyo, kyoto, tokyoLuxury, tokyoGrand, kyotoLuxury },
    activities: { tea, sushi, sake, noRate, swap },
    transfers: { arrival, privateArrival, bulletTrain, noRate: noRateTransfer, departure },
    offers: {
      active: active.id,
      soon: soon.id,
      inactive: inactive.id,
      past: past.id,
      otherMarket: otherMarket.id,
      draftProduct: draftProduct.id,
      legacy: legacy.id,
      usd: usd.id,
    },
    today,
  };
}

/** gives an offer the flight cache of flightCacheFor (its own dates), so the flights step has cards */
export async function cacheFlightsOf(database: Database, offerId: number): Promise<void> {
  const [o] = await database.db.select().from(offers).where(eq(offers.id, offerId));
  await database.db
    .update(offers)
    .set({ flightData: flightCacheFor(o.departureDate, o.returnDate!) })
    .where(eq(offers.id, offerId));
}

/** the flight cache of an offer (MAD-NRT international + NRT-KIX domestic, economy) */
export function flightCacheFor(departure: string, returnDate: string, inboundFrom = 'NRT') {
  return {
    outbound: {
      departure_date: departure,
      departure_time: '10:00',
      arrival_time: '08:00',
      departure_airport: 'MAD',
      arrival_airport: 'NRT',
      flight_numbers: ['IB1'],
      airlines: ['IB'],
      stops: 0,
      stopover_airports: [],
    },
    inbound: {
      departure_date: returnDate,
      departure_time: '12:00',
      arrival_time: '19:00',
      departure_airport: inboundFrom,
      arrival_airport: 'MAD',
      flight_numbers: ['IB2'],
      airlines: ['IB'],
      stops: 0,
      stopover_airports: [],
    },
    legs: [
      {
        leg_index: 0,
        type: 'international',
        route: `MAD-NRT/${inboundFrom}-MAD`,
        cabin_class: 'ECONOMY',
        fare_price: 700,
        flight_numbers: { outbound: ['IB1'], inbound: ['IB2'] },
        origin: 'MAD',
        destination: 'NRT',
        departure_date: departure,
      },
      {
        leg_index: 1,
        type: 'domestic',
        route: 'NRT-KIX',
        cabin_class: 'ECONOMY',
        fare_price: 90,
        flight_numbers: { outbound: ['JL100'], inbound: [] },
        origin: 'NRT',
        destination: 'KIX',
        departure_date: addDays(departure, 2),
      },
    ],
  };
}

/**
 * A market charging in yen (JPY, ISO 4217 exponent 0: no minor unit) with one active offer for 2
 * departing in `departureInDays`: final price 452,346 JPY (226,173 per person). A 30 % deposit is
 * 135,703.8 yen, paid as 135,704 (whole yen); the balance is 316,642.
 */
export async function seedJpyMarket(database: Database, cat: CheckoutCatalog, departureInDays = 120) {
  const db = database.db;
  const [jp] = await db
    .insert(markets)
    .values({
      code: 'jp',
      name: 'Japan',
      defaultLanguage: 'en',
      languages: ['en'],
      tourPathSlugs: { en: 'tours' },
      currencyCode: 'JPY',
      currencyName: 'Japanese Yen',
      currencySymbol: '¥',
      timezone: 'Asia/Tokyo',
    })
    .returning();
  await db.insert(marketAirports).values({ marketId: jp.id, iataCode: 'MAD', isPrimary: true });
  const tour = await templateWithProducts(db, { code: 'japan-in-yen', days: 5 }, [
    { marketId: jp.id, language: 'en', title: 'Japan in yen', urlSlug: 'japan-in-yen' },
  ]);
  const row = await offer(
    db,
    {
      code: 'O-JPY',
      marketProductId: tour.products[0].id,
      departureInDays,
      landBasePrice: '280000.00',
      flightPrice: '100000.00',
      finalPrice: '452346.00',
      pricePerPerson: '226173.00',
    },
    cat.today,
  );
  return { marketId: jp.id, offerId: row.id, departureDate: row.departureDate };
}
