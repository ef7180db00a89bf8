// Admin endpoints of the booking after the sale: the cancellation quote, the cancellation and
// refunds without one. Bearer token with admin:bookings (the guard of the booking admin routes).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ref, ErrorBody as SharedErrorBody } from '../../platform/openapi.js';
import { refundBooking } from '../payments/refunds.js';
import { paymentSettlementOf } from '../payments/settlement.js';
import { cancelBooking, cancellationQuote } from './cancellation.js';
import type { CancelledBy } from './cancellation-rules.js';

const ErrorBody = ref(SharedErrorBody);

function bookingIdOf(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new AppError(404, 'booking_not_found', `Booking ${raw.slice(0, 40)} not found.`);
  }
  return Number(raw);
}

/** "12.50" / 12.5 -> 1250; more than two decimals or not positive: 422 refund_amount_invalid */
function amountCents(value: number): number {
  const cents = Math.round(value * 100);
  if (!(value > 0) || Math.abs(cents - value * 100) > 1e-6) {
    throw new AppError(422, 'refund_amount_invalid', 'The amount must be positive with at most two decimals.');
  }
  return cents;
}

const By = Type.Union([Type.Literal('traveller'), Type.Literal('organiser')], {
  description: 'traveller: the policy fee applies; organiser: no fee, everything paid is refunded',
});
const Step = Type.Union([
  Type.Object({ days_before_departure: Type.Integer(), fee_percent: Type.Number() }),
  Type.Null(),
]);
const Quote = Type.Object({
  fee: Type.Number(),
  refund: Type.Number(),
  currency: Type.String(),
  paid: Type.Number({ description: 'paid and not refunded so far' }),
  policy_step: Step,
  by: By,
  departure_date: Type.Union([Type.String(), Type.Null()]),
  days_before_departure: Type.Union([Type.Integer(), Type.Null()]),
});
const RefundAnswer = Type.Object({
  id: Type.Integer(),
  amount: Type.Number(),
  currency: Type.String(),
  status: Type.String({ description: 'pending, succeeded or failed (the gateway webhooks move pending ones)' }),
  refunds: Type.Array(
    Type.Object({ id: Type.Integer(), amount: Type.Number(), status: Type.String(), idempotency_key: Type.String() }),
  ),
});

export async function cancellationRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  adminOnly: (request: FastifyRequest) => Promise<void>,
): Promise<void> {
  const actorOf = (request: FastifyRequest) => ({ email: 'api token (admin:bookings)', ip: request.ip });
  const common = { tags: ['ops'], security: [{ bearerAuth: [] }], params: Type.Object({ id: Type.String() }) };

  app.get(
    '/api/internal/bookings/:id/cancellation',
    {
      schema: {
        ...common,
        summary:
          'Cancellation quote for today (market time zone): fee by the market product policy (default ' +
          'CANCELLATION_POLICY), refund = paid - fee (bearer token with admin:bookings)',
        querystring: Type.Object({ by: Type.Optional(By) }),
        response: {
          200: Type.Object({ success: Type.Literal(true), data: Quote }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
        },
      },
      onRequest: adminOnly,
    },
    async (request) => {
      const by = ((request.query as { by?: CancelledBy }).by ?? 'traveller') as CancelledBy;
      return { success: true, data: await cancellationQuote(ctx, bookingIdOf(request), by) };
    },
  );

  app.post(
    '/api/internal/bookings/:id/cancel',
    {
      schema: {
        ...common,
        summary:
          'Cancel a paid booking: status cancelled, seats back, balance stopped, flight orders cancelled at ' +
          'the provider (job), refund to the card, e-mail to the customer (409 booking_already_cancelled)',
        body: Type.Object({ by: By, reason: Type.String({ minLength: 1, maxLength: 500 }) }),
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Object({
              status: Type.Literal('cancelled'),
              fee: Type.Number(),
              refund: Type.Object({
                amount: Type.Number(),
                currency: Type.String(),
                status: Type.String({ description: 'none when nothing is refunded' }),
              }),
            }),
          }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          503: ErrorBody,
        },
      },
      onRequest: adminOnly,
    },
    async (request) => {
      const { by, reason } = request.body as { by: CancelledBy; reason: string };
      const data = await cancelBooking(ctx, paymentSettlementOf(ctx).gateway, {
        bookingId: bookingIdOf(request),
        by,
        reason,
        actor: actorOf(request),
      });
      return { success: true, data };
    },
  );

  app.post(
    '/api/internal/bookings/:id/refunds',
    {
      schema: {
        ...common,
        summary:
          'Refund without a cancellation (goodwill, a removed extra): drawn on the deposit first, then ' +
          'balance payments, keys refund-{bookingId}-{n} (422 refund_exceeds_paid)',
        body: Type.Object({
          amount: Type.Number({ exclusiveMinimum: 0 }),
          reason: Type.String({ minLength: 1, maxLength: 500 }),
        }),
        response: {
          201: Type.Object({ success: Type.Literal(true), data: RefundAnswer }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          422: ErrorBody,
          503: ErrorBody,
        },
      },
      onRequest: adminOnly,
    },
    async (request, reply) => {
      const { amount, reason } = request.body as { amount: number; reason: string };
      const data = await refundBooking(ctx, paymentSettlementOf(ctx).gateway, {
        bookingId: bookingIdOf(request),
        amountCents: amountCents(amount),
        reason,
        actor: actorOf(request),
      });
      return reply.status(201).send({ success: true, data });
    },
  );
}
