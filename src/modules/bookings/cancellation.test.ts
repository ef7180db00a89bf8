// Cancellations and refunds over HTTP (issue 25, sections 1 and 2), against the Stripe fake:
// the quote at each step of the default policy, the organiser's cancellation (seats back, balance
// stopped, everything refunded), refunds without a cancellation (201, 422 refund_exceeds_paid), a
// refund failing then succeeding by webhook, the reconciliation of a pending refund, and what the
// booking view and the confirmation page show.
//
// The booking: an offer for 2 at 7,569.98 EUR departing 2026-10-13 (120 days after the checkout
// on 2026-06-15), deposit 30 %: 7,569.98 x 0.30 = 2,270.994 -> 2,270.99; balance 5,298.99, due
// 2026-08-14. Default policy (CANCELLATION_POLICY): 60+ days 10 %, 30-59 days 30 %, 15-29 days
// 60 %, under 15 days 100 % of the total.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../test/fakes/stripe.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog, seedJpyMarket } from '../../../test/support/checkout-fixture.js';
import { CookieJar, clientInput, travelerInput } from '../../../test/support/checkout-jar.js';
import { type PaidBooking, paidBooking } from '../../../test/support/paid-booking.js';
import { runTaskCommand } from '../../../test/support/task-cli.js';
import {
  adminAuditLog,
  bookingBalances,
  bookingRefunds,
  bookings,
  mailOutbox,
  marketProducts,
  offers,
} from '../../db/schema/index.js';
import { saveCardForBalance } from '../balance/service.js';
import * as bookingRecords from '../bookings/service.js';
import { createApiToken } from '../checkout/service.js';
import * as notifications from '../notifications/service.js';

let stripe: FakeStripe;
let t: TestApp;
let cat: CheckoutCatalog;
let token: string;

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: { ...stripe.env, IN_PROCESS_WORKERS: 'false', FRONTEND_URL: 'https://travel.example' },
  });
  cat = await seedCheckoutCatalog(t.database);
  token = (await createApiToken(t.database.db, 'ops', ['admin:bookings'])).token;
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

const PRICE = { finalPrice: '7569.98', pricePerPerson: '3784.99' };

async function booking(): Promise<PaidBooking> {
  t.clock.set('2026-06-15T10:00:00Z');
  const b = await paidBooking(t, cat, { departureInDays: 120, stripe, price: PRICE });
  expect(b).toMatchObject({ departureDate: '2026-10-13', totalPrice: 7569.98, deposit: 2270.99 });
  await saveCardForBalance(t.database.db, {
    bookingId: b.bookingId,
    gatewayCode: 'stripe',
    customerId: 'cus_c',
    paymentMethodId: 'pm_card_visa',
  });
  return b;
}

function api(method: 'GET' | 'POST', url: string, payload?: object, bearer = token) {
  return t.app.inject({ method, url, payload, headers: { authorization: `Bearer ${bearer}` } });
}
const quote = (id: number, by?: string) =>
  api('GET', `/api/internal/bookings/${id}/cancellation${by ? `?by=${by}` : ''}`);
const refundRequests = (intentId?: string) =>
  stripe.requests.filter(
    (r) => r.method === 'POST' && r.path === '/v1/refunds' && (!intentId || r.form.payment_intent === intentId),
  );
const refundsOf = (id: number) =>
  t.database.db.select().from(bookingRefunds).where(eq(bookingRefunds.bookingId, id)).orderBy(bookingRefunds.id);
const deliver = (e: { payload: string }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    payload: e.payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': stripe.sign(e.payload) },
  });

describe('cancellation quote (GET /api/internal/bookings/{id}/cancellation)', () => {
  it('prices each step of the policy with hand-worked figures, in the market time zone', async () => {
    const b = await booking();
    // 90 days before departure (2026-07-15): 10 % of 7,569.98 = 756.998 -> 757.00; paid so far
    // the deposit 2,270.99, refund 2,270.99 - 757.00 = 1,513.99
    t.clock.set('2026-07-15T10:00:00Z');
    const early = await quote(b.bookingId);
    expect(early.statusCode).toBe(200);
    expect(early.json().data).toEqual({
      fee: 757,
      refund: 1513.99,
      currency: 'EUR',
      paid: 2270.99,
      policy_step: { days_before_departure: 60, fee_percent: 10 },
      by: 'traveller',
      departure_date: '2026-10-13',
      days_before_departure: 90,
    });
    // the balance is collected on 2026-08-14: paid 7,569.98
    await runTaskCommand(t, ['balance.collect', '--as-of=2026-08-14']);
    // 45 days before (2026-08-29): 30 % = 2,270.994 -> 2,270.99; refund 7,569.98 - 2,270.99 = 5,298.99
    t.clock.set('2026-08-29T10:00:00Z');
    expect((await quote(b.bookingId)).json().data).toMatchObject({
      fee: 2270.99,
      refund: 5298.99,
      paid: 7569.98,
      policy_step: { days_before_departure: 30, fee_percent: 30 },
      days_before_departure: 45,
    });
    // 22:30 UTC on 2026-09-13 is already 2026-09-14 in Madrid: 29 days, the 60 % step
    // (7,569.98 x 0.60 = 4,541.988 -> 4,541.99; refund 3,027.99); by the UTC date it would be 30
    t.clock.set('2026-09-13T22:30:00Z');
    expect((await quote(b.bookingId)).json().data).toMatchObject({
      fee: 4541.99,
      refund: 3027.99,
      policy_step: { days_before_departure: 15, fee_percent: 60 },
      days_before_departure: 29,
    });
    // 10 days before: 100 %, nothing back
    t.clock.set('2026-10-03T10:00:00Z');
    expect((await quote(b.bookingId)).json().data).toMatchObject({ fee: 7569.98, refund: 0 });
    // the organiser cancels: no fee, everything paid comes back
    expect((await quote(b.bookingId, 'organiser')).json().data).toMatchObject({
      fee: 0,
      refund: 7569.98,
      policy_step: null,
      by: 'organiser',
    });
  });

  it("uses the market product's own policy when it has one", async () => {
    const b = await booking();
    const [o] = await t.database.db.select().from(offers).where(eq(offers.id, b.offerId));
    const policy = [
      { days_before_departure: 100, fee_percent: 5 },
      { days_before_departure: 0, fee_percent: 50 },
    ];
    await t.database.db
      .update(marketProducts)
      .set({ cancellationPolicy: policy })
      .where(eq(marketProducts.id, o.marketProductId));
    try {
      // 120 days before: 5 % of 7,569.98 = 378.499 -> 378.50; refund 2,270.99 - 378.50 = 1,892.49
      expect((await quote(b.bookingId)).json().data).toMatchObject({
        fee: 378.5,
        refund: 1892.49,
        policy_step: { days_before_departure: 100, fee_percent: 5 },
        days_before_departure: 120,
      });
    } finally {
      await t.database.db
        .update(marketProducts)
        .set({ cancellationPolicy: null })
        .where(eq(marketProducts.id, o.marketProductId));
    }
  });

  it('needs a bearer token with admin:bookings, and a booking that exists', async () => {
    const b = await booking();
    const url = `/api/internal/bookings/${b.bookingId}/cancellation`;
    expect((await api('GET', url, undefined, 'nope')).statusCode).toBe(401);
    const other = (await createApiToken(t.database.db, 'crm', ['crm:read'])).token;
    expect((await api('GET', url, undefined, other)).statusCode).toBe(403);
    const missing = await quote(999999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('booking_not_found');
  });
});

describe('cancelling (POST /api/internal/bookings/{id}/cancel)', () => {
  it("by the traveller 45 days before: 30 % fee kept, the rest refunded to the card, e-mail in the booking's language", async () => {
    const b = await booking();
    await runTaskCommand(t, ['balance.collect', '--as-of=2026-08-14']);
    t.clock.set('2026-08-29T10:00:00Z');
    const res = await api('POST', `/api/internal/bookings/${b.bookingId}/cancel`, {
      by: 'traveller',
      reason: 'Family emergency',
    });
    expect(res.statusCode).toBe(200);
    // refund 5,298.99: 2,270.99 from the deposit, then 5,298.99 - 2,270.99 = 3,028.00 from the balance
    expect(res.json()).toEqual({
      success: true,
      data: { status: 'cancelled', fee: 2270.99, refund: { amount: 5298.99, currency: 'EUR', status: 'succeeded' } },
    });
    const sent = refundRequests().filter((r) => r.form['metadata[booking_id]'] === String(b.bookingId));
    expect(sent.map((r) => [r.headers['idempotency-key'], r.form.amount, r.form.reason])).toEqual([
      [`refund-${b.bookingId}-1`, '227099', 'requested_by_customer'],
      [`refund-${b.bookingId}-2`, '302800', 'requested_by_customer'],
    ]);
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, b.bookingId));
    expect(row.status).toBe('cancelled');
    const move = (await bookingRecords.transitionsOf(t.database.db, b.bookingId)).at(-1)!;
    expect(move).toMatchObject({ fromStatus: 'fully_paid', toStatus: 'cancelled' });
    expect(move.metadata).toMatchObject({
      cancelled_by: 'traveller',
      reason: 'Family emergency',
      fee: 2270.99,
      refund: 5298.99,
      cancelled_at: '2026-08-29T10:00:00.000Z',
    });
    const mail = (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.bookingId, b.bookingId))).find(
      (m) => m.kind === 'booking_cancelled',
    )!;
    expect(mail.language).toBe('es');
    expect(mail.subject).toBe(`Reserva ${b.reference} cancelada`);
    expect(mail.textBody).toContain('Gastos de cancelación: 2270,99');
    expect(mail.textBody).toContain('Reembolso: 5298,99');
    const notes = await notifications.notificationsOf(t.database.db, b.bookingId);
    expect(notes.map((n) => n.type)).toContain('booking_cancelled');
    const audit = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.resourceId, b.reference));
    expect(audit.map((a) => a.action)).toEqual(['booking.cancel']);

    const again = await api('POST', `/api/internal/bookings/${b.bookingId}/cancel`, { by: 'traveller', reason: 'x' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, error: 'booking_already_cancelled' });
    expect((await quote(b.bookingId)).json().error).toBe('booking_already_cancelled');

    const view = (await api('GET', `/api/internal/bookings/${b.bookingId}`)).json().data;
    expect(view.money).toEqual({ paid: 7569.98, refunded: 5298.99, fee: 2270.99, net: 2270.99, currency: 'EUR' });
    expect(view.refunds.map((r: { amount: number; status: string }) => [r.amount, r.status])).toEqual([
      [2270.99, 'succeeded'],
      [3028, 'succeeded'],
    ]);
    const page = await t.app.inject({ method: 'GET', url: `/api/es/es/checkout/confirmation/${b.reference}` });
    expect(page.json().data).toMatchObject({ status: 'cancelled', refunded: 5298.99, balance_due: 0 });
  });

  it('by the organiser: no fee, the deposit back, seats back, the balance no longer collected', async () => {
    const b = await booking();
    const seats = async () =>
      (await t.database.db.select().from(offers).where(eq(offers.id, b.offerId)))[0].allotmentUsed;
    expect(await seats()).toBe(2);
    t.clock.set('2026-07-01T10:00:00Z');
    const res = await api('POST', `/api/internal/bookings/${b.bookingId}/cancel`, {
      by: 'organiser',
      reason: 'Minimum group not reached',
    });
    expect(res.json().data).toEqual({
      status: 'cancelled',
      fee: 0,
      refund: { amount: 2270.99, currency: 'EUR', status: 'succeeded' },
    });
    expect(await seats()).toBe(0);
    const [balance] = await t.database.db
      .select()
      .from(bookingBalances)
      .where(eq(bookingBalances.bookingId, b.bookingId));
    expect(balance.status).toBe('cancelled');
    // no reminder, no charge on the due date
    await runTaskCommand(t, ['balance.collect', '--as-of=2026-08-14']);
    const charges = stripe.offSession.chargesFor(b.bookingId);
    expect(charges).toEqual([]);
    const kinds = (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.bookingId, b.bookingId))).map(
      (m) => m.kind,
    );
    expect(kinds).toEqual(['booking_confirmation', 'booking_cancelled']);
  });

  it('refuses an unpaid checkout (409 booking_not_cancellable)', async () => {
    const jar = new CookieJar(() => t.app, '198.51.100.77');
    const start = await jar.call('POST', `/api/es/es/checkout/${cat.offers.active}`, {});
    await jar.call('PUT', '/api/es/es/checkout/contact', { client: clientInput });
    await jar.call('PUT', '/api/es/es/checkout/travelers', {
      travelers: [travelerInput('Ana', 'Q1'), travelerInput('Luis', 'Q2')],
    });
    const res = await api('POST', `/api/internal/bookings/${start.json().data.booking_id}/cancel`, {
      by: 'traveller',
      reason: 'x',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('booking_not_cancellable');
  });
});

describe('refunds without a cancellation (POST /api/internal/bookings/{id}/refunds)', () => {
  it('refunds part of the deposit (201), never more than paid less refunded (422 refund_exceeds_paid)', async () => {
    const b = await booking();
    const res = await api('POST', `/api/internal/bookings/${b.bookingId}/refunds`, {
      amount: 120.5,
      reason: 'Sushi class removed',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      data: { amount: 120.5, currency: 'EUR', status: 'succeeded' },
    });
    const [sent] = refundRequests().filter((r) => r.form['metadata[booking_id]'] === String(b.bookingId));
    expect(sent.headers['idempotency-key']).toBe(`refund-${b.bookingId}-1`);
    expect(sent.form).toMatchObject({ amount: '12050', reason: 'requested_by_customer' });
    // paid 2,270.99, refunded 120.50: 2,150.49 left; 2,150.50 is too much
    const over = await api('POST', `/api/internal/bookings/${b.bookingId}/refunds`, { amount: 2150.5, reason: 'x' });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ success: false, error: 'refund_exceeds_paid' });
    const exact = await api('POST', `/api/internal/bookings/${b.bookingId}/refunds`, { amount: 2150.49, reason: 'y' });
    expect(exact.statusCode).toBe(201);
    const bad = await api('POST', `/api/internal/bookings/${b.bookingId}/refunds`, { amount: 1.005, reason: 'z' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toBe('refund_amount_invalid');
  });

  it('a refund failing, then a new one succeeding, both moved by webhooks; charge.refunded too', async () => {
    const b = await booking();
    stripe.nextRefundStatuses.push('pending');
    const first = await api('POST', `/api/internal/bookings/${b.bookingId}/refunds`, {
      amount: 300,
      reason: 'Goodwill',
    });
    expect(first.json().data.status).toBe('pending');
    const [row] = await refundsOf(b.bookingId);
    stripe.settleRefund(row.gatewayRefundId!, 'failed', 'expired_or_canceled_card');
    // the event body says nothing we trust: the refund is read from Stripe
    expect((await deliver(stripe.refundEvent('refund.failed', row.gatewayRefundId!))).json()).toMatchObject({
      handled: true,
    });
    expect((await refundsOf(b.bookingId))[0]).toMatchObject({
      status: 'failed',
      failureReason: 'expired_or_canceled_card',
    });
    const notes = await notifications.notificationsOf(t.database.db, b.bookingId);
    expect(notes.map((n) => n.type)).toContain('refund_failed');
    // a failed refund gives its amount back to what can be refunded: 300.00 again, key n = 2
    stripe.nextRefundStatuses.push('pending');
    const second = await api('POST', `/api/internal/bookings/${b.bookingId}/refunds`, {
      amount: 300,
      reason: 'Goodwill',
    });
    expect(second.statusCode).toBe(201);
    const row2 = (await refundsOf(b.bookingId))[1];
    expect(row2.idempotencyKey).toBe(`refund-${b.bookingId}-2`);
    stripe.settleRefund(row2.gatewayRefundId!, 'succeeded');
    await deliver(stripe.refundEvent('refund.updated', row2.gatewayRefundId!));
    const succeeded = (await refundsOf(b.bookingId))[1];
    expect(succeeded.status).toBe('succeeded');
    // Stripe resends events: the same news again leaves the row as it was, so updated_at stays
    // the moment it succeeded (the console counts the refund on that day)
    await deliver(stripe.refundEvent('refund.updated', row2.gatewayRefundId!));
    expect((await refundsOf(b.bookingId))[1].updatedAt).toEqual(succeeded.updatedAt);
    // a third, finished by charge.refunded
    stripe.nextRefundStatuses.push('pending');
    await api('POST', `/api/internal/bookings/${b.bookingId}/refunds`, { amount: 10, reason: 'Goodwill' });
    const row3 = (await refundsOf(b.bookingId))[2];
    stripe.settleRefund(row3.gatewayRefundId!, 'succeeded');
    expect((await deliver(stripe.refundEvent('charge.refunded', row3.gatewayRefundId!))).json().handled).toBe(true);
    expect((await refundsOf(b.bookingId))[2].status).toBe('succeeded');
    const view = (await api('GET', `/api/internal/bookings/${b.bookingId}`)).json().data;
    // paid 2,270.99; refunded 300.00 + 10.00 (the failed one does not count)
    expect(view.money).toEqual({ paid: 2270.99, refunded: 310, fee: null, net: 1960.99, currency: 'EUR' });
  });

  it('payments.reconcile asks Stripe about refunds pending for more than 15 minutes', async () => {
    const b = await booking();
    stripe.nextRefundStatuses.push('pending');
    await api('POST', `/api/internal/bookings/${b.bookingId}/refunds`, { amount: 50, reason: 'Goodwill' });
    const [row] = await refundsOf(b.bookingId);
    stripe.settleRefund(row.gatewayRefundId!, 'succeeded'); // its webhook is lost
    t.clock.advance(10 * 60_000);
    await runTaskCommand(t, ['payments.reconcile']);
    expect((await refundsOf(b.bookingId))[0].status).toBe('pending');
    t.clock.advance(6 * 60_000);
    const run = await runTaskCommand(t, ['payments.reconcile']);
    expect(run.lines.join('\n')).toContain('refunds_checked 1');
    expect((await refundsOf(b.bookingId))[0].status).toBe('succeeded');
  });

  it('refunds yen in whole yen (JPY has no minor unit)', async () => {
    const jpy = await seedJpyMarket(t.database, cat);
    t.app.ctx.markets.invalidate();
    t.clock.set('2026-06-15T10:00:00Z');
    const jar = new CookieJar(() => t.app, '198.51.100.88');
    const base = '/api/jp/en/checkout';
    const start = await jar.call('POST', `${base}/${jpy.offerId}`, {});
    await jar.call('PUT', `${base}/contact`, { client: clientInput });
    await jar.call('PUT', `${base}/travelers`, {
      travelers: [travelerInput('Ana', 'J1'), travelerInput('Luis', 'J2')],
    });
    const intent = (await jar.call('POST', `${base}/payment/intent`)).json().data;
    stripe.succeed(intent.payment_intent_id);
    await jar.call('POST', `${base}/payment/confirm`, { payment_intent_id: intent.payment_intent_id });
    const id = start.json().data.booking_id;
    const res = await api('POST', `/api/internal/bookings/${id}/refunds`, { amount: 4500, reason: 'Goodwill' });
    expect(res.statusCode).toBe(201);
    const [sent] = refundRequests(intent.payment_intent_id);
    expect(sent.form.amount).toBe('4500');
    const half = await api('POST', `/api/internal/bookings/${id}/refunds`, { amount: 0.5, reason: 'x' });
    expect(half.json().error).toBe('refund_amount_invalid');
  });
});
