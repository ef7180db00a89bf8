// HTTP of the checkout (spec 2): session endpoints under /api/{market}/{lang}/checkout identified
// by signed cookies, option GETs by offer id, and the internal checkout-step endpoint.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ErrorBody, MarketPath, ok } from '../../platform/http-shapes.js';
import { Currency as CurrencyComponent, component, Money, ref, SESSION_REQUIRED } from '../../platform/openapi.js';
import { rateLimit, TooManyRequestsBody } from '../../platform/rate-limit.js';
import { marketScoped } from '../markets/routes.js';
import { FUNNEL_STEPS, type FunnelStep, PRICING_ROOM_TYPES } from './rules.js';
import { checkoutServiceOf, closeCheckoutService } from './service.js';
import { sendSessionCookies, sessionTokenOf, signedCookie, VISITOR_COOKIE } from './session-transport.js';

const INTERNAL_ABILITY = 'internal:read';

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Currency = ref(CurrencyComponent);
const AnyObject = Type.Object({}, { additionalProperties: true });

const ContactFields = {
  first_name: Type.String({ description: 'at most 100 characters' }),
  last_name: Type.String({ description: '2 to 100 characters' }),
  email: Type.String({ description: 'an e-mail address' }),
  phone: Type.String({ description: 'at most 30 characters' }),
};
const TravelerFields = {
  title: Type.Optional(
    Type.String({ description: 'mr, ms, mrs, miss, dr; required when the flight provider needs it' }),
  ),
  gender: Type.Optional(Type.String({ description: 'm or f; required when the flight provider needs it' })),
  first_name: Type.String({ description: 'as in the passport: ASCII letters and spaces' }),
  last_name: Type.String({ description: 'as in the passport: ASCII letters and spaces, at least 2' }),
  nationality: Type.String({ description: 'ISO 3166-1 alpha-2 code' }),
  passport_number: Type.String(),
  passport_expiry: Type.String({ description: 'YYYY-MM-DD, after today' }),
  birth_date: Type.String({ description: 'YYYY-MM-DD, before today' }),
  phone: Type.String(),
  email: Type.String(),
};
/**
 * The contact and traveler bodies name their fields for clients; their rules (required, lengths,
 * formats) are the checkout's own, checked by the service with the spec's messages (422 per field).
 */
export const ContactInput = component(
  'ContactInput',
  Type.Partial(Type.Object(ContactFields, { additionalProperties: true })),
  'The booking contact; every field is required (checked by the checkout, 422 per missing field).',
);
export const TravelerInput = component(
  'TravelerInput',
  Type.Partial(Type.Object(TravelerFields, { additionalProperties: true })),
  'One traveler as in the passport; every field is required (checked by the checkout, 422 per field).',
);

const SessionFields = {
  offer_id: Type.Integer(),
  booking_id: Type.Integer(),
  booking_reference: Type.String(),
  started_at: Type.String({ format: 'date-time' }),
  flight_selection: Nullable(AnyObject),
  hotel_selections: Type.Array(
    Type.Object({
      upsell_hotel_id: Type.Integer(),
      nights_start: Type.Integer(),
      nights_end: Type.Integer(),
      price_difference: Type.Number({ description: 'total upgrade price per room, not per person' }),
      hotel_name: Type.String(),
      location: Nullable(Type.String()),
    }),
  ),
  activity_selections: Type.Array(
    Type.Object({
      activity_id: Type.Integer(),
      day_number: Type.Integer(),
      price: Type.Number({ description: 'per person' }),
      activity_name: Type.String(),
      location: Nullable(Type.String()),
    }),
  ),
  transfer_selections: Type.Array(
    Type.Object({
      transfer_id: Type.Integer(),
      day_number: Type.Integer(),
      price: Type.Number({ description: 'per trip, flat' }),
      transfer_name: Type.String(),
      location: Nullable(Type.String()),
    }),
  ),
  client_data: Nullable(Type.Object(ContactFields)),
  traveler_data: Nullable(Type.Array(Type.Object(TravelerFields))),
  base_price: Type.Number(),
  extras_price: Type.Number(),
  total_price: Type.Number(),
  currency: Currency,
  pax_count: Type.Integer(),
  actual_pax_count: Type.Integer(),
  actual_room_type: Type.String(),
  is_non_standard_pax: Type.Boolean(),
};

export const Session = component(
  'CheckoutSession',
  Type.Object(SessionFields),
  'The checkout session: the booking, the selections and the prices so far.',
);

/** the start's answer: the session and the token that names it (X-Checkout-Session) */
const StartedSession = component(
  'CheckoutStart',
  Type.Object({
    ...SessionFields,
    session_token: Type.String({
      description:
        'the session: send it in the X-Checkout-Session header of every later checkout call when the ' +
        'storefront is on another site than the API (same-site storefronts can rely on the cookie)',
    }),
  }),
  'A new checkout session and its token.',
);
const SessionRef = ref(Session);

const summaryFields = {
  offer_id: Type.Integer(),
  offer_sku: Type.String(),
  tour_name: Nullable(Type.String()),
  final_price: ref(Money),
  departure_date: Type.String(),
  return_date: Nullable(Type.String()),
  pax_count: Type.Integer(),
  currency: Currency,
};

const OfferSummary = component(
  'OfferSummary',
  Type.Object({
    ...summaryFields,
    product_url: Nullable(Type.String()),
    price_per_person: Type.Number(),
  }),
  'The offer a checkout step is about: tour, dates, passengers and price.',
);

const HotelOptions = component(
  'HotelOptions',
  Type.Object({
    ...summaryFields,
    hotels: Type.Array(
      Type.Object({
        id: Type.String(),
        hotelId: Nullable(Type.Integer()),
        name: Type.String(),
        location: Nullable(Type.String()),
        tier: Type.String(),
        tier_label: Type.String(),
        nights: Type.Object({ start: Type.Integer(), end: Type.Integer() }),
        imageUrl: Nullable(Type.String()),
        description: Nullable(Type.String()),
        isIncluded: Type.Boolean(),
        priceDifference: Nullable(Type.Number()),
        selectionHotelName: Nullable(Type.String()),
      }),
    ),
  }),
  'Hotel options of an offer: the selection stays and their luxury and grand luxury upgrades.',
);

const ActivityOptions = component(
  'ActivityOptions',
  Type.Object({
    ...summaryFields,
    price_per_person: Type.Number(),
    days: Type.Array(
      Type.Object({
        day_number: Type.Integer(),
        destination: Nullable(Type.String()),
        included_activities: Type.Array(Type.Object({ name: Type.String() })),
        available_activities: Type.Array(
          Type.Object({
            id: Type.Integer(),
            name: Type.String(),
            description: Nullable(Type.String()),
            image_url: Nullable(Type.String()),
            price: Nullable(Type.Number({ description: 'per person' })),
          }),
        ),
      }),
    ),
  }),
  'Optional activities of an offer per day, with per-person prices.',
);

const TransferOptions = component(
  'TransferOptions',
  Type.Object({
    ...summaryFields,
    product_url: Nullable(Type.String()),
    price_per_person: Type.Number(),
    days: Type.Array(
      Type.Object({
        day_number: Type.Integer(),
        destination: Nullable(Type.String()),
        included_transfers: Type.Array(Type.Object({ name: Type.String() })),
        available_transfers: Type.Array(
          Type.Object({
            id: Type.Integer(),
            name: Type.String(),
            description: Nullable(Type.String()),
            image_url: Nullable(Type.String()),
            vehicle_type: Nullable(Type.String()),
            duration_minutes: Nullable(Type.Integer()),
            price: Nullable(Type.Number({ description: 'per trip' })),
          }),
        ),
      }),
    ),
  }),
  'Transfer upgrades of an offer per day, with flat per-trip prices.',
);

const OfferParams = Type.Object({ ...MarketPath, offerId: Type.String({ description: 'offer id' }) });
const Advance = Type.Optional(
  Type.Boolean({ default: true, description: 'false on backward navigation: the funnel is not advanced' }),
);
const Id = Type.Integer({ minimum: 1 });
const MAX_SELECTIONS = 100;

const StartBody = component(
  'CheckoutStartInput',
  Type.Union([
    Type.Object({
      actual_pax_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
      actual_room_type: Type.Optional(Type.String({ minLength: 1, maxLength: 10 })),
    }),
    Type.Null(),
  ]),
  "Optional party size and room type of a new checkout (defaults: the offer's).",
);

const HotelsBody = component(
  'HotelSelectionInput',
  Type.Object({
    advance: Advance,
    hotel_selections: Type.Array(Type.Object({ upgrade_hotel_id: Id, nights_start: Id, nights_end: Id }), {
      maxItems: MAX_SELECTIONS,
    }),
  }),
  'The hotel upgrades chosen (replaces the previous selection).',
);

const ActivitiesBody = component(
  'ActivitySelectionInput',
  Type.Object({
    advance: Advance,
    activity_selections: Type.Array(Type.Object({ activity_id: Id, day_number: Id }), {
      maxItems: MAX_SELECTIONS,
    }),
  }),
  'The activities chosen per day (replaces the previous selection).',
);

const TransfersBody = component(
  'TransferSelectionInput',
  Type.Object({
    advance: Advance,
    transfer_selections: Type.Array(Type.Object({ transfer_id: Id, day_number: Id }), {
      maxItems: MAX_SELECTIONS,
    }),
  }),
  'The transfer upgrades chosen per day (replaces the previous selection).',
);

const ContactBody = component(
  'ContactStepInput',
  Type.Object({ advance: Advance, client: ref(ContactInput) }),
  'The booking contact step.',
);

const TravelersBody = component(
  'TravelersStepInput',
  Type.Object({ advance: Advance, travelers: Type.Array(ref(TravelerInput), { maxItems: 10 }) }),
  'The travelers step: one traveler per passenger.',
);

type Scoped = FastifyRequest & { scope: NonNullable<FastifyRequest['scope']> };

/** The path's offer id; anything but a positive integer names no offer (404 with the id as sent). */
export function offerIdOf(request: FastifyRequest): number {
  const raw = (request.params as { offerId: string }).offerId;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new AppError(404, 'offer_not_found', `Offer ${raw.slice(0, 40)} not found.`);
  }
  return Number(raw);
}

export async function checkoutRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = checkoutServiceOf(ctx);
  app.addHook('onClose', () => closeCheckoutService(ctx));

  await app.register(async (plugin) => {
    const token = sessionTokenOf;

    await marketScoped(plugin, ctx, (r) => {
      const base = '/api/:market/:lang/checkout';
      const tags = ['checkout'];

      r.post(
        `${base}/:offerId`,
        {
          // every start writes a booking: limited per client IP and per visitor (its cookie)
          onRequest: [
            rateLimit({
              name: 'checkout-start',
              max: ctx.config.writeLimits.checkoutStartsPerIp,
              windowSeconds: 60,
            }),
            rateLimit({
              name: 'checkout-start-visitor',
              max: ctx.config.writeLimits.checkoutStartsPerVisitor,
              windowSeconds: 60,
              key: (request) => signedCookie(request, VISITOR_COOKIE),
            }),
          ],
          schema: {
            tags,
            summary: 'Start a checkout (fresh session, booking with status checkout)',
            // the document does not depend on the deployment's settings (the committed client's drift test)
            description:
              'Limited per minute per IP (RATE_LIMIT_CHECKOUT_STARTS_PER_IP, 20 by default) and per visitor ' +
              '(RATE_LIMIT_CHECKOUT_STARTS_PER_VISITOR, 6 by default); over it: 429 with Retry-After. ' +
              'Sets the session cookies and answers data.session_token (also in the X-Checkout-Session ' +
              'response header): a storefront on another site sends it back in the X-Checkout-Session ' +
              'request header on every checkout, flights and payment call instead of relying on the cookie.',
            params: OfferParams,
            body: ref(StartBody),
            response: {
              201: ok(ref(StartedSession)),
              404: ErrorBody,
              410: ErrorBody,
              422: ErrorBody,
              400: ErrorBody,
              429: TooManyRequestsBody,
            },
          },
        },
        async (request, reply) => {
          const visitor = signedCookie(request, VISITOR_COOKIE);
          const result = await service.start(
            (request as Scoped).scope,
            offerIdOf(request),
            (request.body ?? {}) as { actual_pax_count?: number; actual_room_type?: string },
            visitor && /^[\w-]{16,64}$/.test(visitor) ? visitor : undefined,
          );
          sendSessionCookies(reply, ctx.config, result);
          return reply.status(201).send({ success: true, data: { ...result.view, session_token: result.token } });
        },
      );

      r.get(
        base,
        {
          schema: {
            tags,
            summary: 'The checkout session (base and total refreshed when the offer price changed)',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            response: { 200: ok(SessionRef), 404: ErrorBody },
          },
        },
        async (request) => ({ success: true, data: await service.session((request as Scoped).scope, token(request)) }),
      );

      r.get(
        `${base}/:offerId/hotels`,
        {
          schema: {
            tags,
            summary: 'Hotel options: selection stays and luxury / grand luxury upgrades',
            params: OfferParams,
            querystring: Type.Object({
              room_type: Type.Optional(Type.Enum([...PRICING_ROOM_TYPES], { description: 'room type for pricing' })),
            }),
            response: { 200: ok(ref(HotelOptions)), 404: ErrorBody, 400: ErrorBody },
          },
        },
        async (request) => ({
          success: true,
          data: await service.hotelOptions(
            (request as Scoped).scope,
            offerIdOf(request),
            (request.query as { room_type?: string }).room_type,
            token(request),
          ),
        }),
      );

      r.put(
        `${base}/hotels`,
        {
          schema: {
            tags,
            summary: 'Hotel upgrade selection (replaces the previous one)',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            body: ref(HotelsBody),
            response: { 200: ok(SessionRef), 400: ErrorBody, 404: ErrorBody, 422: ErrorBody },
          },
        },
        async (request) => {
          const body = request.body as {
            advance?: boolean;
            hotel_selections: { upgrade_hotel_id: number; nights_start: number; nights_end: number }[];
          };
          return {
            success: true,
            data: await service.selectHotels((request as Scoped).scope, token(request), {
              advance: body.advance,
              items: body.hotel_selections,
            }),
          };
        },
      );

      r.get(
        `${base}/:offerId/activities`,
        {
          schema: {
            tags,
            summary: 'Optional activities per day, per-person prices',
            params: OfferParams,
            response: { 200: ok(ref(ActivityOptions)), 404: ErrorBody },
          },
        },
        async (request) => ({
          success: true,
          data: await service.activityOptions((request as Scoped).scope, offerIdOf(request)),
        }),
      );

      r.put(
        `${base}/activities`,
        {
          schema: {
            tags,
            summary: 'Activity selection (replaces the previous one)',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            body: ref(ActivitiesBody),
            response: { 200: ok(SessionRef), 400: ErrorBody, 404: ErrorBody, 422: ErrorBody },
          },
        },
        async (request) => {
          const body = request.body as {
            advance?: boolean;
            activity_selections: { activity_id: number; day_number: number }[];
          };
          return {
            success: true,
            data: await service.selectActivities((request as Scoped).scope, token(request), {
              advance: body.advance,
              items: body.activity_selections,
            }),
          };
        },
      );

      r.get(
        `${base}/:offerId/transfers`,
        {
          schema: {
            tags,
            summary: 'Transfer upgrades of the days that have them, flat per-trip prices',
            params: OfferParams,
            response: { 200: ok(ref(TransferOptions)), 404: ErrorBody },
          },
        },
        async (request) => ({
          success: true,
          data: await service.transferOptions((request as Scoped).scope, offerIdOf(request)),
        }),
      );

      r.put(
        `${base}/transfers`,
        {
          schema: {
            tags,
            summary: 'Transfer selection (replaces the previous one)',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            body: ref(TransfersBody),
            response: { 200: ok(SessionRef), 400: ErrorBody, 404: ErrorBody, 422: ErrorBody },
          },
        },
        async (request) => {
          const body = request.body as {
            advance?: boolean;
            transfer_selections: { transfer_id: number; day_number: number }[];
          };
          return {
            success: true,
            data: await service.selectTransfers((request as Scoped).scope, token(request), {
              advance: body.advance,
              items: body.transfer_selections,
            }),
          };
        },
      );

      for (const page of ['contact', 'travelers'] as const) {
        r.get(
          `${base}/:offerId/${page}`,
          {
            schema: {
              tags,
              summary: `Offer summary for the ${page === 'contact' ? 'contact' : 'travelers'} step`,
              params: OfferParams,
              response: { 200: ok(ref(OfferSummary)), 404: ErrorBody },
            },
          },
          async (request) => ({
            success: true,
            data: await service.summary((request as Scoped).scope, offerIdOf(request)),
          }),
        );
      }

      r.put(
        `${base}/contact`,
        {
          schema: {
            tags,
            summary: 'Booking contact (client data); does not affect pricing',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            body: ref(ContactBody),
            response: { 200: ok(SessionRef), 400: ErrorBody },
          },
        },
        async (request) => {
          const body = request.body as { advance?: boolean; client: Record<string, unknown> };
          return {
            success: true,
            data: await service.saveContact((request as Scoped).scope, token(request), body.client, body.advance),
          };
        },
      );

      r.put(
        `${base}/travelers`,
        {
          schema: {
            tags,
            summary: 'Traveler data, one per passenger; does not affect pricing',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            body: ref(TravelersBody),
            response: { 200: ok(SessionRef), 400: ErrorBody },
          },
        },
        async (request) => {
          const body = request.body as { advance?: boolean; travelers: unknown[] };
          return {
            success: true,
            data: await service.saveTravelers((request as Scoped).scope, token(request), body.travelers, body.advance),
          };
        },
      );
    });
  });

  // Internal: the frontend server reports the funnel step it renders.
  app.patch(
    '/api/internal/bookings/:id/checkout-step',
    {
      schema: {
        tags: ['ops'],
        summary: 'Record the checkout step a booking is viewing (bearer token with internal:read)',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ id: Type.String() }),
        body: Type.Object({ step: Type.Enum([...FUNNEL_STEPS]) }),
        response: {
          200: Type.Object({ success: Type.Literal(true) }),
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          422: ErrorBody,
        },
      },
      config: { validationStatus: 422 },
      // authentication before validation: no token, no hints about the body
      onRequest: async (request) => {
        const header = request.headers.authorization;
        const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
        const abilities = m ? await service.tokenAbilities(m[1]) : null;
        if (!abilities) throw new AppError(401, 'unauthenticated', 'A valid bearer token is required.');
        if (!abilities.includes(INTERNAL_ABILITY) && !abilities.includes('*')) {
          throw new AppError(403, 'forbidden', `The token lacks the ${INTERNAL_ABILITY} ability.`);
        }
      },
    },
    async (request) => {
      const raw = (request.params as { id: string }).id;
      if (!/^\d{1,9}$/.test(raw))
        throw new AppError(404, 'booking_not_found', `Booking ${raw.slice(0, 40)} not found.`);
      await service.recordStep(Number(raw), (request.body as { step: FunnelStep }).step);
      return { success: true as const };
    },
  );
}
