// Operator amendments of travelers (issue 27 section 2): through /api/internal/bookings/{id}/travelers
// and the console; free before the flights are booked, recorded with an operator task per booked
// leg after; every change an amendment row, an audit row and the customer's e-mail.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { paidBooking } from '../../../test/support/paid-booking.js';
import {
  adminAuditLog,
  adminNotifications,
  bookingBalances,
  bookingRefunds,
  flightBookings,
  mailOutbox,
} from '../../db/schema/index.js';
import { createApiToken } from '../checkout/service.js';
import * as repo from './repository.js';

let t: TestApp;
let cat: CheckoutCatalog;
let auth: { authorization: string };
beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' } });
  cat = await seedCheckoutCatalog(t.database);
  const { token } = await createApiToken(t.database.db, 'ops', ['admin:bookings']);
  auth = { authorization: `Bearer ${token}` };
});
afterAll(() => t.close());

const amend = (id: number, travelers: object[], headers: Record<string, string> = auth) =>
  t.app.inject({ method: 'PUT', url: `/api/internal/bookings/${id}/travelers`, headers, payload: { travelers } });
const notesOf = (bookingId: number, type: string) =>
  t.database.db
    .select()
    .from(adminNotifications)
    .where(and(eq(adminNotifications.bookingId, bookingId), eq(adminNotifications.type, type)));

describe('amending travelers', () => {
  it('changes names and passport data before the flights are booked, free, and records the amendment', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const res = await amend(b.bookingId, [{ position: 1, first_name: 'Luisa', passport_number: 'ZX998877' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      amendment_id: expect.any(Number),
      changes: [
        { traveler: 1, field: 'first_name', old: 'Luis', new: 'Luisa' },
        { traveler: 1, field: 'passport_number', old: '••B', new: '•••••877' },
      ],
      booked_legs: [],
      warning: null,
    });
    const people = await repo.passengersOf(t.database.db, b.bookingId);
    expect([people[1]!.firstName, people[1]!.passportNumber]).toEqual(['Luisa', 'ZX998877']);
    const [row] = await repo.amendmentsOf(t.database.db, b.bookingId);
    expect([row!.kind, row!.actor, row!.priceDifference]).toEqual(['travelers', 'api', '0.00']);
    const audit = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.resourceId, b.reference));
    expect(audit.map((a) => [a.actor, a.action])).toEqual([['api', 'booking.amend_travelers']]);
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.bookingId, b.bookingId), eq(mailOutbox.kind, 'booking_amended')));
    expect(mail!.textBody).toContain('- Luis Garcia: first name Luisa');
    expect(await notesOf(b.bookingId, 'flight_traveler_change')).toHaveLength(0);

    // bad names are refused, nothing changes
    const bad = await amend(b.bookingId, [{ position: 0, last_name: 'García' }]);
    expect(bad.statusCode).toBe(400);
    expect((await amend(b.bookingId, [{ position: 0 }], { authorization: 'Bearer nope' })).statusCode).toBe(401);
  });

  it('after the flights are booked, warns and gives the operator a task per booked leg', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    await t.database.db.insert(flightBookings).values({
      bookingId: b.bookingId,
      legIndex: 0,
      flightType: 'international',
      cabinClass: 'ECONOMY',
      provider: 'sandbox',
      fareId: 'fare-1',
      reservationId: 'res-1',
      status: 'confirmed',
      totalPrice: '1400.00',
      currency: 'EUR',
      flightNumbers: ['IB6801'],
    });
    const a = await signIn(t.app, { permissions: ['view_booking', 'update_booking'] });
    const page = await t.app.inject({ url: `/admin/bookings/${b.reference}`, headers: { cookie: a.cookie } });
    expect(page.body).toContain('The flights are booked: a change must also be made with the airline');
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/bookings/${b.reference}/travelers/0`,
      headers: { cookie: a.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: a.csrf, last_name: 'Garcia Lopez', first_name: '' }).toString(),
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/admin/bookings/${b.reference}?done=amended_flights#amendments`);
    const tasks = await notesOf(b.bookingId, 'flight_traveler_change');
    expect(tasks.map((n) => n.message)).toEqual([
      `Booking ${b.reference}, leg 0: the travelers changed after the flights were booked; change the booking with the airline (it may charge).`,
    ]);
    const [row] = await repo.amendmentsOf(t.database.db, b.bookingId);
    expect([row!.actor, row!.changes]).toEqual([
      `admin:${a.email}`,
      { travelers: [{ traveler: 0, field: 'last_name', old: 'Garcia', new: 'Garcia Lopez' }], booked_legs: [0] },
    ]);
    const after = await t.app.inject({ url: `/admin/bookings/${b.reference}`, headers: { cookie: a.cookie } });
    expect(after.body).toContain('<td>travelers</td>');
    expect(after.body).toContain('Garcia Lopez');
  });

  it('adds and removes extras priced like the checkout; the total and the balance follow', async () => {
    // 3910 EUR, 30% deposit paid (1173), 2737 due on 2026-08-14
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const extras = (payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/internal/bookings/${b.bookingId}/extras`, headers: auth, payload });
    // sake tasting 55 USD a person = 50 EUR (1.10 USD per EUR) x 2 travelers; private arrival 80 EUR a trip
    let res = await extras({
      add: [
        { type: 'activity', id: cat.activities.sake, day_number: 3 },
        { type: 'transfer', id: cat.transfers.privateArrival, day_number: 1 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      amendment_id: expect.any(Number),
      refund: 0,
      price_difference: 180,
      total_price: 4090,
      balance_due: 2917,
      balance_due_date: '2026-08-14',
      pay_link_sent: false,
      currency: 'EUR',
    });
    const upsells = await repo.upsellsOf(t.database.db, b.bookingId);
    expect(upsells.map((u) => [u.type, u.name, u.unitPrice, u.quantity, u.totalPrice])).toEqual([
      ['activity', 'Sake tasting', '50.00', 2, '100.00'],
      ['transfer', 'Private arrival transfer', '80.00', 1, '80.00'],
    ]);
    const transfer = upsells[1]!;
    res = await extras({ remove: [transfer.id] });
    expect(res.json().data).toMatchObject({ price_difference: -80, total_price: 4010, balance_due: 2837 });
    const requests = (await repo.supplierConfirmationsOf(t.database.db, b.bookingId)).filter(
      (c) => c.serviceName === 'Sake tasting' || c.serviceName === 'Private arrival transfer',
    );
    expect(requests.map((c) => [c.serviceName, c.serviceDate, c.status])).toEqual([
      ['Private arrival transfer', '2026-10-13', 'cancelled'],
      ['Sake tasting', '2026-10-15', 'requested'],
    ]);
    const amendments = await repo.amendmentsOf(t.database.db, b.bookingId);
    expect(amendments.map((a) => [a.kind, a.priceDifference, a.actor])).toEqual([
      ['extras', '180.00', 'api'],
      ['extras', '-80.00', 'api'],
    ]);
    const view = await t.app.inject({ url: `/api/internal/bookings/${b.bookingId}`, headers: auth });
    expect(view.json().data.total_price).toBe(4010);
    // an extra the tour does not offer that day is refused
    const bad = await extras({ add: [{ type: 'activity', id: cat.activities.sake, day_number: 2 }] });
    expect(bad.statusCode).toBe(422);
  });

  it('reopens a paid balance for an increase and e-mails the pay link', async () => {
    // departing in 30 days the whole 3910 was paid at checkout
    const b = await paidBooking(t, cat, { departureInDays: 30 });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/internal/bookings/${b.bookingId}/extras`,
      headers: auth,
      payload: { add: [{ type: 'activity', id: cat.activities.sushi, day_number: 2 }] },
    });
    // sushi class 40 EUR x 2
    expect(res.json().data).toMatchObject({
      price_difference: 80,
      total_price: 3990,
      balance_due: 80,
      pay_link_sent: true,
    });
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.bookingId, b.bookingId), eq(mailOutbox.kind, 'booking_amended')));
    expect(mail!.textBody).toContain('+ Sushi class (activity, day 2)');
    expect(mail!.textBody).toMatch(new RegExp(`/es/es/pay/${b.reference}\\?expires=\\d+&signature=`));
  });

  it('refunds the part of a decrease that was already paid', async () => {
    // departing in 30 days the whole 3910 was paid at checkout; sushi class 40 EUR x 2 added, then paid
    const b = await paidBooking(t, cat, { departureInDays: 30 });
    const post = (payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/internal/bookings/${b.bookingId}/extras`, headers: auth, payload });
    await post({ add: [{ type: 'activity', id: cat.activities.sushi, day_number: 2 }] });
    const sushi = (await repo.upsellsOf(t.database.db, b.bookingId))[0]!;
    // removed before the 80 is paid: nothing to refund, nothing due
    let res = await post({ remove: [sushi.id] });
    expect(res.json().data).toMatchObject({ price_difference: -80, refund: 0, total_price: 3910, balance_due: 0 });
    // the private arrival (80) added and removed again after the paid whole: removing a paid extra refunds it
    await post({ add: [{ type: 'transfer', id: cat.transfers.privateArrival, day_number: 1 }] });
    await t.database.db
      .update(bookingBalances)
      .set({ remainingPrice: '0.00', amountPaid: '3990.00', status: 'paid' })
      .where(eq(bookingBalances.bookingId, b.bookingId));
    const transfer = (await repo.upsellsOf(t.database.db, b.bookingId))[0]!;
    res = await post({ remove: [transfer.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ price_difference: -80, refund: 80, total_price: 3910, balance_due: 0 });
    const refunds = await t.database.db.select().from(bookingRefunds).where(eq(bookingRefunds.bookingId, b.bookingId));
    expect(refunds.map((r) => [r.kind, r.amount])).toEqual([['amendment', '80.00']]);
  });
});
