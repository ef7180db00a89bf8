// The demo answers every image URL it hands out: the demo catalog and content are loaded, every
// API response a storefront reads (product listing and detail, CMS regions, countries, About Us,
// home) is walked for URLs, and each one must be ours (no outside image host) and answer 200 with
// an image (or the About Us video) of the type its name says.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createTestDatabase } from '../../../test/support/db.js';
import { projectPath } from '../../platform/paths.js';
import { loadDemo } from '../catalog/demo.js';
import { sniffImage } from './rules.js';

let t: TestApp;
beforeAll(async () => {
  const database = await createTestDatabase();
  const result = await loadDemo(database, { today: '2026-06-15' });
  if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 5)));
  // the default outside production; stated, since it is what this test is about
  t = await createTestApp({ database, env: { MEDIA_DEMO_IMAGES: 'true' } });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await t?.database.close();
});

const MEDIA = /\.(jpe?g|png|webp|gif|mp4)(\?|$)/i;

function urlsIn(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    if (/^https?:\/\//.test(value) && MEDIA.test(value)) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) urlsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) urlsIn(v, out);
}

describe('demo media', () => {
  it('every image and video URL of the demo API answers 200 with a file of its type', async () => {
    const get = async (url: string, missingOk = false) => {
      const res = await t.app.inject({ method: 'GET', url });
      if (missingOk && res.statusCode === 404) return null;
      expect(res.statusCode, url).toBe(200);
      return res.json() as { data: unknown };
    };
    const content = JSON.parse(readFileSync(projectPath('data', 'demo', 'content.json'), 'utf8')) as {
      countries: { slug: string; status: string }[];
      regions: { slug: string; status: string }[];
    };
    const urls = new Set<string>();
    const locales: [string, string][] = [
      ['es', 'es'],
      ['es', 'ca'],
      ['es', 'en'],
      ['de', 'de'],
      ['us', 'en'],
      ['uk', 'en'],
      ['ca', 'fr'],
    ];
    let products = 0;
    let countries = 0;
    for (const [market, lang] of locales) {
      const base = `/api/${market}/${lang}`;
      const listing = await get(`${base}/products`);
      urlsIn(listing, urls);
      for (const p of listing!.data as { id: number }[]) {
        urlsIn(await get(`${base}/products/${p.id}`), urls);
        products++;
      }
      urlsIn(await get(`${base}/cms/regions`), urls);
      for (const r of content.regions.filter((x) => x.status === 'active')) {
        urlsIn(await get(`${base}/cms/regions/${r.slug}`), urls);
      }
      // a country whose tours the market does not sell is a 404 there
      for (const c of content.countries.filter((x) => x.status === 'active')) {
        const country = await get(`${base}/cms/countries/${c.slug}`, true);
        if (country) countries++;
        urlsIn(country, urls);
      }
      urlsIn(await get(`${base}/cms/about-us`), urls);
      urlsIn(await get(`${base}/cms/home`), urls);
    }
    expect(products).toBeGreaterThan(50);
    expect(countries).toBeGreaterThan(30);
    // heroes, galleries, hotels, activities, regions, countries, trailer posters and the video
    expect(urls.size).toBeGreaterThan(300);
    expect([...urls].filter((u) => u.endsWith('.mp4'))).toEqual(['http://api.test/storage/videos/about-us.mp4']);
    const outside = [...urls].filter((u) => !u.startsWith('http://api.test/storage/'));
    expect(outside).toEqual([]);
    const failures: string[] = [];
    for (const url of urls) {
      const path = url.slice('http://api.test'.length);
      const res = await t.app.inject({ method: 'GET', url: path });
      const type = String(res.headers['content-type']);
      const sniffed = sniffImage(res.rawPayload);
      const ok =
        res.statusCode === 200 &&
        (path.endsWith('.mp4')
          ? type === 'video/mp4' && res.rawPayload.subarray(4, 8).toString('latin1') === 'ftyp'
          : type === 'image/jpeg' && sniffed === 'jpeg');
      if (!ok) failures.push(`${path}: ${res.statusCode} ${type} ${sniffed}`);
    }
    expect(failures).toEqual([]);
  }, 180_000);

  it('is off when MEDIA_DEMO_IMAGES is false (production default): the path is then a 404', async () => {
    const off = await createTestApp({ database: t.database, env: { MEDIA_DEMO_IMAGES: 'false' } });
    try {
      expect((await off.app.inject({ url: '/storage/regions/asia.jpg' })).statusCode).toBe(404);
      expect((await t.app.inject({ url: '/storage/regions/asia.jpg' })).statusCode).toBe(200);
    } finally {
      await off.close();
    }
  });
});
