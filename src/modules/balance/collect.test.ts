// Balance payments end to end: bookings paid through the checkout (Stripe fake), the saved card as
// the deposit records it, the hourly task run as `npm run task -- balance.collect`, and what it
// leaves: Stripe requests, payments, balance, status transitions, admin notifications, e-mails.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../test/fakes/stripe.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { type PaidBooking, paidBooking } from '../../../test/support/paid-booking.js';
import { runTaskCommand } from '../../../test/support/task-cli.js';
import { bookingBalances, bookingPayments, bookings, mailOutbox } from '../../db/schema/index.js';
import * as bookingRecords from '../bookings/repository.js';
import { createApiToken } from '../checkout/service.js';
import * as notifications from '../notifications/service.js';
import { verifyPayLink } from './pay-link.js';
import { attemptsOf } from './repository.js';
import { saveCardForBalance } from './service.js';

let stripe: FakeStripe;
let t: TestApp;
let cat: CheckoutCatalog;
const lines: string[] = [];

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: { ...stripe.env, IN_PROCESS_WORKERS: 'false', FRONTEND_URL: 'https://travel.example' },
  });
  cat = await seedCheckoutCatalog(t.database);
});
afterAll(async () => {
  await t.close();
  await stripe.close();
});

/** `npm run task -- balance.collect [--as-of=D]`, in the test app's context; its lines in `lines` */
async function collect(asOf?: string): Promise<number> {
  const run = await runTaskCommand(t, ['balance.collect', ...(asOf ? [`--as-of=${asOf}`] : [])]);
  lines.splice(0, lines.length, ...run.lines);
  return run.code;
}

/** a booking departing in 120 days (balance due 2026-08-14), its deposit paid, its card saved */
async function booking(paymentMethodId: string): Promise<PaidBooking> {
  const b = await paidBooking(t, cat, { departureInDays: 120, stripe });
  // what the deposit intent records once it succeeded (Customer + setup_future_usage=off_session)
  await saveCardForBalance(t.database.db, {
    bookingId: b.bookingId,
    gatewayCode: 'stripe',
    customerId: `cus_${b.bookingId}`,
    paymentMethodId,
  });
  return b;
}

const balanceOf = async (id: number) =>
  (await t.database.db.select().from(bookingBalances).where(eq(bookingBalances.bookingId, id)))[0];
const statusOf = async (id: number) =>
  (await t.database.db.select().from(bookings).where(eq(bookings.id, id)))[0].status;
const mailsOf = async (id: number) =>
  t.database.db.select().from(mailOutbox).where(eq(mailOutbox.bookingId, id)).orderBy(mailOutbox.id);
const chargeRequests = (id: number) =>
  stripe.requests.filter(
    (r) =>
      r.path === '/v1/payment_intents' && r.form['metadata[booking_id]'] === String(id) && r.form.confirm === 'true',
  );
const confirmation = async (reference: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/es/es/checkout/confirmation/${reference}` })).json().data;

describe('balance collection (balance.collect)', () => {
  it('charges the saved card off-session on the due date (--as-of) and records the payment once', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const b = await booking('pm_card_visa');
    expect(b.departureDate).toBe('2026-10-13');
    const remaining = Math.round(b.totalPrice * 100) - Math.round(b.deposit * 100);
    expect(await confirmation(b.reference)).toMatchObject({
      status: 'pending_land_confirmation',
      amount_paid: b.deposit,
      balance_due: remaining / 100,
    });

    expect(await collect('2026-08-13')).toBe(0);
    expect(chargeRequests(b.bookingId)).toEqual([]);
    expect(await collect('2026-08-14')).toBe(0);
    expect(lines).toContain(`booking ${b.bookingId}: paid`);

    const [sent] = chargeRequests(b.bookingId);
    expect(sent.headers['idempotency-key']).toBe(`balance-${b.bookingId}-1`);
    expect(sent.form).toMatchObject({
      amount: String(remaining),
      currency: 'eur',
      customer: `cus_${b.bookingId}`,
      payment_method: 'pm_card_visa',
      off_session: 'true',
      confirm: 'true',
      'automatic_payment_methods[enabled]': 'true',
      'automatic_payment_methods[allow_redirects]': 'never',
      'metadata[booking_reference]': b.reference,
    });
    const intent = stripe.offSession.chargesFor(b.bookingId)[0];
    expect(intent.status).toBe('succeeded');

    const balance = await balanceOf(b.bookingId);
    expect(balance).toMatchObject({ status: 'paid', remainingPrice: '0.00', attempts: 1 });
    expect(balance.amountPaid).toBe(b.totalPrice.toFixed(2));
    const payments = await t.database.db.select().from(bookingPayments).where(eq(bookingPayments.intentId, intent.id));
    expect(payments).toMatchObject([
      { bookingId: b.bookingId, status: 'Succeeded', amount: (remaining / 100).toFixed(2) },
    ]);
    // a land-only booking waits for nothing else: it is fully paid
    expect(await statusOf(b.bookingId)).toBe('fully_paid');
    const moves = await bookingRecords.transitionsOf(t.database.db, b.bookingId);
    expect(moves.at(-1)).toMatchObject({ fromStatus: 'pending_land_confirmation', toStatus: 'fully_paid' });
    expect(moves.at(-1)!.metadata).toMatchObject({
      payment_intent_id: intent.id,
      purpose: 'balance',
      remaining_price: 0,
    });
    expect((await mailsOf(b.bookingId)).map((m) => m.kind)).toEqual([
      'booking_confirmation',
      'balance_reminder',
      'balance_receipt',
    ]);
    expect(await confirmation(b.reference)).toMatchObject({
      status: 'fully_paid',
      amount_paid: b.totalPrice,
      balance_due: 0,
    });

    // nothing is charged twice
    expect(await collect('2026-08-20')).toBe(0);
    expect(chargeRequests(b.bookingId)).toHaveLength(1);
  });

  it('a booking whose due date has passed pays its whole total at checkout', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const b = await paidBooking(t, cat, { departureInDays: 30, stripe });
    expect(b.deposit).toBe(b.totalPrice);
    const [sent] = stripe.requests.filter((r) => r.form['metadata[booking_id]'] === String(b.bookingId));
    expect(sent.form.amount).toBe(String(Math.round(b.totalPrice * 100)));
    expect(await balanceOf(b.bookingId)).toMatchObject({
      status: 'paid',
      remainingPrice: '0.00',
      dueDate: '2026-05-16',
    });
    expect(await confirmation(b.reference)).toMatchObject({
      amount_paid: b.totalPrice,
      balance_due: 0,
    });
    await collect('2026-07-01');
    expect(chargeRequests(b.bookingId)).toEqual([]);
  });

  it('declined: tells the admins, mails a pay link, retries at +24 h and +72 h, then balance_overdue', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const b = await booking('pm_card_chargeDeclined');
    t.clock.set('2026-08-14T09:00:00Z');
    expect(await collect()).toBe(0);
    expect(lines).toContain(`booking ${b.bookingId}: failed`);
    expect(await balanceOf(b.bookingId)).toMatchObject({
      status: 'retrying',
      attempts: 1,
      nextAttemptAt: new Date('2026-08-15T09:00:00Z'),
      lastError: { outcome: 'declined', code: 'generic_decline' },
    });
    const notes = await notifications.notificationsOf(t.database.db, b.bookingId);
    expect(notes.map((n) => n.type)).toEqual(['balance_payment_failed']);
    const failed = (await mailsOf(b.bookingId)).find((m) => m.kind === 'balance_failed')!;
    const link = /https:\/\/travel\.example\/es\/es\/pay\/[\w-]+\?expires=\d+&signature=[0-9a-f]{64}/.exec(
      failed.textBody,
    )?.[0];
    expect(link).toBeDefined();
    const url = new URL(link!);
    expect(url.pathname).toBe(`/es/es/pay/${b.reference}`);
    expect(
      verifyPayLink(
        t.config.appKey,
        b.reference,
        url.searchParams.get('expires')!,
        url.searchParams.get('signature')!,
        t.clock.now(),
      ),
    ).toBe(true);
    expect(failed.htmlBody).toContain(`href="${link!.replace(/&/g, '&amp;')}"`);

    t.clock.set('2026-08-15T08:59:00Z');
    await collect();
    expect(chargeRequests(b.bookingId)).toHaveLength(1);
    t.clock.set('2026-08-15T09:00:00Z');
    await collect();
    expect(chargeRequests(b.bookingId).map((r) => r.headers['idempotency-key'])).toEqual([
      `balance-${b.bookingId}-1`,
      `balance-${b.bookingId}-2`,
    ]);
    expect(await balanceOf(b.bookingId)).toMatchObject({
      status: 'retrying',
      attempts: 2,
      nextAttemptAt: new Date('2026-08-17T09:00:00Z'),
    });
    // the customer has the link already: one failure mail
    expect((await mailsOf(b.bookingId)).filter((m) => m.kind === 'balance_failed')).toHaveLength(1);

    t.clock.set('2026-08-17T09:00:00Z');
    await collect();
    expect(lines).toContain(`booking ${b.bookingId}: overdue`);
    expect(await balanceOf(b.bookingId)).toMatchObject({ status: 'overdue', attempts: 3, nextAttemptAt: null });
    expect(await statusOf(b.bookingId)).toBe('balance_overdue');
    expect((await notifications.notificationsOf(t.database.db, b.bookingId)).map((n) => n.type)).toEqual([
      'balance_payment_failed',
      'balance_overdue',
    ]);
    expect((await attemptsOf(t.database.db, b.bookingId)).map((a) => [a.attempt, a.outcome, a.code])).toEqual([
      [1, 'declined', 'generic_decline'],
      [2, 'declined', 'generic_decline'],
      [3, 'declined', 'generic_decline'],
    ]);
    t.clock.set('2026-08-30T09:00:00Z');
    await collect();
    expect(chargeRequests(b.bookingId)).toHaveLength(3);

    // what the admin's booking view shows
    const admin = await createApiToken(t.database.db, 'admin', ['*']);
    const view = await t.app.inject({
      method: 'GET',
      url: `/api/internal/bookings/${b.bookingId}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(view.json().data.balance).toMatchObject({
      due_date: '2026-08-14',
      status: 'overdue',
      next_attempt_at: null,
      attempts: [
        { attempt: 1, idempotency_key: `balance-${b.bookingId}-1`, outcome: 'declined', code: 'generic_decline' },
        { attempt: 2, idempotency_key: `balance-${b.bookingId}-2` },
        { attempt: 3, idempotency_key: `balance-${b.bookingId}-3` },
      ],
    });
  });

  it('authentication required: the customer gets the pay link and pays the balance through it', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const b = await booking('pm_card_authenticationRequired');
    t.clock.set('2026-08-14T09:00:00Z');
    await collect();
    expect(await balanceOf(b.bookingId)).toMatchObject({
      status: 'retrying',
      lastError: { outcome: 'authentication_required', code: 'authentication_required' },
    });
    const failed = (await mailsOf(b.bookingId)).find((m) => m.kind === 'balance_failed')!;
    const link = new URL(/https:\/\/travel\.example\/\S+/.exec(failed.textBody)![0]);
    const api = `/api/es/es/balance/${b.reference}${link.search}`;

    const page = await t.app.inject({ method: 'GET', url: api });
    expect(page.statusCode).toBe(200);
    const remaining = Math.round(b.totalPrice * 100) - Math.round(b.deposit * 100);
    expect(page.json().data).toMatchObject({
      balance_due: remaining / 100,
      balance_status: 'retrying',
      currency: 'EUR',
    });
    const forged = await t.app.inject({
      method: 'GET',
      url: `/api/es/es/balance/${b.reference}?expires=9999999999&signature=${'0'.repeat(64)}`,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ error: 'invalid_pay_link' });

    const intent = (
      await t.app.inject({ method: 'POST', url: `${api.replace(link.search, '')}/intent${link.search}` })
    ).json().data;
    expect(intent).toMatchObject({ amount: remaining / 100, payment_gateway: 'stripe' });
    const confirmUrl = `/api/es/es/balance/${b.reference}/confirm${link.search}`;
    const early = await t.app.inject({
      method: 'POST',
      url: confirmUrl,
      payload: { payment_intent_id: intent.payment_intent_id },
    });
    expect(early.statusCode).toBe(402);
    stripe.succeed(intent.payment_intent_id);
    const done = await t.app.inject({
      method: 'POST',
      url: confirmUrl,
      payload: { payment_intent_id: intent.payment_intent_id },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ payment_status: 'Succeeded', amount_paid: b.totalPrice, balance_due: 0 });
    expect(await statusOf(b.bookingId)).toBe('fully_paid');
    expect(await balanceOf(b.bookingId)).toMatchObject({ status: 'paid', remainingPrice: '0.00' });
    // a retry time that comes later charges nothing
    t.clock.set('2026-08-16T09:00:00Z');
    await collect();
    expect(chargeRequests(b.bookingId)).toHaveLength(1);
  });

  it('a balance paid through the link whose confirm never came is recorded by the next run, not charged', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const b = await booking('pm_card_chargeDeclined');
    t.clock.set('2026-08-14T09:00:00Z');
    await collect();
    const failed = (await mailsOf(b.bookingId)).find((m) => m.kind === 'balance_failed')!;
    const search = new URL(/https:\/\/travel\.example\/\S+/.exec(failed.textBody)![0]).search;
    const intent = (
      await t.app.inject({ method: 'POST', url: `/api/es/es/balance/${b.reference}/intent${search}` })
    ).json().data;
    stripe.succeed(intent.payment_intent_id); // Stripe.js confirmed it; the page closed before our confirm
    t.clock.set('2026-08-15T09:00:00Z');
    await collect();
    expect(chargeRequests(b.bookingId)).toHaveLength(1);
    expect(await balanceOf(b.bookingId)).toMatchObject({ status: 'paid', remainingPrice: '0.00' });
    expect(await statusOf(b.bookingId)).toBe('fully_paid');
    const late = await t.app.inject({
      method: 'POST',
      url: `/api/es/es/balance/${b.reference}/confirm${search}`,
      payload: { payment_intent_id: intent.payment_intent_id },
    });
    expect(late.statusCode).toBe(200);
    expect(late.json().data).toMatchObject({ amount_paid: b.totalPrice, balance_due: 0 });
    const payments = await t.database.db
      .select()
      .from(bookingPayments)
      .where(eq(bookingPayments.bookingId, b.bookingId));
    expect(payments.filter((p) => p.intentId === intent.payment_intent_id)).toHaveLength(1);
    expect((await mailsOf(b.bookingId)).filter((m) => m.kind === 'balance_receipt')).toHaveLength(1);
  });

  it('a link payment that lands after the off-session charge is recorded and reported for a refund', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const b = await booking('pm_card_visa');
    await collect('2026-08-10');
    const reminder = (await mailsOf(b.bookingId)).find((m) => m.kind === 'balance_reminder')!;
    const search = new URL(/https:\/\/travel\.example\/\S+/.exec(reminder.textBody)![0]).search;
    const intent = (
      await t.app.inject({ method: 'POST', url: `/api/es/es/balance/${b.reference}/intent${search}` })
    ).json().data;
    await collect('2026-08-14'); // the link intent is not paid yet: the card is charged
    expect(chargeRequests(b.bookingId)).toHaveLength(1);
    stripe.succeed(intent.payment_intent_id);
    const url = `/api/es/es/balance/${b.reference}/confirm${search}`;
    const payload = { payment_intent_id: intent.payment_intent_id };
    expect((await t.app.inject({ method: 'POST', url, payload })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url, payload })).statusCode).toBe(200);
    const payments = await t.database.db
      .select()
      .from(bookingPayments)
      .where(eq(bookingPayments.bookingId, b.bookingId));
    expect(payments.filter((p) => p.intentId === intent.payment_intent_id)).toMatchObject([{ status: 'Succeeded' }]);
    expect((await notifications.notificationsOf(t.database.db, b.bookingId)).map((n) => n.type)).toEqual([
      'balance_paid_twice',
    ]);
  });

  it('two runs at once charge a due balance once', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const b = await booking('pm_card_visa');
    t.clock.set('2026-08-14T09:00:00Z');
    await Promise.all([collect(), collect()]);
    expect(stripe.offSession.chargesFor(b.bookingId)).toHaveLength(1);
    expect(await balanceOf(b.bookingId)).toMatchObject({ status: 'paid', attempts: 1 });
  });

  it('a run killed between the charge and its record: the next run gets the same PaymentIntent, recorded once', async () => {
    t.clock.set('2026-06-15T10:00:00Z');
    const b = await booking('pm_card_visa');
    t.clock.set('2026-08-14T09:00:00Z');
    // Stripe makes the charge, the answer never arrives (the SDK's retry neither)
    stripe.offSession.dropResponses(2);
    expect(await collect()).toBe(1);
    expect(stripe.offSession.chargesFor(b.bookingId)).toHaveLength(1);
    expect(stripe.offSession.chargesFor(b.bookingId)[0].status).toBe('succeeded');
    expect(await balanceOf(b.bookingId)).toMatchObject({ status: 'scheduled', attempts: 0, chargingUntil: null });
    // the process died there: its lease is still on the balance
    await t.database.db
      .update(bookingBalances)
      .set({ chargingUntil: new Date('2026-08-14T09:15:00Z') })
      .where(eq(bookingBalances.bookingId, b.bookingId));
    t.clock.set('2026-08-14T09:10:00Z');
    await collect();
    expect(chargeRequests(b.bookingId)).toHaveLength(2);
    t.clock.set('2026-08-14T10:00:00Z');
    expect(await collect()).toBe(0);
    const keys = chargeRequests(b.bookingId).map((r) => r.headers['idempotency-key']);
    expect(new Set(keys)).toEqual(new Set([`balance-${b.bookingId}-1`]));
    const [charge] = stripe.offSession.chargesFor(b.bookingId);
    expect(stripe.offSession.chargesFor(b.bookingId)).toHaveLength(1);
    expect(await balanceOf(b.bookingId)).toMatchObject({ status: 'paid', attempts: 1, remainingPrice: '0.00' });
    const payments = await t.database.db
      .select()
      .from(bookingPayments)
      .where(eq(bookingPayments.bookingId, b.bookingId));
    expect(payments.filter((p) => p.intentId === charge.id)).toHaveLength(1);
    expect((await attemptsOf(t.database.db, b.bookingId)).map((a) => [a.attempt, a.intentId])).toEqual([
      [1, charge.id],
    ]);
    expect((await mailsOf(b.bookingId)).filter((m) => m.kind === 'balance_receipt')).toHaveLength(1);
  });
});
