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
  close(): Promise<void>;
}

export async function startFakeStripe(secretKey = 'sk_test_itinera'): Promise<FakeStripe> {
  const requests: StripeRequest[] = [];
  const intents = new Map<string, FakePaymentIntent>();
  const idempotent = new Map<string, FakePaymentIntent>();
  const failures: number[] = [];

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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
