import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestApp } from '../../../test/support/app.js';
import { catalogFixture, FIXTURE_TODAY, importFixture, offerFixture } from '../../../test/support/catalog-fixture.js';
import { createTestDatabase } from '../../../test/support/db.js';
import type { Database } from '../../db/database.js';
import { runImport } from './import.js';
import { previewUrlFor, signPreview } from './preview.js';

let database: Database;
let t: TestApp;
const ids: Record<string, number> = {};
let japanTemplateId = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  const doc = catalogFixture();
  doc.market_products![0].offers!.push(offerFixture('JE-ES-TIGHT', 50, { allotment: 10, allotment_used: 9 }));
  await importFixture(database, doc);
  const { rows } = await database.query<{ id: number; locale: string; url_slug: string; template_id: number }>(
    'SELECT id, locale, url_slug, template_id FROM market_products',
  );
  for (const r of rows) ids[`${r.locale}/${r.url_slug}`] = r.id;
  japanTemplateId = rows.find((r) => r.url_slug === 'japon-esencial')!.template_id;
  t = await createTestApp({ database });
});
afterAll(async () => {
  await t.close();
  await database.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });
const japanEs = () => ids['es_ES/japon-esencial'];
const peruEs = () => ids['es_ES/peru-camino-inca'];

describe('market and language on product routes', () => {
  it('checks the market first, then the language, case-insensitively', async () => {
    expect((await get('/api/xx/zz/products/abc')).json()).toMatchObject({ success: false, error: 'market_not_found' });
    expect((await get('/api/e1/es/products')).statusCode).toBe(404);
    const inactive = await get(`/api/it/it/products/${japanEs()}`);
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json()).toMatchObject({ success: false, error: 'market_inactive' });
    const lang = await get('/api/es/de/products/slug/japon-esencial');
    expect(lang.statusCode).toBe(400);
    expect(lang.json()).toMatchObject({ success: false, error: 'language_not_supported' });
    expect(lang.json().message).toContain('es, ca, en');
    const upper = await get('/api/ES/Es/products');
    expect(upper.statusCode).toBe(200);
    expect(upper.json().meta).toEqual({ market: 'es', locale: 'es_ES' });
  });
});

describe('HTTP caching and compression of catalog bodies', () => {
  it('sends the listing gzipped to clients that accept it, with an ETag that answers 304', async () => {
    const plain = await get('/api/es/es/products');
    const gz = await t.app.inject({ url: '/api/es/es/products', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('accept-encoding');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(gz.headers.etag).not.toBe(plain.headers.etag);
    const again = await t.app.inject({ url: '/api/es/es/products', headers: { 'if-none-match': plain.headers.etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const detail = await get(`/api/es/es/products/${japanEs()}`);
    const stale = await t.app.inject({
      url: `/api/es/es/products/${japanEs()}`,
      headers: { 'if-none-match': plain.headers.etag },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers.etag).toBe(detail.headers.etag);
  });
});

describe('GET /api/:market/:lang/products', () => {
  it('lists the active products of the locale in sort order, with every field', async () => {
    const res = await get('/api/es/es/products');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const body = res.json();
    expect(body.meta).toEqual({ market: 'es', locale: 'es_ES' });
    expect(body.data.map((p: { url_slug: string }) => p.url_slug)).toEqual(['peru-camino-inca', 'japon-esencial']);
    expect(body.data[1]).toEqual({
      id: japanEs(),
      product_template_id: japanTemplateId,
      sku: `ES-${japanTemplateId}MAD12-ES1`,
      locale: 'es_ES',
      status: 'active',
      sort_order: 1,
      trip_duration_days: 12,
      title: 'Japón esencial',
      subtitle: 'Tokio, Kioto y Osaka',
      short_description: 'Doce días por lo mejor de Japón.',
      long_description: 'Un viaje de doce días entre templos, jardines y ciudades de neón.',
      highlights: ['Templos de Kioto', 'Tren bala'],
      destination_info: 'Japón es seguro y puntual.',
      url_slug: 'japon-esencial',
      hero_image: 'http://api.test/storage/tours/japan-essentials/hero.jpg',
      country_name: 'Japón',
      country_slug: 'japan',
      departure_airports: [
        { iata_code: 'MAD', name: 'Adolfo Suárez Madrid-Barajas', city: 'Madrid', country: 'Spain' },
        { iata_code: 'BCN', name: 'Josep Tarradellas Barcelona-El Prat', city: 'Barcelona', country: 'Spain' },
      ],
    });
    // image URLs that already are URLs pass through; the listing has no detail additions
    expect(body.data[0].hero_image).toBe('https://cdn.example.com/peru.jpg');
    expect(body.data[0]).not.toHaveProperty('itinerary');
    expect(body.data[0]).not.toHaveProperty('accommodations');
  });

  it('shows only the locale translation and never falls back to the template', async () => {
    const ca = (await get('/api/es/ca/products')).json();
    expect(ca.data.map((p: { title: string }) => p.title)).toEqual(['Japó essencial']);
    expect(ca.meta.locale).toBe('ca_ES');
    // the English product of es is a draft: nothing listed, no template content either
    expect((await get('/api/es/en/products')).json()).toEqual({ data: [], meta: { market: 'es', locale: 'en_ES' } });
    const de = (await get('/api/de/de/products')).json();
    expect(de.data).toHaveLength(1);
    expect(de.data[0]).toMatchObject({
      title: 'Japan entdecken',
      locale: 'de_DE',
      sku: `DE-${japanTemplateId}FRA12-DE1`,
    });
  });
});

describe('product by id, slug and sku', () => {
  it('returns the detail of an active product of the locale, 404 otherwise', async () => {
    const res = await get(`/api/es/es/products/${japanEs()}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: japanEs(), url_slug: 'japon-esencial' });
    for (const url of [
      '/api/es/es/products/999999',
      '/api/es/es/products/abc',
      `/api/es/ca/products/${japanEs()}`, // another locale
      `/api/es/en/products/${ids['en_ES/japan-essentials-tour']}`, // draft
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.json()).toEqual({ success: false, error: 'product_not_found', message: expect.any(String) });
    }
  });

  it('matches the translated slug first, then the template slug', async () => {
    expect((await get('/api/es/es/products/slug/japon-esencial')).json().data.id).toBe(japanEs());
    expect((await get('/api/es/es/products/slug/japan-essentials')).json().data.id).toBe(japanEs());
    expect((await get('/api/es/ca/products/slug/japan-essentials')).json().data.title).toBe('Japó essencial');
    expect((await get('/api/es/ca/products/slug/japon-esencial')).statusCode).toBe(404);
    // the template slug finds nothing when the locale's product is not active
    const r = await get('/api/es/en/products/slug/japan-essentials');
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toBe('product_not_found');
  });

  it('finds a product by its sku, case-insensitively, only in its own locale', async () => {
    const sku = `ES-${japanTemplateId}MAD12-ES1`;
    expect((await get(`/api/es/es/products/sku/${sku}`)).json().data.id).toBe(japanEs());
    expect((await get(`/api/es/es/products/sku/${sku.toLowerCase()}`)).json().data.id).toBe(japanEs());
    expect((await get(`/api/es/ca/products/sku/${sku}`)).statusCode).toBe(404);
    expect((await get('/api/es/es/products/sku/ES-0XXX1-ES1')).json().error).toBe('product_not_found');
  });

  it('adds accommodations by tier with day ranges and itinerary activities with tier labels', async () => {
    const d = (await get(`/api/es/es/products/${japanEs()}`)).json().data;
    expect(d.accommodations.map((g: { tier: string; tier_label: string }) => [g.tier, g.tier_label])).toEqual([
      ['selection', 'Selección'],
      ['luxury', 'Lujo'],
      ['grand_luxury', 'Gran Lujo'],
    ]);
    expect(d.accommodations[0].stays).toEqual([
      {
        day_start: 1,
        day_end: 3,
        nights: 3,
        hotel: {
          id: expect.any(Number),
          name: 'Hotel Gracery Shinjuku',
          description: null,
          city: 'Tokyo, Japan',
          stars: 4,
          image_url: 'http://api.test/storage/hotels/gracery.jpg',
        },
      },
      expect.objectContaining({ day_start: 4, day_end: 11, nights: 8 }),
    ]);
    expect(d.accommodations[2].stays[0].hotel.image_url).toBe('https://images.example.com/aman.jpg');

    expect(
      d.itinerary.map((s: { city: string; day_start: number; day_end: number }) => [s.city, s.day_start, s.day_end]),
    ).toEqual([
      ['Tokio, Japón', 1, 2],
      ['Kioto, Japón', 3, 3],
    ]);
    const day1 = d.itinerary[0].days[0];
    expect(day1).toMatchObject({ day_number: 1, title: 'Llegada a Tokio', description: 'Traslado al hotel.' });
    expect(day1.activities).toEqual([
      {
        id: expect.any(Number),
        name: 'Tokyo city tour',
        description: 'Asakusa, Meiji shrine and Shibuya with a local guide.',
        tier: 'included',
        tier_label: 'Incluida',
        image_url: 'http://api.test/storage/activities/tokyo-city-tour.jpg',
        city: 'Tokyo, Japan',
        reasons: ['See old and new Tokyo in one day'],
        amenities: [{ icon: 'guide', label: 'Guide', description: 'Spanish-speaking guide' }],
      },
      expect.objectContaining({ name: 'Sumo morning practice', tier: 'extra', tier_label: 'Extra opcional' }),
    ]);
    expect(d.itinerary[0].days[1].activities).toEqual([
      {
        id: expect.any(Number),
        name: 'Tea ceremony in Yanaka',
        description: null,
        tier: 'substitution',
        tier_label: 'Alternativa',
        image_url: null,
        city: null,
        reasons: null,
        amenities: null,
      },
    ]);
    // no prices in the detail
    expect(JSON.stringify(d.itinerary)).not.toContain('price');
  });
});

describe('leading price and bookability', () => {
  it('is the lowest price per person of bookable offers (Active, departing 5+ days after today)', async () => {
    const res = await get(`/api/es/es/products/${japanEs()}/leading-price`);
    expect(res.statusCode).toBe(200);
    // bookable: +5 (2050), +30, +45, +50, +60 (sold out but Active); not: +4, past, Cancelled
    expect(res.json()).toEqual({
      data: { product_by_market_id: japanEs(), price_from: '1100.00', currency: 'EUR', offers_count: 5 },
    });
  });

  it('moves with the clock in the market time zone', async () => {
    try {
      // 22:30 UTC on the 15th is already the 16th in Madrid: the +5 offer (the 20th) falls inside the lead time
      t.clock.set('2026-06-15T22:30:00Z');
      expect((await get(`/api/es/es/products/${japanEs()}/leading-price`)).json().data.offers_count).toBe(4);
      t.clock.set('2026-06-15T21:30:00Z');
      expect((await get(`/api/es/es/products/${japanEs()}/leading-price`)).json().data.offers_count).toBe(5);
    } finally {
      t.clock.set(TEST_NOW);
    }
  });

  it('is null with offers_count 0 when no offer is bookable', async () => {
    expect((await get(`/api/es/es/products/${peruEs()}/leading-price`)).json()).toEqual({
      data: { product_by_market_id: peruEs(), price_from: null, currency: 'EUR', offers_count: 0 },
    });
    expect((await get('/api/es/es/products/424242/leading-price')).statusCode).toBe(404);
  });
});

describe('GET /api/:market/:lang/products/:id/configurator', () => {
  it('lists bookable departures with allotment left, by month, with localized labels', async () => {
    const res = await get(`/api/es/es/products/${japanEs()}/configurator`);
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.product_id).toBe(japanEs());
    expect(d.departure_airports).toEqual([
      { iata_code: 'MAD', city: 'Madrid' },
      { iata_code: 'BCN', city: 'Barcelona' },
    ]);
    expect(d.months.map((m: { year: number; month: number; label: string }) => [m.year, m.month, m.label])).toEqual([
      [2026, 6, 'Junio'],
      [2026, 7, 'Julio'],
      [2026, 8, 'Agosto'],
    ]);
    expect(d.months[0]).toEqual({
      year: 2026,
      month: 6,
      label: 'Junio',
      min_price: '4100.00',
      min_price_per_person: '2050.00',
      dates: [
        {
          offer_id: expect.any(Number),
          date: '2026-06-20',
          day_label: expect.stringContaining('20'),
          price: '4100.00',
          price_per_person: '2050.00',
          available: true,
          departure_airport: 'MAD',
        },
      ],
    });
    expect(d.months[1]).toMatchObject({ min_price: '4790.00', min_price_per_person: '2395.00' });
    expect(
      d.months[1].dates.map((x: { date: string; departure_airport: string }) => [x.date, x.departure_airport]),
    ).toEqual([
      ['2026-07-15', 'MAD'],
      ['2026-07-30', 'BCN'],
    ]);
    // +50 has 1 seat left for a party of 2; +60 (sold out), +4, past and Cancelled are left out
    expect(d.months[2].dates).toEqual([expect.objectContaining({ date: '2026-08-04', available: false })]);
    expect(d.room_types).toEqual([
      { code: '1A', label: '1 adulto' },
      { code: '2A', label: '2 adultos' },
      { code: '3A', label: '3 adultos' },
      { code: '4A', label: '4 adultos' },
    ]);
    expect(d.labels).toEqual({
      information: 'Información',
      origin: 'Aeropuerto de salida',
      travelers: 'Viajeros',
      rooms: 'Habitaciones',
      choose_date: 'Elige tu fecha de salida',
      configure_trip: 'Configura tu viaje',
      help_text: expect.any(String),
      per_person: 'por persona',
    });
    expect(d.currency).toEqual({ code: 'EUR', symbol: '€' });
  });

  it('speaks the request language and follows the clock', async () => {
    const ca = (await get(`/api/es/ca/products/${ids['ca_ES/japo-essencial']}/configurator`)).json().data;
    expect(ca.months[0].label).toBe('Juliol');
    expect(ca.labels.per_person).toBe('per persona');
    expect(ca.room_types[1]).toEqual({ code: '2A', label: '2 adults' });
    try {
      t.clock.set(`${FIXTURE_TODAY}T23:30:00Z`); // the 16th in Madrid
      const d = (await get(`/api/es/es/products/${japanEs()}/configurator`)).json().data;
      expect(d.months[0].label).toBe('Julio');
    } finally {
      t.clock.set(TEST_NOW);
    }
  });

  it('shows allotment used by a booking at once after offers:changed, not 30 s later', async () => {
    const tightDate = async () => {
      const d = (await get(`/api/es/es/products/${japanEs()}/configurator`)).json().data;
      const dates = d.months.flatMap((m: { dates: { offer_id: number }[] }) => m.dates);
      return dates.find((x: { offer_id: number }) => x.offer_id === tight);
    };
    const { rows } = await database.query<{ id: number }>("SELECT id FROM offers WHERE code = 'JE-ES-TIGHT'");
    const tight = rows[0]!.id;
    expect(await tightDate()).toMatchObject({ available: false }); // one place left, two travellers
    try {
      await database.query("UPDATE offers SET allotment_used = allotment WHERE code = 'JE-ES-TIGHT'");
      expect(await tightDate()).toBeDefined(); // cached
      t.app.ctx.events.emit('offers:changed');
      expect(await tightDate()).toBeUndefined(); // sold out: no longer listed
    } finally {
      await database.query("UPDATE offers SET allotment_used = 9 WHERE code = 'JE-ES-TIGHT'");
      t.app.ctx.events.emit('offers:changed');
    }
  });

  it('answers 404 for a product that is not listed', async () => {
    const r = await get(`/api/es/en/products/${ids['en_ES/japan-essentials-tour']}/configurator`);
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toBe('product_not_found');
  });
});

describe('signed preview', () => {
  const draftId = () => ids['en_ES/japan-essentials-tour'];

  it('shows a draft product through a valid signed URL', async () => {
    const url = await previewUrlFor(database, t.config, draftId(), t.clock.now());
    expect(url).toMatch(
      new RegExp(`^http://api\\.test/api/es/en/products/${draftId()}/preview\\?expires=\\d+&signature=[0-9a-f]{64}$`),
    );
    const res = await get(url!.replace('http://api.test', ''));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: draftId(), status: 'draft', title: 'Japan Essentials' });
  });

  it('refuses a missing, tampered, foreign or expired signature with 403 invalid_signature', async () => {
    const { expires, signature } = signPreview(t.config.appKey, draftId(), t.clock.now(), 60);
    const base = `/api/es/en/products/${draftId()}/preview`;
    const other = signPreview(t.config.appKey, japanEs(), t.clock.now(), 60);
    const wrongKey = signPreview('another-key', draftId(), t.clock.now(), 60);
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    for (const q of [
      '',
      `?expires=${expires}`,
      `?signature=${signature}`,
      `?expires=${expires}&signature=${flipped}`,
      `?expires=${expires + 60}&signature=${signature}`,
      `?expires=${other.expires}&signature=${other.signature}`,
      `?expires=${wrongKey.expires}&signature=${wrongKey.signature}`,
      `?expires=abc&signature=${signature}`,
    ]) {
      const r = await get(base + q);
      expect(r.statusCode, q).toBe(403);
      expect(r.json()).toEqual({ success: false, error: 'invalid_signature', message: expect.any(String) });
    }
    try {
      t.clock.advance(61 * 60 * 1000);
      expect((await get(`${base}?expires=${expires}&signature=${signature}`)).statusCode).toBe(403);
    } finally {
      t.clock.set(TEST_NOW);
    }
  });

  it('answers 404 for a signed id that is no product of the locale', async () => {
    const s = signPreview(t.config.appKey, 777777, t.clock.now(), 60);
    const r = await get(`/api/es/en/products/777777/preview?expires=${s.expires}&signature=${s.signature}`);
    expect(r.statusCode).toBe(404);
  });
});

describe('cache invalidation', () => {
  it('shows an import at once in-process, and within a second from another process', async () => {
    expect((await get('/api/de/de/products')).json().data[0].title).toBe('Japan entdecken');
    const product = { ...catalogFixture().market_products![4], title: 'Japan entdecken!' };
    const r1 = await runImport(
      database,
      { market_products: [product] },
      { today: FIXTURE_TODAY, events: t.app.ctx.events },
    );
    expect(r1.ok).toBe(true);
    expect((await get('/api/de/de/products')).json().data[0].title).toBe('Japan entdecken!');

    // no event: as if another process imported; the revision row tells
    const r2 = await runImport(
      database,
      { market_products: [{ ...product, title: 'Japan neu' }] },
      { today: FIXTURE_TODAY },
    );
    expect(r2.ok).toBe(true);
    // the revision is read at most once a second of the app's clock: a second passes
    t.clock.advance(1_001);
    expect((await get('/api/de/de/products')).json().data[0].title).toBe('Japan neu');
  });
});

describe('OpenAPI', () => {
  it('documents every catalog route with its responses, and /docs answers', async () => {
    const spec = (await get('/openapi.json')).json();
    for (const path of [
      '/api/{market}/{lang}/products',
      '/api/{market}/{lang}/products/{id}',
      '/api/{market}/{lang}/products/slug/{slug}',
      '/api/{market}/{lang}/products/sku/{sku}',
      '/api/{market}/{lang}/products/{id}/leading-price',
      '/api/{market}/{lang}/products/{id}/configurator',
      '/api/{market}/{lang}/products/{id}/preview',
      '/api/{market}/config',
    ]) {
      expect(spec.paths[path]?.get?.responses?.['200'], path).toBeDefined();
      expect(spec.paths[path].get.tags).toEqual(['catalog']);
    }
    expect(spec.paths['/bench/constant']).toBeUndefined();
    const docs = await get('/docs/');
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('<html');
  });
});
