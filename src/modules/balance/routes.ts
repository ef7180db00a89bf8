// HTTP of the balance pay link (the e-mail's FRONTEND_URL/{market}/{lang}/pay/{reference}?expires&signature
// page calls these with the link's expires and signature): the balance, a PaymentIntent for it
// (confirmed by Stripe.js on the page) and its confirmation.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ErrorBody, MarketPath, ok } from '../../platform/http-shapes.js';
import { component, ref } from '../../platform/openapi.js';
import { marketScoped } from '../markets/routes.js';
import { paymentGatewayFor } from '../payments/gateway.js';
import { confirmBalancePayment, createBalanceIntent, payLinkBalance } from './pay.js';

type Scoped = FastifyRequest & { scope: NonNullable<FastifyRequest['scope']> };
const Signed = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 12 })),
  signature: Type.Optional(Type.String({ maxLength: 64 })),
});
const Params = Type.Object({ ...MarketPath, reference: Type.String({ maxLength: 40 }) });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

const Balance = component(
  'BalanceDue',
  Type.Object({
    booking_reference: Type.String(),
    departure_date: Type.String(),
    total_price: Type.Number(),
    amount_paid: Type.Number(),
    balance_due: Type.Number(),
    balance_due_date: Nullable(Type.String()),
    balance_status: Type.String({ description: 'scheduled, retrying, paid or overdue' }),
    currency: Type.String(),
  }),
  'What remains to pay on a booking and when it is charged.',
);
const Intent = component(
  'BalancePaymentIntent',
  Type.Object({
    payment_intent_id: Type.String(),
    client_secret: Nullable(Type.String()),
    amount: Type.Number(),
    currency: Type.String(),
    booking_reference: Type.String(),
    payment_gateway: Type.String(),
  }),
  'The payment intent of the remaining balance.',
);
const Paid = component(
  'BalancePayment',
  Type.Object({
    booking_reference: Type.String(),
    payment_status: Type.Literal('Succeeded'),
    amount_paid: Type.Number(),
    balance_due: Type.Number(),
    currency: Type.String(),
  }),
  'A confirmed balance payment.',
);

const ConfirmBalanceBody = component(
  'ConfirmBalanceInput',
  Type.Object({
    payment_intent_id: Type.String({ minLength: 1, maxLength: 255 }),
    payment_method: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'payment method id, e.g. pm_card_visa' }),
    ),
  }),
  'The balance payment intent to confirm and, optionally, the payment method.',
);

export async function balanceRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const gateway = paymentGatewayFor(ctx.config, ctx.database);
  const requireGateway = () => {
    if (!gateway) throw new AppError(503, 'payment_unavailable', 'Payments are not configured.');
    return gateway;
  };
  const args = (request: FastifyRequest) => {
    const { reference } = request.params as { reference: string };
    const { expires, signature } = request.query as { expires?: string; signature?: string };
    return [(request as Scoped).scope.market.code, reference, expires, signature] as const;
  };
  await marketScoped(app, ctx, (r) => {
    const base = '/api/:market/:lang/balance/:reference';
    const tags = ['balance'];
    r.get(
      base,
      {
        schema: {
          tags,
          summary: 'The balance of a booking, through the signed pay link of the balance e-mails',
          params: Params,
          querystring: Signed,
          response: { 200: ok(ref(Balance)), 403: ErrorBody, 404: ErrorBody },
        },
      },
      async (request) => ({ success: true, data: await payLinkBalance(ctx, ...args(request)) }),
    );
    r.post(
      `${base}/intent`,
      {
        schema: {
          tags,
          summary: 'Payment intent for the whole remaining balance (signed pay link)',
          params: Params,
          querystring: Signed,
          response: {
            200: ok(ref(Intent)),
            403: ErrorBody,
            404: ErrorBody,
            409: ErrorBody,
            502: ErrorBody,
            503: ErrorBody,
          },
        },
      },
      async (request) => {
        const [market, reference, expires, signature] = args(request);
        return {
          success: true,
          data: await createBalanceIntent(ctx, requireGateway(), market, reference, expires, signature),
        };
      },
    );
    r.post(
      `${base}/confirm`,
      {
        schema: {
          tags,
          summary: 'Record the succeeded balance payment intent (signed pay link)',
          params: Params,
          querystring: Signed,
          description:
            "With the sandbox gateway, payment_method takes Stripe's test methods (default pm_card_visa; " +
            'pm_card_chargeDeclined: 402 payment_not_succeeded, confirm again with another). With Stripe, ' +
            'the page confirms with Stripe.js first; payment_method is optional and confirms server-side.',
          body: ref(ConfirmBalanceBody),
          response: {
            200: ok(ref(Paid)),
            402: ErrorBody,
            403: ErrorBody,
            404: ErrorBody,
            422: ErrorBody,
            502: ErrorBody,
          },
        },
      },
      async (request) => {
        const [market, reference, expires, signature] = args(request);
        const { payment_intent_id, payment_method } = request.body as {
          payment_intent_id: string;
          payment_method?: string;
        };
        return {
          success: true,
          data: await confirmBalancePayment(
            ctx,
            requireGateway(),
            market,
            reference,
            payment_intent_id,
            expires,
            signature,
            payment_method,
          ),
        };
      },
    );
  });
}
