// A fake Stripe API on 127.0.0.1 for the PaymentIntents endpoints our adapter uses
// (form-encoded bodies, bearer secret key, Idempotency-Key, Stripe's error envelope).
// Tests move an intent to a final status with `succeed` / `decline`, as Stripe.js would.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: string;
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  automatic_payment_methods: { enabled: boolean } | null;
  created: number;
  livemode: false;
}

export interface StripeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** decoded form fields, nested keys (metadata[x]) kept flat */
  form: Record<string, string>;
}

export interface FakeStripe {
  host: string;
  port: number;
  secretKey: string;
  /** env for createTestApp */
  env: Record<string, string>;
  requests: StripeRequest[];
  intents: Map<string, FakePaymentIntent>;
  succeed(id: string): void;
  decline(id: string): void;
  /** the next request answers this status with Stripe's api_error envelope */
  failNext(status: number): void;
  /** confirmed off-session PaymentIntents (balance charges); see the section at the end */
  offSession: OffSessionPart;
  close(): Promise<void>;
}

export async function startFakeStripe(secretKey = 'sk_test_itinera'): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  const intents = new Map<string, FakePaymentIntent>();
  const idempotent = new Map<string, FakePaymentIntent>();
  const failures: number[] = [];
  const offSession = new OffSessionPart(intents);

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const path = (req.url ?? '').split('?')[0];
    requests.push({ method: req.method ?? '', path, headers: req.headers, form });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(6).toString('hex')}`,
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

    if (req.method === 'POST' && path === '/v1/payment_intents' && form.confirm === 'true') {
      return offSession.create(req, res, form);
    }
    if (req.method === 'POST' && path === '/v1/payment_intents') {
      const key = req.headers['idempotency-key'];
      if (typeof key === 'string' && idempotent.has(key)) return send(200, idempotent.get(key));
      const amount = Number(form.amount);
      if (!Number.isInteger(amount) || amount < 1) {
        return error(400, 'invalid_request_error', 'Invalid positive integer', 'parameter_invalid_integer');
      }
      if (!form.currency) return error(400, 'invalid_request_error', 'Missing required param: currency.');
      const id = `pi_${randomBytes(12).toString('hex')}`;
      const metadata: Record<string, string> = {};
      for (const [k, v] of Object.entries(form)) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) metadata[m[1]] = v;
      }
      const intent: FakePaymentIntent = {
        id,
        object: 'payment_intent',
        amount,
        currency: form.currency,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
        description: form.description ?? null,
        metadata,
        automatic_payment_methods: form['automatic_payment_methods[enabled]'] === 'true' ? { enabled: true } : null,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
      };
      intents.set(id, intent);
      if (typeof key === 'string') idempotent.set(key, intent);
      return send(200, intent);
    }
    const m = /^\/v1\/payment_intents\/([\w]+)$/.exec(path);
    if (req.method === 'GET' && m) {
      const intent = intents.get(m[1]);
      if (!intent) {
        return error(404, 'invalid_request_error', `No such payment_intent: '${m[1]}'`, 'resource_missing');
      }
      return send(200, intent);
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${path}).`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const setStatus = (id: string, status: string) => {
    const intent = intents.get(id);
    if (!intent) throw new Error(`fake stripe: no intent ${id}`);
    intent.status = status;
  };
  return {
    host: '127.0.0.1',
    port,
    secretKey,
    env: { STRIPE_SECRET_KEY: secretKey, STRIPE_API_BASE: `http://127.0.0.1:${port}` },
    requests,
    intents,
    succeed: (id) => setStatus(id, 'succeeded'),
    decline: (id) => setStatus(id, 'requires_payment_method'),
    failNext: (status) => failures.push(status),
    offSession,
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
// like a process killed after the charge was made.

interface Recorded {
  status: number;
  body: unknown;
  params: string;
}

export class OffSessionPart {
  private readonly replays = new Map<string, Recorded>();
  private drops = 0;
  /** PaymentIntents created by confirmed charges, in order (a replay adds none) */
  readonly created: FakePaymentIntent[] = [];

  constructor(private readonly intents: Map<string, FakePaymentIntent>) {}

  dropResponses(n: number): void {
    this.drops += n;
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
    if (this.drops > 0) {
      this.drops--;
      res.socket?.destroy();
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
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m) metadata[m[1]] = v;
    }
    const id = `pi_${randomBytes(12).toString('hex')}`;
    const outcome = OUTCOMES[form.payment_method] ?? OUTCOMES.pm_card_visa;
    const intent: FakePaymentIntent & Record<string, unknown> = {
      id,
      object: 'payment_intent',
      amount,
      currency: form.currency,
      status: outcome.error ? 'requires_payment_method' : 'succeeded',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      description: form.description ?? null,
      metadata,
      automatic_payment_methods: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      customer: form.customer ?? null,
      payment_method: outcome.error ? null : form.payment_method,
      amount_received: outcome.error ? 0 : amount,
      last_payment_error: outcome.error ? { type: 'card_error', ...outcome.error } : null,
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

const OUTCOMES: Record<string, { error?: { code: string; decline_code: string; message: string } }> = {
  pm_card_visa: {},
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
