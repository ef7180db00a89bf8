import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { ErrorBody } from '../../platform/http-shapes.js';
import { component, ref } from '../../platform/openapi.js';
import { rateLimit } from '../../platform/rate-limit.js';
import { airportsIn, type MarketScope, resolveLanguage } from './rules.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** set by marketScoped routes: the resolved market, language and locale */
    scope: MarketScope;
  }
}

export const MarketParams = Type.Object({
  market: Type.String({ description: 'Market code, letters only, case-insensitive (es, DE, ...)' }),
  lang: Type.String({ description: 'Language code, letters only, case-insensitive' }),
});

/**
 * Registers routes under /api/:market/:lang whose requests carry a resolved `request.scope`;
 * market errors (404/403) come before language errors (400), as the contract orders them.
 */
export async function marketScoped(
  app: FastifyInstance,
  ctx: AppContext,
  register: (scoped: FastifyInstance) => void | Promise<void>,
): Promise<void> {
  // every public write (checkout steps, flights, payment) counts against one per-IP limit
  const writes = rateLimit({
    name: 'public-write',
    max: ctx.config.writeLimits.publicWritesPerMinute,
    windowSeconds: 60,
  });
  await app.register(async (scoped) => {
    scoped.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') await writes(request, reply);
    });
    scoped.decorateRequest('scope', null as unknown as MarketScope);
    scoped.addHook('preHandler', async (request: FastifyRequest) => {
      const params = request.params as { market: string; lang: string };
      request.scope = await ctx.markets.scope(params.market, params.lang);
    });
    await register(scoped);
  });
}

const MarketConfig = component(
  'MarketConfig',
  Type.Object({
    code: Type.String(),
    name: Type.String(),
    locale: Type.String(),
    supported_languages: Type.Array(Type.String()),
    tour_path_slugs: Type.Record(Type.String(), Type.String()),
    currency: Type.Object({ code: Type.String(), name: Type.String() }),
    timezone: Type.String(),
    departure_airports: Type.Array(
      Type.Object({ iata_code: Type.String(), name: Type.String(), city: Type.String(), is_primary: Type.Boolean() }),
    ),
  }),
  "A market's languages, currency, time zone, tour path slugs and departure airports.",
);

export async function marketRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get(
    '/api/:market/config',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Market configuration',
        description:
          'Departure airports are named in `lang` (a language of the market; default: the market default language), falling back to the market default language, then English.',
        params: Type.Object({ market: Type.String() }),
        querystring: Type.Object({
          lang: Type.Optional(
            Type.String({ description: 'Language of the airport names and cities (a language of the market)' }),
          ),
        }),
        response: { 200: Type.Object({ data: ref(MarketConfig) }), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const m = await ctx.markets.market((request.params as { market: string }).market);
      const lang = resolveLanguage(m, (request.query as { lang?: string }).lang ?? m.defaultLanguage);
      return {
        data: {
          code: m.code,
          name: m.name,
          locale: `${m.defaultLanguage}_${m.code.toUpperCase()}`,
          supported_languages: m.languages,
          tour_path_slugs: m.tourPathSlugs,
          currency: { code: m.currency.code, name: m.currency.name },
          timezone: m.timezone,
          departure_airports: airportsIn(m, lang),
        },
      };
    },
  );
}
