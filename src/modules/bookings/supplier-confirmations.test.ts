// Land services confirmed with their suppliers (issue 27 section 1): the requests finalization
// makes, the supplier's signed link (HTML form and JSON), a decline, the 48 h reminder and the
// booking reaching `confirmed`; a booking with flights reaching confirmed, then completed.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { insertPaidBooking } from '../../../test/support/flight-booking.js';
import { paidBooking } from '../../../test/support/paid-booking.js';
import { runTaskCommand } from '../../../test/support/task-cli.js';
import { waitFor } from '../../../test/support/wait.js';
import {
  activities,
  adminNotifications,
  bookings,
  hotels,
  mailOutbox,
  supplierConfirmations,
  transfers,
} from '../../db/schema/index.js';
import { bookAllFlights } from './flight-booking.js';
import * as repo from './repository.js';
import { requestSupplierConfirmations } from './supplier-confirmations.js';

let t: TestApp;
let cat: CheckoutCatalog;
beforeAll(async () => {
  t = await createTestApp({ env: { FLIGHTS_PROVIDER: 'sandbox', IN_PROCESS_WORKERS: 'true' } });
  cat = await seedCheckoutCatalog(t.database);
  const db = t.database.db;
  await db
    .update(hotels)
    .set({ supplierEmail: 'res@gracery.example', supplierName: 'Gracery reservations' })
    .where(eq(hotels.id, cat.hotels.tokyo));
  await db.update(hotels).set({ supplierEmail: 'res@kyototower.example' }).where(eq(hotels.id, cat.hotels.kyoto));
  await db.update(activities).set({ supplierEmail: 'tea@example.com' }).where(eq(activities.id, cat.activities.tea));
  await db
    .update(transfers)
    .set({ supplierEmail: 'ops@transfers.example' })
    .where(eq(transfers.id, cat.transfers.arrival));
  await db
    .update(transfers)
    .set({ supplierEmail: 'ops@transfers.example' })
    .where(eq(transfers.id, cat.transfers.departure));
});
afterAll(() => t.close());

const statusOf = async (id: number) =>
  (await t.database.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0]!.s;
const supplierMails = (bookingId: number, kind = 'supplier_request') =>
  t.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.bookingId, bookingId), eq(mailOutbox.kind, kind)))
    .orderBy(mailOutbox.id);
/** the path and query of the signed link in a supplier e-mail */
const linkIn = (text: string) => {
  const m = /http:\/\/api\.test(\/supplier\/confirmations\/(\d+)\?expires=\d+&signature=[0-9a-f]{64})/.exec(text);
  if (!m) throw new Error(`no link in ${text}`);
  return { path: m[1]!, id: Number(m[2]), query: m[1]!.split('?')[1]! };
};
const json = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, payload, headers: { 'x-forwarded-for': '203.0.113.7' } });

describe('supplier confirmations of a land-only booking', () => {
  it('requests each land service, and the supplier links confirm the booking', async () => {
    // departs 2026-10-13 (today 2026-06-15 + 120 days), returns 2026-10-17; 2 travelers in 2A
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    expect(await statusOf(b.bookingId)).toBe('pending_land_confirmation');
    const rows = await repo.supplierConfirmationsOf(t.database.db, b.bookingId);
    expect(
      rows.map((r) => [
        r.serviceType,
        r.serviceName,
        r.dayStart,
        r.dayEnd,
        r.serviceDate,
        r.endDate,
        r.roomType,
        r.status,
      ]),
    ).toEqual([
      ['transfer', 'Shared arrival transfer', 1, 1, '2026-10-13', null, null, 'requested'],
      ['hotel', 'Hotel Gracery', 1, 3, '2026-10-13', '2026-10-16', '2A', 'requested'],
      ['activity', 'Tea ceremony', 2, 2, '2026-10-14', null, null, 'requested'],
      ['hotel', 'Kyoto Tower Hotel', 4, 4, '2026-10-16', '2026-10-17', '2A', 'requested'],
      ['transfer', 'Shared departure transfer', 5, 5, '2026-10-17', null, null, 'requested'],
    ]);

    const mails = await supplierMails(b.bookingId);
    expect(mails.map((m) => m.toAddress)).toEqual([
      'ops@transfers.example',
      'res@gracery.example',
      'tea@example.com',
      'res@kyototower.example',
      'ops@transfers.example',
    ]);
    const hotelMail = mails[1]!;
    expect(hotelMail.subject).toBe(`Booking ${b.reference}: please confirm Hotel Gracery`);
    expect(hotelMail.textBody).toContain('Dear Gracery reservations,');
    expect(hotelMail.textBody).toContain(`Our booking reference: ${b.reference}`);
    expect(hotelMail.textBody).toContain('Check-in: 2026-10-13\nCheck-out: 2026-10-16\nRoom type: 2A');
    expect(hotelMail.textBody).toContain('Passengers: Ana Garcia, Luis Garcia');
    const links = mails.map((m) => linkIn(m.textBody));
    expect(links.map((l) => l.id)).toEqual(rows.map((r) => r.id));

    // the HTML page of the link: the service and the two forms
    const pageRes = await t.app.inject({ url: links[1]!.path });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.headers['content-type']).toContain('text/html');
    expect(pageRes.body).toContain('<dt>Check-in</dt><dd>2026-10-13</dd>');
    expect(pageRes.body).toContain('<button type="submit">Confirm</button>');
    expect(pageRes.body).toContain('<button type="submit">Decline</button>');

    // four answer through the JSON API, the booking waits for the last one
    for (const l of links.slice(0, 4)) {
      const res = await json('POST', `/api/supplier/confirmations/${l.id}/confirm?${l.query}`, {
        reference: `SUP-${l.id}`,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: l.id, status: 'confirmed', supplier_reference: `SUP-${l.id}` });
    }
    expect(await statusOf(b.bookingId)).toBe('pending_land_confirmation');
    // the last through the HTML form
    const form = await t.app.inject({
      method: 'POST',
      url: links[4]!.path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'answer=confirm&reference=TR-889',
    });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Thank you: the service is confirmed.');
    expect(await statusOf(b.bookingId)).toBe('confirmed');
    const moves = await repo.transitionsOf(t.database.db, b.bookingId);
    expect(moves.map((m) => [m.fromStatus, m.toStatus])).toEqual([
      ['checkout', 'pending_land_confirmation'],
      ['pending_land_confirmation', 'confirmed'],
    ]);
    const last = await repo.findSupplierConfirmation(t.database.db, links[4]!.id);
    expect([last!.status, last!.supplierReference, last!.answeredBy]).toEqual(['confirmed', 'TR-889', 'supplier']);

    // the same answer again is accepted, another one is refused
    const again = await json('POST', `/api/supplier/confirmations/${links[0]!.id}/confirm?${links[0]!.query}`, {
      reference: 'SUP-X',
    });
    expect(again.statusCode).toBe(200);
    const other = await json('POST', `/api/supplier/confirmations/${links[0]!.id}/decline?${links[0]!.query}`, {
      reason: 'changed our mind',
    });
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toBe('supplier_confirmation_answered');
  });

  it('answers 403 invalid_signature to a forged, expired or other request signature', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const [first, second] = (await supplierMails(b.bookingId)).map((m) => linkIn(m.textBody));
    const forged = first!.query.replace(/signature=([0-9a-f])/, (_, c) => `signature=${c === 'a' ? 'b' : 'a'}`);
    for (const url of [
      `/api/supplier/confirmations/${first!.id}?${forged}`,
      `/api/supplier/confirmations/${first!.id}`,
      `/api/supplier/confirmations/${first!.id}?${second!.query}`,
    ]) {
      const res = await json('GET', url);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        success: false,
        error: 'invalid_signature',
        message: 'This link is not valid or has expired.',
      });
    }
    const html = await t.app.inject({ url: `/supplier/confirmations/${first!.id}?${forged}` });
    expect(html.statusCode).toBe(403);
    expect(html.body).toContain('This link is not valid or has expired.');
    // the link of the arrival transfer (2026-10-13) expires at the end of that day
    t.clock.set('2026-10-14T00:00:01Z');
    try {
      expect((await json('GET', `/api/supplier/confirmations/${first!.id}?${first!.query}`)).statusCode).toBe(403);
    } finally {
      t.clock.set('2026-06-15T10:00:00Z');
    }
    expect((await json('GET', `/api/supplier/confirmations/${first!.id}?${first!.query}`)).statusCode).toBe(200);
  });

  it('a decline notifies the admins and keeps the booking waiting', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const links = (await supplierMails(b.bookingId)).map((m) => linkIn(m.textBody));
    const res = await json('POST', `/api/supplier/confirmations/${links[1]!.id}/decline?${links[1]!.query}`, {
      reason: 'Fully booked that week',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'declined', decline_reason: 'Fully booked that week' });
    for (const l of [links[0]!, ...links.slice(2)]) {
      await json('POST', `/api/supplier/confirmations/${l.id}/confirm?${l.query}`, { reference: 'OK' });
    }
    expect(await statusOf(b.bookingId)).toBe('pending_land_confirmation');
    const notes = await t.database.db
      .select()
      .from(adminNotifications)
      .where(and(eq(adminNotifications.bookingId, b.bookingId), eq(adminNotifications.type, 'supplier_declined')));
    expect(notes.map((n) => [n.title, n.message])).toEqual([
      [
        'Supplier declined a service',
        `Booking ${b.reference}: Hotel Gracery (2026-10-13) was declined: Fully booked that week`,
      ],
    ]);
    // an empty reason is refused before anything changes
    const empty = await json('POST', `/api/supplier/confirmations/${links[1]!.id}/decline?${links[1]!.query}`, {
      reason: '',
    });
    expect(empty.statusCode).toBe(400);
  });

  it('reminds the suppliers who have not answered after 48 hours, once', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const links = (await supplierMails(b.bookingId)).map((m) => linkIn(m.textBody));
    await json('POST', `/api/supplier/confirmations/${links[0]!.id}/confirm?${links[0]!.query}`, { reference: 'A1' });
    try {
      t.clock.set('2026-06-17T09:59:00Z'); // 47 h 59 min after the request
      await runTaskCommand(t, ['bookings.remind-suppliers']);
      expect(await supplierMails(b.bookingId, 'supplier_reminder')).toHaveLength(0);
      t.clock.set('2026-06-17T10:00:00Z');
      const run = await runTaskCommand(t, ['bookings.remind-suppliers']);
      expect(run.code).toBe(0);
      const reminders = await supplierMails(b.bookingId, 'supplier_reminder');
      expect(reminders.map((m) => m.toAddress)).toEqual([
        'res@gracery.example',
        'tea@example.com',
        'res@kyototower.example',
        'ops@transfers.example',
      ]);
      expect(reminders[0]!.subject).toBe(
        `Reminder: booking ${b.reference} is waiting for your confirmation of Hotel Gracery`,
      );
      t.clock.set('2026-06-18T10:00:00Z'); // a day later: not yet 48 h after the reminder
      await runTaskCommand(t, ['bookings.remind-suppliers']);
      expect(await supplierMails(b.bookingId, 'supplier_reminder')).toHaveLength(4);
    } finally {
      t.clock.set('2026-06-15T10:00:00Z');
    }
  });
});

describe('a booking with flights', () => {
  it('is confirmed when its flights are booked after its suppliers confirmed, then completed after its return', async () => {
    const b = await insertPaidBooking(t.database);
    // the booking of the checkout catalog's active offer: departs 2026-08-14, returns 2026-08-18
    await t.database.db.update(bookings).set({ offerId: cat.offers.active }).where(eq(bookings.id, b.id));
    await t.database.db.transaction((tx) => requestSupplierConfirmations(tx, t.app.ctx, b.id));
    const rows = await repo.supplierConfirmationsOf(t.database.db, b.id);
    expect(rows).toHaveLength(5);
    for (const r of rows) {
      await t.database.db
        .update(supplierConfirmations)
        .set({ status: 'confirmed', supplierReference: `R${r.id}` })
        .where(eq(supplierConfirmations.id, r.id));
    }
    expect(await statusOf(b.id)).toBe('pending_flight_booking');

    await bookAllFlights(t.app.ctx, b.id);
    await waitFor(async () => (await statusOf(b.id)) === 'confirmed', 30_000);
    const moves = await repo.transitionsOf(t.database.db, b.id);
    expect(moves.map((m) => [m.fromStatus, m.toStatus])).toEqual([
      ['pending_flight_booking', 'flight_booking_in_progress'],
      ['flight_booking_in_progress', 'flights_confirmed'],
      ['flights_confirmed', 'confirmed'],
    ]);

    // the return day itself is not past; the day after, the trip is completed
    let run = await runTaskCommand(t, ['bookings.complete-trips', '--as-of=2026-08-18']);
    expect(run.code).toBe(0);
    expect(await statusOf(b.id)).toBe('confirmed');
    t.clock.set('2026-08-19T03:00:00Z');
    try {
      run = await runTaskCommand(t, ['bookings.complete-trips']);
    } finally {
      t.clock.set('2026-06-15T10:00:00Z');
    }
    expect(run.lines.join('\n')).toContain('booking(s) completed');
    expect(await statusOf(b.id)).toBe('completed');
  });
});
