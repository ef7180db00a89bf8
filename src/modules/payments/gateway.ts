// The payment gateway port and its adapters: Stripe PaymentIntents through the official SDK
// (host/port/protocol from config, so tests point it at a fake), and a sandbox gateway for the
// embedded demo when no Stripe key is configured outside production. The sandbox keeps its intents
// in its own table and understands Stripe's test payment methods (pm_card_visa, ...).
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { sandboxPaymentIntents } from '../../db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { centsToMinorUnits, minorUnitsToCents } from '../../platform/minor-units.js';
import { type GatewayRefund, type RefundRequest, SandboxRefunds, StripeRefunds } from './refunds-gateway.js';
import { type PaymentStatus, paymentStatusOf } from './rules.js';

export interface PaymentIntent {
  id: string;
  clientSecret: string | null;
  status: PaymentStatus;
  amountCents: number;
  /** lower-case ISO code, as Stripe reports it */
  currency: string;
  metadata: Record<string, string>;
  customerId: string | null;
  /** the payment method used (saved to the customer after success with setup_future_usage) */
  paymentMethodId: string | null;
}

export interface CreateIntentRequest {
  amountCents: number;
  currency: string;
  bookingReference: string;
  bookingId: number;
  description?: string;
  /** the booking contact: the card is saved to the gateway customer with this e-mail */
  customer: { email: string; name: string };
  /** sent as Stripe's Idempotency-Key so a retried request makes one intent */
  idempotencyKey: string;
}

export interface PaymentGateway {
  /** payment_gateway_code stored on the booking */
  readonly code: string;
  /** payment_method_code stored on the booking */
  readonly methodCode: string;
  createIntent(req: CreateIntentRequest): Promise<PaymentIntent>;
  retrieveIntent(id: string): Promise<PaymentIntent>;
  /** confirms server-side with a payment method (Stripe test methods in the sandbox) */
  confirmIntent(id: string, paymentMethod: string): Promise<PaymentIntent>;
  /** cancels an intent that is no longer wanted; answers the intent as it is when it cannot be */
  cancelIntent(id: string): Promise<PaymentIntent>;
  /** Charges a saved card without the customer (balance payments); see OffSessionCharge. */
  chargeOffSession(req: OffSessionChargeRequest): Promise<OffSessionCharge>;
  /** Refunds (part of) a succeeded intent to its card; the same key makes one refund. */
  refund(req: RefundRequest): Promise<GatewayRefund>;
  retrieveRefund(id: string): Promise<GatewayRefund>;
}

export interface OffSessionChargeRequest {
  amountCents: number;
  currency: string;
  customerId: string;
  paymentMethodId: string;
  bookingReference: string;
  bookingId: number;
  description: string;
  /** the same key returns the same PaymentIntent (and the same decline) when a charge is retried */
  idempotencyKey: string;
}

/**
 * What an off-session charge came to. A decline or a required authentication is an outcome (the
 * customer has to act); an unreachable gateway throws (the same charge is simply tried again).
 */
export type OffSessionCharge =
  | { outcome: 'succeeded'; intent: PaymentIntent }
  /** a debit (SEPA, ACH) the bank confirms days later: pending, finished by its webhook */
  | { outcome: 'processing'; intent: PaymentIntent }
  /**
   * `permanent`: the gateway refused the request itself (a detached or unknown payment method):
   * trying again cannot succeed, the customer must pay through the link.
   */
  | {
      outcome: 'declined' | 'authentication_required' | 'permanent';
      intentId: string | null;
      code: string;
      message: string;
    };

/** Gateway failures answer 502 payment_gateway_error (card declines surface at confirm as a status). */
function gatewayError(err: unknown): AppError {
  const e = err as { type?: string; message?: string; statusCode?: number };
  if (e?.statusCode === 404) return new AppError(404, 'payment_intent_not_found', 'Payment intent not found.');
  return new AppError(502, 'payment_gateway_error', 'The payment processor could not be reached. Please try again.');
}

const idOf = (x: string | { id: string } | null | undefined): string | null =>
  typeof x === 'string' ? x : (x?.id ?? null);

function intentOf(pi: Stripe.PaymentIntent): PaymentIntent {
  return {
    id: pi.id,
    clientSecret: pi.client_secret,
    status: paymentStatusOf(pi.status),
    // the gateway counts in the currency's minor unit (ISO 4217 exponent), itinera in cents
    amountCents: minorUnitsToCents(pi.amount, pi.currency),
    currency: pi.currency,
    metadata: (pi.metadata ?? {}) as Record<string, string>,
    customerId: idOf(pi.customer as string | { id: string } | null),
    paymentMethodId: idOf(pi.payment_method as string | { id: string } | null),
  };
}

export class StripeGateway implements PaymentGateway {
  readonly code = 'stripe';
  readonly methodCode = 'card';
  private readonly stripe: Stripe;
  private readonly refunds: StripeRefunds;

  constructor(
    config: Config['stripe'],
    private readonly returnUrl: string,
    timeoutMs = 20_000,
  ) {
    this.stripe = new Stripe(config.secretKey, {
      host: config.apiHost,
      port: config.apiPort,
      protocol: config.apiProtocol,
      timeout: timeoutMs,
      maxNetworkRetries: 1,
      telemetry: false,
    });
    this.refunds = new StripeRefunds(this.stripe);
  }

  refund(req: RefundRequest): Promise<GatewayRefund> {
    return this.refunds.create(req);
  }

  retrieveRefund(id: string): Promise<GatewayRefund> {
    return this.refunds.retrieve(id);
  }

  /** The customer with this e-mail (the first one Stripe lists), or a new one. */
  private async customerFor(req: CreateIntentRequest): Promise<string> {
    const found = await this.stripe.customers.list({ email: req.customer.email, limit: 1 });
    if (found.data[0]) return found.data[0].id;
    const created = await this.stripe.customers.create(
      { email: req.customer.email, name: req.customer.name, metadata: { booking_reference: req.bookingReference } },
      { idempotencyKey: `customer-${req.idempotencyKey}` },
    );
    return created.id;
  }

  async createIntent(req: CreateIntentRequest): Promise<PaymentIntent> {
    try {
      const customer = await this.customerFor(req);
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: centsToMinorUnits(req.amountCents, req.currency),
          currency: req.currency.toLowerCase(),
          description: req.description,
          customer,
          // the balance is charged off-session later with the card saved now
          setup_future_usage: 'off_session',
          automatic_payment_methods: { enabled: true },
          metadata: { booking_reference: req.bookingReference, booking_id: String(req.bookingId) },
        },
        { idempotencyKey: req.idempotencyKey },
      );
      return intentOf(pi);
    } catch (err) {
      throw gatewayError(err);
    }
  }

  async retrieveIntent(id: string): Promise<PaymentIntent> {
    try {
      return intentOf(await this.stripe.paymentIntents.retrieve(id));
    } catch (err) {
      throw gatewayError(err);
    }
  }

  async confirmIntent(id: string, paymentMethod: string): Promise<PaymentIntent> {
    try {
      return intentOf(
        await this.stripe.paymentIntents.confirm(id, { payment_method: paymentMethod, return_url: this.returnUrl }),
      );
    } catch (err) {
      // a decline is an answer, not an outage: the intent tells its status
      const e = err as { type?: string };
      if (e?.type === 'StripeCardError') return this.retrieveIntent(id);
      throw gatewayError(err);
    }
  }

  async chargeOffSession(req: OffSessionChargeRequest): Promise<OffSessionCharge> {
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: centsToMinorUnits(req.amountCents, req.currency),
          currency: req.currency.toLowerCase(),
          customer: req.customerId,
          payment_method: req.paymentMethodId,
          off_session: true,
          confirm: true,
          // a server-side confirm without a return_url must rule out redirect-based methods
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          description: req.description,
          metadata: { booking_reference: req.bookingReference, booking_id: String(req.bookingId), purpose: 'balance' },
        },
        { idempotencyKey: req.idempotencyKey },
      );
      const intent = intentOf(pi);
      if (intent.status === 'Succeeded') return { outcome: 'succeeded', intent };
      if (intent.status === 'Processing') return { outcome: 'processing', intent };
      // e.g. requires_action: the bank wants the customer present
      return {
        outcome: 'authentication_required',
        intentId: pi.id,
        code: pi.status,
        message: 'The payment needs the customer.',
      };
    } catch (err) {
      const declined = offSessionDecline(err);
      if (declined) return declined;
      throw gatewayError(err);
    }
  }

  async cancelIntent(id: string): Promise<PaymentIntent> {
    try {
      return intentOf(await this.stripe.paymentIntents.cancel(id));
    } catch (err) {
      // succeeded, processing or already canceled intents cannot be canceled: report what they are
      const e = err as { statusCode?: number };
      if (e?.statusCode === 400) return this.retrieveIntent(id);
      throw gatewayError(err);
    }
  }
}

/**
 * Stripe's card errors of an off-session confirm: `authentication_required`, or a decline; and its
 * 400 invalid_request_error (a detached or unknown payment method, `resource_missing`), which no
 * retry can cure.
 */
function offSessionDecline(err: unknown): OffSessionCharge | undefined {
  const e = err as {
    type?: string;
    code?: string;
    decline_code?: string;
    message?: string;
    statusCode?: number;
    payment_intent?: { id?: string };
  };
  if (e?.type === 'StripeInvalidRequestError' && e.statusCode === 400) {
    return {
      outcome: 'permanent',
      intentId: e.payment_intent?.id ?? null,
      code: e.code || 'invalid_request_error',
      message: e.message ?? 'The payment method cannot be charged.',
    };
  }
  if (e?.type !== 'StripeCardError') return undefined;
  const code = e.code === 'authentication_required' ? 'authentication_required' : 'declined';
  return {
    outcome: code,
    intentId: e.payment_intent?.id ?? null,
    code: e.decline_code || e.code || 'card_declined',
    message: e.message ?? 'The card was declined.',
  };
}

/** Stripe's test payment methods the sandbox understands, and the intent status each leads to. */
export const SANDBOX_TEST_METHODS: Record<string, string> = {
  pm_card_visa: 'succeeded',
  pm_card_mastercard: 'succeeded',
  pm_card_chargeDeclined: 'requires_payment_method',
  pm_card_authenticationRequired: 'requires_action',
  // Stripe's card that attaches to the customer but whose later charges fail: the demo's deposit
  // succeeds and saves it, the balance charge is declined
  pm_card_chargeCustomerFail: 'succeeded',
  // a SEPA Direct Debit: processing until the bank answers (the sandbox's bank pays after a minute)
  pm_sepaDebit: 'processing',
};

/** Sandbox methods whose off-session charges (the balance) are declined. */
const DECLINED_OFF_SESSION = ['pm_card_chargeDeclined', 'pm_card_chargeCustomerFail'];

/** Seconds after which the sandbox's bank settles a processing debit. */
const SANDBOX_DEBIT_SECONDS = 60;

/**
 * Demo gateway (no Stripe key, not production): intents live in `sandbox_payment_intents`; a
 * confirm with one of Stripe's test payment methods moves them as Stripe would.
 */
export class SandboxGateway implements PaymentGateway {
  readonly code = 'sandbox';
  readonly methodCode = 'card';
  private readonly refunds: SandboxRefunds;

  constructor(private readonly database: Database) {
    this.refunds = new SandboxRefunds(database);
  }

  refund(req: RefundRequest): Promise<GatewayRefund> {
    return this.refunds.create(req);
  }

  retrieveRefund(id: string): Promise<GatewayRefund> {
    return this.refunds.retrieve(id);
  }

  private static intentOf(row: typeof sandboxPaymentIntents.$inferSelect): PaymentIntent {
    return {
      id: row.id,
      clientSecret: row.clientSecret,
      status: paymentStatusOf(row.status),
      amountCents: minorUnitsToCents(row.amount, row.currency),
      currency: row.currency,
      metadata: row.metadata,
      customerId: row.customerId,
      paymentMethodId: row.status === 'succeeded' ? row.paymentMethod : null,
    };
  }

  async createIntent(req: CreateIntentRequest): Promise<PaymentIntent> {
    // the idempotency key names the intent, so a repeated request finds the same one
    const id = `pi_sandbox_${createHash('sha256').update(req.idempotencyKey).digest('hex').slice(0, 24)}`;
    const customerId = `cus_sandbox_${createHash('sha256').update(req.customer.email.toLowerCase()).digest('hex').slice(0, 14)}`;
    await this.database.db
      .insert(sandboxPaymentIntents)
      .values({
        id,
        amount: centsToMinorUnits(req.amountCents, req.currency),
        currency: req.currency.toLowerCase(),
        status: 'requires_payment_method',
        clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        customerId,
        setupFutureUsage: 'off_session',
        metadata: { booking_reference: req.bookingReference, booking_id: String(req.bookingId) },
      })
      .onConflictDoNothing();
    return this.retrieveIntent(id);
  }

  async retrieveIntent(id: string): Promise<PaymentIntent> {
    // the sandbox's bank: a debit processing for a minute has gone through
    await this.database.db
      .update(sandboxPaymentIntents)
      .set({ status: 'succeeded', updatedAt: new Date() })
      .where(
        and(
          eq(sandboxPaymentIntents.id, id),
          eq(sandboxPaymentIntents.status, 'processing'),
          sql`${sandboxPaymentIntents.updatedAt} < now() - make_interval(secs => ${SANDBOX_DEBIT_SECONDS})`,
        ),
      );
    const rows = await this.database.db.select().from(sandboxPaymentIntents).where(eq(sandboxPaymentIntents.id, id));
    if (!rows[0]) throw new AppError(404, 'payment_intent_not_found', 'Payment intent not found.');
    return SandboxGateway.intentOf(rows[0]);
  }

  /** Moves an intent to `set` when its status is one of `from`; answers the intent as it is then. */
  private async move(id: string, from: string[], set: { status: string; paymentMethod?: string }) {
    await this.database.db
      .update(sandboxPaymentIntents)
      .set({ ...set, updatedAt: new Date() })
      .where(and(eq(sandboxPaymentIntents.id, id), inArray(sandboxPaymentIntents.status, from)));
    return this.retrieveIntent(id);
  }

  async confirmIntent(id: string, paymentMethod: string): Promise<PaymentIntent> {
    const status = SANDBOX_TEST_METHODS[paymentMethod];
    if (!status) {
      throw new AppError(422, 'payment_method_invalid', `The sandbox does not know payment method ${paymentMethod}.`);
    }
    // like Stripe: a declined or unauthenticated intent may be confirmed again with another method
    return this.move(id, ['requires_payment_method', 'requires_confirmation', 'requires_action'], {
      status,
      paymentMethod: `${paymentMethod}_${id.slice(-8)}`,
    });
  }

  /**
   * An off-session charge of a saved sandbox method: the Stripe test method it was saved from
   * decides (pm_card_chargeDeclined declines, pm_card_authenticationRequired needs the customer).
   * The idempotency key names the intent, so a retried charge finds the same one.
   */
  async chargeOffSession(req: OffSessionChargeRequest): Promise<OffSessionCharge> {
    const id = `pi_sandbox_${createHash('sha256').update(req.idempotencyKey).digest('hex').slice(0, 24)}`;
    if (req.paymentMethodId.startsWith('pm_detached')) {
      // like Stripe's 400 for a payment method no longer attached to the customer
      return {
        outcome: 'permanent',
        intentId: null,
        code: 'resource_missing',
        message: `No such PaymentMethod: '${req.paymentMethodId}'`,
      };
    }
    const test = Object.keys(SANDBOX_TEST_METHODS).find((m) => req.paymentMethodId.startsWith(m)) ?? 'pm_card_visa';
    const outcome = DECLINED_OFF_SESSION.includes(test) ? 'requires_payment_method' : SANDBOX_TEST_METHODS[test];
    const status = outcome === 'succeeded' || outcome === 'processing' ? outcome : 'requires_payment_method';
    await this.database.db
      .insert(sandboxPaymentIntents)
      .values({
        id,
        amount: centsToMinorUnits(req.amountCents, req.currency),
        currency: req.currency.toLowerCase(),
        status,
        clientSecret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        customerId: req.customerId,
        paymentMethod: req.paymentMethodId,
        metadata: { booking_reference: req.bookingReference, booking_id: String(req.bookingId), purpose: 'balance' },
      })
      .onConflictDoNothing();
    const intent = await this.retrieveIntent(id);
    if (intent.status === 'Succeeded') return { outcome: 'succeeded', intent };
    if (intent.status === 'Processing') return { outcome: 'processing', intent };
    if (test === 'pm_card_authenticationRequired') {
      return {
        outcome: 'authentication_required',
        intentId: id,
        code: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
      };
    }
    return { outcome: 'declined', intentId: id, code: 'generic_decline', message: 'Your card was declined.' };
  }

  async cancelIntent(id: string): Promise<PaymentIntent> {
    return this.move(id, ['requires_payment_method', 'requires_confirmation', 'requires_action'], {
      status: 'canceled',
    });
  }
}

/** Stripe when a key is configured; the sandbox gateway otherwise (never in production/staging). */
export function paymentGatewayFor(config: Config, database: Database): PaymentGateway | undefined {
  if (config.stripe.secretKey) return new StripeGateway(config.stripe, `${config.frontendUrl}/checkout/payment`);
  if (config.appEnv === 'production' || config.appEnv === 'staging') return undefined;
  return new SandboxGateway(database);
}

/**
 * The verified event of a webhook request: Stripe's SDK checks the Stripe-Signature header over
 * the raw body with the endpoint secret (default tolerance, 300 s); null when it does not hold.
 */
export function verifiedEvent(rawBody: Buffer, signature: string | undefined, secret: string): Stripe.Event | null {
  if (!signature || !secret) return null;
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    return null;
  }
}
