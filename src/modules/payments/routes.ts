// HTTP of the checkout payment under /api/{market}/{lang}/checkout: the deposit payment intent,
// the confirmation that finalizes the booking, and the confirmation page data.
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { Currency as CurrencyComponent, ref, SESSION_REQUIRED } from '../../platform/openapi.js';
import { CheckoutSessions } from '../flights/checkout-session.js';
import { ErrorBody, MarketPath, ok } from '../flights/routes.js';
import { marketScoped } from '../markets/routes.js';
import { PaymentService } from './service.js';

type Scoped = FastifyRequest & { scope: NonNullable<FastifyRequest['scope']> };
const Currency = ref(CurrencyComponent);

const Intent = Type.Object({
  payment_intent_id: Type.String(),
  client_secret: Type.Union([Type.String(), Type.Null()], { description: 'for Stripe.js confirmCardPayment' }),
  amount: Type.Number({ description: 'deposit to pay now' }),
  deposit_percent: Type.Integer(),
  total_price: Type.Number(),
  remaining_price: Type.Number(),
  currency: Currency,
  booking_reference: Type.String(),
  payment_gateway: Type.String({ description: 'stripe, or sandbox in the demo' }),
});

const Confirmed = Type.Object({
  booking_reference: Type.String(),
  status: Type.String({ description: 'pending_flight_booking or pending_land_confirmation' }),
  payment_status: Type.Literal('Succeeded'),
  amount_paid: Type.Number(),
  currency: Currency,
  confirmation_url: Type.String(),
});

const Confirmation = Type.Object({
  booking_reference: Type.String(),
  tour_name: Type.Union([Type.String(), Type.Null()]),
  duration_days: Type.Union([Type.Integer(), Type.Null()]),
  duration_nights: Type.Union([Type.Integer(), Type.Null()]),
  travelers: Type.Integer(),
  hero_image: Type.Union([Type.String(), Type.Null()]),
  trip_url: Type.Union([Type.String(), Type.Null()]),
});

export async function paymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sessions = CheckoutSessions.of(ctx);
  const service = new PaymentService(ctx, sessions);

  await app.register(async (plugin) => {
    await plugin.register(cookie, { secret: ctx.config.appKey });
    await marketScoped(plugin, ctx, (r) => {
      const base = '/api/:market/:lang/checkout';
      const tags = ['checkout'];

      r.post(
        `${base}/payment/intent`,
        {
          schema: {
            tags,
            summary: 'Payment intent for the deposit of the session total (extras included)',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            response: { 200: ok(Intent), 400: ErrorBody, 502: ErrorBody, 503: ErrorBody },
          },
        },
        async (request) => {
          const session = await sessions.require((request as Scoped).scope, request);
          return { success: true, data: await service.createIntent(session) };
        },
      );

      r.post(
        `${base}/payment/confirm`,
        {
          schema: {
            tags,
            summary: 'Confirm the payment (status Succeeded) and finalize the booking; clears the session',
            security: SESSION_REQUIRED,
            params: Type.Object(MarketPath),
            body: Type.Object({ payment_intent_id: Type.String({ minLength: 1, maxLength: 255 }) }),
            response: { 200: ok(Confirmed), 400: ErrorBody, 402: ErrorBody, 422: ErrorBody, 502: ErrorBody },
          },
        },
        async (request) => {
          const scope = (request as Scoped).scope;
          const session = await sessions.require(scope, request);
          const { payment_intent_id } = request.body as { payment_intent_id: string };
          return { success: true, data: await service.confirm(scope, session, payment_intent_id) };
        },
      );

      r.get(
        `${base}/confirmation/:reference`,
        {
          schema: {
            tags,
            summary: 'Confirmation data of a paid booking',
            params: Type.Object({ ...MarketPath, reference: Type.String() }),
            response: { 200: ok(Confirmation), 404: ErrorBody },
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
