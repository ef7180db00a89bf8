// Small catalog import documents for tests. `catalogFixture()` gives a complete document (markets
// es/de/it, one tour "japan-essentials" sold in es (es, ca, en) and de, a second tour, hotels in three
// tiers with rates, activities in three tiers, transfers, offers around the lead time). Tests change
// what they need with plain object edits, then import with `importFixture`.
import type { Database } from '../../src/db/database.js';
import { runImport } from '../../src/modules/catalog/import.js';
import type {
  CatalogDoc,
  MarketProductDoc,
  OfferDoc,
  ProductTemplateDoc,
} from '../../src/modules/catalog/import-schema.js';
import { addDays } from '../../src/platform/clock.js';

/** The date TEST_NOW (2026-06-15T10:00Z) is in Europe/Madrid and Europe/Berlin. */
export const FIXTURE_TODAY = '2026-06-15';

export function offerFixture(code: string, daysFromToday: number, over: Partial<OfferDoc> = {}): OfferDoc {
  const departure = addDays(FIXTURE_TODAY, daysFromToday);
  return {
    code,
    departure_airport: 'MAD',
    departure_date: departure,
    return_date: addDays(departure, 11),
    status: 'Active',
    pax_count: 2,
    allotment: 10,
    allotment_used: 0,
    land_base_price: '3000.00',
    flight_price: '850.00',
    margin_percent: '18.00',
    final_price: '4990.00',
    price_per_person: '2495.00',
    ...over,
  };
}

export function marketProductFixture(over: Partial<MarketProductDoc> = {}): MarketProductDoc {
  return {
    template: 'japan-essentials',
    market: 'es',
    language: 'es',
    version: 1,
    status: 'active',
    sort_order: 1,
    title: 'Japón esencial',
    subtitle: 'Tokio, Kioto y Osaka',
    short_description: 'Doce días por lo mejor de Japón.',
    long_description: 'Un viaje de doce días entre templos, jardines y ciudades de neón.',
    highlights: ['Templos de Kioto', 'Tren bala'],
    destination_info: 'Japón es seguro y puntual.',
    url_slug: 'japon-esencial',
    country_name: 'Japón',
    hero_image: 'tours/japan-essentials/hero.jpg',
    departure_airports: ['MAD', 'BCN'],
    itinerary: [
      {
        day: 1,
        title: 'Llegada a Tokio',
        description: 'Traslado al hotel.',
        city: 'Tokio',
        country: 'Japón',
        activities: [
          { activity: 'tokyo-city-tour', tier: 'included' },
          { activity: 'tokyo-sumo-show', tier: 'extra' },
        ],
      },
      {
        day: 2,
        title: 'Tokio',
        city: 'Tokio',
        country: 'Japón',
        activities: [{ activity: 'tokyo-tea-ceremony', tier: 'substitution' }],
      },
      { day: 3, title: 'Kioto', city: 'Kioto', country: 'Japón' },
    ],
    offers: [],
    ...over,
  };
}

export function templateFixture(over: Partial<ProductTemplateDoc> = {}): ProductTemplateDoc {
  return {
    code: 'japan-essentials',
    title: 'Japan Essentials',
    trip_duration_days: 12,
    country_slug: 'japan',
    hero_image: 'tours/japan-essentials/hero.jpg',
    accommodations: [
      { hotel: 'tokyo-selection', tier: 'selection', day_start: 1, day_end: 3 },
      { hotel: 'kyoto-selection', tier: 'selection', day_start: 4, day_end: 11 },
      { hotel: 'tokyo-luxury', tier: 'luxury', day_start: 1, day_end: 3 },
      { hotel: 'tokyo-grand', tier: 'grand_luxury', day_start: 1, day_end: 3 },
    ],
    day_transfers: [
      { day: 1, transfer: 'narita-hotel-shared', kind: 'included' },
      { day: 1, transfer: 'narita-hotel-private', kind: 'upsell' },
    ],
    ...over,
  };
}

const rates = (base: number, currency = 'EUR') =>
  ['1A', '2A', '3A', '4A'].map((room_type, i) => ({
    room_type,
    price_per_night: `${base + i * 40}.00`,
    currency,
  }));

export function catalogFixture(): CatalogDoc {
  return {
    airports: [
      { iata_code: 'MAD', name: 'Adolfo Suárez Madrid-Barajas', city: 'Madrid', country: 'Spain' },
      { iata_code: 'BCN', name: 'Josep Tarradellas Barcelona-El Prat', city: 'Barcelona', country: 'Spain' },
      { iata_code: 'FRA', name: 'Frankfurt am Main', city: 'Frankfurt', country: 'Germany' },
      { iata_code: 'FCO', name: 'Roma Fiumicino', city: 'Rome', country: 'Italy' },
    ],
    exchange_rates: [
      { currency: 'USD', rate_per_eur: '1.0832' },
      { currency: 'JPY', rate_per_eur: '162.50' },
    ],
    markets: [
      {
        code: 'es',
        name: 'España',
        is_active: true,
        languages: ['es', 'ca', 'en'],
        tour_path_slugs: { es: 'viajes', ca: 'viatges', en: 'tours' },
        currency: { code: 'EUR', name: 'Euro', symbol: '€' },
        timezone: 'Europe/Madrid',
        airports: ['MAD', 'BCN'],
      },
      {
        code: 'de',
        name: 'Deutschland',
        is_active: true,
        languages: ['de', 'en'],
        tour_path_slugs: { de: 'reisen', en: 'tours' },
        currency: { code: 'EUR', name: 'Euro', symbol: '€' },
        timezone: 'Europe/Berlin',
        airports: ['FRA'],
      },
      {
        code: 'it',
        name: 'Italia',
        is_active: false,
        languages: ['it'],
        currency: { code: 'EUR', name: 'Euro', symbol: '€' },
        timezone: 'Europe/Rome',
        airports: ['FCO'],
      },
    ],
    hotels: [
      {
        code: 'tokyo-selection',
        name: 'Hotel Gracery Shinjuku',
        city: 'Tokyo',
        country: 'Japan',
        stars: 4,
        images: ['hotels/gracery.jpg'],
        rates: [...rates(120), { room_type: '2A+1CH', price_per_night: '190.00', currency: 'EUR' }],
      },
      {
        code: 'kyoto-selection',
        name: 'Hotel Granvia Kyoto',
        city: 'Kyoto',
        country: 'Japan',
        stars: 4,
        rates: rates(110),
      },
      {
        code: 'tokyo-luxury',
        name: 'The Prince Gallery Tokyo Kioicho',
        city: 'Tokyo',
        country: 'Japan',
        stars: 5,
        rates: rates(260),
      },
      {
        code: 'tokyo-grand',
        name: 'Aman Tokyo',
        city: 'Tokyo',
        country: 'Japan',
        stars: 5,
        images: ['https://images.example.com/aman.jpg'],
        rates: rates(52000, 'JPY').slice(0, 3),
      },
    ],
    activities: [
      {
        code: 'tokyo-city-tour',
        name: 'Tokyo city tour',
        description: 'Asakusa, Meiji shrine and Shibuya with a local guide.',
        city: 'Tokyo',
        country: 'Japan',
        images: ['activities/tokyo-city-tour.jpg', 'activities/tokyo-2.jpg'],
        reasons: ['See old and new Tokyo in one day'],
        amenities: [{ icon: 'guide', label: 'Guide', description: 'Spanish-speaking guide' }],
      },
      {
        code: 'tokyo-sumo-show',
        name: 'Sumo morning practice',
        city: 'Tokyo',
        country: 'Japan',
        rate: { price_per_person: '95.00', currency: 'EUR' },
      },
      { code: 'tokyo-tea-ceremony', name: 'Tea ceremony in Yanaka' },
    ],
    transfers: [
      {
        code: 'narita-hotel-shared',
        name: 'Narita airport shuttle',
        city: 'Tokyo',
        country: 'Japan',
        vehicle_type: 'shuttle bus',
        duration_minutes: 90,
      },
      {
        code: 'narita-hotel-private',
        name: 'Private car from Narita',
        city: 'Tokyo',
        country: 'Japan',
        vehicle_type: 'sedan',
        duration_minutes: 75,
        rate: { price_per_trip: '180.00', currency: 'USD' },
      },
    ],
    product_templates: [
      templateFixture(),
      {
        code: 'peru-inca-trail',
        title: 'Peru Inca Trail',
        trip_duration_days: 12,
        country_slug: 'peru',
        package_service_name: 'Peru land package',
      },
    ],
    market_products: [
      marketProductFixture({
        offers: [
          offerFixture('JE-ES-1', 30),
          offerFixture('JE-ES-2', 45, {
            departure_airport: 'BCN',
            final_price: '4790.00',
            price_per_person: '2395.00',
          }),
          offerFixture('JE-ES-LEAD', 4, { final_price: '3000.00', price_per_person: '1500.00' }),
          offerFixture('JE-ES-EDGE', 5, { final_price: '4100.00', price_per_person: '2050.00' }),
          offerFixture('JE-ES-PAST', -10, { final_price: '2000.00', price_per_person: '1000.00' }),
          offerFixture('JE-ES-SOLD', 60, {
            allotment: 10,
            allotment_used: 10,
            final_price: '2200.00',
            price_per_person: '1100.00',
          }),
          offerFixture('JE-ES-CANC', 75, { status: 'Cancelled', final_price: '2100.00', price_per_person: '1050.00' }),
        ],
      }),
      marketProductFixture({
        language: 'ca',
        title: 'Japó essencial',
        url_slug: 'japo-essencial',
        country_name: 'Japó',
        itinerary: [{ day: 1, title: 'Arribada a Tòquio', city: 'Tòquio', country: 'Japó' }],
        offers: [offerFixture('JE-CA-1', 40, { final_price: '5000.00', price_per_person: '2500.00' })],
      }),
      marketProductFixture({
        language: 'en',
        status: 'draft',
        title: 'Japan Essentials',
        url_slug: 'japan-essentials-tour',
        country_name: 'Japan',
        itinerary: [],
      }),
      marketProductFixture({
        template: 'peru-inca-trail',
        sort_order: 0,
        title: 'Perú y el Camino Inca',
        url_slug: 'peru-camino-inca',
        country_name: 'Perú',
        hero_image: 'https://cdn.example.com/peru.jpg',
        departure_airports: ['MAD'],
        itinerary: [{ day: 1, title: 'Lima', city: 'Lima', country: 'Perú' }],
        offers: [offerFixture('PE-ES-LEAD', 2)],
      }),
      marketProductFixture({
        market: 'de',
        language: 'de',
        title: 'Japan entdecken',
        url_slug: 'japan-entdecken',
        country_name: 'Japan',
        departure_airports: ['FRA'],
        itinerary: [],
        offers: [offerFixture('JE-DE-1', 30, { departure_airport: 'FRA' })],
      }),
    ],
  };
}

export async function importFixture(database: Database, doc: CatalogDoc = catalogFixture()) {
  const result = await runImport(database, doc, { today: FIXTURE_TODAY });
  if (!result.ok) throw new Error(`fixture import failed: ${JSON.stringify(result.problems, null, 2)}`);
  return result.summary;
}
