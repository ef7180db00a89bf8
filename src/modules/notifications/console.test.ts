// The console's notifications over HTTP: the bell counts unread notifications per admin user, the
// list links each to its booking, mark read and mark all read change only that user's state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { insertPaidBooking } from '../../../test/support/flight-booking.js';
import { adminNotifications } from '../../db/schema/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('notifications', () => {
  it('counts unread notifications per admin user; mark read and mark all read', async () => {
    const a = await signIn(t.app, { permissions: ['view_booking'] });
    const b = await signIn(t.app, { permissions: ['view_booking'] });
    const bell = async (cookie: string) =>
      /class="count[^"]*">(\d+)</.exec(
        (await t.app.inject({ url: '/admin/notifications/bell', headers: { cookie } })).body,
      )![1];
    const before = Number(await bell(a.cookie));
    const booking = await insertPaidBooking(t.database);
    const [n1, n2] = await t.database.db
      .insert(adminNotifications)
      .values([
        { type: 'flight_leg_booked', bookingId: booking.id, title: 'Leg booked', message: '1 of 2 legs booked' },
        { type: 'flights_confirmed', bookingId: booking.id, title: 'Flights confirmed', message: 'all legs booked' },
      ])
      .returning();
    expect(Number(await bell(a.cookie))).toBe(before + 2);
    const page = await t.app.inject({ url: '/admin/notifications', headers: { cookie: a.cookie } });
    expect(page.body).toContain(`<a href="/admin/bookings/${booking.reference}">${booking.reference}</a>`);
    await t.app.inject({
      method: 'POST',
      url: `/admin/notifications/${n1!.id}/read`,
      headers: { cookie: a.cookie, 'x-csrf-token': a.csrf },
    });
    expect(Number(await bell(a.cookie))).toBe(before + 1);
    expect(Number(await bell(b.cookie))).toBe(before + 2);
    await t.app.inject({
      method: 'POST',
      url: '/admin/notifications/read-all',
      headers: { cookie: a.cookie, 'x-csrf-token': a.csrf },
    });
    expect(Number(await bell(a.cookie))).toBe(0);
    expect(Number(await bell(b.cookie))).toBe(before + 2);
    expect(n2!.id).toBeGreaterThan(n1!.id);
  });
});
