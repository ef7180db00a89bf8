// A fake Stripe API on 127.0.0.1 speaking the endpoints our adapter uses, as Stripe documents them:
// PaymentIntents (create, retrieve, update, confirm, cancel), Customers (create, list by e-mail),
// Refunds (create against a payment_intent, retrieve; statuses pending/succeeded/failed/canceled,
// 400 amount_too_large / charge_already_refunded),
// form-encoded bodies, bearer secret key, Idempotency-Key replay (same key and body: the saved
// answer with Idempotent-Replayed; same key, other body: 400 idempotency_error), Stripe's error
// envelope, and the test payment methods (pm_card_visa succeeds, pm_card_chargeDeclined declines
// with a 402 card_error, pm_card_authenticationRequired needs action). Webhook events are signed
// with the SDK's own webhooks.generateTestHeaderString.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  description: string | null;
  customer: string | null;
  payment_method: string | null;
  setup_future_usage: string | null;
  metadata: Record<string, string>;
  automatic_payment_methods: { enabled: boolean } | null;
  last_payment_error: { code: string; decline_code?: string; message: string } | null;
  next_action: { type: string } | null;
  created: number;
  livemode: false;
}

export interface FakeCustomer {
  id: string;
  object: 'customer';
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  currency: string;
  payment_intent: string;
  status: string;
  reason: string | null;
  failure_reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

export interface StripeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  /** decoded form fields, nested keys (metadata[x]) kept flat */
  form: Record<string, string>;
}

export interface FakeStripe {
  host: string;
  port: number;
  secretKey: string;
  webhookSecret: string;
  /** env for createTestApp */
  env: Record<string, string>;
  requests: StripeRequest[];
  intents: Map<string, FakePaymentIntent>;
  customers: Map<string, FakeCustomer>;
  /** what Stripe.js does in the browser: confirm with a card (pm_card_visa by default) */
  succeed(id: string, paymentMethod?: string): void;
  decline(id: string): void;
  processing(id: string): void;
  /** the bank's answer to a processing debit: succeeded, or back to requires_payment_method */
  finishProcessing(id: string, succeeded: boolean): void;
  /** the next request answers this status with Stripe's api_error envelope */
  failNext(status: number): void;
  /** confirmed off-session PaymentIntents (balance charges); see the section at the end */
  offSession: OffSessionPart;
  /** a Stripe event about an intent as it is now, e.g. payment_intent.succeeded */
  event(type: string, intentId: string): { id: string; payload: string };
  refunds: Map<string, FakeRefund>;
  /** the statuses the next refunds are created with (default: succeeded, as card refunds in test mode) */
  nextRefundStatuses: string[];
  /** what the bank does later with a pending refund: succeeded, or failed with Stripe's failure_reason */
  settleRefund(id: string, status: 'succeeded' | 'failed' | 'canceled', failureReason?: string): void;
  /** refund.updated / refund.failed about a refund as it is now; charge.refunded about its charge */
  refundEvent(
    type: 'refund.updated' | 'refund.failed' | 'charge.refunded',
    refundId: string,
  ): {
    id: string;
    payload: string;
  };
  /** a Stripe-Signature header for the payload, made by the official SDK */
  sign(payload: string, secret?: string): string;
  close(): Promise<void>;
}

const ATTACHABLE = new Set(['pm_card_visa', 'pm_card_mastercard']);

/** the id of an intent's (single) charge, as Stripe names it from the intent's */
const chargeOf = (pi: { id: string }) => `ch_${pi.id.slice(3)}`;

export async function startFakeStripe(
  secretKey = 'sk_test_itinera',
  webhookSecret = 'whsec_test_itinera',
): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  const intents = new Map<string, FakePaymentIntent>();
  const customers = new Map<string, FakeCustomer>();
  const idempotent = new Map<string, { bodyHash: string; status: number; body: unknown }>();
  const failures: number[] = [];
  const offSession = new OffSessionPart(intents);
  const refunds = new Map<string, FakeRefund>();
  const nextRefundStatuses: string[] = [];
  const now = () => Math.floor(Date.now() / 1000);

  const metadataOf = (form: Record<string, string>) => {
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m) metadata[m[1]] = v;
    }
    return metadata;
  };

  /** a confirm with a payment method: the outcome Stripe's test method stands for */
  const confirmWith = (intent: FakePaymentIntent, pm: string): { status: number; body: unknown } => {
    intent.payment_method = pm;
    if (pm === 'pm_card_chargeDeclined') {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = {
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
      };
      intent.payment_method = null;
      return {
        status: 402,
        body: {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'generic_decline',
            message: 'Your card was declined.',
            payment_intent: intent,
          },
        },
      };
    }
    if (pm === 'pm_card_authenticationRequired') {
      intent.status = 'requires_action';
      intent.next_action = { type: 'use_stripe_sdk' };
      return { status: 200, body: intent };
    }
    if (!ATTACHABLE.has(pm)) {
      return {
        status: 400,
        body: {
          error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such PaymentMethod: '${pm}'` },
        },
      };
    }
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    intent.next_action = null;
    // saved for later: Stripe attaches it to the customer with setup_future_usage
    if (intent.setup_future_usage && intent.customer) intent.payment_method = `${pm}_${intent.customer}`;
    return { status: 200, body: intent };
  };

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const form = Object.fromEntries(new URLSearchParams(raw));
    const [path, qs = ''] = (req.url ?? '').split('?');
    const query = Object.fromEntries(new URLSearchParams(qs));
    requests.push({ method: req.method ?? '', path, query, headers: req.headers, form });
    const send = (status: number, body: unknown, replayed = false) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(6).toString('hex')}`,
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, type: string, message: string, code?: string) =>
      send(status, { error: { type, message, ...(code ? { code } : {}) } });

    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return error(401, 'invalid_request_error', 'Invalid API Key provided.');
    }
    const failure = failures.shift();
    if (failure) return error(failure, 'api_error', 'Something went wrong on our end.');

    // POSTs with an Idempotency-Key: the first answer is saved and replayed
    const key = req.method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const bodyHash = createHash('sha256').update(`${path}\n${raw}`).digest('hex');
    if (typeof key === 'string') {
      const saved = idempotent.get(key);
      if (saved && saved.bodyHash !== bodyHash) {
        return error(
          400,
          'idempotency_error',
          'Keys for idempotent requests can only be used with the same parameters they were first used with.',
        );
      }
      if (saved) return send(saved.status, saved.body, true);
    }
    const answer = (status: number, body: unknown) => {
      if (typeof key === 'string') idempotent.set(key, { bodyHash, status, body: JSON.parse(JSON.stringify(body)) });
      send(status, body);
    };

    if (req.method === 'POST' && path === '/v1/customers') {
      const customer: FakeCustomer = {
        id: `cus_${randomBytes(7).toString('hex')}`,
        object: 'customer',
        email: form.email ?? null,
        name: form.name ?? null,
        metadata: metadataOf(form),
        created: now(),
        livemode: false,
      };
      customers.set(customer.id, customer);
      return answer(200, customer);
    }
    if (req.method === 'GET' && path === '/v1/customers') {
      const data = [...customers.values()]
        .filter((c) => !query.email || c.email === query.email)
        .slice(0, Number(query.limit ?? 10));
      return send(200, { object: 'list', data, has_more: false, url: '/v1/customers' });
    }

    if (req.method === 'POST' && path === '/v1/refunds') {
      const pi = intents.get(form.payment_intent ?? '');
      if (!pi) {
        return error(
          400,
          'invalid_request_error',
          `No such payment_intent: '${form.payment_intent}'`,
          'resource_missing',
        );
      }
      if (pi.status !== 'succeeded') {
        return error(
          400,
          'invalid_request_error',
          `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
          'charge_not_refundable',
        );
      }
      const refunded = [...refunds.values()]
        .filter((r) => r.payment_intent === pi.id && ['pending', 'succeeded', 'requires_action'].includes(r.status))
        .reduce((sum, r) => sum + r.amount, 0);
      const left = pi.amount_received - refunded;
      if (left <= 0) {
        return error(
          400,
          'invalid_request_error',
          `Charge ${chargeOf(pi)} has already been refunded.`,
          'charge_already_refunded',
        );
      }
      const amount = form.amount ? Number(form.amount) : left;
      if (!Number.isInteger(amount) || amount < 1) {
        return error(400, 'invalid_request_error', 'Invalid positive integer', 'parameter_invalid_integer');
      }
      if (amount > left) {
        return error(
          400,
          'invalid_request_error',
          `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
          'amount_too_large',
        );
      }
      const refund: FakeRefund = {
        id: `re_${randomBytes(12).toString('hex')}`,
        object: 'refund',
        amount,
        charge: chargeOf(pi),
        currency: pi.currency,
        payment_intent: pi.id,
        status: nextRefundStatuses.shift() ?? 'succeeded',
        reason: form.reason ?? null,
        failure_reason: null,
        metadata: metadataOf(form),
        created: now(),
      };
      refunds.set(refund.id, refund);
      return answer(200, refund);
    }
    const rm = /^\/v1\/refunds\/(\w+)$/.exec(path);
    if (rm && req.method === 'GET') {
      const refund = refunds.get(rm[1]);
      if (!refund) return error(404, 'invalid_request_error', `No such refund: '${rm[1]}'`, 'resource_missing');
      return send(200, refund);
    }

    if (req.method === 'POST' && path === '/v1/payment_intents' && form.off_session === 'true') {
      return offSession.create(req, res, form);
    }
    if (req.method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(form.amount);
      if (!Number.isInteger(amount) || amount < 1) {
        return error(400, 'invalid_request_error', 'Invalid positive integer', 'parameter_invalid_integer');
      }
      if (!form.currency) return error(400, 'invalid_request_error', 'Missing required param: currency.');
      if (form.customer && !customers.has(form.customer)) {
        return error(400, 'invalid_request_error', `No such customer: '${form.customer}'`, 'resource_missing');
      }
      const id = `pi_${randomBytes(12).toString('hex')}`;
      const intent: FakePaymentIntent = {
        id,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency: form.currency,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
        description: form.description ?? null,
        customer: form.customer ?? null,
        payment_method: null,
        setup_future_usage: form.setup_future_usage ?? null,
        metadata: metadataOf(form),
        automatic_payment_methods: form['automatic_payment_methods[enabled]'] === 'true' ? { enabled: true } : null,
        last_payment_error: null,
        next_action: null,
        created: now(),
        livemode: false,
      };
      intents.set(id, intent);
      return answer(200, intent);
    }
    const m = /^\/v1\/payment_intents\/(\w+)(?:\/(confirm|cancel))?$/.exec(path);
    const intent = m ? intents.get(m[1]) : undefined;
    if (m && !intent) {
      return error(404, 'invalid_request_error', `No such payment_intent: '${m[1]}'`, 'resource_missing');
    }
    if (m && intent && req.method === 'GET' && !m[2]) return send(200, intent);
    if (m && intent && req.method === 'POST' && !m[2]) {
      if (form.amount) intent.amount = Number(form.amount);
      Object.assign(intent.metadata, metadataOf(form));
      return answer(200, intent);
    }
    if (m && intent && req.method === 'POST' && m[2] === 'confirm') {
      if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
        return error(
          400,
          'invalid_request_error',
          `This PaymentIntent's status is ${intent.status}.`,
          'payment_intent_unexpected_state',
        );
      }
      const out = confirmWith(intent, form.payment_method ?? intent.payment_method ?? '');
      return answer(out.status, out.body);
    }
    if (m && intent && req.method === 'POST' && m[2] === 'cancel') {
      if (['succeeded', 'processing', 'canceled'].includes(intent.status)) {
        return error(
          400,
          'invalid_request_error',
          `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
          'payment_intent_unexpected_state',
        );
      }
      intent.status = 'canceled';
      return answer(200, intent);
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${path}).`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const find = (id: string) => {
    const intent = intents.get(id);
    if (!intent) throw new Error(`fake stripe: no intent ${id}`);
    return intent;
  };
  const envelope = (type: string, object: unknown) => {
    const id = `evt_${randomBytes(12).toString('hex')}`;
    const payload = JSON.stringify({
      id,
      object: 'event',
      api_version: '2025-03-31.basil',
      created: now(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    });
    return { id, payload };
  };
  const sign = (payload: string, secret = webhookSecret) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return {
    host: '127.0.0.1',
    port,
    secretKey,
    webhookSecret,
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_API_BASE: `http://127.0.0.1:${port}`,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
    },
    requests,
    intents,
    customers,
    succeed: (id, pm = 'pm_card_visa') => void confirmWith(find(id), pm),
    decline: (id) => void confirmWith(find(id), 'pm_card_chargeDeclined'),
    processing: (id) => {
      find(id).status = 'processing';
    },
    finishProcessing: (id, succeeded) => {
      const pi = find(id);
      pi.status = succeeded ? 'succeeded' : 'requires_payment_method';
      pi.amount_received = succeeded ? pi.amount : 0;
      pi.last_payment_error = succeeded
        ? null
        : { code: 'payment_method_provider_decline', message: 'The debit was refused by the bank.' };
    },
    failNext: (status) => failures.push(status),
    offSession,
    refunds,
    nextRefundStatuses,
    settleRefund: (id, status, failureReason) => {
      const refund = refunds.get(id);
      if (!refund) throw new Error(`fake stripe: no refund ${id}`);
      refund.status = status;
      refund.failure_reason = status === 'failed' ? (failureReason ?? 'unknown') : null;
    },
    refundEvent: (type, refundId) => {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`fake stripe: no refund ${refundId}`);
      if (type !== 'charge.refunded') return envelope(type, refund);
      const pi = intents.get(refund.payment_intent)!;
      const refundedAmount = [...refunds.values()]
        .filter((r) => r.payment_intent === pi.id && r.status !== 'failed' && r.status !== 'canceled')
        .reduce((sum, r) => sum + r.amount, 0);
      return envelope(type, {
        id: refund.charge,
        object: 'charge',
        amount: pi.amount,
        amount_refunded: refundedAmount,
        currency: pi.currency,
        payment_intent: pi.id,
        refunded: refundedAmount >= pi.amount,
        status: 'succeeded',
      });
    },
    event: (type, intentId) => envelope(type, intents.get(intentId) ?? { id: intentId, object: 'payment_intent' }),
    sign,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Off-session PaymentIntents (balance charges): POST /v1/payment_intents with confirm=true,
// off_session=true, customer and a saved payment_method, as Stripe documents them
// (docs.stripe.com/payments/save-during-payment, /error-codes, /api/idempotent_requests).
// Stripe's test payment methods decide the outcome: pm_card_visa succeeds, pm_card_chargeDeclined
// answers 402 card_error `card_declined`, pm_card_authenticationRequired 402 card_error
// `authentication_required`; the error carries the PaymentIntent (status requires_payment_method).
// A confirm that allows redirect-based methods needs a return_url (Stripe's 400 otherwise).
// An Idempotency-Key replays the first response (status and body, errors included) with
// `Idempotent-Replayed: true`; the same key with other parameters is a 400 idempotency_error.
// `dropResponses(n)` processes the next n charges but closes the connection instead of answering,
// like a process killed after the charge was made. `holdResponses(n)` processes them and never
// answers (the caller waits until it gives up or dies); `onCharged` sees each new charge.

interface Recorded {
  status: number;
  body: unknown;
  params: string;
}

export class OffSessionPart {
  private readonly replays = new Map<string, Recorded>();
  private drops = 0;
  private holds = 0;
  /** called with each PaymentIntent a charge creates, before the answer (or its absence) */
  onCharged?: (intent: FakePaymentIntent) => void;
  /** PaymentIntents created by confirmed charges, in order (a replay adds none) */
  readonly created: FakePaymentIntent[] = [];
  /** payment methods detached from their customer: a charge is Stripe's 400 resource_missing */
  readonly detached = new Set<string>();

  constructor(private readonly intents: Map<string, FakePaymentIntent>) {}

  dropResponses(n: number): void {
    this.drops += n;
  }

  holdResponses(n: number): void {
    this.holds += n;
  }

  /** intents this fake charged for a booking (metadata booking_id) */
  chargesFor(bookingId: number): FakePaymentIntent[] {
    return this.created.filter((i) => i.metadata.booking_id === String(bookingId));
  }

  create(req: IncomingMessage, res: import('node:http').ServerResponse, form: Record<string, string>): void {
    const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const params = JSON.stringify(Object.entries(form).sort());
    const previous = key ? this.replays.get(key) : undefined;
    let result: Recorded;
    let replayed = false;
    if (previous && previous.params !== params) {
      result = {
        status: 400,
        params,
        body: {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          },
        },
      };
    } else if (previous) {
      result = previous;
      replayed = true;
    } else {
      result = { ...this.charge(form), params };
      if (key && result.status !== 400) this.replays.set(key, result);
    }
    if (!replayed && result.status === 200) {
      const intent = this.created.at(-1);
      if (intent) this.onCharged?.(intent);
    }
    if (this.drops > 0) {
      this.drops--;
      res.socket?.destroy();
      return;
    }
    if (this.holds > 0) {
      this.holds--;
      return;
    }
    res.writeHead(result.status, {
      'content-type': 'application/json',
      'request-id': `req_${randomBytes(6).toString('hex')}`,
      ...(key ? { 'idempotency-key': key } : {}),
      ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
    });
    res.end(JSON.stringify(result.body));
  }

  private charge(form: Record<string, string>): { status: number; body: unknown } {
    const invalid = (message: string, param: string) => ({
      status: 400,
      body: { error: { type: 'invalid_request_error', message, param } },
    });
    const amount = Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1) return invalid('Invalid positive integer', 'amount');
    if (!form.currency) return invalid('Missing required param: currency.', 'currency');
    if (!form.payment_method) return invalid('Missing required param: payment_method.', 'payment_method');
    const redirects = !form.payment_method_types && form['automatic_payment_methods[allow_redirects]'] !== 'never';
    if (redirects && !form.return_url) {
      return invalid(
        'A `return_url` must be specified because this Payment Intent is configured to automatically accept the payment methods enabled in the Dashboard, some of which may require a full page redirect to succeed. If you do not want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.',
        'return_url',
      );
    }
    if (form.off_session === 'true' && !form.customer) {
      return invalid('The PaymentMethod must be attached to a Customer to be used off_session.', 'customer');
    }
    if (this.detached.has(form.payment_method)) {
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            param: 'payment_method',
            message: `No such PaymentMethod: '${form.payment_method}'`,
          },
        },
      };
    }
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m) metadata[m[1]] = v;
    }
    const id = `pi_${randomBytes(12).toString('hex')}`;
    const outcome = OUTCOMES[form.payment_method] ?? OUTCOMES.pm_card_visa;
    const intent: FakePaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      currency: form.currency,
      status: outcome.error ? 'requires_payment_method' : (outcome.status ?? 'succeeded'),
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      description: form.description ?? null,
      metadata,
      automatic_payment_methods: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      customer: form.customer ?? null,
      payment_method: outcome.error ? null : form.payment_method,
      amount_received: outcome.error || outcome.status ? 0 : amount,
      last_payment_error: outcome.error ? { ...outcome.error } : null,
      setup_future_usage: null,
      next_action: null,
    };
    this.intents.set(id, intent);
    this.created.push(intent);
    if (!outcome.error) return { status: 200, body: intent };
    return {
      status: 402,
      body: { error: { type: 'card_error', ...outcome.error, payment_intent: intent } },
    };
  }
}

const OUTCOMES: Record<
  string,
  { status?: 'processing'; error?: { code: string; decline_code: string; message: string } }
> = {
  pm_card_visa: {},
  // a SEPA Direct Debit mandate: the PaymentIntent stays `processing` until the bank answers
  pm_sepaDebit: { status: 'processing' },
  pm_card_chargeDeclined: {
    error: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  },
  pm_card_authenticationRequired: {
    error: {
      code: 'authentication_required',
      decline_code: 'authentication_required',
      message: 'Your card was declined. This transaction requires authentication.',
    },
  },
};
