import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedContentWorld } from '../../../test/support/content-doc.js';
import { DEFAULT_LABELS } from './rules.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedContentWorld(t.database);
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const ASSETS = 'http://api.test/storage';
const FRONT = 'http://www.api.test';

describe('GET /cms/regions', () => {
  it('lists active regions translated in the locale, by sort_order, with active countries by sort_order', async () => {
    const res = await get('/api/es/es/cms/regions');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    // antarctica is inactive; americas (1) comes before asia (2)
    expect(data.map((r: { slug: string }) => r.slug)).toEqual(['americas', 'asia']);
    const asia = data[1];
    // thailand is inactive, india has no es_ES translation
    expect(asia.countries.map((c: { slug: string }) => c.slug)).toEqual(['vietnam', 'japan']);
    expect(asia).toMatchObject({
      name: 'Asia',
      image: `${ASSETS}/regions/asia.jpg`,
      fullWidthImage: 'https://cdn.example.com/asia-wide.jpg',
      quote: 'El viaje es el destino.',
      ctaHeading: 'Diseña tu viaje',
      ctaSubheading: 'Hablamos contigo',
      ctaButtonText: 'Contactar',
    });
    expect(data[0]).toMatchObject({ name: 'América', image: `${ASSETS}/regions/americas.jpg`, experiences: null });
    expect(asia.countries[1]).toEqual({
      slug: 'japan',
      name: 'Japón',
      description: 'Tradición y futuro.',
      image: `${ASSETS}/countries/japan.jpg`,
      images: [`${ASSETS}/countries/japan-1.jpg`, 'https://cdn.example.com/japan-2.jpg'],
      population: '125 millones',
      area: '377.975 km²',
      currency: 'Yen (JPY)',
      bestTime: 'Primavera y otoño',
      languages: 'Japonés',
      populationLabel: 'Población',
      areaLabel: 'Superficie',
      currencyLabel: 'Moneda',
      bestTimeLabel: 'Mejor época',
      languagesLabel: 'Idiomas',
    });
  });

  it('renders experiences with related trips of the request market only', async () => {
    const { data } = (await get('/api/es/es/cms/regions')).json();
    const experiences = data[1].experiences;
    expect(experiences.intro).toEqual({
      eyebrow: 'Experiencias',
      title: 'Vive Asia',
      description: 'Tres fases de un gran viaje.',
      media: { src: `${ASSETS}/regions/asia/intro.jpg`, alt: 'Templo al amanecer' },
      previewMedia: { src: 'https://cdn.example.com/asia-preview.jpg', alt: 'Vista previa' },
    });
    expect(experiences.phases).toHaveLength(2);
    const [phase, empty] = experiences.phases;
    expect(phase).toMatchObject({
      id: 'phase-1',
      title: 'Ciudades',
      caption: 'Empieza en las ciudades',
      experienceName: 'Ciudades',
      modalTitle: 'Viajes por las ciudades',
      triggerAriaLabel: 'Ver viajes',
      media: { src: `${ASSETS}/regions/asia/phase-1.jpg`, alt: 'Tokio de noche' },
    });
    // vietnam-north-to-south is inactive in es_ES: left out
    expect(phase.relatedTrips).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        href: `${FRONT}/es/es/viajes/japon-esencial`,
        country: 'Japón',
        title: 'Japón esencial',
        itinerary: 'Tokio · Hakone · Kioto · Osaka',
        duration: '12 días',
      },
      {
        id: expect.stringMatching(/^\d+$/),
        href: `${FRONT}/es/es/viajes/alpes-japoneses`,
        country: 'Japón',
        title: 'Alpes japoneses y Kioto',
        itinerary: 'Tokio · Takayama · Kioto',
        duration: '10 días',
      },
    ]);
    expect(empty).toMatchObject({ id: 'phase-2', title: 'Sin viajes', caption: null, media: null, relatedTrips: [] });
  });

  it('resolves related trips again for another market and language', async () => {
    const { data } = (await get('/api/de/de/cms/regions')).json();
    // americas has no de_DE translation
    expect(data.map((r: { slug: string }) => r.slug)).toEqual(['asia']);
    // india is translated in de_DE only
    expect(data[0].countries.map((c: { slug: string }) => c.slug)).toEqual(['vietnam', 'japan', 'india']);
    // japan-alps is a draft in de_DE: left out; vietnam is active there
    expect(data[0].experiences.phases[0].relatedTrips).toEqual([
      expect.objectContaining({
        href: `${FRONT}/de/de/reisen/japan-kompakt`,
        title: 'Japan kompakt',
        duration: '12 Tage',
      }),
      expect.objectContaining({
        href: `${FRONT}/de/de/reisen/vietnam-nord-sued`,
        country: 'Vietnam',
        itinerary: 'Hanoi · Hoi An · Saigon',
        duration: '14 Tage',
      }),
    ]);
  });

  it('shows only what is translated in the locale', async () => {
    const res = await get('/api/es/en/cms/regions');
    expect(res.json().data.map((r: { slug: string }) => r.slug)).toEqual(['asia']);
    const ca = await get('/api/es/ca/cms/regions');
    expect(ca.json().data[0]).toMatchObject({ name: 'Àsia', experiences: null, countries: [] });
  });
});

describe('GET /cms/regions/:slug', () => {
  it('returns one region in the same shape as the list', async () => {
    const [list, one] = await Promise.all([get('/api/es/es/cms/regions'), get('/api/es/es/cms/regions/asia')]);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toEqual(list.json().data[1]);
  });

  it('answers 404 region_not_found for unknown, inactive or untranslated regions', async () => {
    for (const url of [
      '/api/es/es/cms/regions/atlantis',
      '/api/es/es/cms/regions/antarctica',
      '/api/de/de/cms/regions/americas',
    ]) {
      const res = await get(url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, error: 'region_not_found', message: expect.any(String) });
      expect(res.headers.etag).toBeUndefined();
    }
  });
});

describe('GET /cms/region-labels', () => {
  it('returns the stored labels of the locale', async () => {
    const res = await get('/api/es/es/cms/region-labels');
    expect(res.json()).toEqual({
      data: {
        hero_button_primary: 'Descubre Asia',
        hero_button_secondary: 'Llámanos',
        newsletter_heading: 'Newsletter',
        newsletter_name_placeholder: 'Nombre',
        newsletter_email_placeholder: 'Email',
        newsletter_button_text: 'Enviar',
      },
    });
  });

  it('falls back field by field to the default of the language (missing, null or blank)', async () => {
    const res = await get('/api/de/de/cms/region-labels');
    expect(res.json().data).toEqual({ ...DEFAULT_LABELS.de, hero_button_primary: 'Jetzt reisen' });
    expect(DEFAULT_LABELS.de!.newsletter_heading).toBe('Reiseinspiration direkt in Ihr Postfach');
  });

  it('uses every default when the locale has no labels', async () => {
    expect((await get('/api/es/ca/cms/region-labels')).json().data).toEqual(DEFAULT_LABELS.ca);
    expect((await get('/api/es/en/cms/region-labels')).json().data).toEqual(DEFAULT_LABELS.en);
  });
});

describe('GET /cms/countries/:slug', () => {
  it('returns the country with its experiences, tours of the market, region and related countries', async () => {
    const res = await get('/api/es/es/cms/countries/japan');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({
      slug: 'japan',
      name: 'Japón',
      tagline: 'Donde lo antiguo y lo nuevo conviven',
      populationLabel: 'Población',
      images: [`${ASSETS}/countries/japan-1.jpg`, 'https://cdn.example.com/japan-2.jpg'],
      region: { slug: 'asia', name: 'Asia' },
    });
    expect(data.experiences).toEqual([
      {
        image: `${ASSETS}/countries/japan/kyoto.jpg`,
        title: 'Templos de Kioto',
        tag: 'Cultura',
        description: 'Mil toriis.',
        product: {
          id: expect.any(Number),
          title: 'Japón esencial',
          slug: 'japon-esencial',
          path: '/es/es/viajes/japon-esencial',
          durationDays: 12,
          // 999.00 departs inside the lead time, 800.00 is Inactive: the lowest bookable is 1399.50
          priceFrom: '1399.50',
          currency: 'EUR',
          image: `${ASSETS}/productos/japon.jpg`,
          itinerary: 'Tokio · Hakone · Kioto · Osaka',
        },
      },
      {
        image: null,
        title: 'Alpes japoneses',
        tag: null,
        description: null,
        product: expect.objectContaining({
          title: 'Alpes japoneses y Kioto',
          priceFrom: null, // no bookable offer
          image: null, // the product has no hero image of its own; the template's is not used
        }),
      },
      { image: null, title: 'Onsen', tag: 'Relax', description: null, product: null },
    ]);
    // thailand is inactive, india untranslated in es_ES
    expect(data.relatedCountries).toEqual([
      {
        slug: 'vietnam',
        name: 'Vietnam',
        tagline: 'Arrozales y bahías',
        image: 'https://cdn.example.com/vietnam.jpg',
        region: 'Asia',
      },
    ]);
  });

  it('gives product null when the tour has no active product in the request market and language', async () => {
    const de = (await get('/api/de/de/cms/countries/japan')).json().data;
    expect(de.experiences.map((e: { product: unknown }) => e.product)).toEqual([
      expect.objectContaining({ title: 'Japan kompakt', path: '/de/de/reisen/japan-kompakt', priceFrom: null }),
      null, // japan-alps is a draft in de_DE
    ]);
    expect(de.relatedCountries.map((c: { slug: string }) => c.slug)).toEqual(['vietnam', 'india']);
    const en = (await get('/api/es/en/cms/countries/japan')).json().data;
    expect(en.experiences).toEqual([
      { image: null, title: 'Kyoto temples', tag: null, description: null, product: null },
    ]);
    // asia has only a name in en_ES; japan is the only country translated there
    expect(en.region).toEqual({ slug: 'asia', name: 'Asia' });
    expect(en.relatedCountries).toEqual([]);
  });

  it('answers 404 country_not_found for unknown, inactive, untranslated countries or hidden regions', async () => {
    for (const url of [
      '/api/es/es/cms/countries/atlantis',
      '/api/es/es/cms/countries/thailand',
      '/api/es/es/cms/countries/india',
      '/api/de/de/cms/countries/peru',
      '/api/es/es/cms/countries/south-georgia',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ success: false, error: 'country_not_found', message: expect.any(String) });
    }
  });
});

describe('GET /cms/about-us', () => {
  it('returns the page with video media and only complete trailers', async () => {
    const res = await get('/api/es/es/cms/about-us');
    expect(res.json()).toEqual({
      data: {
        headerSection: {
          title: 'Quiénes somos',
          leadCaption: 'Viajamos desde 1998',
          supportingCaption: 'Un equipo de viajeros',
          media: { kind: 'video', src: `${ASSETS}/videos/about-us.mp4`, title: 'Quiénes somos' },
        },
        captionSection: { text: 'Diseñamos viajes a medida.' },
        trailersSection: {
          items: [
            {
              id: 'trailer-1',
              href: '/es/historias/japon',
              posterSrc: `${ASSETS}/trailers/japan.jpg`,
              posterAlt: 'Japón en otoño',
              ariaLabel: 'Japón en otoño',
              target: '_self',
            },
            {
              id: 'peru-film',
              href: 'https://www.youtube.com/watch?v=abc',
              posterSrc: 'https://cdn.example.com/peru.jpg',
              posterAlt: 'Machu Picchu',
              ariaLabel: 'Ver la película de Perú',
              target: '_self',
            },
            // entries 3-5 lack poster alt, href or poster image
            {
              id: 'trailer-6',
              href: 'https://vimeo.com/1',
              posterSrc: `${ASSETS}/trailers/vimeo.jpg`,
              posterAlt: 'Vietnam',
              ariaLabel: 'Vietnam',
              target: '_blank',
            },
          ],
        },
      },
    });
  });

  it('answers data null when the page is not translated in the locale', async () => {
    const res = await get('/api/es/en/cms/about-us');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: null });
    const de = (await get('/api/de/de/cms/about-us')).json().data;
    expect(de).toMatchObject({ captionSection: { text: null }, trailersSection: { items: [] } });
  });
});

describe('GET /cms/home', () => {
  it('returns the regions carousel and the labels', async () => {
    const res = await get('/api/es/es/cms/home');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.regions).toEqual([
      {
        slug: 'americas',
        name: 'América',
        description: null,
        quote: null,
        image: `${ASSETS}/regions/americas.jpg`,
        fullWidthImage: null,
        ctaButtonText: null,
        countries: [{ slug: 'peru', name: 'Perú', image: null }],
      },
      expect.objectContaining({
        slug: 'asia',
        countries: [
          { slug: 'vietnam', name: 'Vietnam', image: 'https://cdn.example.com/vietnam.jpg' },
          { slug: 'japan', name: 'Japón', image: `${ASSETS}/countries/japan.jpg` },
        ],
      }),
    ]);
    expect(data.labels.hero_button_primary).toBe('Descubre Asia');
  });

  it('is documented with a response schema in OpenAPI', async () => {
    const doc = (await get('/openapi.json')).json();
    const op = doc.paths['/api/{market}/{lang}/cms/home'].get;
    expect(op.tags).toEqual(['content']);
    const schema = op.responses['200'].content['application/json'].schema;
    expect(schema.properties.data).toEqual({ $ref: '#/components/schemas/Home' });
    expect(Object.keys(doc.components.schemas.Home.properties)).toEqual(['regions', 'labels']);
    for (const path of ['regions', 'regions/{slug}', 'region-labels', 'countries/{slug}', 'about-us']) {
      expect(doc.paths[`/api/{market}/{lang}/cms/${path}`]?.get?.responses?.['200'], path).toBeDefined();
    }
  });
});

describe('caching', () => {
  it('sends an ETag (hash of the body) and Cache-Control; a matching If-None-Match gets 304', async () => {
    const res = await get('/api/es/es/cms/regions');
    const etag = res.headers.etag as string;
    expect(etag).toBe(`"${createHash('sha1').update(res.body).digest('base64url')}"`);
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
    expect(res.headers['content-type']).toMatch(/^application\/json/);

    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await get('/api/es/es/cms/regions', { 'if-none-match': header });
      expect(again.statusCode, header).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
    }
    const changed = await get('/api/es/es/cms/regions', { 'if-none-match': '"stale"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toBe(res.body);
  });

  it('gives each locale its own body and tag', async () => {
    const [es, ca, de] = await Promise.all(
      ['/api/es/es/cms/region-labels', '/api/es/ca/cms/region-labels', '/api/de/de/cms/region-labels'].map((u) =>
        get(u),
      ),
    );
    expect(new Set([es!.headers.etag, ca!.headers.etag, de!.headers.etag]).size).toBe(3);
    const caWithEsTag = await get('/api/es/ca/cms/region-labels', { 'if-none-match': es!.headers.etag as string });
    expect(caWithEsTag.statusCode).toBe(200);
  });
});

describe('market and language errors', () => {
  it('are answered before content, as for every market-scoped endpoint', async () => {
    const cases: [string, number, string][] = [
      ['/api/xx/es/cms/regions', 404, 'market_not_found'],
      ['/api/fr/fr/cms/about-us', 403, 'market_inactive'],
      ['/api/es/de/cms/region-labels', 400, 'language_not_supported'],
      ['/api/es/e5/cms/home', 400, 'language_not_supported'],
      ['/api/xx/es/cms/countries/japan', 404, 'market_not_found'],
      ['/api/de/es/cms/regions/asia', 400, 'language_not_supported'],
    ];
    for (const [url, status, error] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(status);
      expect(res.json()).toMatchObject({ success: false, error });
    }
  });

  it('accepts market and language in any case', async () => {
    const [lower, upper] = await Promise.all([get('/api/es/ca/cms/regions'), get('/api/ES/Ca/cms/regions')]);
    expect(upper.statusCode).toBe(200);
    expect(upper.body).toBe(lower.body);
  });
});
