// HTTP of the checkout's flight steps under /api/{market}/{lang}/checkout: live economy
// re-pricing, live business search, cached flight options and the flight selection; plus the
// admin "Book All Flights / Retry" endpoint (src/modules/bookings/routes.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { ErrorBody, MarketPath, ok } from '../../platform/http-shapes.js';
import { component, ref, SESSION_REQUIRED } from '../../platform/openapi.js';
import { rateLimit } from '../../platform/rate-limit.js';
import { bookingAdminRoutes } from '../bookings/routes.js';
import { offerIdOf, Session } from '../checkout/routes.js';
import { marketScoped } from '../markets/routes.js';
import { CheckoutSessions } from './checkout-session.js';
import { FlightCheckoutService, type FlightSelectionInput } from './service.js';

type Scoped = FastifyRequest & { scope: NonNullable<FastifyRequest['scope']> };

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const OfferParams = Type.Object({ ...MarketPath, offerId: Type.String({ description: 'offer id' }) });

const Airline = Type.Union([Type.String(), Type.Object({ code: Type.String(), name: Type.String() })]);
const Airport = Type.String({ minLength: 3, maxLength: 3, pattern: '^[A-Za-z]{3}$' });

const FlightCard = component(
  'FlightCard',
  Type.Object(
    {
      id: Type.String(),
      fareId: Type.String({ description: 'pairs outbound and inbound cards of one fare' }),
      departureTime: Type.String(),
      arrivalTime: Type.String(),
      duration: Type.Integer({ description: 'minutes' }),
      stops: Type.Integer(),
      departure_date: Type.String(),
      departure_airport: Type.String(),
      arrival_airport: Type.String(),
      flight_numbers: Type.Array(Type.String()),
      airlines: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })),
      stopover_airports: Type.Array(Type.String()),
      arrivalDayOffset: Type.Integer(),
      baggage_included: Type.Boolean(),
      price: Type.Optional(Type.Number({ description: 'economy: fare total for all passengers' })),
      finalPrice: Type.Optional(Type.Number({ description: 'business: tour price with this fare' })),
      extraPrice: Type.Optional(
        Type.Number({
          description:
            'business: final price minus the economy price; economy: what choosing this fare adds (0: the priced fare or cheaper)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  'One flight card (an outbound or inbound option) of a search or of the cache.',
);
const FlightOption = ref(FlightCard);

const EconomySearch = component(
  'EconomyFlightSearch',
  Type.Object({
    has_flights: Type.Boolean(),
    price_changed: Type.Boolean(),
    fallback: Type.Optional(Type.Literal(true)),
    original_price: Type.Optional(Type.Number()),
    new_price: Type.Optional(Type.Number()),
  }),
  'Live economy re-pricing of the offer: whether flights were found and the price changed.',
);

const BusinessSearch = component(
  'BusinessFlightSearch',
  Type.Object({
    offer_id: Type.Integer(),
    tour_name: Nullable(Type.String()),
    outbound_options: Type.Array(FlightOption),
    inbound_options: Type.Array(FlightOption),
    cabinClass: Type.Literal('BUSINESS'),
    has_flights: Type.Boolean(),
    source_type: Type.Literal('live_search'),
    original_final_price: Type.Number(),
    pax_count: Type.Integer(),
    apihubflowid: Type.String({ description: 'provider flow id' }),
    fallback: Type.Optional(Type.Literal(true)),
  }),
  'Business fares of the offer, priced live.',
);

const CachedFlights = component(
  'CachedFlights',
  Type.Object({
    offer_id: Type.Integer(),
    tour_name: Nullable(Type.String()),
    final_price: Type.Number(),
    cabinClass: Type.Literal('ECONOMY'),
    source_type: Type.Literal('cache'),
    has_flights: Type.Boolean(),
    outbound_options: Type.Array(FlightOption),
    inbound_options: Type.Array(FlightOption),
  }),
  'The flight cards cached with the offer.',
);

const Segment = Type.Object({
  departure_date: Type.Optional(Type.String({ format: 'date' })),
  departure_time: Type.Optional(Type.String()),
  arrival_time: Type.Optional(Type.String()),
  departure_airport: Type.Optional(Airport),
  arrival_airport: Type.Optional(Airport),
  flight_numbers: Type.Optional(Type.Array(Type.String())),
  airlines: Type.Optional(Type.Array(Airline)),
  stops: Type.Optional(Type.Integer({ minimum: 0 })),
  stopover_airports: Type.Optional(Type.Array(Type.String())),
  arrivalDayOffset: Type.Optional(Type.Integer()),
});

const FlightSelectionBody = component(
  'FlightSelectionInput',
  Type.Object({
    cabin_class: Type.Enum(['ECONOMY', 'BUSINESS']),
    outbound: Type.Optional(Nullable(Segment)),
    inbound: Type.Optional(Nullable(Segment)),
    business_extra_price_per_person: Type.Optional(
      Nullable(Type.Number({ description: 'ignored: the server uses its own price for fare_id' })),
    ),
    fare_id: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 4000,
          description:
            'the chosen card: BUSINESS a card of the business search; ECONOMY a card of the live economy search or ' +
            'of GET /{offerId}/flights (re-checked live for the party; expired: 422 fare_not_found), ' +
            '"cache" for the cached route card, or absent for the fare the price was built on',
        }),
      ),
    ),
    advance: Type.Optional(Type.Boolean({ default: true })),
  }),
  'The flight selection: cabin class and, for BUSINESS, the chosen fare.',
);

export async function flightsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sessions = CheckoutSessions.of(ctx);
  const service = new FlightCheckoutService(ctx, sessions);

  await app.register(async (plugin) => {
    await marketScoped(plugin, ctx, (r) => {
      const base = '/api/:market/:lang/checkout';
      const tags = ['checkout'];

      r.post(
        `${base}/:offerId/search-economy-flights`,
        {
          schema: {
            tags,
            summary: 'Live economy re-pricing of the offer (falls back to the cache on provider errors)',
            params: OfferParams,
            response: { 200: ok(ref(EconomySearch)), 404: ErrorBody, 429: ErrorBody },
          },
          onRequest: rateLimit({ name: 'checkout-economy-search', max: 5, windowSeconds: 60 }),
        },
        async (request) => {
          const scope = (request as Scoped).scope;
          const session = await sessions.find(scope, request);
          return { success: true, data: await service.searchEconomy(scope, offerIdOf(request), session) };
        },
      );

      r.post(
        `${base}/:offerId/business-flights`,
        {
          schema: {
            tags,
            summary: 'Live business class search for the session passengers',
            security: SESSION_REQUIRED,
            params: OfferParams,
            response: { 200: ok(ref(BusinessSearch)), 400: ErrorBody, 404: ErrorBody, 429: ErrorBody },
          },
          onRequest: rateLimit({ name: 'checkout-business-search', max: 10, windowSeconds: 60 }),
        },
        async (request) => {
          const scope = (request as Scoped).scope;
          const session = await sessions.require(scope, request);
          return { success: true, data: await service.searchBusiness(scope, offerIdOf(request), session) };
        },
      );

      r.get(
        `${base}/:offerId/flights`,
        {
          schema: {
            tags,
            summary: 'Flight cards to choose: the offer cache (a non-standard party: its own live search)',
            description:
              'Every card listed can be chosen with PUT /flights by its fareId. With a session of a party other ' +
              "than the offer's 2 adults whose economy search ran, the cards are that search's, priced for the party.",
            params: OfferParams,
            response: { 200: ok(ref(CachedFlights)), 404: ErrorBody },
          },
        },
        async (request) => {
          const scope = (request as Scoped).scope;
          const session = await sessions.find(scope, request);
          return { success: true, data: await service.cachedOptions(scope, offerIdOf(request), session) };
        },
      );

      r.put(
        `${base}/flights`,
        {
          schema: {
            tags,
            summary:
              'Flight selection: the chosen card by fare_id (BUSINESS needs it; ECONOMY: live card, "cache", or the priced fare)',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            body: ref(FlightSelectionBody),
            response: { 200: ok(ref(Session)), 400: ErrorBody, 422: ErrorBody, 502: ErrorBody },
          },
        },
        async (request) => {
          const scope = (request as Scoped).scope;
          const session = await sessions.require(scope, request);
          return {
            success: true,
            data: await service.selectFlights(scope, session, request.body as FlightSelectionInput),
          };
        },
      );
    });
  });

  await bookingAdminRoutes(app, ctx, sessions);
}
