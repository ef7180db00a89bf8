// HTTP of the checkout payment under /api/{market}/{lang}/checkout: the deposit payment intent,
// the confirmation that finalizes the booking, the confirmation page data; and Stripe's webhook.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ErrorBody, MarketPath, ok } from '../../platform/http-shapes.js';
import { Currency as CurrencyComponent, component, ref, SESSION_REQUIRED } from '../../platform/openapi.js';
import { rateLimit, TooManyRequestsBody } from '../../platform/rate-limit.js';
import { CheckoutSessions, type FlightSession } from '../flights/checkout-session.js';
import { marketScoped } from '../markets/routes.js';
import { verifiedEvent } from './gateway.js';
import { DEFAULT_TEST_METHOD, PaymentService } from './service.js';
import { type PaymentSettlement, paymentSettlementOf } from './settlement.js';

type Scoped = FastifyRequest & { scope: NonNullable<FastifyRequest['scope']> };
type WithSession = FastifyRequest & { checkoutSession?: FlightSession | null };
const Currency = ref(CurrencyComponent);

const Intent = component(
  'PaymentIntent',
  Type.Object({
    payment_intent_id: Type.String(),
    client_secret: Type.Union([Type.String(), Type.Null()], { description: 'for Stripe.js confirmCardPayment' }),
    amount: Type.Number({ description: 'deposit to pay now' }),
    deposit_percent: Type.Integer(),
    total_price: Type.Number(),
    remaining_price: Type.Number(),
    currency: Currency,
    booking_reference: Type.String(),
    payment_gateway: Type.String({ description: 'stripe, or sandbox in the demo' }),
  }),
  'The deposit payment intent of the checkout: amount, client secret and the frozen quote.',
);

const Confirmed = component(
  'PaymentConfirmation',
  Type.Object({
    booking_reference: Type.String(),
    status: Type.String({ description: 'pending_flight_booking or pending_land_confirmation' }),
    payment_status: Type.Literal('Succeeded'),
    amount_paid: Type.Number(),
    currency: Currency,
    confirmation_url: Type.String(),
    manage_url: Type.Union([Type.String(), Type.Null()], {
      description: 'the signed "manage my booking" URL (GET it for the booking), valid until the return date',
    }),
  }),
  'A confirmed deposit payment and the booking it paid.',
);

const PaymentError = Type.Object({
  success: Type.Literal(false),
  error: Type.String({ description: 'payment_not_succeeded or payment_requires_action' }),
  message: Type.String(),
  client_secret: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: 'payment_requires_action: finish with Stripe.js handleNextAction, then confirm again',
    }),
  ),
  payment_intent_id: Type.Optional(Type.String()),
});

const Confirmation = component(
  'BookingConfirmation',
  Type.Object({
    booking_reference: Type.String(),
    tour_name: Type.Union([Type.String(), Type.Null()]),
    duration_days: Type.Union([Type.Integer(), Type.Null()]),
    duration_nights: Type.Union([Type.Integer(), Type.Null()]),
    travelers: Type.Integer(),
    hero_image: Type.Union([Type.String(), Type.Null()]),
    trip_url: Type.Union([Type.String(), Type.Null()]),
    status: Type.String({
      description:
        "the booking status, e.g. pending_flight_booking, flights_confirmed, fully_paid; 'cancelled' once cancelled",
    }),
    amount_paid: Type.Union([Type.Number(), Type.Null()], { description: 'deposit and balance payments so far' }),
    balance_due: Type.Union([Type.Number(), Type.Null()], { description: 'what remains to pay (0 when fully paid)' }),
    refunded: Type.Number({ description: 'refunded to the card so far (pending and succeeded refunds)' }),
  }),
  'The confirmation page of a paid booking: what spec 2 lists, plus its status and amounts.',
);

const ConfirmPaymentBody = component(
  'ConfirmPaymentInput',
  Type.Object({
    payment_intent_id: Type.String({ minLength: 1, maxLength: 255 }),
    payment_method: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description: `payment method id, e.g. Stripe test methods pm_card_visa (sandbox default), pm_card_chargeDeclined, pm_card_authenticationRequired`,
      }),
    ),
  }),
  'The payment intent to confirm and, optionally, the payment method.',
);

export async function paymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sessions = CheckoutSessions.of(ctx);
  const service = new PaymentService(ctx, sessions);
  await webhookRoute(app, ctx, paymentSettlementOf(ctx));

  await app.register(async (plugin) => {
    await marketScoped(plugin, ctx, (r) => {
      const base = '/api/:market/:lang/checkout';
      const tags = ['checkout'];

      r.post(
        `${base}/payment/intent`,
        {
          schema: {
            tags,
            summary:
              'Payment intent for the deposit of the session total: freezes the quote and holds the seats (same selections: same intent)',
            description:
              'Checks the offer is still bookable (404 offer_not_found, 410 offer_expired) and has seats for ' +
              'actual_pax_count (409 offer_sold_out); on an offer with flights a flight selection is required ' +
              '(400 flight_selection_required). The seats are held for CHECKOUT_HOLD_MINUTES.',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            response: {
              200: ok(ref(Intent)),
              400: ErrorBody,
              404: ErrorBody,
              409: ErrorBody,
              410: ErrorBody,
              502: ErrorBody,
              503: ErrorBody,
            },
          },
        },
        async (request) => {
          const scope = (request as Scoped).scope;
          const session = await sessions.find(scope, request);
          if (!session) {
            // a checkout whose booking was paid (any path ends its session): 409, not "no session"
            await service.refuseEndedCheckout(sessions.token(request));
            throw new AppError(400, 'no_checkout_session', 'No active checkout session.');
          }
          return { success: true, data: await service.createIntent(scope, session) };
        },
      );

      r.post(
        `${base}/payment/confirm`,
        {
          schema: {
            tags,
            summary: 'Confirm the payment (status Succeeded) and finalize the quote of the intent; clears the session',
            description:
              'Finalizes exactly the quote frozen by the intent (409 quote_changed when the selections changed ' +
              'since). Idempotent: an intent already finalized (by confirm, webhook or reconciliation) answers ' +
              'the same body, also after the session was cleared. With the sandbox gateway, payment_method takes ' +
              `Stripe's test methods (default ${DEFAULT_TEST_METHOD}; pm_card_chargeDeclined: 402 ` +
              'payment_not_succeeded, retry allowed; pm_card_authenticationRequired: 402 payment_requires_action ' +
              'with client_secret). With Stripe, the browser confirms with Stripe.js first; payment_method is ' +
              'optional and confirms server-side.',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            body: ref(ConfirmPaymentBody),
            response: {
              200: ok(ref(Confirmed)),
              400: ErrorBody,
              402: PaymentError,
              409: ErrorBody,
              422: ErrorBody,
              502: ErrorBody,
            },
          },
          // no session, no hints about the body: checked before validation (an intent already
          // finalized for this session token is still answered in the handler)
          preValidation: async (request) => {
            // the market is resolved here already (its errors come first; preHandler sets scope later)
            const params = request.params as { market: string; lang: string };
            const scope = await ctx.markets.scope(params.market, params.lang);
            const session = await sessions.find(scope, request);
            (request as WithSession).checkoutSession = session;
            const body = request.body as { payment_intent_id?: unknown } | undefined;
            if (!session && (!sessions.token(request) || typeof body?.payment_intent_id !== 'string')) {
              throw new AppError(400, 'no_checkout_session', 'No active checkout session.');
            }
          },
        },
        async (request) => {
          const { payment_intent_id, payment_method } = request.body as {
            payment_intent_id: string;
            payment_method?: string;
          };
          return {
            success: true,
            data: await service.confirm(
              (request as WithSession).checkoutSession ?? null,
              sessions.token(request),
              payment_intent_id,
              payment_method,
            ),
          };
        },
      );

      r.get(
        `${base}/confirmation/:reference`,
        {
          // anyone holding a reference sees its booking: guessing is limited per client IP
          onRequest: rateLimit({
            name: 'confirmation',
            max: ctx.config.writeLimits.confirmationLookupsPerMinute,
            windowSeconds: 60,
          }),
          schema: {
            tags,
            summary: 'Confirmation data of a paid booking',
            description:
              'What the confirmation page shows, nothing more (the reference is the only key). Limited per client ' +
              'IP (RATE_LIMIT_CONFIRMATION_LOOKUPS a minute; 429 too_many_requests with Retry-After).',
            params: Type.Object({ ...MarketPath, reference: Type.String() }),
            response: { 200: ok(ref(Confirmation)), 404: ErrorBody, 429: TooManyRequestsBody },
          },
        },
        async (request) => ({
          success: true,
          data: await service.confirmation(
            (request as Scoped).scope,
            (request.params as { reference: string }).reference,
          ),
        }),
      );
    });
  });
}

/**
 * POST /api/webhooks/stripe: the raw body is verified against Stripe-Signature with the endpoint
 * secret through the official SDK before anything is read from it.
 */
async function webhookRoute(app: FastifyInstance, ctx: AppContext, settlement: PaymentSettlement): Promise<void> {
  await app.register(async (plugin) => {
    // this route alone keeps the body as bytes: the signature covers them exactly
    plugin.removeContentTypeParser('application/json');
    plugin.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    plugin.post(
      '/api/webhooks/stripe',
      {
        schema: {
          tags: ['checkout'],
          summary: "Stripe's webhook: payment_intent.succeeded / payment_failed / processing",
          description:
            'Verified with STRIPE_WEBHOOK_SECRET (400 invalid_signature otherwise). payment_intent.succeeded ' +
            "finalizes the intent's stored quote (the same finalization as confirm); payment_failed and " +
            "processing are recorded on the booking's payment. Each event id is processed once; unknown " +
            'events and intents are acknowledged (200).',
          response: {
            200: Type.Object({ received: Type.Literal(true), duplicate: Type.Boolean(), handled: Type.Boolean() }),
            400: ErrorBody,
            503: ErrorBody,
          },
        },
      },
      async (request) => {
        const secret = ctx.config.stripe.webhookSecret;
        if (!secret) throw new AppError(503, 'webhook_not_configured', 'STRIPE_WEBHOOK_SECRET is not set.');
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['stripe-signature'];
        const event = verifiedEvent(raw, typeof header === 'string' ? header : undefined, secret);
        if (!event) throw new AppError(400, 'invalid_signature', 'The Stripe-Signature header does not verify.');
        const result = await settlement.handleEvent(event);
        return { received: true as const, ...result };
      },
    );
  });
}
