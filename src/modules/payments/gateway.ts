// The payment gateway port and its adapters: Stripe PaymentIntents through the official SDK
// (host/port/protocol from config, so tests point it at a fake), and a sandbox gateway for the
// embedded demo when no Stripe key is configured outside production.
import { createHash, randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import type { Config } from '../../config.js';
import { AppError } from '../../platform/errors.js';
import { type PaymentStatus, paymentStatusOf } from './rules.js';

export interface PaymentIntent {
  id: string;
  clientSecret: string | null;
  status: PaymentStatus;
  amountCents: number;
  /** lower-case ISO code, as Stripe reports it */
  currency: string;
  metadata: Record<string, string>;
}

export interface CreateIntentRequest {
  amountCents: number;
  currency: string;
  bookingReference: string;
  bookingId: number;
  description?: string;
  /** sent as Stripe's Idempotency-Key so a retried request makes one intent */
  idempotencyKey?: string;
}

export interface PaymentGateway {
  /** payment_gateway_code stored on the booking */
  readonly code: string;
  /** payment_method_code stored on the booking */
  readonly methodCode: string;
  createIntent(req: CreateIntentRequest): Promise<PaymentIntent>;
  retrieveIntent(id: string): Promise<PaymentIntent>;
  /** Charges a saved card without the customer (balance payments); see OffSessionCharge. */
  chargeOffSession(req: OffSessionChargeRequest): Promise<OffSessionCharge>;
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
  | { outcome: 'declined' | 'authentication_required'; intentId: string | null; code: string; message: string };

/** Gateway failures answer 502 payment_gateway_error (card declines surface at confirm as a status). */
function gatewayError(err: unknown): AppError {
  const e = err as { type?: string; message?: string; statusCode?: number };
  if (e?.statusCode === 404) return new AppError(404, 'payment_intent_not_found', 'Payment intent not found.');
  return new AppError(502, 'payment_gateway_error', 'The payment processor could not be reached. Please try again.');
}

function intentOf(pi: Stripe.PaymentIntent): PaymentIntent {
  return {
    id: pi.id,
    clientSecret: pi.client_secret,
    status: paymentStatusOf(pi.status),
    amountCents: pi.amount,
    currency: pi.currency,
    metadata: (pi.metadata ?? {}) as Record<string, string>,
  };
}

export class StripeGateway implements PaymentGateway {
  readonly code = 'stripe';
  readonly methodCode = 'card';
  private readonly stripe: Stripe;

  constructor(config: Config['stripe'], timeoutMs = 20_000) {
    this.stripe = new Stripe(config.secretKey, {
      host: config.apiHost,
      port: config.apiPort,
      protocol: config.apiProtocol,
      timeout: timeoutMs,
      maxNetworkRetries: 1,
      telemetry: false,
    });
  }

  async createIntent(req: CreateIntentRequest): Promise<PaymentIntent> {
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: req.amountCents,
          currency: req.currency.toLowerCase(),
          description: req.description,
          automatic_payment_methods: { enabled: true },
          metadata: { booking_reference: req.bookingReference, booking_id: String(req.bookingId) },
        },
        req.idempotencyKey ? { idempotencyKey: req.idempotencyKey } : undefined,
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

  async chargeOffSession(req: OffSessionChargeRequest): Promise<OffSessionCharge> {
    try {
      const pi = await this.stripe.paymentIntents.create(
        {
          amount: req.amountCents,
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
}

/** Stripe's card errors of an off-session confirm: `authentication_required`, or a decline. */
function offSessionDecline(err: unknown): OffSessionCharge | undefined {
  const e = err as {
    type?: string;
    code?: string;
    decline_code?: string;
    message?: string;
    payment_intent?: { id?: string };
  };
  if (e?.type !== 'StripeCardError') return undefined;
  const code = e.code === 'authentication_required' ? 'authentication_required' : 'declined';
  return {
    outcome: code,
    intentId: e.payment_intent?.id ?? null,
    code: e.decline_code || e.code || 'card_declined',
    message: e.message ?? 'The card was declined.',
  };
}

/**
 * Demo gateway (no Stripe key, not production): intents exist only in their id, which encodes
 * amount, currency and reference; they count as Succeeded, so the demo checkout completes.
 */
export class SandboxGateway implements PaymentGateway {
  readonly code = 'sandbox';
  readonly methodCode = 'card';

  async createIntent(req: CreateIntentRequest): Promise<PaymentIntent> {
    const payload = Buffer.from(
      JSON.stringify({ a: req.amountCents, c: req.currency.toLowerCase(), r: req.bookingReference, b: req.bookingId }),
    ).toString('base64url');
    const id = `pi_sandbox_${payload}`;
    const secret = createHash('sha256').update(id).update(randomBytes(8)).digest('hex').slice(0, 24);
    return { ...(await this.retrieveIntent(id)), clientSecret: `${id}_secret_${secret}` };
  }

  async retrieveIntent(id: string): Promise<PaymentIntent> {
    const m = /^pi_sandbox_([\w-]+)$/.exec(id);
    let data: { a: number; c: string; r: string; b: number } | undefined;
    try {
      data = m ? JSON.parse(Buffer.from(m[1], 'base64url').toString('utf8')) : undefined;
    } catch {
      data = undefined;
    }
    if (!data) throw new AppError(404, 'payment_intent_not_found', 'Payment intent not found.');
    return {
      id,
      clientSecret: null,
      status: 'Succeeded',
      amountCents: data.a,
      currency: data.c,
      metadata: { booking_reference: data.r, booking_id: String(data.b) },
    };
  }

  /**
   * Stripe's test payment methods decide the outcome: pm_card_chargeDeclined declines,
   * pm_card_authenticationRequired needs the customer, any other saved method succeeds. The id
   * derives from the idempotency key, so a retried charge names the same intent.
   */
  async chargeOffSession(req: OffSessionChargeRequest): Promise<OffSessionCharge> {
    const payload = Buffer.from(
      JSON.stringify({
        a: req.amountCents,
        c: req.currency.toLowerCase(),
        r: req.bookingReference,
        b: req.bookingId,
        k: req.idempotencyKey,
      }),
    ).toString('base64url');
    const id = `pi_sandbox_${payload}`;
    if (req.paymentMethodId === 'pm_card_chargeDeclined') {
      return { outcome: 'declined', intentId: id, code: 'generic_decline', message: 'Your card was declined.' };
    }
    if (req.paymentMethodId === 'pm_card_authenticationRequired') {
      return {
        outcome: 'authentication_required',
        intentId: id,
        code: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
      };
    }
    return { outcome: 'succeeded', intent: await this.retrieveIntent(id) };
  }
}

/** Stripe when a key is configured; the sandbox gateway otherwise (never in production/staging). */
export function paymentGatewayFor(config: Config): PaymentGateway | undefined {
  if (config.stripe.secretKey) return new StripeGateway(config.stripe);
  if (config.appEnv === 'production' || config.appEnv === 'staging') return undefined;
  return new SandboxGateway();
}
