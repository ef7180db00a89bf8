// A small content world for HTTP tests of the CMS endpoints (see content-fixture.ts for the
// catalog side). Markets come from seedMarkets: es (es, ca, en), de (de), fr (inactive).
import type { Database } from '../../src/db/database.js';
import { addMarketProduct, addTemplate, applyContent } from './content-fixture.js';
import { seedMarkets } from './markets.js';

/**
 * Catalog: japan-essentials active in es_ES, ca_ES and de_DE (offers in es_ES only);
 * japan-alps active in es_ES, draft in de_DE; vietnam-north-to-south inactive in es_ES, active in de_DE.
 */
export async function seedContentWorld(database: Database): Promise<void> {
  await seedMarkets(database);
  const japan = await addTemplate(database, { code: 'japan-essentials', days: 12, countrySlug: 'japan' });
  const alps = await addTemplate(database, {
    code: 'japan-alps',
    days: 10,
    countrySlug: 'japan',
    heroImage: 'https://cdn.example.com/alps.jpg',
  });
  const vietnam = await addTemplate(database, { code: 'vietnam-north-to-south', days: 14, countrySlug: 'vietnam' });
  await addMarketProduct(database, {
    templateId: japan,
    market: 'es',
    lang: 'es',
    title: 'Japón esencial',
    urlSlug: 'japon-esencial',
    countryName: 'Japón',
    heroImage: 'productos/japon.jpg',
    cities: ['Tokio', 'Tokio', 'Hakone', 'Kioto', null, 'Osaka'],
    offers: [
      { date: '2026-06-17', pricePerPerson: '999.00' }, // inside the 5-day lead time
      { date: '2026-07-01', pricePerPerson: '1500.00' },
      { date: '2026-08-01', pricePerPerson: '1399.50' },
      { date: '2026-07-10', pricePerPerson: '800.00', status: 'Inactive' },
    ],
  });
  await addMarketProduct(database, {
    templateId: japan,
    market: 'es',
    lang: 'ca',
    title: 'Japó essencial',
    urlSlug: 'japo-essencial',
    countryName: 'Japó',
    cities: ['Tòquio', 'Kyoto'],
  });
  await addMarketProduct(database, {
    templateId: japan,
    market: 'de',
    lang: 'de',
    title: 'Japan kompakt',
    urlSlug: 'japan-kompakt',
    countryName: 'Japan',
    cities: ['Tokio', 'Kyoto'],
  });
  await addMarketProduct(database, {
    templateId: alps,
    market: 'es',
    lang: 'es',
    title: 'Alpes japoneses y Kioto',
    urlSlug: 'alpes-japoneses',
    countryName: 'Japón',
    cities: ['Tokio', 'Takayama', 'Kioto'],
  });
  await addMarketProduct(database, {
    templateId: alps,
    market: 'de',
    lang: 'de',
    status: 'draft',
    title: 'Japanische Alpen',
    urlSlug: 'japanische-alpen',
    countryName: 'Japan',
  });
  await addMarketProduct(database, {
    templateId: vietnam,
    market: 'es',
    lang: 'es',
    status: 'inactive',
    title: 'Vietnam de norte a sur',
    urlSlug: 'vietnam-norte-sur',
    countryName: 'Vietnam',
  });
  await addMarketProduct(database, {
    templateId: vietnam,
    market: 'de',
    lang: 'de',
    title: 'Vietnam von Nord nach Süd',
    urlSlug: 'vietnam-nord-sued',
    countryName: 'Vietnam',
    cities: ['Hanoi', 'Hoi An', 'Saigon'],
  });
  await applyContent(database, contentDoc());
}

const stats = (lang: 'es' | 'de' | 'ca' | 'en') =>
  ({
    es: {
      population_label: 'Población',
      area_label: 'Superficie',
      currency_label: 'Moneda',
      best_time_label: 'Mejor época',
      languages_label: 'Idiomas',
    },
    ca: {
      population_label: 'Població',
      area_label: 'Superfície',
      currency_label: 'Moneda',
      best_time_label: 'Millor època',
      languages_label: 'Idiomes',
    },
    de: {
      population_label: 'Einwohner',
      area_label: 'Fläche',
      currency_label: 'Währung',
      best_time_label: 'Beste Reisezeit',
      languages_label: 'Sprachen',
    },
    en: {
      population_label: 'Population',
      area_label: 'Area',
      currency_label: 'Currency',
      best_time_label: 'Best time',
      languages_label: 'Languages',
    },
  })[lang];

const asiaText = (name: string, phaseTitle: string) => ({
  name,
  description: `${name}: templos, arrozales y ciudades de neón.`,
  quote: 'El viaje es el destino.',
  cta_heading: 'Diseña tu viaje',
  cta_subheading: 'Hablamos contigo',
  cta_button_text: 'Contactar',
  experiences: {
    intro: {
      eyebrow: 'Experiencias',
      title: `Vive ${name}`,
      description: 'Tres fases de un gran viaje.',
      media: { src: 'regions/asia/intro.jpg', alt: 'Templo al amanecer' },
      preview_media: { src: 'https://cdn.example.com/asia-preview.jpg', alt: 'Vista previa' },
    },
    phases: [
      {
        id: 'phase-1',
        title: phaseTitle,
        caption: 'Empieza en las ciudades',
        experience_name: 'Ciudades',
        modal_title: 'Viajes por las ciudades',
        trigger_aria_label: 'Ver viajes',
        media: { src: 'regions/asia/phase-1.jpg', alt: 'Tokio de noche' },
        products: ['japan-essentials', 'japan-alps', 'vietnam-north-to-south'],
      },
      { id: 'phase-2', title: 'Sin viajes', products: [] },
    ],
  },
});

export function contentDoc(): Record<string, unknown> {
  return {
    regions: [
      {
        slug: 'asia',
        status: 'active',
        image: 'regions/asia.jpg',
        full_width_image: 'https://cdn.example.com/asia-wide.jpg',
        sort_order: 2,
        translations: {
          es_ES: asiaText('Asia', 'Ciudades'),
          ca_ES: { ...asiaText('Àsia', 'Ciutats'), experiences: null },
          en_ES: { name: 'Asia' },
          de_DE: asiaText('Asien', 'Städte'),
        },
      },
      {
        slug: 'americas',
        status: 'active',
        image: '/regions/americas.jpg',
        sort_order: 1,
        translations: { es_ES: { name: 'América' } },
      },
      { slug: 'antarctica', sort_order: 0, status: 'inactive', translations: { es_ES: { name: 'Antártida' } } },
    ],
    countries: [
      {
        slug: 'japan',
        status: 'active',
        region: 'asia',
        image: 'countries/japan.jpg',
        images: ['countries/japan-1.jpg', 'https://cdn.example.com/japan-2.jpg'],
        sort_order: 2,
        products: ['japan-essentials', 'japan-alps'],
        translations: {
          es_ES: {
            name: 'Japón',
            description: 'Tradición y futuro.',
            tagline: 'Donde lo antiguo y lo nuevo conviven',
            population: '125 millones',
            area: '377.975 km²',
            currency: 'Yen (JPY)',
            best_time: 'Primavera y otoño',
            languages: 'Japonés',
            ...stats('es'),
            experiences: [
              {
                image: 'countries/japan/kyoto.jpg',
                title: 'Templos de Kioto',
                tag: 'Cultura',
                description: 'Mil toriis.',
                product: 'japan-essentials',
              },
              { title: 'Alpes japoneses', product: 'japan-alps' },
              { title: 'Onsen', tag: 'Relax', product: null },
            ],
          },
          en_ES: {
            name: 'Japan',
            tagline: 'Old and new',
            ...stats('en'),
            experiences: [{ title: 'Kyoto temples', product: 'japan-essentials' }],
          },
          de_DE: {
            name: 'Japan',
            tagline: 'Alt und neu',
            ...stats('de'),
            experiences: [
              { title: 'Tempel in Kyoto', product: 'japan-essentials' },
              { title: 'Japanische Alpen', product: 'japan-alps' },
            ],
          },
        },
      },
      {
        slug: 'vietnam',
        status: 'active',
        region: 'asia',
        image: 'https://cdn.example.com/vietnam.jpg',
        sort_order: 1,
        products: ['vietnam-north-to-south'],
        translations: {
          es_ES: { name: 'Vietnam', tagline: 'Arrozales y bahías', ...stats('es') },
          de_DE: { name: 'Vietnam', tagline: 'Reisfelder und Buchten', ...stats('de') },
        },
      },
      {
        slug: 'thailand',
        region: 'asia',
        sort_order: 3,
        status: 'inactive',
        translations: { es_ES: { name: 'Tailandia' } },
      },
      { slug: 'india', region: 'asia', sort_order: 4, status: 'active', translations: { de_DE: { name: 'Indien' } } },
      { slug: 'peru', region: 'americas', status: 'active', translations: { es_ES: { name: 'Perú' } } },
      {
        slug: 'south-georgia',
        region: 'antarctica',
        status: 'active',
        translations: { es_ES: { name: 'Georgia del Sur' } },
      },
    ],
    region_labels: {
      es_ES: {
        hero_button_primary: 'Descubre Asia',
        hero_button_secondary: 'Llámanos',
        newsletter_heading: 'Newsletter',
        newsletter_name_placeholder: 'Nombre',
        newsletter_email_placeholder: 'Email',
        newsletter_button_text: 'Enviar',
      },
      de_DE: { hero_button_primary: 'Jetzt reisen', newsletter_heading: null, newsletter_button_text: '  ' },
    },
    about_us: {
      status: 'active',
      video_url: 'videos/about-us.mp4',
      translations: {
        es_ES: {
          title: 'Quiénes somos',
          lead_caption: 'Viajamos desde 1998',
          supporting_caption: 'Un equipo de viajeros',
          description: 'Diseñamos viajes a medida.',
          trailers: [
            { poster_image: 'trailers/japan.jpg', poster_alt: 'Japón en otoño', href: '/es/historias/japon' },
            {
              id: 'peru-film',
              poster_image: 'https://cdn.example.com/peru.jpg',
              poster_alt: 'Machu Picchu',
              href: 'https://www.youtube.com/watch?v=abc',
              target: '_self',
              aria_label: 'Ver la película de Perú',
            },
            { poster_image: 'trailers/no-alt.jpg', href: '/es/historias/x' },
            { poster_image: 'trailers/no-href.jpg', poster_alt: 'Sin enlace', href: null },
            { poster_alt: 'Sin póster', href: '/es/historias/y' },
            { poster_image: 'trailers/vimeo.jpg', poster_alt: 'Vietnam', href: 'https://vimeo.com/1' },
          ],
        },
        de_DE: { title: 'Über uns', trailers: [] },
      },
    },
  };
}
