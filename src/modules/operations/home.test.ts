// The console's home: every figure against hand-counted rows (the test clock is 2026-06-15 10:00
// UTC), each figure's link listing exactly its records, and only the figures the admin's
// permissions show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import {
  bookingBalances,
  bookingPayments,
  bookingRefunds,
  bookings,
  crmSyncRecords,
  mailOutbox,
  marketingSyncStates,
  newsletterSubscribers,
  supplierConfirmations,
} from '../../db/schema/index.js';
import { leadCrmPushJob } from '../leads/jobs.js';

let t: TestApp;
beforeAll(async () => {
  // no workers: the failed jobs stay where the test puts them
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' } });
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
const text = (h: string) =>
  h
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
/** every figure of the page: its link and its words */
const figures = (body: string) =>
  [...body.matchAll(/<a class="figure[^"]*" href="([^"]+)">([\s\S]*?)<\/a>/g)].map((m) => ({
    href: m[1]!.replaceAll('&amp;', '&'),
    text: text(m[2]!),
  }));
const refsIn = (body: string) =>
  [...body.matchAll(/<td><a href="\/admin\/bookings\/([^"]+)">/g)].map((m) => m[1]).sort();

let n = 0;
async function booking(status: string, createdAt: string, total: string, currency = 'EUR') {
  const [b] = await t.database.db
    .insert(bookings)
    .values({
      reference: `IT-HOME${++n}`,
      status,
      offerId: 1,
      marketCode: 'es',
      language: 'es',
      paxCount: 2,
      actualPaxCount: 2,
      actualRoomType: '2A',
      totalPrice: total,
      currency,
      createdAt: new Date(createdAt),
    })
    .returning();
  return b!;
}
async function payment(
  bookingId: number,
  amount: string,
  currency: string,
  at: { finalized?: string; created: string },
  status = 'Succeeded',
) {
  const [p] = await t.database.db
    .insert(bookingPayments)
    .values({
      bookingId,
      intentId: `pi_home_${++n}`,
      gatewayCode: 'sandbox',
      methodCode: 'card',
      amount,
      totalPrice: amount,
      currency,
      status,
      createdAt: new Date(at.created),
      finalizedAt: at.finalized ? new Date(at.finalized) : null,
    })
    .returning();
  return p!;
}
/** a refund row as the payments module leaves it: updated_at is when it reached its status */
async function refund(
  pay: { id: number; bookingId: number },
  amount: string,
  currency: string,
  status: string,
  at: { created: string; updated: string },
) {
  await t.database.db.insert(bookingRefunds).values({
    bookingId: pay.bookingId,
    paymentId: pay.id,
    sequence: ++n,
    idempotencyKey: `refund-${pay.bookingId}-${n}`,
    amount,
    currency,
    status,
    kind: 'goodwill',
    requestedBy: 'ops@example.com',
    createdAt: new Date(at.created),
    updatedAt: new Date(at.updated),
  });
}
async function balance(bookingId: number, status: string, dueDate: string) {
  await t.database.db.insert(bookingBalances).values({
    bookingId,
    departureDate: '2026-08-01',
    dueDate,
    totalPrice: '1000.00',
    amountPaid: '300.00',
    remainingPrice: '700.00',
    currency: 'EUR',
    status,
  });
}

describe('the day at a glance', () => {
  it('counts sold bookings, money taken and the work waiting by hand-counted rows, each linking to exactly its records', async () => {
    const a = await booking('pending_flight_booking', '2026-06-15T08:00:00Z', '1000.00');
    const b = await booking('flights_confirmed', '2026-06-12T12:00:00Z', '500.50');
    const c = await booking('pending_land_confirmation', '2026-05-20T12:00:00Z', '800.00', 'GBP');
    const d = await booking('flights_confirmed', '2026-05-01T12:00:00Z', '999.00'); // 45 days ago: outside every window
    await booking('checkout', '2026-06-15T09:00:00Z', '700.00'); // not sold
    const f = await booking('flight_booking_failed', '2026-06-15T00:30:00Z', '200.00');
    const pa = await payment(a.id, '300.00', 'EUR', {
      created: '2026-06-15T07:59:00Z',
      finalized: '2026-06-15T08:00:00Z',
    });
    const pb = await payment(b.id, '150.00', 'EUR', {
      created: '2026-06-12T11:00:00Z',
      finalized: '2026-06-12T12:00:00Z',
    });
    await payment(b.id, '350.50', 'EUR', { created: '2026-06-14T06:00:00Z' }); // a balance: taken when recorded
    const pc = await payment(c.id, '800.00', 'GBP', {
      created: '2026-05-20T11:00:00Z',
      finalized: '2026-05-20T12:00:00Z',
    });
    const pd = await payment(d.id, '999.00', 'EUR', {
      created: '2026-05-01T11:00:00Z',
      finalized: '2026-05-01T12:00:00Z',
    });
    // refunds: counted on the day they succeeded; failed and pending ones are no money given back
    await refund(pb, '100.00', 'EUR', 'succeeded', {
      created: '2026-06-14T20:00:00Z',
      updated: '2026-06-15T09:00:00Z',
    });
    await refund(pa, '50.00', 'EUR', 'failed', { created: '2026-06-15T08:30:00Z', updated: '2026-06-15T08:31:00Z' });
    await refund(pa, '30.00', 'EUR', 'pending', { created: '2026-06-15T09:30:00Z', updated: '2026-06-15T09:30:00Z' });
    await refund(pc, '60.00', 'GBP', 'succeeded', { created: '2026-05-25T10:00:00Z', updated: '2026-05-25T10:05:00Z' });
    await refund(pd, '99.00', 'EUR', 'succeeded', { created: '2026-05-02T10:00:00Z', updated: '2026-05-02T10:05:00Z' }); // 44 days ago
    await payment(f.id, '99.00', 'EUR', { created: '2026-06-15T01:00:00Z' }, 'Failed');
    await balance(a.id, 'scheduled', '2026-06-20'); // due within 7 days
    await balance(b.id, 'scheduled', '2026-07-01'); // later
    await balance(c.id, 'overdue', '2026-06-01');
    await balance(f.id, 'retrying', '2026-06-10'); // past its due date: overdue
    // supplier confirmations: c waits for two suppliers (one answered), b has one declined; the
    // cancelled booking g's open request is no work
    const g = await booking('cancelled', '2026-04-01T12:00:00Z', '400.00'); // before every window
    const confirmation = (bookingId: number, serviceId: number, status: string) => ({
      bookingId,
      serviceType: 'hotel',
      serviceId,
      serviceName: `Hotel ${serviceId}`,
      dayStart: 1,
      dayEnd: 2,
      serviceDate: '2026-08-14',
      status,
      requestedAt: new Date('2026-06-10T10:00:00Z'),
    });
    await t.database.db
      .insert(supplierConfirmations)
      .values([
        confirmation(c.id, 1, 'requested'),
        confirmation(c.id, 2, 'requested'),
        confirmation(c.id, 3, 'confirmed'),
        confirmation(b.id, 4, 'declined'),
        confirmation(b.id, 5, 'confirmed'),
        confirmation(g.id, 6, 'requested'),
      ]);
    const [s1, s2] = await t.database.db
      .insert(newsletterSubscribers)
      .values(
        [1, 2].map((i) => ({ email: `home${i}@example.com`, consentGivenAt: new Date(), privacyPolicyVersion: 'v1' })),
      )
      .returning();
    await t.database.db.insert(crmSyncRecords).values([
      { modelType: 'newsletter_subscriber', modelId: s1!.id, status: 'Failed' },
      { modelType: 'newsletter_subscriber', modelId: s2!.id, status: 'Synced' },
      { modelType: 'lead', modelId: 7, status: 'Failed' },
      { modelType: 'lead', modelId: 8, status: 'Failed' },
    ]);
    await t.database.db.insert(marketingSyncStates).values([
      { subscriberId: s1!.id, status: 'Failed', updatedAt: new Date() },
      { subscriberId: s2!.id, status: 'Synced', updatedAt: new Date() },
    ]);
    const mail = (key: string, status: string) => ({
      key,
      kind: 'booking_confirmation',
      toAddress: 'x@example.com',
      language: 'es',
      subject: 's',
      textBody: 't',
      htmlBody: 'h',
      status,
    });
    await t.database.db
      .insert(mailOutbox)
      .values([mail('home-1', 'failed'), mail('home-2', 'sent'), mail('home-3', 'failed')]);

    // two lead CRM pushes that failed on their last try, as pg-boss stores them
    for (const leadId of [1, 2]) {
      const id = await t.app.ctx.queue.dispatch(leadCrmPushJob(t.app.ctx), { leadId });
      await t.database.query(`UPDATE pgboss.job SET state = 'failed', completed_on = now() WHERE id = $1`, [id]);
    }

    const admin = await signIn(t.app);
    const res = await get('/admin', admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body.match(/<h1[ >]/g)).toHaveLength(1);
    expect(figures(res.body)).toEqual([
      {
        href: '/admin/bookings?stage=sold&created_from=2026-06-15&created_to=2026-06-15',
        text: 'Today 2 booking(s) 1200.00 EUR',
      },
      {
        href: '/admin/bookings?stage=sold&created_from=2026-06-09&created_to=2026-06-15',
        text: 'Last 7 days 3 booking(s) 1700.50 EUR',
      },
      {
        href: '/admin/bookings?stage=sold&created_from=2026-05-17&created_to=2026-06-15',
        text: 'Last 30 days 4 booking(s) 1700.50 EUR 800.00 GBP',
      },
      { href: '/admin/bookings?paid_from=2026-06-15&paid_to=2026-06-15', text: 'Today 1 payment(s) 300.00 EUR' },
      { href: '/admin/bookings?paid_from=2026-06-09&paid_to=2026-06-15', text: 'Last 7 days 3 payment(s) 800.50 EUR' },
      {
        href: '/admin/bookings?paid_from=2026-05-17&paid_to=2026-06-15',
        text: 'Last 30 days 4 payment(s) 800.50 EUR 800.00 GBP',
      },
      {
        href: '/admin/bookings?refunded_from=2026-06-15&refunded_to=2026-06-15',
        text: 'Today 1 refund(s) 100.00 EUR',
      },
      {
        href: '/admin/bookings?refunded_from=2026-06-09&refunded_to=2026-06-15',
        text: 'Last 7 days 1 refund(s) 100.00 EUR',
      },
      {
        href: '/admin/bookings?refunded_from=2026-05-17&refunded_to=2026-06-15',
        text: 'Last 30 days 2 refund(s) 100.00 EUR 60.00 GBP',
      },
      { href: '/admin/bookings?status=pending_flight_booking', text: '1 Bookings to book flights for' },
      { href: '/admin/bookings?status=flight_booking_failed', text: '1 Bookings with failed flight legs' },
      { href: '/admin/bookings?balance=due_7', text: '1 Balances due in 7 days' },
      { href: '/admin/bookings?balance=overdue', text: '2 Balances overdue' },
      { href: '/admin/bookings?supplier=pending', text: '1 Bookings waiting for a supplier' },
      { href: '/admin/bookings?supplier=declined', text: '1 Bookings with a declined supplier' },
      { href: '/admin/sync?model=newsletter_subscriber&status=Failed', text: '1 Failed CRM syncs of subscribers' },
      { href: '/admin/sync?model=lead&status=Failed', text: '2 Failed CRM syncs of leads' },
      { href: '/admin/sync#marketing', text: '1 Marketing syncs failing or retried' },
      { href: '/admin/jobs', text: '2 Failed jobs' },
      { href: '/admin/outbox?status=failed', text: '2 Failed e-mails' },
    ]);
    // the chart: 30 days of bars, today's bar 2 bookings
    expect(res.body.match(/<rect class="bar"/g)).toHaveLength(30);
    expect(res.body).toContain('<title>2026-06-15: 2 booking(s), 1200.00 EUR</title>');
    expect(res.body).toContain('<title>2026-05-20: 1 booking(s), 0.00 EUR</title>');

    // each booking figure's link lists exactly its bookings
    const list = async (href: string) => refsIn((await get(href, admin.cookie)).body);
    expect(await list('/admin/bookings?stage=sold&created_from=2026-06-15&created_to=2026-06-15')).toEqual(
      [a.reference, f.reference].sort(),
    );
    expect(await list('/admin/bookings?stage=sold&created_from=2026-06-09&created_to=2026-06-15')).toEqual(
      [a.reference, b.reference, f.reference].sort(),
    );
    expect(await list('/admin/bookings?stage=sold&created_from=2026-05-17&created_to=2026-06-15')).toEqual(
      [a.reference, b.reference, c.reference, f.reference].sort(),
    );
    expect(await list('/admin/bookings?paid_from=2026-06-15&paid_to=2026-06-15')).toEqual([a.reference]);
    expect(await list('/admin/bookings?paid_from=2026-06-09&paid_to=2026-06-15')).toEqual(
      [a.reference, b.reference].sort(),
    );
    expect(await list('/admin/bookings?refunded_from=2026-06-15&refunded_to=2026-06-15')).toEqual([b.reference]);
    expect(await list('/admin/bookings?refunded_from=2026-05-17&refunded_to=2026-06-15')).toEqual(
      [b.reference, c.reference].sort(),
    );
    const backwards = await get('/admin/bookings?refunded_from=2026-06-15&refunded_to=2026-06-01', admin.cookie);
    expect(backwards.statusCode).toBe(422);
    expect(backwards.body).toContain('Refunded to: the end date is before the start date.');
    expect(await list('/admin/bookings?status=pending_flight_booking')).toEqual([a.reference]);
    expect(await list('/admin/bookings?balance=due_7')).toEqual([a.reference]);
    expect(await list('/admin/bookings?balance=overdue')).toEqual([c.reference, f.reference].sort());
    expect(await list('/admin/bookings?supplier=pending')).toEqual([c.reference]);
    expect(await list('/admin/bookings?supplier=declined')).toEqual([b.reference]);
  });

  it("shows only the figures the admin's permissions cover", async () => {
    const mailOnly = await signIn(t.app, { permissions: ['view_mail'] });
    const res = await get('/admin', mailOnly.cookie);
    expect(res.statusCode).toBe(200);
    expect(figures(res.body).map((x) => x.href)).toEqual(['/admin/outbox?status=failed']);
    expect(res.body).not.toContain('Bookings sold');
    expect(res.body).not.toContain('<svg');
  });
});
