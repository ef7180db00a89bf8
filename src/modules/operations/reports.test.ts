// Reports against hand-counted rows: Revenue per month and market and per product (booked,
// deposits, balances, refunded, outstanding; a cancelled booking owes nothing), and the checkout Funnel from step visits recorded by the
// checkout's own tracker, filtered by market, product and period.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { bookingPayments, bookingRefunds, bookings } from '../../db/schema/index.js';
import { recordFunnelStep } from '../checkout/repository.js';
import { FUNNEL_STEPS } from '../checkout/rules.js';

let t: TestApp;
let cat: CheckoutCatalog;
beforeAll(async () => {
  t = await createTestApp();
  cat = await seedCheckoutCatalog(t.database);
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie, accept: 'text/html' } });
const text = (h: string) =>
  h
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const tables = (body: string) =>
  [...body.matchAll(/<tbody>([\s\S]*?)<\/tbody>/g)].map((m) =>
    [...m[1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => text(r[1]!)),
  );

let n = 0;
async function booking(opts: {
  market: string;
  offer: number;
  at: string;
  status: string;
  total: string;
  currency?: string;
}) {
  const [b] = await t.database.db
    .insert(bookings)
    .values({
      reference: `IT-REP${++n}`,
      status: opts.status,
      offerId: opts.offer,
      marketCode: opts.market,
      language: 'es',
      paxCount: 2,
      actualPaxCount: 2,
      actualRoomType: '2A',
      totalPrice: opts.total,
      currency: opts.currency ?? 'EUR',
      createdAt: new Date(opts.at),
    })
    .returning();
  return b!;
}
async function pay(bookingId: number, amount: string, kind: 'deposit' | 'balance', status = 'Succeeded') {
  const [p] = await t.database.db
    .insert(bookingPayments)
    .values({
      bookingId,
      intentId: `pi_rep_${++n}`,
      gatewayCode: 'sandbox',
      methodCode: 'card',
      amount,
      totalPrice: amount,
      currency: 'EUR',
      status,
      // a deposit carries the checkout's frozen quote; a balance payment has none
      quote: kind === 'deposit' ? { total: amount } : null,
    })
    .returning();
  return p!;
}
async function refund(pay: { id: number; bookingId: number }, amount: string, status: string) {
  await t.database.db.insert(bookingRefunds).values({
    bookingId: pay.bookingId,
    paymentId: pay.id,
    sequence: ++n,
    idempotencyKey: `refund-${pay.bookingId}-${n}`,
    amount,
    currency: 'EUR',
    status,
    kind: 'cancellation',
    requestedBy: 'ops@example.com',
  });
}
async function visit(bookingId: number, steps: readonly string[]) {
  for (const [i, step] of steps.entries()) {
    await recordFunnelStep(
      t.database.db,
      bookingId,
      step as (typeof FUNNEL_STEPS)[number],
      new Date(Date.UTC(2026, 5, 10, 10, i)),
    );
  }
}

describe('reports', () => {
  it('revenue per month and market and per product; the funnel per market, product and period from recorded step visits', async () => {
    const es = { market: 'es', offer: cat.offers.active };
    const j1 = await booking({ ...es, at: '2026-06-01T09:00:00Z', status: 'flights_confirmed', total: '4000.00' });
    const j2 = await booking({ ...es, at: '2026-06-03T09:00:00Z', status: 'pending_flight_booking', total: '3000.00' });
    const j3 = await booking({ ...es, at: '2026-06-05T09:00:00Z', status: 'checkout', total: '2000.00' });
    const m1 = await booking({ ...es, at: '2026-05-10T09:00:00Z', status: 'flights_confirmed', total: '2500.00' });
    const u1 = await booking({
      market: 'us',
      offer: cat.offers.usd,
      at: '2026-06-02T09:00:00Z',
      status: 'pending_land_confirmation',
      total: '5000.00',
      currency: 'USD',
    });
    await booking({
      market: 'es',
      offer: cat.offers.legacy,
      at: '2026-06-04T09:00:00Z',
      status: 'flights_confirmed',
      total: '1500.00',
    });
    await booking({ ...es, at: '2025-01-10T09:00:00Z', status: 'flights_confirmed', total: '999.00' }); // before the period
    // cancelled in May's cohort: 800 paid, 600 refunded, the 200 fee kept; it owes nothing more
    const c1 = await booking({ ...es, at: '2026-05-12T09:00:00Z', status: 'cancelled', total: '2000.00' });
    const j1Deposit = await pay(j1.id, '1000.00', 'deposit');
    await pay(j1.id, '500.00', 'balance');
    await refund(await pay(c1.id, '800.00', 'deposit'), '600.00', 'succeeded');
    await refund(j1Deposit, '100.00', 'failed'); // no money given back
    await refund(j1Deposit, '50.00', 'pending'); // not yet
    await pay(j2.id, '600.00', 'deposit');
    await pay(j2.id, '100.00', 'balance', 'Failed');
    await refund(await pay(m1.id, '500.00', 'deposit'), '200.00', 'succeeded'); // goodwill: owed stays 2000
    await visit(j1.id, FUNNEL_STEPS);
    await visit(j2.id, FUNNEL_STEPS);
    await visit(j3.id, ['flights']);
    await visit(u1.id, FUNNEL_STEPS);

    const admin = await signIn(t.app, { permissions: ['view_report'] });
    expect((await get('/admin/reports', admin.cookie)).headers.location).toBe('/admin/reports/revenue');
    const rev = await get('/admin/reports/revenue', admin.cookie);
    expect(rev.statusCode).toBe(200);
    expect(rev.body).toContain('id="from" name="from" type="date" value="2025-07-01"');
    expect(tables(rev.body)).toEqual([
      [
        '2026-05 es 2 4500.00 EUR 1300.00 EUR 0.00 EUR 800.00 EUR 2000.00 EUR',
        '2026-06 es 3 8500.00 EUR 1600.00 EUR 500.00 EUR 0.00 EUR 6400.00 EUR',
        '2026-06 us 1 5000.00 USD 0.00 USD 0.00 USD 0.00 USD 5000.00 USD',
      ],
      [
        'india-golden-triangle es 1 1500.00 EUR 0.00 EUR 0.00 EUR 0.00 EUR 1500.00 EUR',
        'japan-essentials es 4 11500.00 EUR 2900.00 EUR 500.00 EUR 800.00 EUR 6900.00 EUR',
        'japan-essentials us 1 5000.00 USD 0.00 USD 0.00 USD 0.00 USD 5000.00 USD',
      ],
    ]);

    const esJune = '/admin/reports/funnel?market=es&product=japan-essentials&from=2026-06-01&to=2026-06-30';
    expect(tables((await get(esJune, admin.cookie)).body)).toEqual([
      [
        'Started 3 100 % –',
        'flights 3 100 % 100 %',
        'hotels 2 66.7 % 66.7 %',
        'activities 2 66.7 % 100 %',
        'transfers 2 66.7 % 100 %',
        'main contact 2 66.7 % 100 %',
        'travelers 2 66.7 % 100 %',
        'summary 2 66.7 % 100 %',
        'Paid 2 66.7 % 100 %',
      ],
    ]);
    const everyMarket = await get(
      '/admin/reports/funnel?product=japan-essentials&from=2026-06-01&to=2026-06-30',
      admin.cookie,
    );
    expect(tables(everyMarket.body)[0]!.slice(0, 3)).toEqual([
      'Started 4 100 % –',
      'flights 4 100 % 100 %',
      'hotels 3 75 % 75 %',
    ]);
    expect(tables(everyMarket.body)[0]!.at(-1)).toBe('Paid 3 75 % 100 %');
  });

  it('needs view_report; an impossible period is a form error', async () => {
    const other = await signIn(t.app, { permissions: ['view_booking'] });
    expect((await get('/admin/reports/revenue', other.cookie)).statusCode).toBe(403);
    const admin = await signIn(t.app, { permissions: ['view_report'] });
    const bad = await get('/admin/reports/funnel?from=2026-06-31&to=2026-06-01', admin.cookie);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Booked from: 2026-06-31 is not a day of the calendar. Choose a date that exists.');
  });
});
