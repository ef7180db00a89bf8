// Market-scoped catalog routes. Bodies come pre-rendered from the service's cache (JSON bytes with
// their ETag and a gzip copy), so a hot read costs a map lookup; the schemas document them for OpenAPI.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ErrorBody } from '../../platform/http-shapes.js';
import { NotModified, sendPrepared } from '../../platform/prepared-body.js';
import { MarketParams, marketScoped } from '../markets/routes.js';
import { verifyPreview } from './preview.js';
import { Configurator, Detail, LeadingPrice, Listing, Preview } from './schemas.js';
import { CatalogService, notFound } from './service.js';

const errors = { 304: NotModified, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };
// ids are checked in the handler, so market and language errors still come first
const IdParams = Type.Object({
  ...MarketParams.properties,
  id: Type.String({ description: 'market-product id (integer)' }),
});

function productId(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw notFound();
  return Number(raw);
}

export async function catalogRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const catalog = new CatalogService(ctx);

  await marketScoped(app, ctx, (r) => {
    r.get(
      '/api/:market/:lang/products',
      {
        schema: {
          tags: ['catalog'],
          summary: 'Active products of the market and language, in sort order',
          params: MarketParams,
          response: { 200: Listing, ...errors },
        },
      },
      async (request, reply) => sendPrepared(request, reply, await catalog.listingJson(request.scope)),
    );

    r.get(
      '/api/:market/:lang/products/:id',
      {
        schema: {
          tags: ['catalog'],
          summary: 'Product by market-product id, with accommodations and itinerary',
          params: IdParams,
          response: { 200: Detail, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params as { id: string };
        return sendPrepared(request, reply, await catalog.detailJson(request.scope, productId(id)));
      },
    );

    r.get(
      '/api/:market/:lang/products/slug/:slug',
      {
        schema: {
          tags: ['catalog'],
          summary: 'Product by translated slug, else by the base template slug',
          params: Type.Object({ ...MarketParams.properties, slug: Type.String() }),
          response: { 200: Detail, ...errors },
        },
      },
      async (request, reply) => {
        const { slug } = request.params as { slug: string };
        return sendPrepared(request, reply, await catalog.detailBySlugJson(request.scope, slug));
      },
    );

    r.get(
      '/api/:market/:lang/products/sku/:sku',
      {
        schema: {
          tags: ['catalog'],
          summary: 'Product by SKU (case-insensitive)',
          params: Type.Object({ ...MarketParams.properties, sku: Type.String() }),
          response: { 200: Detail, ...errors },
        },
      },
      async (request, reply) => {
        const { sku } = request.params as { sku: string };
        return sendPrepared(request, reply, await catalog.detailBySkuJson(request.scope, sku));
      },
    );

    r.get(
      '/api/:market/:lang/products/:id/leading-price',
      {
        schema: {
          tags: ['catalog'],
          summary: 'Lowest price per person among bookable offers',
          params: IdParams,
          response: { 200: LeadingPrice, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params as { id: string };
        return sendPrepared(request, reply, await catalog.leadingPriceJson(request.scope, productId(id)));
      },
    );

    r.get(
      '/api/:market/:lang/products/:id/configurator',
      {
        schema: {
          tags: ['catalog'],
          summary: 'Trip configurator: bookable departures with allotment left, by month, room types, labels',
          params: IdParams,
          response: { 200: Configurator, ...errors },
        },
      },
      async (request, reply) => {
        const { id } = request.params as { id: string };
        return sendPrepared(request, reply, await catalog.configuratorJson(request.scope, productId(id)));
      },
    );
  });

  // Outside marketScoped: a valid signature also opens a market that is not active yet (an editor
  // previews a market being prepared); without one the market answers 403 market_inactive as every
  // other route does, so an unsigned URL tells nothing more than before.
  app.get(
    '/api/:market/:lang/products/:id/preview',
    {
      schema: {
        tags: ['catalog'],
        summary:
          'Product of any status but archived (draft, inactive) through a signed URL, with its price and configurator',
        description:
          'Needs `expires` (Unix seconds) and `signature` (hex HMAC-SHA256) as printed by `npm run preview-url -- ID` ' +
          '(or the console Preview button). A missing, tampered or expired signature answers 403 invalid_signature ' +
          '(403 market_inactive on a market that is not active). With a valid signature the market may be inactive. ' +
          'The detail carries `leading_price` and `configurator`, shaped as the `/leading-price` and `/configurator` ' +
          'data and computed from the bookable offers as for an active product. An archived product answers 404.',
        params: IdParams,
        querystring: Type.Object({ expires: Type.Optional(Type.String()), signature: Type.Optional(Type.String()) }),
        response: { 200: Preview, ...errors },
      },
    },
    async (request, reply) => {
      const { market, lang, id } = request.params as { market: string; lang: string; id: string };
      const q = request.query as { expires?: string; signature?: string };
      const numeric = /^\d{1,9}$/.test(id) ? Number(id) : -1;
      const signed = verifyPreview(ctx.config.appKey, numeric, q.expires, q.signature, ctx.clock.now());
      const scope = await ctx.markets.scope(market, lang, { inactive: signed });
      if (!signed) throw new AppError(403, 'invalid_signature', 'The preview link is invalid or has expired.');
      return sendPrepared(request, reply, await catalog.previewJson(scope, numeric));
    },
  );

  if (ctx.config.benchRoutes) {
    // baseline of `npm run bench`: the cheapest JSON route the server can answer
    const constant = { data: { ok: true, name: 'itinera', note: 'constant body for benchmarks' } };
    app.get('/bench/constant', { schema: { hide: true } }, async () => constant);
  }
}
