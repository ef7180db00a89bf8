// HTTP of "manage my booking": the signed manage URL of the confirm answer and the confirmation
// e-mail (`/api/{market}/{lang}/bookings/{reference}?expires&signature`) and the customer's actions
// under it. Every route is rate limited per IP (RATE_LIMIT_SIGNED_LINKS).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { ErrorBody, MarketPath, ok } from '../../platform/http-shapes.js';
import { rateLimit, TooManyRequestsBody } from '../../platform/rate-limit.js';
import { marketScoped } from '../markets/routes.js';
import { manageCancel, manageCancellationQuote, manageView, type TravelerChange, updateTravelers } from './manage.js';

type Scoped = FastifyRequest & { scope: NonNullable<FastifyRequest['scope']> };
const Signed = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 12 })),
  signature: Type.Optional(Type.String({ maxLength: 64 })),
});
const Params = Type.Object({ ...MarketPath, reference: Type.String({ maxLength: 40 }) });
const Nullable = <T extends ReturnType<typeof Type.String | typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);
const DateString = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });

const PolicyStep = Type.Union(
  [Type.Object({ days_before_departure: Type.Integer(), fee_percent: Type.Number() }), Type.Null()],
  { description: 'the step of the cancellation policy that applies today (null: after departure)' },
);

const ManagedBooking = Type.Object({
  booking_reference: Type.String(),
  status: Type.String(),
  tour_name: Nullable(Type.String()),
  departure_date: Nullable(Type.String()),
  return_date: Nullable(Type.String()),
  travelers: Type.Array(
    Type.Object({
      position: Type.Integer({ description: 'the traveler to name in PUT .../travelers (0: the lead)' }),
      first_name: Type.String(),
      last_name: Type.String(),
      nationality: Type.String(),
      passport_number: Type.String({ description: 'masked: only the last characters are shown' }),
      passport_expiry: Type.String(),
      birth_date: Type.String(),
      is_lead: Type.Boolean(),
    }),
  ),
  selections: Type.Array(
    Type.Object({
      type: Type.String({ description: 'hotel_upgrade, activity, transfer, flight_upgrade or flight_fare' }),
      name: Nullable(Type.String()),
      day_number: Nullable(Type.Integer()),
      nights_start: Nullable(Type.Integer()),
      nights_end: Nullable(Type.Integer()),
      quantity: Type.Integer(),
      total_price: Type.Number(),
    }),
  ),
  payments: Type.Object({
    total: Type.Number(),
    paid: Type.Number(),
    refunded: Type.Number(),
    balance_due: Type.Number(),
    balance_due_date: Nullable(Type.String()),
    currency: Type.String(),
  }),
  cancellation: Type.Union(
    [Type.Object({ fee: Type.Number(), refund: Type.Number(), policy_step: PolicyStep }), Type.Null()],
    { description: "today's cancellation quote; null while the cancellation policy is not available" },
  ),
});

export async function manageRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const limited = rateLimit({
    name: 'signed-links',
    max: ctx.config.writeLimits.signedLinksPerMinute,
    windowSeconds: 60,
  });
  const args = (request: FastifyRequest) => {
    const { reference } = request.params as { reference: string };
    const { expires, signature } = request.query as { expires?: string; signature?: string };
    return { market: (request as Scoped).scope.market.code, reference, expires, signature };
  };
  const errors = { 403: ErrorBody, 404: ErrorBody, 429: TooManyRequestsBody };
  await marketScoped(app, ctx, (r) => {
    const base = '/api/:market/:lang/bookings/:reference';
    const tags = ['manage'];
    r.get(
      base,
      {
        schema: {
          tags,
          summary: 'Manage my booking: the booking through its signed manage URL (confirm answer, confirmation e-mail)',
          params: Params,
          querystring: Signed,
          response: { 200: ok(ManagedBooking), ...errors },
        },
        onRequest: limited,
      },
      async (request) => {
        const a = args(request);
        return { success: true, data: await manageView(ctx, a.market, a.reference, a.expires, a.signature) };
      },
    );
    r.get(
      `${base}/cancellation`,
      {
        schema: {
          tags,
          summary:
            "Today's cancellation quote for the traveller: fee per the product's policy and the refund (signed manage URL)",
          params: Params,
          querystring: Signed,
          response: {
            200: ok(
              Type.Object(
                { fee: Type.Number(), refund: Type.Number(), policy_step: PolicyStep },
                { additionalProperties: true },
              ),
            ),
            409: ErrorBody,
            ...errors,
          },
        },
        onRequest: limited,
      },
      async (request) => {
        const a = args(request);
        return {
          success: true,
          data: await manageCancellationQuote(ctx, a.market, a.reference, a.expires, a.signature),
        };
      },
    );
    r.post(
      `${base}/cancel`,
      {
        schema: {
          tags,
          summary:
            "Cancel the booking as the traveller (signed manage URL): the operator's by=traveller cancellation, fee per policy, refund to the card, e-mails",
          params: Params,
          querystring: Signed,
          body: Type.Optional(
            Type.Object({ reason: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false }),
          ),
          response: {
            200: ok(Type.Object({ status: Type.Literal('cancelled') }, { additionalProperties: true })),
            409: ErrorBody,
            503: ErrorBody,
            ...errors,
          },
        },
        onRequest: limited,
      },
      async (request) => {
        const a = args(request);
        const reason = (request.body as { reason?: string } | undefined)?.reason;
        return {
          success: true,
          data: await manageCancel(ctx, a.market, a.reference, reason, a.expires, a.signature),
        };
      },
    );
    r.put(
      `${base}/travelers`,
      {
        schema: {
          tags,
          summary:
            'Correct passport data and birth dates (signed manage URL); until the flights are booked or 14 days before departure',
          params: Params,
          querystring: Signed,
          body: Type.Object(
            {
              travelers: Type.Array(
                Type.Object(
                  {
                    position: Type.Integer({ minimum: 0, maximum: 9 }),
                    passport_number: Type.Optional(
                      Type.String({ minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9]+$' }),
                    ),
                    passport_expiry: Type.Optional(DateString),
                    birth_date: Type.Optional(DateString),
                  },
                  { additionalProperties: false },
                ),
                { minItems: 1, maxItems: 10 },
              ),
            },
            { additionalProperties: false },
          ),
          response: { 200: ok(ManagedBooking), 400: ErrorBody, 409: ErrorBody, 422: ErrorBody, ...errors },
        },
        onRequest: limited,
      },
      async (request) => {
        const a = args(request);
        const { travelers } = request.body as { travelers: TravelerChange[] };
        return {
          success: true,
          data: await updateTravelers(ctx, a.market, a.reference, travelers, a.expires, a.signature),
        };
      },
    );
  });
}
