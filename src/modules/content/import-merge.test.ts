// Partial content imports (issue 18): the Nepal and About Us cases. A record names what it changes;
// everything it leaves out (status, order, images, other fields and other languages) stays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedContentWorld } from '../../../test/support/content-doc.js';
import { applyContent } from '../../../test/support/content-fixture.js';
import { runImport } from '../catalog/import.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedContentWorld(t.database);
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const one = async (sql: string, params: unknown[] = []) => (await t.database.query(sql, params)).rows[0];

describe('a partial content import', () => {
  it("naming only an inactive country's Spanish name keeps it inactive, in its place, with its texts", async () => {
    const before = await one(
      `SELECT status, sort_order, image, images, region_id FROM countries WHERE slug = 'thailand'`,
    );
    await applyContent(t.database, {
      countries: [{ slug: 'thailand', translations: { es_ES: { name: 'Tailandia (nuevo)' } } }],
    });
    expect(
      await one(`SELECT status, sort_order, image, images, region_id FROM countries WHERE slug = 'thailand'`),
    ).toEqual(before);
    t.app.ctx.events.emit('catalog:changed');
    expect((await get('/api/es/es/cms/countries/thailand')).statusCode).toBe(404);
    const regions = (await get('/api/es/es/cms/regions')).json().data;
    expect(regions.flatMap((r: { countries: { slug: string }[] }) => r.countries.map((c) => c.slug))).not.toContain(
      'thailand',
    );
  });

  it("naming a country's texts without its products keeps its tours", async () => {
    const tours = async () =>
      (
        await t.database.query(
          `SELECT cp.template_id FROM country_products cp JOIN countries c ON c.id = cp.country_id
            WHERE c.slug = 'japan' ORDER BY cp.sort_order`,
        )
      ).rows;
    const before = await tours();
    expect(before.length).toBeGreaterThan(0);
    await applyContent(t.database, {
      countries: [{ slug: 'japan', translations: { es_ES: { tagline: 'Otra vez' } } }],
    });
    expect(await tours()).toEqual(before);
    expect(
      await one(
        `SELECT name, tagline FROM country_translations WHERE locale = 'es_ES' AND country_id = (SELECT id FROM countries WHERE slug = 'japan')`,
      ),
    ).toEqual({
      name: 'Japón',
      tagline: 'Otra vez',
    });
  });

  it('About Us with only a status and a title keeps the video and every other text, in every language', async () => {
    const texts = () =>
      t.database.query(
        'SELECT locale, title, lead_caption, supporting_caption, description, trailers FROM about_us_translations ORDER BY locale',
      );
    const before = (await texts()).rows;
    const result = await runImport(
      t.database,
      { about_us: { status: 'active', translations: { es_ES: { title: 'Sobre nosotros' } } } },
      { events: t.app.ctx.events },
    );
    expect(result.ok).toBe(true);
    expect(await one('SELECT video_url, status FROM about_us_pages')).toEqual({
      video_url: 'videos/about-us.mp4',
      status: 'active',
    });
    expect((await texts()).rows).toEqual(
      before.map((r) => (r.locale === 'es_ES' ? { ...r, title: 'Sobre nosotros' } : r)),
    );
    const { data } = (await get('/api/es/es/cms/about-us')).json();
    expect(data.headerSection).toMatchObject({
      title: 'Sobre nosotros',
      leadCaption: 'Viajamos desde 1998',
      media: { kind: 'video', title: 'Sobre nosotros' },
    });
  });

  it('a new region must name its status, and a new translation its name', async () => {
    const result = await runImport(t.database, {
      regions: [{ slug: 'oceania', translations: { es_ES: { description: 'Islas' } } }],
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        { path: '/regions/0/status', reason: 'is required for a new region' },
        { path: '/regions/0/translations/es_ES/name', reason: 'is required for a new translation' },
      ],
    });
  });
});

describe('an import in another process', () => {
  it('drops this process caches at once, content included', async () => {
    const other = await createTestApp({ database: t.database });
    try {
      const first = (await get('/api/es/es/cms/countries/japan')).json().data.tagline;
      // the other process imports; this one was not told through its own event bus
      const result = await runImport(
        t.database,
        { countries: [{ slug: 'japan', translations: { es_ES: { tagline: 'Importado en otro proceso' } } }] },
        { events: other.app.ctx.events },
      );
      expect(result.ok).toBe(true);
      expect(first).not.toBe('Importado en otro proceso');
      // revision checks run at most once a second of the app's clock: a second passes, then read
      t.clock.advance(1_001);
      expect((await get('/api/es/es/cms/countries/japan')).json().data.tagline).toBe('Importado en otro proceso');
    } finally {
      await other.close();
    }
  });
});
