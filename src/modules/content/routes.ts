// CMS endpoints under /api/:market/:lang/cms. Bodies are rendered once per locale and resource,
// serialized through the route's response schema, and served with an ETag, Cache-Control and a gzip
// copy for clients that accept it; a matching If-None-Match answers 304 without a body.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ErrorBody } from '../../platform/http-shapes.js';
import { component, ref } from '../../platform/openapi.js';
import { NotModified, sendPrepared } from '../../platform/prepared-body.js';
import { catalogRevision } from '../catalog/revision.js';
import { MarketParams, marketScoped } from '../markets/routes.js';
import type { MarketScope } from '../markets/rules.js';
import { ResponseCache } from './cache.js';
import { type PreviewKind, verifyContentPreview } from './preview.js';
import { DEFAULT_LABELS, LABEL_FIELDS } from './rules.js';
import { ContentService } from './service.js';

export const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';
const CACHE_TTL_MS = 60_000;

const S = Type.String();
const NS = Type.Union([Type.String(), Type.Null()]);
const Nullable = <T extends TSchema>(t: T, description?: string) => Type.Union([t, Type.Null()], { description });
const Media = Nullable(Type.Object({ src: NS, alt: NS }), 'src is an absolute URL');

const errors = { 304: NotModified, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };

const RelatedTrip = Type.Object({
  id: Type.String({ description: 'market product id' }),
  href: Type.String({ description: 'FRONTEND_URL + /<tour path slug of the language>/<translated url_slug>' }),
  country: Type.String({ description: "the product's localized country name" }),
  title: S,
  itinerary: Type.String({ description: "day cities joined by ' · '" }),
  duration: Type.String({ description: 'localized, e.g. "12 days", "12 días"' }),
});

const Experiences = Nullable(
  Type.Object({
    intro: Type.Object({ eyebrow: NS, title: NS, description: NS, media: Media, previewMedia: Media }),
    phases: Type.Array(
      Type.Object({
        id: S,
        title: NS,
        caption: NS,
        experienceName: NS,
        modalTitle: NS,
        triggerAriaLabel: NS,
        media: Media,
        relatedTrips: Type.Array(RelatedTrip, {
          description:
            "the phase's tours (product template codes) sold as an active product in the request's market and language",
        }),
      }),
    ),
  }),
  'null when the translation has no experiences',
);

const countryFields = {
  slug: S,
  name: S,
  description: NS,
  image: NS,
  images: Type.Array(S),
  population: NS,
  area: NS,
  currency: NS,
  bestTime: NS,
  languages: NS,
  populationLabel: NS,
  areaLabel: NS,
  currencyLabel: NS,
  bestTimeLabel: NS,
  languagesLabel: NS,
};
const ListedCountry = Type.Object(countryFields);

const Region = Type.Object({
  slug: S,
  name: S,
  description: NS,
  image: NS,
  fullWidthImage: NS,
  quote: NS,
  experiences: Experiences,
  ctaHeading: NS,
  ctaSubheading: NS,
  ctaButtonText: NS,
  countries: Type.Array(ListedCountry, { description: 'active countries translated in the locale, by sort_order' }),
});

const Labels = Type.Object(
  Object.fromEntries(
    LABEL_FIELDS.map((f) => [
      f,
      Type.String({
        description: `Default: ${Object.entries(DEFAULT_LABELS)
          .map(([lang, l]) => `${lang} "${l[f]}"`)
          .join(', ')}; other languages use en.`,
      }),
    ]),
  ),
  { description: 'each field falls back on its own to the default of the request language' },
);

const CountryProduct = Nullable(
  Type.Object({
    id: Type.Integer({ description: 'market product id' }),
    title: S,
    slug: Type.String({ description: 'translated url_slug' }),
    path: Type.String({ description: '/<tour path slug of the language>/<url_slug>' }),
    durationDays: Type.Integer(),
    priceFrom: Nullable(S, 'lowest price per person among bookable offers; null when none is bookable'),
    currency: Type.String({ description: 'market currency code' }),
    image: NS,
    itinerary: Type.String({ description: "day cities joined by ' · '" }),
  }),
  'null when the tour has no active product in the request market and language',
);

const Country = Type.Object({
  ...countryFields,
  tagline: NS,
  experiences: Type.Array(Type.Object({ image: NS, title: S, tag: NS, description: NS, product: CountryProduct })),
  region: Type.Object({ slug: S, name: S }),
  relatedCountries: Type.Array(
    Type.Object({ slug: S, name: S, tagline: NS, image: NS, region: Type.String({ description: 'region name' }) }),
    { description: 'the other active countries of the same region, by sort_order' },
  ),
});

const AboutUs = Nullable(
  Type.Object({
    headerSection: Type.Object({
      title: S,
      leadCaption: NS,
      supportingCaption: NS,
      media: Nullable(
        Type.Object({ kind: Type.Literal('video'), src: S, title: Type.String({ description: 'the page title' }) }),
        'null when the page has no video_url',
      ),
    }),
    captionSection: Type.Object({ text: NS }),
    trailersSection: Type.Object({
      items: Type.Array(
        Type.Object({
          id: Type.String({ description: 'stored id, else trailer-<position in the stored list, from 1>' }),
          href: S,
          posterSrc: S,
          posterAlt: S,
          ariaLabel: Type.String({ description: 'stored aria label, else the poster alt' }),
          target: Type.Union([Type.Literal('_self'), Type.Literal('_blank')], {
            description: 'stored target, else _blank for absolute URLs and _self for site paths',
          }),
        }),
        { description: 'entries lacking href, poster image or poster alt are left out' },
      ),
    }),
  }),
  'null when no active page is translated in the locale',
);

const Home = Type.Object({
  regions: Type.Array(
    Type.Object({
      slug: S,
      name: S,
      description: NS,
      quote: NS,
      image: NS,
      fullWidthImage: NS,
      ctaButtonText: NS,
      countries: Type.Array(Type.Object({ slug: S, name: S, image: NS })),
    }),
    { description: 'regions carousel: active regions by sort_order with their active countries' },
  ),
  labels: Labels,
});

// the named bodies (a storefront's generated client gets a type per shape)
const Named = {
  Region: ref(component('Region', Region, 'A region with its countries and experiences.')),
  Labels: ref(component('RegionLabels', Labels, 'Global UI labels, each falling back to a built-in default.')),
  Country: ref(component('Country', Country, 'A country with its experiences, tours and related countries.')),
  AboutUs: ref(component('AboutUs', AboutUs, 'The About Us page (null when it has no translation).')),
  Home: ref(component('Home', Home, 'The home page: the regions carousel and the global labels.')),
};

const SlugParams = Type.Object({ ...MarketParams.properties, slug: S });
const PreviewQuery = Type.Object({ expires: Type.Optional(Type.String()), signature: Type.Optional(Type.String()) });

export async function contentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = new ContentService(ctx);
  const cache = new ResponseCache(ctx.clock, CACHE_TTL_MS);
  ctx.events.on('catalog:changed', () => cache.clear());
  const revision = catalogRevision(ctx);

  /** Serves `render`'s body from the cache, with validators; 304 when If-None-Match matches. */
  const cached =
    (resource: (request: FastifyRequest) => string, render: (request: FastifyRequest) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const key = `${request.scope.locale}|${resource(request)}`;
      await revision.fresh(); // another process's import drops the cache (catalog:changed)
      const body = await cache.get(key, async () => {
        const payload = await render(request);
        const serialize = reply.getSerializationFunction('200') as ((p: unknown) => string) | undefined;
        return serialize ? serialize(payload) : JSON.stringify(payload);
      });
      reply.header('cache-control', CACHE_CONTROL);
      return sendPrepared(request, reply, body);
    };
  const slugOf = (request: FastifyRequest) => (request.params as { slug: string }).slug.toLowerCase();

  await marketScoped(app, ctx, (scoped) => {
    const schema = (summary: string, data: TSchema, params: TSchema = MarketParams, description?: string) => ({
      tags: ['content'],
      summary,
      description,
      params,
      response: { 200: Type.Object({ data }), ...errors },
    });

    scoped.get(
      '/api/:market/:lang/cms/regions',
      { schema: schema('Regions with their countries and experiences', Type.Array(Named.Region)) },
      cached(
        () => 'regions',
        (r) => service.regions(r.scope),
      ),
    );
    scoped.get(
      '/api/:market/:lang/cms/regions/:slug',
      {
        schema: schema(
          'One region by slug',
          Named.Region,
          SlugParams,
          '404 region_not_found when no active region translated in the locale has the slug.',
        ),
      },
      cached(
        (r) => `region:${slugOf(r)}`,
        (r) => service.region(r.scope, slugOf(r)),
      ),
    );
    scoped.get(
      '/api/:market/:lang/cms/region-labels',
      { schema: schema('Global UI labels, each falling back to a built-in default', Named.Labels) },
      cached(
        () => 'region-labels',
        (r) => service.labels(r.scope),
      ),
    );
    scoped.get(
      '/api/:market/:lang/cms/countries/:slug',
      {
        schema: schema(
          'One country with its experiences, tours and related countries',
          Named.Country,
          SlugParams,
          '404 country_not_found when no active country (of an active region) translated in the locale has the slug.',
        ),
      },
      cached(
        (r) => `country:${slugOf(r)}`,
        (r) => service.country(r.scope, slugOf(r)),
      ),
    );
    scoped.get(
      '/api/:market/:lang/cms/about-us',
      { schema: schema('The About Us page, or null', Named.AboutUs) },
      cached(
        () => 'about-us',
        (r) => service.aboutUs(r.scope),
      ),
    );
    scoped.get(
      '/api/:market/:lang/cms/home',
      {
        schema: schema(
          'Home page content: the regions carousel and the global labels',
          Named.Home,
          MarketParams,
          'Regions as on /cms/regions (active, translated, by sort_order) reduced to what a carousel shows, each with its active countries; labels as on /cms/region-labels.',
        ),
      },
      cached(
        () => 'home',
        (r) => service.home(r.scope),
      ),
    );
  });

  // Signed previews: any status, not cached, and a market that is not active yet resolves too
  const preview = (kind: PreviewKind, summary: string, data: TSchema, params: TSchema, render: PreviewRender) => ({
    schema: {
      tags: ['content'],
      summary,
      description:
        "Needs `expires` (Unix seconds) and `signature` (hex HMAC-SHA256) from a preview link (the console's Preview button). " +
        'A missing, tampered or expired signature answers 403 invalid_signature. Works for a market that is not active yet.',
      params,
      querystring: PreviewQuery,
      response: { 200: Type.Object({ data }), ...errors },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const p = request.params as { market: string; lang: string; slug?: string };
      const q = request.query as { expires?: string; signature?: string };
      const target = { kind, slug: p.slug, market: p.market, lang: p.lang };
      if (!verifyContentPreview(ctx.config.appKey, target, q.expires, q.signature, ctx.clock.now())) {
        throw new AppError(403, 'invalid_signature', 'The preview link is invalid or has expired.');
      }
      const scope = await ctx.markets.scope(p.market, p.lang, { inactive: true });
      reply.header('cache-control', 'no-store');
      return render(scope, (p.slug ?? '').toLowerCase());
    },
  });
  app.get(
    '/api/:market/:lang/cms/regions/:slug/preview',
    preview(
      'region',
      'A region of any status (draft, inactive, archived) through a signed URL',
      Named.Region,
      SlugParams,
      (s, slug) => service.region(s, slug, true),
    ),
  );
  app.get(
    '/api/:market/:lang/cms/countries/:slug/preview',
    preview('country', 'A country of any status through a signed URL', Named.Country, SlugParams, (s, slug) =>
      service.country(s, slug, true),
    ),
  );
  app.get(
    '/api/:market/:lang/cms/about-us/preview',
    preview('about_us', 'The About Us page of any status through a signed URL', Named.AboutUs, MarketParams, (s) =>
      service.aboutUs(s, true),
    ),
  );
}

type PreviewRender = (scope: MarketScope, slug: string) => Promise<unknown>;
