// Operator amendments of travelers (issue 27 section 2): through /api/internal/bookings/{id}/travelers
// and the console; free before the flights are booked, recorded with an operator task per booked
// leg after; every change an amendment row, an audit row and the customer's e-mail.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { paidBooking } from '../../../test/support/paid-booking.js';
import { adminAuditLog, adminNotifications, flightBookings, mailOutbox } from '../../db/schema/index.js';
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
});
