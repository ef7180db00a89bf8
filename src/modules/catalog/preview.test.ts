// Signed previews beyond the public catalog: a market that is not active yet (the signature opens
// it, nothing else does) and a draft's leading price and configurator, computed from its bookable
// offers as the public endpoints would were the product active.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  catalogFixture,
  importFixture,
  marketProductFixture,
  offerFixture,
} from '../../../test/support/catalog-fixture.js';
import { commands } from './commands.js';
import { previewUrlFor, signPreview } from './preview.js';

let t: TestApp;
const ids: Record<string, number> = {};
const offerIds: Record<string, number> = {};
let templateId = 0;

beforeAll(async () => {
  t = await createTestApp();
  const doc = catalogFixture();
  // the es draft in English gets offers: one bookable, the others not (Archived, Draft, Inactive)
  doc.market_products![2].offers = [
    offerFixture('EN-1', 20, { final_price: '3600.00', price_per_person: '1800.00' }),
    offerFixture('EN-ARCH', 25, { status: 'Archived', final_price: '2000.00', price_per_person: '1000.00' }),
    offerFixture('EN-DRAFT', 22, { status: 'Draft', final_price: '2000.00', price_per_person: '1000.00' }),
    offerFixture('EN-INACT', 24, { status: 'Inactive', final_price: '2000.00', price_per_person: '1000.00' }),
  ];
  // Italy (market not active yet) is being prepared: a draft with offers
  const fco = { departure_airport: 'FCO' };
  doc.market_products!.push(
    marketProductFixture({
      market: 'it',
      language: 'it',
      status: 'draft',
      title: 'Giappone essenziale',
      url_slug: 'giappone-essenziale',
      country_name: 'Giappone',
      departure_airports: ['FCO'],
      itinerary: [{ day: 1, title: 'Arrivo a Tokyo', city: 'Tokyo', country: 'Giappone' }],
      offers: [
        offerFixture('IT-1', 30, fco),
        offerFixture('IT-2', 40, { ...fco, final_price: '4400.00', price_per_person: '2200.00' }),
        offerFixture('IT-DRAFT', 35, { ...fco, status: 'Draft', final_price: '2000.00', price_per_person: '1000.00' }),
        offerFixture('IT-ARCH', 36, { ...fco, status: 'Archived', final_price: '1800.00', price_per_person: '900.00' }),
        offerFixture('IT-LEAD', 3, { ...fco, final_price: '1600.00', price_per_person: '800.00' }),
      ],
    }),
  );
  await importFixture(t.database, doc);
  const products = await t.database.query<{ id: number; locale: string; template_id: number }>(
    'SELECT id, locale, template_id FROM market_products',
  );
  for (const r of products.rows) ids[r.locale] ??= r.id;
  templateId = products.rows.find((r) => r.locale === 'it_IT')!.template_id;
  const offers = await t.database.query<{ id: number; code: string }>('SELECT id, code FROM offers');
  for (const r of offers.rows) offerIds[r.code] = r.id;
});
afterAll(async () => {
  await t.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });
const italy = () => ids.it_IT;
const signed = (id: number) => {
  const { expires, signature } = signPreview(t.config.appKey, id, t.clock.now(), 60);
  return `?expires=${expires}&signature=${signature}`;
};

describe('preview of a market that is not active yet', () => {
  it('shows a draft of the inactive market through a signed URL, with its leading price and configurator', async () => {
    const url = await previewUrlFor(t.database, t.config, italy(), t.clock.now());
    expect(url).toMatch(
      new RegExp(`^http://api\\.test/api/it/it/products/${italy()}/preview\\?expires=\\d+&signature=`),
    );
    const res = await get(url!.replace('http://api.test', ''));
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({
      id: italy(),
      status: 'draft',
      locale: 'it_IT',
      sku: `IT-${templateId}FCO12-IT1`,
      title: 'Giappone essenziale',
      itinerary: [{ city: 'Tokyo, Giappone', day_start: 1, day_end: 1 }],
    });
    // bookable: +30 (2495) and +40 (2200); not: +3 (lead time), Draft, Archived
    expect(d.leading_price).toEqual({
      product_by_market_id: italy(),
      price_from: '2200.00',
      currency: 'EUR',
      offers_count: 2,
    });
    expect(d.configurator).toEqual({
      product_id: italy(),
      departure_airports: [{ iata_code: 'FCO', city: 'Rome' }],
      months: [
        {
          year: 2026,
          month: 7,
          label: 'Luglio',
          min_price: '4400.00',
          min_price_per_person: '2200.00',
          dates: [
            {
              offer_id: offerIds['IT-1'],
              date: '2026-07-15',
              day_label: expect.stringContaining('15'),
              price: '4990.00',
              price_per_person: '2495.00',
              available: true,
              departure_airport: 'FCO',
            },
            {
              offer_id: offerIds['IT-2'],
              date: '2026-07-25',
              day_label: expect.stringContaining('25'),
              price: '4400.00',
              price_per_person: '2200.00',
              available: true,
              departure_airport: 'FCO',
            },
          ],
        },
      ],
      room_types: [
        { code: '1A', label: '1 adulto' },
        { code: '2A', label: '2 adulti' },
        { code: '3A', label: '3 adulti' },
        { code: '4A', label: '4 adulti' },
      ],
      labels: {
        information: 'Informazioni',
        origin: 'Aeroporto di partenza',
        travelers: 'Viaggiatori',
        rooms: 'Camere',
        choose_date: 'Scegli la data di partenza',
        configure_trip: 'Configura il tuo viaggio',
        help_text: 'Prezzi a persona in camera doppia, voli inclusi.',
        per_person: 'a persona',
      },
      currency: { code: 'EUR', symbol: '€' },
    });
  });

  it('prints the same working URL through `npm run preview-url -- ID`', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await commands['preview-url'].run({ positional: [String(italy())], options: {} }, {
      config: t.config,
      database: t.database,
      out: (l: string) => out.push(l),
      err: (l: string) => err.push(l),
    } as never);
    expect([code, err]).toEqual([0, []]);
    expect(out).toHaveLength(1);
    expect((await get(out[0].replace('http://api.test', ''))).statusCode).toBe(200);
  });

  it('keeps the inactive market closed to everything unsigned: 403 market_inactive', async () => {
    const id = italy();
    const { expires, signature } = signPreview(t.config.appKey, id, t.clock.now(), 60);
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    for (const url of [
      '/api/it/it/products',
      `/api/it/it/products/${id}`,
      '/api/it/it/products/slug/giappone-essenziale',
      `/api/it/it/products/sku/IT-${templateId}FCO12-IT1`,
      `/api/it/it/products/${id}/leading-price`,
      `/api/it/it/products/${id}/configurator`,
      `/api/it/it/products/${id}/preview`,
      `/api/it/it/products/${id}/preview?expires=${expires}&signature=${flipped}`,
      `/api/it/it/products/${id}/preview?expires=${expires - 7200}&signature=${signature}`,
      '/api/it/it/cms/regions',
      '/api/it/config',
    ]) {
      const r = await get(url);
      expect(r.statusCode, url).toBe(403);
      expect(r.json(), url).toEqual({ success: false, error: 'market_inactive', message: expect.any(String) });
    }
    // its offers cannot be booked either
    const start = await t.app.inject({ method: 'POST', url: `/api/it/it/checkout/${offerIds['IT-1']}`, payload: {} });
    expect(start.statusCode).toBe(403);
    expect(start.json().error).toBe('market_inactive');
  });

  it('opens only the signed product: another id answers 404, a wrong language 400', async () => {
    // a valid signature of a product of another market: the inactive market opens but has no such product
    const es = ids.es_ES;
    const other = await get(`/api/it/it/products/${es}/preview${signed(es)}`);
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('product_not_found');
    const lang = await get(`/api/it/es/products/${italy()}/preview${signed(italy())}`);
    expect(lang.statusCode).toBe(400);
    expect(lang.json().error).toBe('language_not_supported');
    const unknown = await get(`/api/xx/it/products/${italy()}/preview${signed(italy())}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('market_not_found');
  });
});

describe('a draft of an active market', () => {
  it('previews with the price and configurator of its bookable offers, which the public endpoints hide', async () => {
    const draft = ids.en_ES;
    const d = (await get(`/api/es/en/products/${draft}/preview${signed(draft)}`)).json().data;
    expect(d).toMatchObject({ id: draft, status: 'draft' });
    // EN-1 only: Archived, Draft and Inactive offers are not bookable
    expect(d.leading_price).toEqual({
      product_by_market_id: draft,
      price_from: '1800.00',
      currency: 'EUR',
      offers_count: 1,
    });
    expect(d.configurator.months).toEqual([
      {
        year: 2026,
        month: 7,
        label: 'July',
        min_price: '3600.00',
        min_price_per_person: '1800.00',
        dates: [expect.objectContaining({ offer_id: offerIds['EN-1'], date: '2026-07-05', available: true })],
      },
    ]);
    expect(d.configurator.departure_airports).toEqual([{ iata_code: 'MAD', city: 'Madrid' }]);
    for (const path of ['leading-price', 'configurator']) {
      const r = await get(`/api/es/en/products/${draft}/${path}`);
      expect(r.statusCode, path).toBe(404);
      expect(r.json().error).toBe('product_not_found');
    }
  });

  it('gives an active product the same figures as its public endpoints', async () => {
    const active = ids.es_ES;
    const d = (await get(`/api/es/es/products/${active}/preview${signed(active)}`)).json().data;
    expect(d.leading_price).toEqual((await get(`/api/es/es/products/${active}/leading-price`)).json().data);
    expect(d.configurator).toEqual((await get(`/api/es/es/products/${active}/configurator`)).json().data);
    const { leading_price, configurator, ...detail } = d;
    expect(detail).toEqual((await get(`/api/es/es/products/${active}`)).json().data);
  });
});
