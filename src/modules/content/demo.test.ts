// The demo content (data/demo/content.json) against the demo plan: it validates, names only the
// plan's tours, and every active market and language gets a full set of content.
import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { addTemplate, applyContent, importContext } from '../../../test/support/content-fixture.js';
import { markets } from '../../db/schema/index.js';
import { contentSection } from './import.js';
import { previewUrl } from './preview.js';
import { DEFAULT_LABELS } from './rules.js';

const doc = JSON.parse(readFileSync(new URL('../../../data/demo/content.json', import.meta.url), 'utf8'));

// /work/demo-plan.md: markets with their languages (default first) and the tours by country
const MARKETS: [code: string, languages: string[]][] = [
  ['es', ['es', 'ca', 'en']],
  ['de', ['de', 'en']],
  ['us', ['en', 'es']],
  ['uk', ['en']],
  ['ca', ['en', 'fr']],
];
const TOURS: [code: string, country: string, days: number][] = [
  ['japan-essentials', 'japan', 12],
  ['japan-alps-and-kyoto', 'japan', 10],
  ['vietnam-north-to-south', 'vietnam', 14],
  ['thailand-temples-and-islands', 'thailand', 11],
  ['india-golden-triangle', 'india', 9],
  ['peru-inca-trail', 'peru', 12],
  ['mexico-yucatan-and-chiapas', 'mexico', 10],
  ['costa-rica-nature', 'costa-rica', 9],
  ['morocco-imperial-cities', 'morocco', 8],
  ['egypt-pharaohs-and-nile', 'egypt', 10],
  ['jordan-petra-and-wadi-rum', 'jordan', 8],
  ['south-africa-safari-and-cape', 'south-africa', 13],
];
const REGIONS = {
  asia: ['japan', 'vietnam', 'thailand', 'india'],
  americas: ['peru', 'mexico', 'costa-rica'],
  'africa-and-middle-east': ['morocco', 'egypt', 'jordan', 'south-africa'],
};
/** The regions' countries in a scope: Egypt's French-Canadian translation is archived (ca/fr only). */
const regionsIn = (market: string, lang: string) =>
  market === 'ca' && lang === 'fr'
    ? { ...REGIONS, 'africa-and-middle-east': ['morocco', 'jordan', 'south-africa'] }
    : REGIONS;

describe('data/demo/content.json', () => {
  it('validates against the content section and its checks', async () => {
    const schema = Type.Object(contentSection.properties, { additionalProperties: false });
    expect([...Value.Errors(schema, doc)].slice(0, 5)).toEqual([]);
    expect(await contentSection.check(doc, importContext(t.database.db))).toEqual([]);
  });

  it("links each country to the plan's tours of that country", () => {
    for (const c of doc.countries as { slug: string; products: string[] }[]) {
      expect(c.products, c.slug).toEqual(TOURS.filter(([, country]) => country === c.slug).map(([code]) => code));
    }
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.database.db.insert(markets).values([
    ...MARKETS.map(([code, languages]) => ({
      code,
      name: code,
      defaultLanguage: languages[0]!,
      languages,
      tourPathSlugs: Object.fromEntries(languages.map((l) => [l, 'tours'])),
      currencyCode: 'EUR',
      currencyName: 'Euro',
      currencySymbol: '€',
      timezone: 'Europe/Madrid',
    })),
    {
      code: 'it',
      name: 'Italia',
      isActive: false,
      defaultLanguage: 'it',
      languages: ['it'],
      currencyCode: 'EUR',
      currencyName: 'Euro',
      currencySymbol: '€',
      timezone: 'Europe/Rome',
    },
  ]);
  for (const [code, countrySlug, days] of TOURS) await addTemplate(t.database, { code, countrySlug, days });
  await applyContent(t.database, doc);
});
afterAll(() => t.close());

const scopes = MARKETS.flatMap(([market, languages]) => languages.map((lang) => [market, lang] as const));

describe('demo content over HTTP', () => {
  it.each(scopes)('/api/%s/%s has three regions and their countries, labels and About Us', async (market, lang) => {
    const base = `/api/${market}/${lang}/cms`;
    const regions = (await t.app.inject(`${base}/regions`)).json().data;
    expect(Object.fromEntries(regions.map((r: any) => [r.slug, r.countries.map((c: any) => c.slug)]))).toEqual(
      regionsIn(market, lang),
    );
    for (const r of regions) {
      expect(r.experiences.phases.length).toBeGreaterThan(0);
      expect(r.image).toMatch(/^https?:\/\//);
    }

    const japan = await t.app.inject(`${base}/countries/japan`);
    expect(japan.statusCode).toBe(200);
    expect(japan.json().data.relatedCountries.map((c: any) => c.slug)).toEqual(['vietnam', 'thailand', 'india']);
    for (const slug of Object.values(regionsIn(market, lang)).flat()) {
      expect((await t.app.inject(`${base}/countries/${slug}`)).statusCode, slug).toBe(200);
    }

    const about = (await t.app.inject(`${base}/about-us`)).json().data;
    expect(about.headerSection.media).toMatchObject({ kind: 'video' });
    // four trailers stored, the one without poster alt left out
    expect(about.trailersSection.items).toHaveLength(3);

    const labels = (await t.app.inject(`${base}/region-labels`)).json().data;
    expect(Object.values(labels).every((v) => typeof v === 'string' && v !== '')).toBe(true);
  });

  it('stores an inactive region and inactive or hidden countries that answer 404', async () => {
    for (const path of ['regions/europe', 'countries/nepal', 'countries/portugal']) {
      expect((await t.app.inject(`/api/es/es/cms/${path}`)).statusCode, path).toBe(404);
    }
  });

  it('keeps a draft country (Sri Lanka) for its signed preview only, with its texts in every locale', async () => {
    expect((await t.app.inject('/api/es/es/cms/countries/sri-lanka')).statusCode).toBe(404);
    expect((await t.app.inject('/api/es/es/cms/regions/asia')).json().data.countries.map((c: any) => c.slug)).toEqual(
      REGIONS.asia,
    );
    for (const [market, lang, tagline] of [
      ['es', 'es', 'La lágrima de la India'],
      ['de', 'de', 'Die Träne Indiens'],
      ['ca', 'fr', 'La larme de l’Inde'],
    ]) {
      const url = previewUrl(t.config, { kind: 'country', slug: 'sri-lanka', market, lang }, t.clock.now(), '');
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.json().data, url).toMatchObject({ slug: 'sri-lanka', name: 'Sri Lanka', tagline });
    }
  });

  it("hides Egypt in French-Canadian only (its fr_CA translation is archived), in its pages and its neighbours'", async () => {
    expect((await t.app.inject('/api/ca/fr/cms/countries/egypt')).statusCode).toBe(404);
    const en = await t.app.inject('/api/ca/en/cms/countries/egypt');
    expect(en.statusCode).toBe(200);
    expect(en.json().data).toMatchObject({ slug: 'egypt', name: 'Egypt' });
    const related = async (market: string, lang: string) =>
      (await t.app.inject(`/api/${market}/${lang}/cms/countries/morocco`))
        .json()
        .data.relatedCountries.map((c: any) => c.slug);
    expect(await related('ca', 'fr')).toEqual(['jordan', 'south-africa']);
    expect(await related('ca', 'en')).toEqual(['egypt', 'jordan', 'south-africa']);
  });

  it('shows stored labels for some locales and the defaults elsewhere', async () => {
    const labels = async (market: string, lang: string) =>
      (await t.app.inject(`/api/${market}/${lang}/cms/region-labels`)).json().data;
    expect((await labels('es', 'es')).hero_button_primary).toBe('Ver viajes');
    expect(await labels('de', 'de')).toMatchObject({
      hero_button_primary: 'Reisen ansehen',
      newsletter_button_text: DEFAULT_LABELS.de!.newsletter_button_text,
    });
    expect(await labels('us', 'en')).toEqual(DEFAULT_LABELS.en);
    expect(await labels('ca', 'fr')).toEqual(DEFAULT_LABELS.fr);
  });
});
