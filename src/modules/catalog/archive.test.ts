// Archiving ("deleting") a market product or an offer: the console editor imports
// `{status: 'archived'}` / `{status: 'Archived'}` through the importer (runImport), which drops the
// caches of its own process at once and of every other process within a second. An archived record
// is hidden from every public read, previews included, and stays in the database. Draft and
// inactive products keep today's behaviour (hidden publicly, shown by a signed preview).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { catalogFixture, FIXTURE_TODAY } from '../../../test/support/catalog-fixture.js';
import { runImport } from './import.js';
import { signPreview } from './preview.js';

let t: TestApp;
const ids: Record<string, number> = {};
let templateId = 0;

/** Asia with one phase of Japan trips, and Japan with one experience of the tour, in es_ES and ca_ES. */
function contentOf() {
  const region = (name: string) => ({
    name,
    experiences: { phases: [{ id: 'cities', title: name, products: ['japan-essentials'] }] },
  });
  const country = (name: string) => ({ name, experiences: [{ title: name, product: 'japan-essentials' }] });
  return {
    regions: [
      {
        slug: 'asia',
        status: 'active',
        sort_order: 1,
        translations: { es_ES: region('Asia'), ca_ES: region('Àsia') },
      },
    ],
    countries: [
      {
        slug: 'japan',
        status: 'active',
        region: 'asia',
        sort_order: 1,
        products: ['japan-essentials'],
        translations: { es_ES: country('Japón'), ca_ES: country('Japó') },
      },
    ],
  };
}

beforeAll(async () => {
  t = await createTestApp();
  const result = await runImport(t.database, { ...catalogFixture(), ...contentOf() }, { today: FIXTURE_TODAY });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  const { rows } = await t.database.query<{ id: number; locale: string; template_id: number }>(
    "SELECT id, locale, template_id FROM market_products WHERE template_id = (SELECT id FROM product_templates WHERE code = 'japan-essentials')",
  );
  for (const r of rows) ids[r.locale] = r.id;
  templateId = rows[0].template_id;
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, app = t.app) => app.inject({ method: 'GET', url });

/** What the console editor does: an import of the fields it changed, announced to this process. */
async function edit(doc: Record<string, unknown>, events = t.app.ctx.events) {
  const result = await runImport(t.database, doc, { today: FIXTURE_TODAY, events });
  expect(result.ok, JSON.stringify(result)).toBe(true);
}
const catalan = (status: string) => ({
  market_products: [{ template: 'japan-essentials', market: 'es', language: 'ca', status }],
});
const signed = (id: number) => {
  const { expires, signature } = signPreview(t.config.appKey, id, t.clock.now(), 60);
  return `?expires=${expires}&signature=${signature}`;
};

/** The Catalan product as every public reader sees it (null: not found / not listed). */
async function publicReads(app = t.app) {
  const id = ids.ca_ES;
  const status = async (url: string) => {
    const r = await get(url, app);
    if (r.statusCode === 404) expect(r.json().error, url).toBe('product_not_found');
    return r.statusCode;
  };
  const region = (await get('/api/es/ca/cms/regions/asia', app)).json().data;
  const country = (await get('/api/es/ca/cms/countries/japan', app)).json().data;
  return {
    listing: (await get('/api/es/ca/products', app)).json().data.map((p: { id: number }) => p.id),
    byId: await status(`/api/es/ca/products/${id}`),
    bySlug: await status('/api/es/ca/products/slug/japo-essencial'),
    byTemplateSlug: await status('/api/es/ca/products/slug/japan-essentials'),
    bySku: await status(`/api/es/ca/products/sku/ES-${templateId}MAD12-CA1`),
    leadingPrice: await status(`/api/es/ca/products/${id}/leading-price`),
    configurator: await status(`/api/es/ca/products/${id}/configurator`),
    relatedTrips: region.experiences.phases[0].relatedTrips.map((x: { id: string }) => x.id),
    experience: country.experiences[0].product?.id ?? null,
  };
}
const shown = () => ({
  listing: [ids.ca_ES],
  byId: 200,
  bySlug: 200,
  byTemplateSlug: 200,
  bySku: 200,
  leadingPrice: 200,
  configurator: 200,
  relatedTrips: [String(ids.ca_ES)],
  experience: ids.ca_ES,
});
const hidden = {
  listing: [],
  byId: 404,
  bySlug: 404,
  byTemplateSlug: 404,
  bySku: 404,
  leadingPrice: 404,
  configurator: 404,
  relatedTrips: [],
  experience: null,
};

describe('archiving a market product', () => {
  it('hides a draft, inactive or archived product from every public read; only the archived one has no preview', async () => {
    expect(await publicReads()).toEqual(shown());
    const preview = `/api/es/ca/products/${ids.ca_ES}/preview${signed(ids.ca_ES)}`;
    try {
      for (const [status, previewStatus] of [
        ['draft', 200],
        ['inactive', 200],
        ['archived', 404],
      ] as const) {
        await edit(catalan(status));
        expect(await publicReads(), status).toEqual(hidden);
        const p = await get(preview);
        expect(p.statusCode, status).toBe(previewStatus);
        if (previewStatus === 200) expect(p.json().data.status).toBe(status);
        else expect(p.json().error).toBe('product_not_found');
      }
      // still in the database with its offers, for the bookings and the history that point at it
      const { rows } = await t.database.query<{ status: string; offers: number }>(
        'SELECT status, (SELECT count(*)::int FROM offers WHERE market_product_id = $1) AS offers FROM market_products WHERE id = $1',
        [ids.ca_ES],
      );
      expect(rows).toEqual([{ status: 'archived', offers: 1 }]);
    } finally {
      // restoring is the same import with another status
      await edit(catalan('active'));
    }
    expect(await publicReads()).toEqual(shown());
    expect((await get(preview)).statusCode).toBe(200);
  });

  it('reaches another process within a second through the catalog revision', async () => {
    const other = await createTestApp({ database: t.database });
    try {
      expect(await publicReads(other.app)).toEqual(shown()); // its caches are warm
      await edit(catalan('archived')); // announced in this process only
      expect(await publicReads()).toEqual(hidden);
      other.clock.advance(1_001); // a second of the other process's clock
      expect(await publicReads(other.app)).toEqual(hidden);
    } finally {
      await edit(catalan('active'));
      await other.close();
    }
  });
});

describe('archiving an offer', () => {
  const spanishOffers = (offers: { code: string; status: string }[]) => ({
    market_products: [{ template: 'japan-essentials', market: 'es', language: 'es', offers }],
  });

  it('drops it from the leading price, the configurator and the country page', async () => {
    const id = ids.es_ES;
    const leading = async () => (await get(`/api/es/es/products/${id}/leading-price`)).json().data;
    const dates = async () =>
      (await get(`/api/es/es/products/${id}/configurator`))
        .json()
        .data.months.flatMap((m: { dates: { date: string; departure_airport: string }[] }) =>
          m.dates.map((d) => `${d.date} ${d.departure_airport}`),
        );
    const priceFrom = async () =>
      (await get('/api/es/es/cms/countries/japan')).json().data.experiences[0].product.priceFrom;

    // bookable: +5 (2050), +30 (2495), +45 BCN (2395), +60 sold out (1100; not in the configurator)
    expect(await leading()).toMatchObject({ price_from: '1100.00', offers_count: 4 });
    expect(await dates()).toEqual(['2026-06-20 MAD', '2026-07-15 MAD', '2026-07-30 BCN']);
    expect(await priceFrom()).toBe('1100.00');
    try {
      await edit(
        spanishOffers([
          { code: 'JE-ES-SOLD', status: 'Archived' },
          { code: 'JE-ES-2', status: 'Archived' },
        ]),
      );
      expect(await leading()).toMatchObject({ price_from: '2050.00', offers_count: 2 });
      expect(await dates()).toEqual(['2026-06-20 MAD', '2026-07-15 MAD']);
      const configurator = (await get(`/api/es/es/products/${id}/configurator`)).json().data;
      expect(configurator.departure_airports).toEqual([{ iata_code: 'MAD', city: 'Madrid' }]);
      expect(await priceFrom()).toBe('2050.00');
      // the preview applies the same rules
      const preview = (await get(`/api/es/es/products/${id}/preview${signed(id)}`)).json().data;
      expect(preview.leading_price).toMatchObject({ price_from: '2050.00', offers_count: 2 });
      // kept, with its seats
      const { rows } = await t.database.query<{ code: string; status: string; allotment_used: number }>(
        "SELECT code, status, allotment_used FROM offers WHERE code IN ('JE-ES-SOLD', 'JE-ES-2') ORDER BY code",
      );
      expect(rows).toEqual([
        { code: 'JE-ES-2', status: 'Archived', allotment_used: 0 },
        { code: 'JE-ES-SOLD', status: 'Archived', allotment_used: 10 },
      ]);
    } finally {
      await edit(
        spanishOffers([
          { code: 'JE-ES-SOLD', status: 'Active' },
          { code: 'JE-ES-2', status: 'Active' },
        ]),
      );
    }
    expect(await leading()).toMatchObject({ price_from: '1100.00', offers_count: 4 });
  });
});
