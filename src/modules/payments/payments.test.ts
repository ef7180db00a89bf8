import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../test/fakes/stripe.js';
import { PRODUCTION_ENV, testConfig } from '../../../test/support/app.js';
import { AppError } from '../../platform/errors.js';
import { paymentGatewayFor, SandboxGateway, StripeGateway } from './gateway.js';
import { depositCents, paymentStatusOf } from './rules.js';

describe('deposit', () => {
  it('is the configured percentage of the total in integer cents, half up', () => {
    expect(depositCents(414_000, 30)).toBe(124_200);
    expect(depositCents(100_005, 30)).toBe(30_002); // 30001.5 -> 30002
    expect(depositCents(99_999, 25)).toBe(25_000); // 24999.75 -> 25000
    expect(depositCents(123_457, 100)).toBe(123_457);
    expect(depositCents(0, 30)).toBe(0);
  });
});

describe('payment status', () => {
  it('maps Stripe statuses, succeeded is Succeeded', () => {
    expect(paymentStatusOf('succeeded')).toBe('Succeeded');
    expect(paymentStatusOf('processing')).toBe('Pending');
    expect(paymentStatusOf('requires_payment_method')).toBe('Pending');
    expect(paymentStatusOf('requires_action')).toBe('RequiresAction');
    expect(paymentStatusOf('canceled')).toBe('Canceled');
  });
});

describe('Stripe gateway (official SDK against the fake Stripe)', () => {
  let stripe: FakeStripe;
  let gateway: StripeGateway;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    gateway = paymentGatewayFor(testConfig(stripe.env)) as StripeGateway;
  });
  afterAll(() => stripe.close());

  it('creates a PaymentIntent with the amount in minor units and the booking reference', async () => {
    expect(gateway).toBeInstanceOf(StripeGateway);
    const intent = await gateway.createIntent({
      amountCents: 124_200,
      currency: 'EUR',
      bookingReference: 'ITN-ABC123',
      bookingId: 7,
      description: 'Deposit ITN-ABC123',
      idempotencyKey: 'deposit-7-124200',
    });
    const sent = stripe.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/payment_intents');
    expect(sent.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(sent.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(sent.headers['idempotency-key']).toBe('deposit-7-124200');
    expect(sent.form).toMatchObject({
      amount: '124200',
      currency: 'eur',
      'metadata[booking_reference]': 'ITN-ABC123',
      'metadata[booking_id]': '7',
      'automatic_payment_methods[enabled]': 'true',
    });
    expect(intent).toMatchObject({ status: 'Pending', amountCents: 124_200, currency: 'eur' });
    expect(intent.clientSecret).toMatch(/^pi_\w+_secret_/);
  });

  it('retrieves the intent to confirm its status', async () => {
    const intent = await gateway.createIntent({
      amountCents: 5_000,
      currency: 'EUR',
      bookingReference: 'R',
      bookingId: 1,
    });
    expect((await gateway.retrieveIntent(intent.id)).status).toBe('Pending');
    stripe.succeed(intent.id);
    const done = await gateway.retrieveIntent(intent.id);
    expect(done).toMatchObject({ status: 'Succeeded', metadata: { booking_reference: 'R', booking_id: '1' } });
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v1/payment_intents/${intent.id}` });
  });

  it('turns Stripe errors into payment errors', async () => {
    await expect(gateway.retrieveIntent('pi_unknown')).rejects.toMatchObject({
      status: 404,
      code: 'payment_intent_not_found',
    });
    stripe.failNext(500);
    stripe.failNext(500);
    await expect(
      gateway.createIntent({ amountCents: 100, currency: 'EUR', bookingReference: 'R', bookingId: 1 }),
    ).rejects.toBeInstanceOf(AppError);
  });
});

describe('gateway choice', () => {
  it('uses the sandbox gateway without a key outside production, none in production', async () => {
    const sandbox = paymentGatewayFor(testConfig());
    expect(sandbox).toBeInstanceOf(SandboxGateway);
    const intent = await sandbox!.createIntent({
      amountCents: 300,
      currency: 'EUR',
      bookingReference: 'R9',
      bookingId: 9,
    });
    expect(await sandbox!.retrieveIntent(intent.id)).toMatchObject({
      status: 'Succeeded',
      amountCents: 300,
      metadata: { booking_reference: 'R9' },
    });
    // production without a Stripe key does not boot (config.ts), so the sandbox never serves it
    expect(() => testConfig({ ...PRODUCTION_ENV, STRIPE_SECRET_KEY: '' })).toThrow(/STRIPE_SECRET_KEY/);
  });
});
