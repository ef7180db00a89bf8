// Content lifecycle (issue 18): only an active region, country or About Us page is public, in every
// CMS read; an archived translation hides its record in that locale only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedContentWorld } from '../../../test/support/content-doc.js';
import { applyContent } from '../../../test/support/content-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedContentWorld(t.database);
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
const code = async (url: string) => (await get(url)).statusCode;
const data = async (url: string) => (await get(url)).json().data;
/** writes content and drops the rendered responses, as an import does */
async function set(doc: Record<string, unknown>) {
  await applyContent(t.database, doc);
  t.app.ctx.events.emit('catalog:changed');
}
type Slugged = { slug: string; countries: { slug: string }[] };
/** the regions of /cms/regions or of /cms/home */
const regionsOf = async (url: string): Promise<Slugged[]> => {
  const d = await data(url);
  return Array.isArray(d) ? d : d.regions;
};
const regionSlugs = async (url: string) => (await regionsOf(url)).map((r) => r.slug);
const asiaCountries = async (url: string) =>
  (await regionsOf(url)).find((r) => r.slug === 'asia')!.countries.map((c) => c.slug);
const related = async (url: string) => ((await data(url)).relatedCountries as { slug: string }[]).map((c) => c.slug);

describe('record status', () => {
  it.each(['draft', 'archived', 'inactive'])('a %s region is hidden everywhere', async (status) => {
    await set({ regions: [{ slug: 'asia', status }] });
    try {
      expect(await code('/api/es/es/cms/regions/asia')).toBe(404);
      expect(await regionSlugs('/api/es/es/cms/regions')).toEqual(['americas']);
      expect(await regionSlugs('/api/es/es/cms/home')).toEqual(['americas']);
      // its countries live inside it
      expect(await code('/api/es/es/cms/countries/japan')).toBe(404);
      expect(await code('/api/de/de/cms/regions/asia')).toBe(404);
    } finally {
      await set({ regions: [{ slug: 'asia', status: 'active' }] });
    }
    expect(await code('/api/es/es/cms/regions/asia')).toBe(200);
  });

  it.each(['draft', 'archived'])('a %s country is hidden everywhere', async (status) => {
    expect(await related('/api/es/es/cms/countries/vietnam')).toEqual(['japan']);
    await set({ countries: [{ slug: 'japan', status }] });
    try {
      expect(await code('/api/es/es/cms/countries/japan')).toBe(404);
      expect(await asiaCountries('/api/es/es/cms/regions')).toEqual(['vietnam']);
      expect((await data('/api/es/es/cms/regions/asia')).countries.map((c: { slug: string }) => c.slug)).toEqual([
        'vietnam',
      ]);
      expect(await asiaCountries('/api/es/es/cms/home')).toEqual(['vietnam']);
      expect(await related('/api/es/es/cms/countries/vietnam')).toEqual([]);
    } finally {
      await set({ countries: [{ slug: 'japan', status: 'active' }] });
    }
    expect(await code('/api/es/es/cms/countries/japan')).toBe(200);
  });

  it.each(['draft', 'archived'])('a %s About Us page is null in every language', async (status) => {
    await set({ about_us: { status } });
    try {
      expect(await data('/api/es/es/cms/about-us')).toBeNull();
      expect(await data('/api/de/de/cms/about-us')).toBeNull();
    } finally {
      await set({ about_us: { status: 'active' } });
    }
    expect((await data('/api/es/es/cms/about-us')).headerSection.title).toBe('Quiénes somos');
  });
});

describe('an archived translation', () => {
  it('hides a region in its locale only', async () => {
    await set({ regions: [{ slug: 'asia', translations: { es_ES: { status: 'archived' } } }] });
    try {
      expect(await code('/api/es/es/cms/regions/asia')).toBe(404);
      expect(await regionSlugs('/api/es/es/cms/regions')).toEqual(['americas']);
      expect(await regionSlugs('/api/es/es/cms/home')).toEqual(['americas']);
      expect(await code('/api/es/es/cms/countries/japan')).toBe(404);
      // other languages of the market and other markets keep it
      expect((await data('/api/es/ca/cms/regions/asia')).name).toBe('Àsia');
      expect((await data('/api/de/de/cms/regions/asia')).name).toBe('Asien');
      expect(await code('/api/de/de/cms/countries/japan')).toBe(200);
      // a later import that leaves the status out keeps it archived
      await set({ regions: [{ slug: 'asia', translations: { es_ES: { name: 'Asia de nuevo' } } }] });
      expect(await code('/api/es/es/cms/regions/asia')).toBe(404);
      const [row] = (
        await t.database.query(
          `SELECT rt.status, rt.description FROM region_translations rt JOIN regions r ON r.id = rt.region_id
            WHERE r.slug = 'asia' AND rt.locale = 'es_ES'`,
        )
      ).rows;
      expect(row).toEqual({ status: 'archived', description: 'Asia: templos, arrozales y ciudades de neón.' });
    } finally {
      await set({ regions: [{ slug: 'asia', translations: { es_ES: { name: 'Asia', status: 'active' } } }] });
    }
    expect((await data('/api/es/es/cms/regions/asia')).name).toBe('Asia');
  });

  it('hides a country in its locale only', async () => {
    await set({ countries: [{ slug: 'japan', translations: { es_ES: { status: 'archived' } } }] });
    try {
      expect(await code('/api/es/es/cms/countries/japan')).toBe(404);
      expect(await asiaCountries('/api/es/es/cms/regions')).toEqual(['vietnam']);
      expect(await asiaCountries('/api/es/es/cms/home')).toEqual(['vietnam']);
      expect(await related('/api/es/es/cms/countries/vietnam')).toEqual([]);
      expect((await data('/api/de/de/cms/countries/japan')).name).toBe('Japan');
      expect((await data('/api/es/en/cms/countries/japan')).name).toBe('Japan');
    } finally {
      await set({ countries: [{ slug: 'japan', translations: { es_ES: { status: 'active' } } }] });
    }
    expect((await data('/api/es/es/cms/countries/japan')).name).toBe('Japón');
  });

  it('hides About Us in its locale only', async () => {
    await set({ about_us: { translations: { es_ES: { status: 'archived' } } } });
    try {
      expect(await data('/api/es/es/cms/about-us')).toBeNull();
      expect((await data('/api/de/de/cms/about-us')).headerSection.title).toBe('Über uns');
    } finally {
      await set({ about_us: { translations: { es_ES: { status: 'active' } } } });
    }
    expect((await data('/api/es/es/cms/about-us')).headerSection.title).toBe('Quiénes somos');
  });

  it('is refused with any other status word', async () => {
    const { validateImport } = await import('../catalog/import.js');
    expect(
      await validateImport(t.database, { regions: [{ slug: 'asia', translations: { es_ES: { status: 'draft' } } }] }),
    ).toEqual([{ path: '/regions/0/translations/es_ES/status', reason: 'has an invalid value' }]);
  });
});
