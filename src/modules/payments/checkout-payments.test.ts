// Payments that finish without the browser and seats that hold, on the embedded default (sandbox
// gateway, which understands Stripe's test payment methods): the webhook alone (browser closed),
// the reconciliation alone (webhook lost), duplicate and simultaneous deliveries, idempotent
// confirm, expired holds and the race for the last seats.

import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { CookieJar, clientInput, travelerInput } from '../../../test/support/checkout-jar.js';
import { bookingPassengers, bookings, offers, seatHolds, taskRuns } from '../../db/schema/index.js';
import { allTasks, runTask } from '../../tasks.js';
import * as bookingRecords from '../bookings/repository.js';
import { SandboxGateway } from './gateway.js';
import { findPayment } from './repository.js';

let t: TestApp;
let cat: CheckoutCatalog;
const base = '/api/es/es/checkout';
const clientIp = `198.18.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
const SECRET = 'whsec_itinera_demo'; // the demo default outside production

/** a browser of this file's client address, on this file's app */
class Jar extends CookieJar {
  constructor() {
    super(() => t.app, clientIp);
  }
}
const traveler = travelerInput;
const client = clientInput;

/** A checkout ready to pay: contact and two travelers. */
async function readyCheckout(): Promise<{ jar: Jar; bookingId: number }> {
  const jar = new Jar();
  const start = await jar.call('POST', `${base}/${cat.offers.active}`, {});
  expect(start.statusCode).toBe(201);
  await jar.call('PUT', `${base}/contact`, { client });
  await jar.call('PUT', `${base}/travelers`, { travelers: [traveler('Ana', 'P1'), traveler('Luis', 'P2')] });
  return { jar, bookingId: start.json().data.booking_id };
}

async function intentOf(jar: Jar) {
  const res = await jar.call('POST', `${base}/payment/intent`);
  expect(res.statusCode).toBe(200);
  return res.json().data as { payment_intent_id: string; amount: number; total_price: number; client_secret: string };
}

let eventCounter = 0;
function signedEvent(type: string, intentId: string, over: Record<string, unknown> = {}, id?: string) {
  const payload = JSON.stringify({
    id: id ?? `evt_test_${Date.now()}_${eventCounter++}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: { id: intentId, object: 'payment_intent', status: 'succeeded', ...over } },
  });
  return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }) };
}

function deliver(e: { payload: string; header?: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    payload: e.payload,
    headers: { 'content-type': 'application/json', ...(e.header ? { 'stripe-signature': e.header } : {}) },
  });
}

async function booking(id: number) {
  const [b] = await t.database.db.select().from(bookings).where(eq(bookings.id, id));
  return b;
}

async function passengerCount(bookingId: number) {
  const rows = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(bookingPassengers)
    .where(eq(bookingPassengers.bookingId, bookingId));
  return Number(rows[0].n);
}

async function seatsUsed() {
  const [o] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.active));
  return o;
}

async function task(name: string) {
  const found = allTasks(t.app.ctx).find((x) => x.name === name)!;
  return runTask(t.app.ctx, found, { asOf: t.clock.now(), trigger: 'command', options: {}, out: () => {} });
}

beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' } });
  cat = await seedCheckoutCatalog(t.database);
});
afterAll(() => t.close());
beforeEach(async () => {
  // each case starts with the offer's seats free and no holds of earlier cases
  await t.database.db.delete(seatHolds);
  await t.database.db.update(offers).set({ allotmentUsed: 0 }).where(eq(offers.id, cat.offers.active));
});

describe('confirm with the sandbox test payment methods', () => {
  it('declines, asks for authentication, then succeeds; confirm stays idempotent after the session ends', async () => {
    const { jar, bookingId } = await readyCheckout();
    const intent = await intentOf(jar);
    const again = await intentOf(jar);
    expect(again.payment_intent_id).toBe(intent.payment_intent_id); // same selections, same intent

    const declined = await jar.call('POST', `${base}/payment/confirm`, {
      payment_intent_id: intent.payment_intent_id,
      payment_method: 'pm_card_chargeDeclined',
    });
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ success: false, error: 'payment_not_succeeded' });
    expect((await booking(bookingId)).status).toBe('checkout');

    const action = await jar.call('POST', `${base}/payment/confirm`, {
      payment_intent_id: intent.payment_intent_id,
      payment_method: 'pm_card_authenticationRequired',
    });
    expect(action.statusCode).toBe(402);
    expect(action.json()).toMatchObject({
      success: false,
      error: 'payment_requires_action',
      client_secret: again.client_secret,
      payment_intent_id: intent.payment_intent_id,
    });

    const done = await jar.call('POST', `${base}/payment/confirm`, {
      payment_intent_id: intent.payment_intent_id,
      payment_method: 'pm_card_visa',
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'pending_land_confirmation', amount_paid: intent.amount });
    const payment = await findPayment(t.database.db, intent.payment_intent_id);
    expect(payment).toMatchObject({ status: 'Succeeded', customerId: expect.stringMatching(/^cus_sandbox_/) });
    expect(payment!.paymentMethodId).toMatch(/^pm_card_visa_/);

    // the session is cleared; the same confirm answers the same body
    expect((await jar.call('GET', base)).statusCode).toBe(404);
    const repeat = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual(done.json());
    // another visitor without that session learns nothing
    const stranger = await new Jar().call('POST', `${base}/payment/confirm`, {
      payment_intent_id: intent.payment_intent_id,
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toMatchObject({ error: 'no_checkout_session' });
    expect((await seatsUsed()).allotmentUsed).toBe(2);
  });

  it('answers no_checkout_session before looking at the body', async () => {
    const res = await new Jar().call('POST', `${base}/payment/confirm`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: 'no_checkout_session' });
  });
});

describe('Stripe webhook', () => {
  it('finalizes the stored quote when the browser closed before confirm', async () => {
    const { jar, bookingId } = await readyCheckout();
    const intent = await intentOf(jar);
    // Stripe.js paid it in the browser (the sandbox's confirm), then the tab closed and the session
    // expired: the quote has what is needed, the webhook asks the gateway whether it was paid
    await new SandboxGateway(t.database).confirmIntent(intent.payment_intent_id, 'pm_card_visa');
    t.clock.advance(3 * 60 * 60_000);
    const res = await deliver(signedEvent('payment_intent.succeeded', intent.payment_intent_id, { amount: 117300 }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true, duplicate: false, handled: true });
    const b = await booking(bookingId);
    expect(b.status).toBe('pending_land_confirmation');
    expect(await passengerCount(bookingId)).toBe(2);
    expect(toCentsString(b.totalPrice)).toBe(toCentsString(String(intent.total_price)));
    const moves = await bookingRecords.transitionsOf(t.database.db, bookingId);
    expect(moves.map((m) => m.metadata)).toEqual([expect.objectContaining({ source: 'webhook', amount_paid: 1173 })]);
    expect((await seatsUsed()).allotmentUsed).toBe(2);
    expect(await t.database.db.select().from(seatHolds).where(eq(seatHolds.bookingId, bookingId))).toEqual([]);
  });

  it('refuses a bad or missing signature and changes nothing', async () => {
    const { jar, bookingId } = await readyCheckout();
    const intent = await intentOf(jar);
    const good = signedEvent('payment_intent.succeeded', intent.payment_intent_id);
    const forged = {
      payload: good.payload,
      header: Stripe.webhooks.generateTestHeaderString({ payload: good.payload, secret: 'whsec_wrong' }),
    };
    for (const e of [forged, { payload: good.payload }, { payload: `${good.payload} `, header: good.header }]) {
      const res = await deliver(e);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: 'invalid_signature' });
    }
    expect((await booking(bookingId)).status).toBe('checkout');
    // the event was not used up: the genuine delivery still works
    expect((await deliver(good)).json()).toMatchObject({ handled: true });
  });

  it('records failed and processing payments; unknown events and intents are acknowledged', async () => {
    const { jar, bookingId } = await readyCheckout();
    const intent = await intentOf(jar);
    const failed = await deliver(signedEvent('payment_intent.payment_failed', intent.payment_intent_id));
    expect(failed.json()).toMatchObject({ handled: true });
    expect((await findPayment(t.database.db, intent.payment_intent_id))!.status).toBe('Failed');
    const [before] = await t.database.db.select().from(seatHolds).where(eq(seatHolds.bookingId, bookingId));
    t.clock.advance(20 * 60_000);
    const processing = await deliver(signedEvent('payment_intent.processing', intent.payment_intent_id));
    expect(processing.json()).toMatchObject({ handled: true });
    expect((await findPayment(t.database.db, intent.payment_intent_id))!.status).toBe('Processing');
    const [after] = await t.database.db.select().from(seatHolds).where(eq(seatHolds.bookingId, bookingId));
    expect(after.expiresAt.getTime()).toBe(before.expiresAt.getTime() + 20 * 60_000);

    const unknownType = await deliver(signedEvent('charge.refunded', intent.payment_intent_id));
    expect(unknownType.statusCode).toBe(200);
    expect(unknownType.json()).toEqual({ received: true, duplicate: false, handled: false });
    const unknownIntent = await deliver(signedEvent('payment_intent.succeeded', 'pi_not_ours'));
    expect(unknownIntent.json()).toEqual({ received: true, duplicate: false, handled: false });
    expect((await booking(bookingId)).status).toBe('checkout');
  });

  it('processes an event once, and one finalization wins when confirm and deliveries arrive together', async () => {
    const { jar, bookingId } = await readyCheckout();
    const intent = await intentOf(jar);
    const used = (await seatsUsed()).allotmentUsed;
    const first = signedEvent('payment_intent.succeeded', intent.payment_intent_id);
    const other = signedEvent('payment_intent.succeeded', intent.payment_intent_id);
    const answers = await Promise.all([
      deliver(first),
      deliver(first),
      deliver(other),
      jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(
      answers
        .slice(0, 2)
        .map((r) => r.json().duplicate)
        .sort(),
    ).toEqual([false, true]);
    expect(await passengerCount(bookingId)).toBe(2);
    expect((await bookingRecords.transitionsOf(t.database.db, bookingId)).length).toBe(1);
    expect((await bookingRecords.upsellsOf(t.database.db, bookingId)).length).toBe(0);
    expect((await seatsUsed()).allotmentUsed).toBe(used + 2);
    // a redelivery later is a no-op
    expect((await deliver(first)).json()).toEqual({ received: true, duplicate: true, handled: false });
  });
});

describe('reconciliation and holds', () => {
  it('finalizes a paid intent whose confirm and webhook never came', async () => {
    const { jar, bookingId } = await readyCheckout();
    const intent = await intentOf(jar);
    // Stripe.js paid it in the browser; nothing reached us
    const settlement = (await import('./settlement.js')).paymentSettlementOf(t.app.ctx);
    await settlement.gateway!.confirmIntent(intent.payment_intent_id, 'pm_card_visa');

    t.clock.advance(10 * 60_000);
    expect((await task('payments.reconcile')).message).toContain('finalized 0');
    expect((await booking(bookingId)).status).toBe('checkout');
    t.clock.advance(6 * 60_000);
    const run = await task('payments.reconcile');
    expect(run).toMatchObject({ ok: true });
    expect(run.message).toContain('finalized 1');
    expect((await booking(bookingId)).status).toBe('pending_land_confirmation');
    const moves = await bookingRecords.transitionsOf(t.database.db, bookingId);
    expect(moves[0].metadata).toMatchObject({ source: 'reconciliation' });
    const runs = await t.database.db.select().from(taskRuns).where(eq(taskRuns.name, 'payments.reconcile'));
    expect(runs.length).toBeGreaterThanOrEqual(2);
  });

  it('releases expired holds of dead intents, canceling them first', async () => {
    const { jar, bookingId } = await readyCheckout();
    const intent = await intentOf(jar);
    t.clock.advance(29 * 60_000);
    expect((await task('checkout.release-holds')).message).toContain('released 0');
    t.clock.advance(2 * 60_000);
    expect((await task('checkout.release-holds')).message).toContain('released 1');
    expect(await t.database.db.select().from(seatHolds).where(eq(seatHolds.bookingId, bookingId))).toEqual([]);
    expect((await findPayment(t.database.db, intent.payment_intent_id))!.status).toBe('Canceled');
    // the canceled intent cannot be paid any more; a new intent holds seats again
    const late = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(late.statusCode).toBe(402);
    const fresh = await intentOf(jar);
    expect(fresh.payment_intent_id).not.toBe(intent.payment_intent_id);
  });

  it('lets only one of two checkouts racing for the last seats get an intent', async () => {
    const a = await readyCheckout();
    const b = await readyCheckout();
    const [o] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.active));
    await t.database.db
      .update(offers)
      .set({ allotmentUsed: o.allotment - 2 })
      .where(eq(offers.id, cat.offers.active));
    const answers = await Promise.all([
      a.jar.call('POST', `${base}/payment/intent`),
      b.jar.call('POST', `${base}/payment/intent`),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const loser = answers.find((r) => r.statusCode === 409)!;
    expect(loser.json()).toMatchObject({ success: false, error: 'offer_sold_out' });
    const holds = await t.database.db.select().from(seatHolds);
    expect(holds.map((h) => h.seats)).toEqual([2]);
  });
});

describe('quotes and documentation', () => {
  it('refuses an intent for an offer that can no longer be booked: 410 inside the lead time, 404 inactive', async () => {
    const { jar, bookingId } = await readyCheckout();
    const [o] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.active));
    const set = (v: Partial<typeof offers.$inferInsert>) =>
      t.database.db.update(offers).set(v).where(eq(offers.id, cat.offers.active));
    try {
      await set({ departureDate: '2026-06-18' }); // 3 days after the test clock's today
      const soon = await jar.call('POST', `${base}/payment/intent`);
      expect(soon.statusCode).toBe(410);
      expect(soon.json()).toMatchObject({ success: false, error: 'offer_expired' });
      await set({ departureDate: o.departureDate, status: 'Inactive' });
      const gone = await jar.call('POST', `${base}/payment/intent`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toMatchObject({ success: false, error: 'offer_not_found' });
      expect(await t.database.db.select().from(seatHolds).where(eq(seatHolds.bookingId, bookingId))).toEqual([]);
    } finally {
      await set({ departureDate: o.departureDate, status: o.status });
    }
  });

  it('books the quote that was paid when the selections changed after the payment', async () => {
    const { jar, bookingId } = await readyCheckout();
    const intent = await intentOf(jar);
    const settlement = (await import('./settlement.js')).paymentSettlementOf(t.app.ctx);
    await settlement.gateway!.confirmIntent(intent.payment_intent_id, 'pm_card_visa'); // paid in the browser
    const changed = await jar.call('PUT', `${base}/transfers`, {
      transfer_selections: [{ transfer_id: cat.transfers.privateArrival, day_number: 1 }],
    });
    expect(changed.json().data.total_price).toBe(intent.total_price + 80);
    const confirm = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json()).toMatchObject({ error: 'quote_changed' });
    const again = await jar.call('POST', `${base}/payment/intent`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'payment_already_succeeded' });
    // the paid quote is what gets booked: no transfer, the intent's total
    expect((await deliver(signedEvent('payment_intent.succeeded', intent.payment_intent_id))).statusCode).toBe(200);
    const b = await booking(bookingId);
    expect(b.status).toBe('pending_land_confirmation');
    expect(Number(b.totalPrice)).toBe(intent.total_price);
    expect(await bookingRecords.upsellsOf(t.database.db, bookingId)).toEqual([]);
  });

  it('keeps the quote when the session price refreshes after the intent', async () => {
    const { jar, bookingId } = await readyCheckout();
    const intent = await intentOf(jar);
    const [o] = await t.database.db.select().from(offers).where(eq(offers.id, cat.offers.active));
    await t.database.db.update(offers).set({ finalPrice: '4010.00' }).where(eq(offers.id, cat.offers.active));
    try {
      expect((await jar.call('GET', base)).json().data.total_price).toBe(4010);
      // same selections: the same intent and the same quote, whatever the price did
      const again = await intentOf(jar);
      expect(again).toMatchObject({ payment_intent_id: intent.payment_intent_id, total_price: intent.total_price });
      const done = await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
      expect(done.statusCode).toBe(200);
      expect((await booking(bookingId)).totalPrice).toBe('3910.00');
    } finally {
      await t.database.db.update(offers).set({ finalPrice: o.finalPrice }).where(eq(offers.id, cat.offers.active));
    }
  });

  it('documents the webhook and the confirm body with its payment errors', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/api/webhooks/stripe'].post.responses).toHaveProperty('400');
    const confirm = doc.paths['/api/{market}/{lang}/checkout/payment/confirm'].post;
    expect(confirm.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ConfirmPaymentInput',
    });
    const body = doc.components.schemas.ConfirmPaymentInput;
    expect(Object.keys(body.properties)).toEqual(['payment_intent_id', 'payment_method']);
    expect(body.required).toEqual(['payment_intent_id']);
    expect(confirm.responses['402'].content['application/json'].schema.properties).toHaveProperty('client_secret');
    expect(Object.keys(doc.paths['/api/{market}/{lang}/checkout/payment/intent'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '404', '409', '410']),
    );
  });
});

const toCentsString = (v: string) => Number(v).toFixed(2);
