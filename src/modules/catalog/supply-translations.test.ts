// Supply translations (issue 18 §3): activities, hotels, transfers and airports read in the page's
// language, falling back field by field to the market's default language, then English, then the
// base row. Expected texts are the fixture's, traced by hand through that chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { catalogFixture, importFixture } from '../../../test/support/catalog-fixture.js';
import { createTestDatabase } from '../../../test/support/db.js';
import type { Database } from '../../db/database.js';
import type { CatalogDoc } from './import-schema.js';

let database: Database;
let t: TestApp;
const product: Record<string, number> = {};
const offer: Record<string, number> = {};

const TOKYO_DAY = {
  day: 1,
  title: 'Tokyo',
  city: 'Tokyo',
  country: 'Japan',
  activities: [
    { activity: 'tokyo-city-tour', tier: 'included' as const },
    { activity: 'tokyo-sumo-show', tier: 'extra' as const },
  ],
};

/** The fixture with translations: es and ca (market es), de (market de), one English text. */
function translatedFixture(): CatalogDoc {
  const doc = catalogFixture();
  const activity = (code: string) => doc.activities!.find((a) => a.code === code)!;
  activity('tokyo-city-tour').translations = {
    es: {
      name: 'Visita de Tokio',
      description: 'Asakusa, el santuario Meiji y Shibuya con guía local.',
      city: 'Tokio',
      country: 'Japón',
      reasons: ['El Tokio antiguo y el moderno en un día'],
      amenities: [{ icon: 'guide', label: 'Guía', description: 'Guía de habla hispana' }],
    },
    ca: { name: 'Visita de Tòquio', city: 'Tòquio', country: 'Japó' },
    de: { name: 'Stadtrundfahrt Tokio', city: 'Tokio' },
  };
  activity('tokyo-sumo-show').translations = {
    en: { name: 'Sumo morning training' },
    es: { name: 'Entrenamiento matinal de sumo' },
  };
  doc.hotels!.find((h) => h.code === 'tokyo-selection')!.translations = {
    es: { description: 'Hotel moderno en Shinjuku.' },
    ca: { description: 'Hotel modern a Shinjuku.', city: 'Tòquio', country: 'Japó' },
    de: { description: 'Modernes Hotel in Shinjuku.', city: 'Tokio' },
  };
  doc.transfers!.find((x) => x.code === 'narita-hotel-private')!.translations = {
    es: { name: 'Coche privado desde Narita' },
    ca: { name: 'Cotxe privat des de Narita' },
  };
  const airport = (code: string) => doc.airports!.find((a) => a.iata_code === code)!;
  airport('MAD').translations = {
    es: { name: 'Aeropuerto Adolfo Suárez Madrid-Barajas', country: 'España' },
    ca: { name: 'Aeroport Adolfo Suárez Madrid-Barajas', country: 'Espanya' },
  };
  airport('BCN').translations = { ca: { name: 'Aeroport Josep Tarradellas Barcelona-El Prat', country: 'Espanya' } };
  airport('FRA').translations = { de: { name: 'Flughafen Frankfurt am Main', country: 'Deutschland' } };
  // the Catalan and German products get the Tokyo day with both activities
  for (const p of doc.market_products!) {
    if (p.template === 'japan-essentials' && (p.language === 'ca' || p.language === 'de')) p.itinerary = [TOKYO_DAY];
  }
  return doc;
}

beforeAll(async () => {
  database = await createTestDatabase();
  await importFixture(database, translatedFixture());
  const { rows } = await database.query<{ id: number; locale: string; template: string }>(
    `SELECT mp.id, mp.locale, t.code AS template FROM market_products mp JOIN product_templates t ON t.id = mp.template_id`,
  );
  for (const r of rows) if (r.template === 'japan-essentials') product[r.locale] = r.id;
  const offers = await database.query<{ id: number; code: string }>('SELECT id, code FROM offers');
  for (const o of offers.rows) offer[o.code] = o.id;
  t = await createTestApp({ database });
});
afterAll(async () => {
  await t.close();
  await database.close();
});

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

type Activity = { name: string; description: string | null; city: string | null; reasons: unknown; amenities: unknown };
const dayOne = (detail: { itinerary: { days: { day_number: number; activities: Activity[] }[] }[] }) =>
  detail.itinerary.flatMap((s) => s.days).find((d) => d.day_number === 1)!.activities;
const selectionHotel = (detail: { accommodations: { tier: string; stays: { hotel: Record<string, unknown> }[] }[] }) =>
  detail.accommodations.find((a) => a.tier === 'selection')!.stays[0].hotel;

describe('the product detail reads supply texts in the page language', () => {
  it('Catalan: Catalan texts first, the market default (Spanish) for what Catalan lacks', async () => {
    const detail = await get(`/api/es/ca/products/${product.ca_ES}`);
    const [tour, sumo] = dayOne(detail);
    expect(tour).toMatchObject({
      name: 'Visita de Tòquio',
      // ca has no description, reasons or amenities: es, the market's default language, has them
      description: 'Asakusa, el santuario Meiji y Shibuya con guía local.',
      city: 'Tòquio, Japó',
      reasons: ['El Tokio antiguo y el moderno en un día'],
      amenities: [{ icon: 'guide', label: 'Guía', description: 'Guía de habla hispana' }],
    });
    expect(sumo.name).toBe('Entrenamiento matinal de sumo');
    expect(selectionHotel(detail)).toMatchObject({
      name: 'Hotel Gracery Shinjuku',
      description: 'Hotel modern a Shinjuku.',
      city: 'Tòquio, Japó',
    });
    expect(detail.departure_airports).toEqual([
      { iata_code: 'MAD', name: 'Aeroport Adolfo Suárez Madrid-Barajas', city: 'Madrid', country: 'Espanya' },
      { iata_code: 'BCN', name: 'Aeroport Josep Tarradellas Barcelona-El Prat', city: 'Barcelona', country: 'Espanya' },
    ]);
  });

  it('German: German texts, then English, then the base row (the market default is German itself)', async () => {
    const detail = await get(`/api/de/de/products/${product.de_DE}`);
    const [tour, sumo] = dayOne(detail);
    expect(tour).toMatchObject({
      name: 'Stadtrundfahrt Tokio',
      // no German or English description: the base row's
      description: 'Asakusa, Meiji shrine and Shibuya with a local guide.',
      city: 'Tokio, Japan',
      reasons: ['See old and new Tokyo in one day'],
    });
    // no German name: the English translation, not the base row's name
    expect(sumo.name).toBe('Sumo morning training');
    expect(selectionHotel(detail)).toMatchObject({ description: 'Modernes Hotel in Shinjuku.', city: 'Tokio, Japan' });
    expect(detail.departure_airports).toEqual([
      { iata_code: 'FRA', name: 'Flughafen Frankfurt am Main', city: 'Frankfurt', country: 'Deutschland' },
    ]);
  });

  it('Spanish: the listing names the airports in Spanish; a missing Spanish text stays the base one', async () => {
    const listing = await get('/api/es/es/products');
    const japan = listing.find((p: { id: number }) => p.id === product.es_ES);
    expect(japan.departure_airports).toEqual([
      { iata_code: 'MAD', name: 'Aeropuerto Adolfo Suárez Madrid-Barajas', city: 'Madrid', country: 'España' },
      { iata_code: 'BCN', name: 'Josep Tarradellas Barcelona-El Prat', city: 'Barcelona', country: 'Spain' },
    ]);
  });
});

describe('the market configuration names its airports in a language of the market', () => {
  it('the market default language without lang, the asked language with it, 400 for another', async () => {
    expect((await get('/api/es/config')).departure_airports).toEqual([
      { iata_code: 'MAD', name: 'Aeropuerto Adolfo Suárez Madrid-Barajas', city: 'Madrid', is_primary: true },
      { iata_code: 'BCN', name: 'Josep Tarradellas Barcelona-El Prat', city: 'Barcelona', is_primary: false },
    ]);
    expect((await get('/api/es/config?lang=CA')).departure_airports).toEqual([
      { iata_code: 'MAD', name: 'Aeroport Adolfo Suárez Madrid-Barajas', city: 'Madrid', is_primary: true },
      { iata_code: 'BCN', name: 'Aeroport Josep Tarradellas Barcelona-El Prat', city: 'Barcelona', is_primary: false },
    ]);
    const other = await t.app.inject({ method: 'GET', url: '/api/es/config?lang=de' });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ success: false, error: 'language_not_supported' });
  });
});

describe('the checkout options read supply texts in the page language', () => {
  it('Catalan hotels, activities and transfers', async () => {
    const base = `/api/es/ca/checkout/${offer['JE-CA-1']}`;
    const hotels = (await get(`${base}/hotels`)).hotels;
    expect(hotels[0]).toMatchObject({
      name: 'Hotel Gracery Shinjuku',
      tier: 'selection',
      description: 'Hotel modern a Shinjuku.',
      location: 'Tòquio, Japó',
    });
    const days = (await get(`${base}/activities`)).days;
    expect(days[0]).toMatchObject({
      day_number: 1,
      included_activities: [{ name: 'Visita de Tòquio' }],
      available_activities: [{ name: 'Entrenamiento matinal de sumo', price: 95 }],
    });
    const transfers = (await get(`${base}/transfers`)).days;
    expect(transfers[0]).toMatchObject({
      day_number: 1,
      included_transfers: [{ name: 'Narita airport shuttle' }],
      available_transfers: [{ name: 'Cotxe privat des de Narita' }],
    });
  });

  it('German: the English translation where German has none', async () => {
    const base = `/api/de/de/checkout/${offer['JE-DE-1']}`;
    const days = (await get(`${base}/activities`)).days;
    expect(days[0].available_activities[0].name).toBe('Sumo morning training');
    expect((await get(`${base}/transfers`)).days[0].available_transfers[0].name).toBe('Private car from Narita');
  });
});
