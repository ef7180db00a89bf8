import { count, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { contentDoc, seedContentWorld } from '../../../test/support/content-doc.js';
import { applyContent, importContext } from '../../../test/support/content-fixture.js';
import { countries, countryProducts, countryTranslations, regions } from '../../db/schema/index.js';
import { contentSection } from './import.js';
import { countryTemplateCodes } from './repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedContentWorld(t.database);
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const schema = Type.Object(contentSection.properties, { additionalProperties: false });
const ctx = () => importContext(t.database.db);

describe('content import schema and checks', () => {
  it('accepts the test document', async () => {
    expect([...Value.Errors(schema, contentDoc())]).toEqual([]);
    expect(await contentSection.check(contentDoc(), ctx())).toEqual([]);
  });

  it('rejects malformed records through the JSON Schema', () => {
    const bad = [
      { regions: [{ slug: 'Asia Major', translations: {} }] },
      { regions: [{ slug: 'asia', translations: { es: { name: 'Asia' } } }] },
      { countries: [{ slug: 'japan', region: 'asia', translations: { es_ES: {} } }] },
      { about_us: { translations: { es_ES: { title: 'x', trailers: [{ target: '_top' }] } } } },
      { region_labels: { es_ES: { hero_button: 'x' } } },
      { regions: [{ slug: 'asia', status: 'draft', translations: {} }] },
    ];
    for (const doc of bad) expect(Value.Check(schema, doc), JSON.stringify(doc)).toBe(false);
  });

  it('reports duplicates and references JSON Schema cannot express', async () => {
    const problems = await contentSection.check(
      {
        regions: [
          {
            slug: 'asia',
            translations: {
              es_ES: { name: 'Asia', experiences: { phases: [{ id: 'p' }, { id: 'p' }] } },
            },
          },
          { slug: 'asia', translations: {} },
        ],
        countries: [
          {
            slug: 'japan',
            region: 'asia',
            products: ['a', 'a'],
            translations: { es_ES: { name: 'Japón', experiences: [{ title: 'x', product: 'b' }] } },
          },
          { slug: 'japan', region: 'oceania', translations: {} },
        ],
      },
      ctx(),
    );
    expect(problems).toEqual([
      { path: '/regions/0/slug', reason: "duplicate region slug 'asia'" },
      { path: '/regions/0/translations/es_ES/experiences/phases/0/id', reason: "duplicate phase id 'p'" },
      { path: '/regions/0/translations/es_ES/experiences/phases/1/id', reason: "duplicate phase id 'p'" },
      { path: '/regions/1/slug', reason: "duplicate region slug 'asia'" },
      { path: '/countries/0/slug', reason: "duplicate country slug 'japan'" },
      { path: '/countries/0/products', reason: "product 'a' is listed twice" },
      {
        path: '/countries/0/translations/es_ES/experiences/0/product',
        reason: "product 'b' is not one of the country's products",
      },
      { path: '/countries/1/slug', reason: "duplicate country slug 'japan'" },
      { path: '/countries/1/region', reason: "unknown region 'oceania'" },
      // checked before anything is written, so the console shows it next to the field
      { path: '/countries/0/products/0', reason: "unknown product template 'a'" },
      { path: '/countries/0/products/1', reason: "unknown product template 'a'" },
    ]);
  });
});

describe('content import apply', () => {
  it('upserts on natural keys: applying the same document twice changes nothing', async () => {
    const before = await t.database.db.select({ n: count() }).from(countryTranslations);
    await applyContent(t.database, contentDoc());
    const after = await t.database.db.select({ n: count() }).from(countryTranslations);
    expect(after).toEqual(before);
    expect((await t.database.db.select({ n: count() }).from(regions))[0]!.n).toBe(3);
  });

  it('replaces the ordered tour list of a country', async () => {
    const doc = contentDoc();
    const japan = (doc.countries as { slug: string; products: string[] }[]).find((c) => c.slug === 'japan')!;
    japan.products = ['japan-alps', 'japan-essentials'];
    await applyContent(t.database, { countries: [japan] });
    const [row] = await t.database.db.select({ id: countries.id }).from(countries).where(eq(countries.slug, 'japan'));
    expect(await countryTemplateCodes(t.database.db, row!.id)).toEqual(['japan-alps', 'japan-essentials']);
    expect((await t.database.db.select({ n: count() }).from(countryProducts))[0]!.n).toBe(3); // + vietnam's one
    await applyContent(t.database, { countries: [{ ...japan, products: ['japan-essentials', 'japan-alps'] }] });
  });

  it('fails on an unknown product template code or region, writing nothing', async () => {
    await expect(
      applyContent(t.database, {
        regions: [
          {
            slug: 'oceania',
            status: 'active',
            translations: { es_ES: { name: 'Oceanía', experiences: { phases: [{ id: 'p', products: ['nope'] }] } } },
          },
        ],
      }),
    ).rejects.toThrow(
      '{"path":"/regions/0/translations/es_ES/experiences/phases/0/products/0","reason":"unknown product template \'nope\'"}',
    );
    await expect(
      applyContent(t.database, {
        countries: [{ slug: 'fiji', region: 'oceania', status: 'active', translations: {} }],
      }),
    ).rejects.toThrow('{"path":"/countries/0/region","reason":"unknown region \'oceania\'"}');
    expect(await t.database.db.select().from(regions).where(eq(regions.slug, 'oceania'))).toEqual([]);
  });
});

describe('long slugs', () => {
  it('an imported slug over 100 characters is served, and an unknown one answers 404', async () => {
    const slug = `${'gran-ruta-'.repeat(15)}final`;
    await applyContent(t.database, {
      regions: [{ slug, status: 'active', translations: { es_ES: { name: 'Gran ruta' } } }],
    });
    t.app.ctx.events.emit('catalog:changed');
    const res = await get(`/api/es/es/cms/regions/${slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ slug, name: 'Gran ruta' });
    const unknown = await get(`/api/es/es/cms/countries/${'x'.repeat(300)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, error: 'country_not_found' });
  });
});

describe('cached responses', () => {
  it('are dropped on catalog:changed, so a new import shows', async () => {
    const first = await get('/api/es/es/cms/region-labels');
    await applyContent(t.database, {
      region_labels: { es_ES: { hero_button_primary: 'Nuevo', newsletter_heading: null } },
    });
    // still the cached body until the catalog announces a change
    expect((await get('/api/es/es/cms/region-labels')).body).toBe(first.body);
    t.app.ctx.events.emit('catalog:changed');
    const next = await get('/api/es/es/cms/region-labels');
    expect(next.json().data.hero_button_primary).toBe('Nuevo');
    // a field left out keeps its stored text; an explicit null clears it (the default shows)
    expect(next.json().data.hero_button_secondary).toBe('Llámanos');
    expect(next.json().data.newsletter_heading).toBe('Recibe inspiración para viajar en tu correo');
    expect(next.headers.etag).not.toBe(first.headers.etag);
  });

  it('expire after 60 seconds (an import by another process shows)', async () => {
    const first = await get('/api/es/es/cms/region-labels');
    await applyContent(t.database, { region_labels: { es_ES: { hero_button_primary: 'Otra vez' } } });
    t.clock.advance(30_000);
    expect((await get('/api/es/es/cms/region-labels')).body).toBe(first.body);
    t.clock.advance(31_000);
    expect((await get('/api/es/es/cms/region-labels')).json().data.hero_button_primary).toBe('Otra vez');
  });

  it('follow the clock for the leading price: an offer drops out when it enters the lead time', async () => {
    const price = async () =>
      (await get('/api/es/es/cms/countries/japan')).json().data.experiences[0].product.priceFrom as string;
    t.app.ctx.events.emit('catalog:changed');
    expect(await price()).toBe('1399.50');
    t.clock.set('2026-07-29T12:00:00Z'); // the 2026-08-01 offer is now 3 days away; none is left
    t.app.ctx.events.emit('catalog:changed');
    expect(await price()).toBeNull();
    t.clock.set('2026-06-15T10:00:00Z');
  });
});

describe('About Us states', () => {
  it('media is null without a video_url', async () => {
    await applyContent(t.database, {
      about_us: {
        video_url: null,
        translations: {
          es_ES: { title: 'Quiénes somos', lead_caption: null, supporting_caption: null, trailers: [] },
        },
      },
    });
    t.app.ctx.events.emit('catalog:changed');
    const { data } = (await get('/api/es/es/cms/about-us')).json();
    expect(data.headerSection).toEqual({
      title: 'Quiénes somos',
      leadCaption: null,
      supportingCaption: null,
      media: null,
    });
    expect(data.trailersSection.items).toEqual([]);
  });

  it('data is null when the page is inactive', async () => {
    await applyContent(t.database, {
      about_us: { status: 'inactive', video_url: 'https://videos.example.com/a.mp4', translations: {} },
    });
    t.app.ctx.events.emit('catalog:changed');
    expect((await get('/api/es/es/cms/about-us')).json()).toEqual({ data: null });
    expect((await get('/api/de/de/cms/about-us')).json()).toEqual({ data: null });
  });
});
