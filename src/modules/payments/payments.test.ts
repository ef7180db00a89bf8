import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../test/fakes/stripe.js';
import { PRODUCTION_ENV, testConfig } from '../../../test/support/app.js';
import { createTestDatabase } from '../../../test/support/db.js';
import type { Database } from '../../db/database.js';
import { AppError } from '../../platform/errors.js';
import { paymentGatewayFor, SandboxGateway, StripeGateway, verifiedEvent } from './gateway.js';
import { canonicalJson, depositCents, paymentStatusOf, seatsLeft, selectionText } from './rules.js';

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
    expect(paymentStatusOf('processing')).toBe('Processing');
    expect(paymentStatusOf('requires_payment_method')).toBe('Pending');
    expect(paymentStatusOf('requires_action')).toBe('RequiresAction');
    expect(paymentStatusOf('canceled')).toBe('Canceled');
  });
});

describe('quote rules', () => {
  it('fingerprints the selections whatever the key order, not their prices refreshed elsewhere', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }] })).toBe('{"a":[{"c":null,"d":2}],"b":1}');
    const base = {
      flightSelection: { cabin_class: 'ECONOMY', fare_id: 'f1' },
      hotelSelections: [],
      activitySelections: [{ activity_id: 3, day_number: 2 }],
      transferSelections: [],
      actualPaxCount: 2,
      actualRoomType: '2A',
    };
    const reordered = { ...base, flightSelection: { fare_id: 'f1', cabin_class: 'ECONOMY' } };
    expect(selectionText(reordered)).toBe(selectionText(base));
    expect(selectionText({ ...base, actualPaxCount: 3 })).not.toBe(selectionText(base));
  });

  it('counts seats left after paid and held seats', () => {
    expect(seatsLeft(10, 6, 2)).toBe(2);
    expect(seatsLeft(10, 6, 5)).toBe(0);
  });
});

const request = (over: Partial<Parameters<StripeGateway['createIntent']>[0]> = {}) => ({
  amountCents: 124_200,
  currency: 'EUR',
  bookingReference: 'ITN-ABC123',
  bookingId: 7,
  description: 'Deposit ITN-ABC123',
  customer: { email: 'ana@example.com', name: 'Ana Garcia' },
  idempotencyKey: 'deposit-7-abc-0',
  ...over,
});

describe('Stripe gateway (official SDK against the fake Stripe)', () => {
  let stripe: FakeStripe;
  let gateway: StripeGateway;
  let database: Database;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    database = await createTestDatabase();
    gateway = paymentGatewayFor(testConfig(stripe.env), database) as StripeGateway;
  });
  afterAll(async () => {
    await stripe.close();
    await database.close();
  });

  it('creates a Customer and a PaymentIntent that saves the card for off-session use', async () => {
    expect(gateway).toBeInstanceOf(StripeGateway);
    const intent = await gateway.createIntent(request());
    const [list, customer, created] = stripe.requests.slice(-3);
    expect(list).toMatchObject({
      method: 'GET',
      path: '/v1/customers',
      query: { email: 'ana@example.com', limit: '1' },
    });
    expect(customer).toMatchObject({ method: 'POST', path: '/v1/customers' });
    expect(customer.form).toMatchObject({ email: 'ana@example.com', name: 'Ana Garcia' });
    expect(customer.headers['idempotency-key']).toBe('customer-deposit-7-abc-0');
    expect(created.method).toBe('POST');
    expect(created.path).toBe('/v1/payment_intents');
    expect(created.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(created.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(created.headers['idempotency-key']).toBe('deposit-7-abc-0');
    const customerId = [...stripe.customers.keys()][0];
    expect(created.form).toMatchObject({
      amount: '124200',
      currency: 'eur',
      customer: customerId,
      setup_future_usage: 'off_session',
      'metadata[booking_reference]': 'ITN-ABC123',
      'metadata[booking_id]': '7',
      'automatic_payment_methods[enabled]': 'true',
    });
    expect(intent).toMatchObject({ status: 'Pending', amountCents: 124_200, currency: 'eur', customerId });
    expect(intent.clientSecret).toMatch(/^pi_\w+_secret_/);

    // the same customer is found again by e-mail; the same key replays the same intent
    const again = await gateway.createIntent(request());
    expect(again.id).toBe(intent.id);
    expect(stripe.customers.size).toBe(1);
    expect(stripe.intents.size).toBe(1);
  });

  it('retrieves, confirms with test methods and cancels', async () => {
    const intent = await gateway.createIntent(request({ idempotencyKey: 'deposit-8-x-0', bookingId: 8 }));
    expect((await gateway.retrieveIntent(intent.id)).status).toBe('Pending');

    const declined = await gateway.confirmIntent(intent.id, 'pm_card_chargeDeclined');
    expect(declined.status).toBe('Pending');
    const action = await gateway.confirmIntent(intent.id, 'pm_card_authenticationRequired');
    expect(action.status).toBe('RequiresAction');
    const paid = await gateway.confirmIntent(intent.id, 'pm_card_visa');
    expect(paid).toMatchObject({ status: 'Succeeded', paymentMethodId: `pm_card_visa_${intent.customerId}` });
    const confirm = stripe.requests.at(-1)!;
    expect(confirm).toMatchObject({ method: 'POST', path: `/v1/payment_intents/${intent.id}/confirm` });
    expect(confirm.form).toMatchObject({
      payment_method: 'pm_card_visa',
      return_url: 'http://www.api.test/checkout/payment',
    });
    // a paid intent cannot be canceled: the gateway says what it is
    expect((await gateway.cancelIntent(intent.id)).status).toBe('Succeeded');

    const other = await gateway.createIntent(request({ idempotencyKey: 'deposit-9-x-0', bookingId: 9 }));
    expect((await gateway.cancelIntent(other.id)).status).toBe('Canceled');
    expect(stripe.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v1/payment_intents/${other.id}/cancel` });
  });

  it('turns Stripe errors into payment errors', async () => {
    await expect(gateway.retrieveIntent('pi_unknown')).rejects.toMatchObject({
      status: 404,
      code: 'payment_intent_not_found',
    });
    stripe.failNext(500);
    stripe.failNext(500);
    await expect(gateway.createIntent(request({ idempotencyKey: 'k-fail' }))).rejects.toBeInstanceOf(AppError);
  });

  it('verifies webhook signatures with the SDK', () => {
    const intent = [...stripe.intents.values()][0];
    const { payload } = stripe.event('payment_intent.succeeded', intent.id);
    const header = stripe.sign(payload);
    expect(verifiedEvent(Buffer.from(payload), header, stripe.webhookSecret)?.type).toBe('payment_intent.succeeded');
    expect(verifiedEvent(Buffer.from(payload), header, 'whsec_other')).toBeNull();
    expect(verifiedEvent(Buffer.from(`${payload} `), header, stripe.webhookSecret)).toBeNull();
    expect(verifiedEvent(Buffer.from(payload), undefined, stripe.webhookSecret)).toBeNull();
  });
});

describe('gateway choice and the sandbox', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('uses the sandbox gateway without a key outside production, none in production', async () => {
    const sandbox = paymentGatewayFor(testConfig(), database);
    expect(sandbox).toBeInstanceOf(SandboxGateway);
    const intent = await sandbox!.createIntent(request({ amountCents: 300, bookingReference: 'R9', bookingId: 9 }));
    expect(await sandbox!.retrieveIntent(intent.id)).toMatchObject({
      status: 'Pending',
      amountCents: 300,
      metadata: { booking_reference: 'R9' },
    });
    expect(intent.customerId).toMatch(/^cus_sandbox_/);
    expect((await sandbox!.confirmIntent(intent.id, 'pm_card_chargeDeclined')).status).toBe('Pending');
    expect((await sandbox!.confirmIntent(intent.id, 'pm_card_authenticationRequired')).status).toBe('RequiresAction');
    const paid = await sandbox!.confirmIntent(intent.id, 'pm_card_visa');
    expect(paid.status).toBe('Succeeded');
    expect(paid.paymentMethodId).toMatch(/^pm_card_visa_/);
    expect((await sandbox!.cancelIntent(intent.id)).status).toBe('Succeeded');
    // production without a Stripe key does not boot (config.ts), so the sandbox never serves it
    expect(() => testConfig({ ...PRODUCTION_ENV, STRIPE_SECRET_KEY: '' })).toThrow(/STRIPE_SECRET_KEY/);
  });
});
