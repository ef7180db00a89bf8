// Money paths that always reconcile (issue 25, section 3), against the Stripe fake: a booking
// paid by any path is never paid again through the checkout, a duplicate payment is refunded, a
// pay-link balance finishes without the browser, the travelers booked are the ones paid for, the
// webhook trusts the gateway and not the event body, off-session `processing` and permanent
// errors, and a JPY booking end to end (ISO 4217 minor units).
//
// The booking most cases use: an offer for 2 at 7,569.98 EUR, departing in 120 days (balance due
// 60 days before). Deposit 30 %: 7,569.98 x 0.30 = 2,270.994 -> 2,270.99 (half up at the cent);
// balance 7,569.98 - 2,270.99 = 5,298.99.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../test/fakes/stripe.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  type CheckoutCatalog,
  offer,
  seedCheckoutCatalog,
  seedJpyMarket,
} from '../../../test/support/checkout-fixture.js';
import { CookieJar, clientInput, travelerInput } from '../../../test/support/checkout-jar.js';
import { runTaskCommand } from '../../../test/support/task-cli.js';
import {
  bookingBalances,
  bookingPassengers,
  bookingPayments,
  bookingRefunds,
  bookings,
  mailOutbox,
  offers,
} from '../../db/schema/index.js';
import { saveCardForBalance } from '../balance/service.js';
import { finalizeBooking } from '../bookings/finalization.js';
import * as bookingRecords from '../bookings/service.js';
import { lockOfferSeats } from '../catalog/offers.js';
import * as notifications from '../notifications/service.js';
import { holdSeats } from './repository.js';

let stripe: FakeStripe;
let t: TestApp;
let cat: CheckoutCatalog;
let jpy: Awaited<ReturnType<typeof seedJpyMarket>>;
const clientIp = `198.18.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
let n = 0;

class Jar extends CookieJar {
  constructor() {
    super(() => t.app, clientIp);
  }
}

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: { ...stripe.env, IN_PROCESS_WORKERS: 'false', FRONTEND_URL: 'https://travel.example' },
  });
  cat = await seedCheckoutCatalog(t.database);
  jpy = await seedJpyMarket(t.database, cat);
  t.app.ctx.markets.invalidate();
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});
beforeEach(() => {
  t.clock.set('2026-06-15T10:00:00Z');
});

/** a fresh offer for 2 at 7,569.98 EUR departing in 120 days (2026-10-13; balance due 2026-08-14) */
async function offer7569(): Promise<number> {
  const [model] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.active));
  const row = await offer(
    t.database.db,
    {
      code: `MONEY-${process.pid}-${++n}`,
      marketProductId: model.marketProductId,
      departureInDays: 120,
      landBasePrice: '4000.00',
      flightPrice: '900.00',
      finalPrice: '7569.98',
      pricePerPerson: '3784.99',
    },
    cat.today,
  );
  return row.id;
}

async function readyCheckout(offerId: number, base = '/api/es/es/checkout') {
  const jar = new Jar();
  const start = await jar.call('POST', `${base}/${offerId}`, {});
  expect(start.statusCode).toBe(201);
  expect((await jar.call('PUT', `${base}/contact`, { client: clientInput })).statusCode).toBe(200);
  const travelers = [travelerInput('Ana', 'P1'), travelerInput('Luis', 'P2')];
  expect((await jar.call('PUT', `${base}/travelers`, { travelers })).statusCode).toBe(200);
  return { jar, bookingId: start.json().data.booking_id as number, base };
}

async function intentOf(jar: Jar, base = '/api/es/es/checkout') {
  const res = await jar.call('POST', `${base}/payment/intent`);
  expect(res.statusCode).toBe(200);
  return res.json().data as { payment_intent_id: string; amount: number; total_price: number; remaining_price: number };
}

function deliver(e: { payload: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    payload: e.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': stripe.sign(e.payload) },
  });
}

const bookingOf = async (id: number) => (await t.database.db.select().from(bookings).where(eq(bookings.id, id)))[0];
const paymentsOf = (id: number) =>
  t.database.db.select().from(bookingPayments).where(eq(bookingPayments.bookingId, id)).orderBy(bookingPayments.id);
const refundsOf = (id: number) =>
  t.database.db.select().from(bookingRefunds).where(eq(bookingRefunds.bookingId, id)).orderBy(bookingRefunds.id);
const balanceOf = async (id: number) =>
  (await t.database.db.select().from(bookingBalances).where(eq(bookingBalances.bookingId, id)))[0];
const mailsOf = async (id: number) =>
  (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.bookingId, id)).orderBy(mailOutbox.id)).map(
    (m) => m.kind,
  );
const depositRequests = (bookingId: number) =>
  stripe.requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path === '/v1/payment_intents' &&
      r.form['metadata[booking_id]'] === String(bookingId) &&
      r.form.off_session !== 'true',
  );
const chargeRequests = (bookingId: number) =>
  stripe.requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path === '/v1/payment_intents' &&
      r.form['metadata[booking_id]'] === String(bookingId) &&
      r.form.off_session === 'true',
  );
const refundRequests = () => stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');

async function task(name: string, ...args: string[]) {
  return runTaskCommand(t, [name, ...args]);
}

describe('a booking no longer in checkout is never paid again through it', () => {
  it('after the webhook finalized it: session cleared, intent and confirm answer 409 booking_already_paid', async () => {
    const offerId = await offer7569();
    const { jar, bookingId, base } = await readyCheckout(offerId);
    const intent = await intentOf(jar);
    expect(intent).toMatchObject({ amount: 2270.99, total_price: 7569.98, remaining_price: 5298.99 });
    stripe.succeed(intent.payment_intent_id); // Stripe.js paid; our confirm never came
    const hook = await deliver(stripe.event('payment_intent.succeeded', intent.payment_intent_id));
    expect(hook.json()).toEqual({ received: true, duplicate: false, handled: true });
    expect((await bookingOf(bookingId)).status).toBe('pending_land_confirmation');

    // the finalization ended the checkout session
    expect((await jar.call('GET', base)).statusCode).toBe(404);
    const again = await jar.call('POST', `${base}/payment/intent`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, error: 'booking_already_paid' });
    expect(depositRequests(bookingId)).toHaveLength(1);
    // the intent that paid still answers its confirmation (a reload of the confirm call)
    const confirm = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json().data).toMatchObject({ amount_paid: 2270.99, status: 'pending_land_confirmation' });

    // the balance later takes exactly what remains: 5,298.99, never 9,840.97 in all
    await saveCardForBalance(t.database.db, {
      bookingId,
      gatewayCode: 'stripe',
      customerId: 'cus_x',
      paymentMethodId: 'pm_card_visa',
    });
    await task('balance.collect', '--as-of=2026-08-14');
    expect(chargeRequests(bookingId).map((r) => r.form.amount)).toEqual(['529899']);
    const paid = (await paymentsOf(bookingId)).filter((p) => p.status === 'Succeeded').map((p) => p.amount);
    expect(paid).toEqual(['2270.99', '5298.99']); // 7,569.98 in all
  });

  it('after the reconciliation finalized it: 409 booking_already_paid, one intent at Stripe', async () => {
    const offerId = await offer7569();
    const { jar, bookingId, base } = await readyCheckout(offerId);
    const intent = await intentOf(jar);
    stripe.succeed(intent.payment_intent_id);
    t.clock.advance(16 * 60_000);
    expect((await task('payments.reconcile')).code).toBe(0);
    expect((await bookingOf(bookingId)).status).toBe('pending_land_confirmation');
    const again = await jar.call('POST', `${base}/payment/intent`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('booking_already_paid');
    expect(depositRequests(bookingId)).toHaveLength(1);
  });

  it('two intents both paid at Stripe: the second is recorded and refunded in full, never kept', async () => {
    const offerId = await offer7569();
    const { jar, bookingId, base } = await readyCheckout(offerId);
    const first = await intentOf(jar);
    // the customer adds the sushi class (40.00 x 2): a new quote of 7,649.98, deposit
    // 7,649.98 x 0.30 = 2,294.994 -> 2,294.99; the first intent is canceled at Stripe ...
    const put = await jar.call('PUT', `${base}/activities`, {
      activity_selections: [{ activity_id: cat.activities.sushi, day_number: 2 }],
    });
    expect(put.statusCode).toBe(200);
    const second = await intentOf(jar);
    expect(second.amount).toBe(2294.99);
    expect(second.payment_intent_id).not.toBe(first.payment_intent_id);
    // ... but another tab had paid it in the same instant (Stripe settled it before the cancel)
    const raced = stripe.intents.get(first.payment_intent_id)!;
    raced.status = 'succeeded';
    raced.amount_received = raced.amount;
    stripe.succeed(second.payment_intent_id);
    const ok = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: second.payment_intent_id });
    expect(ok.statusCode).toBe(200);
    // the first intent's webhook arrives: recorded, refunded, the booking unchanged
    const hook = await deliver(stripe.event('payment_intent.succeeded', first.payment_intent_id));
    expect(hook.statusCode).toBe(200);
    // and again (a redelivery under another event id): nothing more
    expect((await deliver(stripe.event('payment_intent.succeeded', first.payment_intent_id))).statusCode).toBe(200);

    const passengers = await t.database.db
      .select()
      .from(bookingPassengers)
      .where(eq(bookingPassengers.bookingId, bookingId));
    expect(passengers).toHaveLength(2);
    const moves = await bookingRecords.transitionsOf(t.database.db, bookingId);
    expect(moves.map((m) => m.toStatus)).toEqual(['pending_land_confirmation']);
    expect(moves[0].metadata).toMatchObject({ payment_intent_id: second.payment_intent_id, amount_paid: 2294.99 });
    const refunds = await refundsOf(bookingId);
    expect(refunds).toMatchObject([
      {
        kind: 'duplicate_payment',
        amount: '2270.99',
        currency: 'EUR',
        status: 'succeeded',
        sequence: 1,
        idempotencyKey: `refund-${bookingId}-1`,
      },
    ]);
    const sent = refundRequests().filter((r) => r.form.payment_intent === first.payment_intent_id);
    expect(sent).toHaveLength(1);
    expect(sent[0].headers['idempotency-key']).toBe(`refund-${bookingId}-1`);
    expect(sent[0].form).toMatchObject({ amount: '227099', reason: 'duplicate' });
    const notes = await notifications.notificationsOf(t.database.db, bookingId);
    expect(notes.filter((x) => x.type === 'payment_duplicate')).toHaveLength(1);
    // a confirm of the refunded intent now: 409, nothing charged or finalized again
    const late = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: first.payment_intent_id });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('booking_already_paid');
  });
});

describe('pay-link balance payments finish without the browser', () => {
  async function linkIntent() {
    const offerId = await offer7569();
    const { jar, bookingId } = await readyCheckout(offerId);
    const intent = await intentOf(jar);
    stripe.succeed(intent.payment_intent_id);
    await jar.call('POST', '/api/es/es/checkout/payment/confirm', { payment_intent_id: intent.payment_intent_id });
    const b = await bookingOf(bookingId);
    await task('balance.collect', '--as-of=2026-08-10'); // the reminder, with the pay link
    const outbox = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.bookingId, bookingId));
    const reminder = outbox.find((m) => m.kind === 'balance_reminder')!;
    const search = new URL(/https:\/\/travel\.example\/\S+/.exec(reminder.textBody)![0]).search;
    const res = await t.app.inject({ method: 'POST', url: `/api/es/es/balance/${b.reference}/intent${search}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ amount: 5298.99 });
    return { bookingId, linkId: res.json().data.payment_intent_id as string };
  }

  it('the signed payment_intent.succeeded of a pay-link intent records the balance', async () => {
    const { bookingId, linkId } = await linkIntent();
    stripe.succeed(linkId); // paid on the pay page, whose confirm call never arrives
    const hook = await deliver(stripe.event('payment_intent.succeeded', linkId));
    expect(hook.json()).toEqual({ received: true, duplicate: false, handled: true });
    expect(await balanceOf(bookingId)).toMatchObject({
      status: 'paid',
      amountPaid: '7569.98',
      remainingPrice: '0.00',
    });
    expect((await bookingOf(bookingId)).status).toBe('fully_paid');
    await task('balance.collect', '--as-of=2026-08-14');
    expect(chargeRequests(bookingId)).toEqual([]);
  });

  it('payments.reconcile records a paid pay-link intent nobody confirmed', async () => {
    const { bookingId, linkId } = await linkIntent();
    stripe.succeed(linkId);
    t.clock.advance(16 * 60_000);
    const run = await task('payments.reconcile');
    expect(run.code).toBe(0);
    expect(run.lines.join('\n')).toContain('balance_paid 1');
    expect(await balanceOf(bookingId)).toMatchObject({ status: 'paid', remainingPrice: '0.00' });
    expect((await bookingOf(bookingId)).status).toBe('fully_paid');
    expect(await mailsOf(bookingId)).toContain('balance_receipt');
  });
});

describe('finalization books the data that was paid for', () => {
  it('travelers edited after the intent: confirm answers 409 quote_changed, the new intent books "Louis"', async () => {
    const offerId = await offer7569();
    const { jar, bookingId, base } = await readyCheckout(offerId);
    const intent = await intentOf(jar);
    const edited = await jar.call('PUT', `${base}/travelers`, {
      travelers: [travelerInput('Ana', 'P1'), travelerInput('Louis', 'P2')],
    });
    expect(edited.statusCode).toBe(200);
    stripe.succeed(intent.payment_intent_id);
    const refused = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, error: 'quote_changed' });
    expect((await bookingOf(bookingId)).status).toBe('checkout');
    // the intent again: the same selections keep the same (paid) intent, its quote takes the names
    const again = await intentOf(jar);
    expect(again.payment_intent_id).toBe(intent.payment_intent_id);
    const ok = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(ok.statusCode).toBe(200);
    const names = (await bookingRecords.passengersOf(t.database.db, bookingId)).map((p) => p.firstName);
    expect(names).toEqual(['Ana', 'Louis']);
  });

  it('the contact changed after the intent: 409 quote_changed as well', async () => {
    const offerId = await offer7569();
    const { jar, base } = await readyCheckout(offerId);
    const intent = await intentOf(jar);
    await jar.call('PUT', `${base}/contact`, { client: { ...clientInput, email: 'ana.new@example.com' } });
    stripe.succeed(intent.payment_intent_id);
    const refused = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('quote_changed');
  });
});

describe('the webhook never trusts the event body for money', () => {
  it('a signed payment_intent.succeeded carrying amount 1 USD for an unpaid intent finalizes nothing', async () => {
    const offerId = await offer7569();
    const { jar, bookingId } = await readyCheckout(offerId);
    const intent = await intentOf(jar);
    const forged = JSON.stringify({
      id: `evt_forged_${bookingId}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: {
        object: {
          id: intent.payment_intent_id,
          object: 'payment_intent',
          status: 'succeeded',
          amount: 1,
          amount_received: 1,
          currency: 'usd',
        },
      },
    });
    const res = await deliver({ payload: forged });
    expect(res.statusCode).toBe(200);
    expect((await bookingOf(bookingId)).status).toBe('checkout');
    const [payment] = await paymentsOf(bookingId);
    expect(payment.status).toBe('Pending'); // what Stripe says: requires_payment_method
    expect(payment.finalizedAt).toBeNull();
    // it asked Stripe
    expect(
      stripe.requests.some((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${intent.payment_intent_id}`),
    ).toBe(true);
  });

  it('an intent paid with another amount or currency than its quote: recorded, admins told, not finalized', async () => {
    const offerId = await offer7569();
    const { jar, bookingId } = await readyCheckout(offerId);
    const intent = await intentOf(jar);
    // changed at the gateway behind our back (e.g. a dashboard edit): 1.00 USD, then paid
    const pi = stripe.intents.get(intent.payment_intent_id)!;
    pi.amount = 100;
    pi.currency = 'usd';
    stripe.succeed(intent.payment_intent_id);
    const res = await deliver(stripe.event('payment_intent.succeeded', intent.payment_intent_id));
    expect(res.statusCode).toBe(200);
    expect((await bookingOf(bookingId)).status).toBe('checkout');
    const notes = await notifications.notificationsOf(t.database.db, bookingId);
    expect(notes.filter((x) => x.type === 'payment_mismatch')).toHaveLength(1);
    expect(notes.find((x) => x.type === 'payment_mismatch')!.message).toContain('currency USD instead of EUR');
    expect((await paymentsOf(bookingId))[0].finalizedAt).toBeNull();
  });
});

describe('off-session balance charges: processing and permanent errors', () => {
  async function paidWith(paymentMethodId: string) {
    const offerId = await offer7569();
    const { jar, bookingId, base } = await readyCheckout(offerId);
    const intent = await intentOf(jar);
    stripe.succeed(intent.payment_intent_id);
    await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    await saveCardForBalance(t.database.db, { bookingId, gatewayCode: 'stripe', customerId: 'cus_m', paymentMethodId });
    return bookingId;
  }

  it('processing (SEPA debit): a pending payment, no pay link, no second charge; its webhook finishes it', async () => {
    const bookingId = await paidWith('pm_sepaDebit');
    t.clock.set('2026-08-14T09:00:00Z');
    const run = await task('balance.collect');
    expect(run.lines).toContain(`booking ${bookingId}: processing`);
    expect(await balanceOf(bookingId)).toMatchObject({ status: 'processing', remainingPrice: '5298.99' });
    const debit = stripe.offSession.chargesFor(bookingId)[0];
    expect(debit.status).toBe('processing');
    expect((await paymentsOf(bookingId)).at(-1)).toMatchObject({ intentId: debit.id, status: 'Processing' });
    expect(await mailsOf(bookingId)).not.toContain('balance_failed');
    // the next runs (a day later, three days later) charge nothing more
    t.clock.set('2026-08-15T09:00:00Z');
    await task('balance.collect');
    t.clock.set('2026-08-17T09:00:00Z');
    await task('balance.collect');
    expect(chargeRequests(bookingId)).toHaveLength(1);
    // the bank pays: Stripe's webhook finishes it
    stripe.finishProcessing(debit.id, true);
    const hook = await deliver(stripe.event('payment_intent.succeeded', debit.id));
    expect(hook.json().handled).toBe(true);
    expect(await balanceOf(bookingId)).toMatchObject({ status: 'paid', amountPaid: '7569.98', remainingPrice: '0.00' });
    expect((await bookingOf(bookingId)).status).toBe('fully_paid');
    expect(await mailsOf(bookingId)).toContain('balance_receipt');
  });

  it('a processing debit that bounces is a failed charge: pay link, next try', async () => {
    const bookingId = await paidWith('pm_sepaDebit');
    t.clock.set('2026-08-14T09:00:00Z');
    await task('balance.collect');
    const debit = stripe.offSession.chargesFor(bookingId)[0];
    stripe.finishProcessing(debit.id, false);
    await deliver(stripe.event('payment_intent.payment_failed', debit.id));
    expect(await balanceOf(bookingId)).toMatchObject({ status: 'retrying', attempts: 1 });
    expect(await mailsOf(bookingId)).toContain('balance_failed');
    // the debit is on record as a payment that failed, not a decline at charge time
    expect((await paymentsOf(bookingId)).at(-1)).toMatchObject({ intentId: debit.id, status: 'Failed' });
  });

  it('a detached payment method (Stripe 400 resource_missing) ends the attempts at once, mails and notifies', async () => {
    const bookingId = await paidWith('pm_card_visa_gone');
    stripe.offSession.detached.add('pm_card_visa_gone');
    t.clock.set('2026-08-14T09:00:00Z');
    const run = await task('balance.collect');
    expect(run.lines).toContain(`booking ${bookingId}: failed`);
    expect(await balanceOf(bookingId)).toMatchObject({
      status: 'awaiting_customer',
      attempts: 1,
      nextAttemptAt: null,
      lastError: expect.objectContaining({ outcome: 'permanent', code: 'resource_missing' }),
    });
    expect(await mailsOf(bookingId)).toContain('balance_failed');
    const notes = await notifications.notificationsOf(t.database.db, bookingId);
    expect(notes.map((x) => x.type)).toContain('balance_card_unusable');
    // never retried: +24 h, +72 h, the departure week
    for (const at of ['2026-08-15T10:00:00Z', '2026-08-17T10:00:00Z', '2026-10-01T10:00:00Z']) {
      t.clock.set(at);
      await task('balance.collect');
    }
    expect(chargeRequests(bookingId)).toHaveLength(1);
    expect((await bookingOf(bookingId)).status).toBe('pending_land_confirmation');
  });
});

describe('ISO 4217 minor units at the gateway', () => {
  it('a JPY booking end to end: whole yen sent as the amount, never x100', async () => {
    const base = '/api/jp/en/checkout';
    const { jar, bookingId } = await readyCheckout(jpy.offerId, base);
    const intent = await intentOf(jar, base);
    // 452,346 x 0.30 = 135,703.8 -> 135,704 yen (no minor unit); balance 452,346 - 135,704 = 316,642
    expect(intent).toMatchObject({ amount: 135704, total_price: 452346, remaining_price: 316642 });
    const [created] = depositRequests(bookingId);
    expect(created.form).toMatchObject({ amount: '135704', currency: 'jpy' });
    stripe.succeed(intent.payment_intent_id);
    const ok = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ amount_paid: 135704 });
    expect(await balanceOf(bookingId)).toMatchObject({
      amountPaid: '135704.00',
      remainingPrice: '316642.00',
      currency: 'JPY',
    });
    await saveCardForBalance(t.database.db, {
      bookingId,
      gatewayCode: 'stripe',
      customerId: 'cus_jp',
      paymentMethodId: 'pm_card_visa',
    });
    t.clock.set('2026-08-14T09:00:00Z');
    await task('balance.collect');
    expect(chargeRequests(bookingId).map((r) => [r.form.amount, r.form.currency])).toEqual([['316642', 'jpy']]);
    expect(await balanceOf(bookingId)).toMatchObject({ status: 'paid', amountPaid: '452346.00' });
  });
});

describe('finalization runs once per intent, and the seat lock holds on PostgreSQL', () => {
  it('a second finalization of the same intent changes nothing: 2 passengers, 1 transition, no refund', async () => {
    const offerId = await offer7569();
    const { jar, bookingId, base } = await readyCheckout(offerId);
    const intent = await intentOf(jar);
    stripe.succeed(intent.payment_intent_id);
    await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    const again = await finalizeBooking(t.app.ctx, {
      intentId: intent.payment_intent_id,
      amountCents: 227_099,
      source: 'webhook',
    });
    expect(again).toMatchObject({ finalized: false, refunds: [], confirmation: { amount_paid: 2270.99 } });
    expect(await bookingRecords.passengersOf(t.database.db, bookingId)).toHaveLength(2);
    expect(await bookingRecords.transitionsOf(t.database.db, bookingId)).toHaveLength(1);
    expect(await refundsOf(bookingId)).toEqual([]);
  });

  // PGlite has one connection (every transaction runs alone): the race needs PostgreSQL
  it.skipIf(!process.env.DATABASE_URL)(
    'a checkout counting the last seats waits for the row lock of one that is holding them',
    async () => {
      const offerId = await offer7569();
      await t.database.db.update(offers).set({ allotment: 2 }).where(eq(offers.id, offerId));
      const first = await readyCheckout(offerId);
      const second = await readyCheckout(offerId);
      let release!: () => void;
      const barrier = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // the first checkout's intent, stopped between its seat count and its commit
      const open = t.database.db.transaction(async (tx) => {
        await lockOfferSeats(tx, offerId);
        await holdSeats(tx, {
          bookingId: first.bookingId,
          offerId,
          seats: 2,
          expiresAt: new Date(t.clock.now().getTime() + 30 * 60_000),
        });
        locked();
        await barrier;
      });
      await holding;
      const racing = second.jar.call('POST', `${second.base}/payment/intent`);
      // the second must be waiting on the lock, not answering: without FOR UPDATE it would have
      // counted 2 free seats and made an intent by now
      const waiting = async () =>
        (
          await t.database.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          )
        ).rows[0].n > 0;
      const outcome = await Promise.race([
        racing.then(() => 'answered'),
        (async () => {
          for (let i = 0; i < 200 && !(await waiting()); i++) await new Promise((r) => setTimeout(r, 50));
          return (await waiting()) ? 'waiting' : 'never blocked';
        })(),
      ]);
      expect(outcome).toBe('waiting');
      release();
      await open;
      const res = await racing;
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('offer_sold_out');
      expect(depositRequests(second.bookingId)).toEqual([]);
    },
  );
});
