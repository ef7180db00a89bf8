// The console's bookings: list with search, filters, sorting and pages; the booking page; and
// Book All Flights through the console on the sandbox provider (the real queue), with its
// confirmation step, permission and audit row.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { insertPaidBooking } from '../../../test/support/flight-booking.js';
import { waitFor } from '../../../test/support/wait.js';
import { adminAuditLog, bookings, clients } from '../../db/schema/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'true' } });
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
const refsIn = (body: string) => [...body.matchAll(/<td><a href="\/admin\/bookings\/([^"]+)">/g)].map((m) => m[1]);

describe('bookings list', () => {
  it('searches by reference, customer name and e-mail; filters by status and market; sorts; pages of 50', async () => {
    const admin = await signIn(t.app, { permissions: ['view_booking'] });
    const a = await insertPaidBooking(t.database);
    const b = await insertPaidBooking(t.database, { status: 'flights_confirmed' });
    const [zoe] = await t.database.db
      .insert(clients)
      .values({ firstName: 'Zoe', lastName: 'Quintana', email: 'zoe.q@example.org', phone: '+34600000001' })
      .returning();
    await t.database.db.update(bookings).set({ clientId: zoe!.id, marketCode: 'de' }).where(eq(bookings.id, b.id));

    expect(refsIn((await get(`/admin/bookings?q=${a.reference.toLowerCase()}`, admin.cookie)).body)).toEqual([
      a.reference,
    ]);
    expect(refsIn((await get('/admin/bookings?q=zoe%20quin', admin.cookie)).body)).toEqual([b.reference]);
    expect(refsIn((await get('/admin/bookings?q=Quintana', admin.cookie)).body)).toEqual([b.reference]);
    expect(refsIn((await get('/admin/bookings?q=ZOE.Q%40example', admin.cookie)).body)).toEqual([b.reference]);
    expect(refsIn((await get('/admin/bookings?q=%25', admin.cookie)).body)).toEqual([]);
    const confirmed = refsIn((await get('/admin/bookings?status=flights_confirmed', admin.cookie)).body);
    expect(confirmed).toContain(b.reference);
    expect(confirmed).not.toContain(a.reference);
    expect(refsIn((await get('/admin/bookings?market=de', admin.cookie)).body)).toEqual([b.reference]);
    const oldest = refsIn((await get('/admin/bookings?sort=reference', admin.cookie)).body);
    expect(oldest).toEqual([...oldest].sort());

    // 60 more bookings: page 1 has 50 and a next link, page 2 the rest
    for (let i = 0; i < 60; i++) await insertPaidBooking(t.database, { status: 'checkout' });
    const page1 = await get('/admin/bookings?status=checkout', admin.cookie);
    expect(refsIn(page1.body)).toHaveLength(50);
    expect(page1.body).toContain('href="/admin/bookings?status=checkout&amp;page=2" rel="next">Next page</a>');
    const page2 = await get('/admin/bookings?status=checkout&page=2', admin.cookie);
    expect(refsIn(page2.body)).toHaveLength(10);
    expect(page2.body).not.toContain('Next page');
    expect(page1.body).toContain('<label for="q">Search</label>');
  });
});

describe('booking page and Book All Flights', () => {
  it('shows the booking; an admin with book_flights_booking confirms and the legs get booked', async () => {
    const admin = await signIn(t.app, { permissions: ['view_booking', 'book_flights_booking'] });
    const b = await insertPaidBooking(t.database);
    const page = await get(`/admin/bookings/${b.reference}`, admin.cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<h1>Booking ${b.reference}</h1>`);
    expect(page.body).toContain('ana@example.com');
    expect(page.body).toContain('Traveler B Garcia');
    expect(page.body).toContain(`href="/admin/bookings/${b.reference}/book-flights">Book All Flights</a>`);

    const confirm = await get(`/admin/bookings/${b.reference}/book-flights`, admin.cookie);
    expect(confirm.body).toContain('This books 2 unbooked leg(s) of 2');
    expect(confirm.body).toContain('<button type="submit">Book All Flights</button>');

    const post = await t.app.inject({
      method: 'POST',
      url: `/admin/bookings/${b.reference}/book-flights`,
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(admin.csrf)}`,
    });
    expect(post.statusCode).toBe(303);
    expect(post.headers.location).toBe(`/admin/bookings/${b.reference}?done=queued`);
    await waitFor(async () => {
      const panel = await get(`/admin/bookings/${b.reference}/panel`, admin.cookie);
      return panel.body.includes('badge green">flights confirmed</span>');
    }, 20_000);
    const done = await get(`/admin/bookings/${b.reference}`, admin.cookie);
    expect(done.body).not.toContain('hx-trigger="every 2s"');
    expect(done.body).toMatch(/<td>[A-Z0-9]{6}<\/td>/); // a PNR per leg
    expect(done.body).not.toContain('>Book All Flights</a>');

    const [row] = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.resourceId, b.reference));
    expect(row).toMatchObject({ actor: admin.email, action: 'booking.book_flights', resourceType: 'booking' });
    expect(row!.details).toMatchObject({ queued_legs: [0, 1] });
  });

  it('refreshes itself while flight jobs run', async () => {
    const admin = await signIn(t.app, { permissions: ['view_booking'] });
    const b = await insertPaidBooking(t.database, { status: 'flight_booking_in_progress' });
    const page = await get(`/admin/bookings/${b.reference}`, admin.cookie);
    expect(page.body).toContain(`hx-get="/admin/bookings/${b.reference}/panel" hx-trigger="every 2s"`);
  });

  it('hides the action without book_flights_booking and refuses it', async () => {
    const viewer = await signIn(t.app, { permissions: ['view_booking'] });
    const b = await insertPaidBooking(t.database);
    const page = await get(`/admin/bookings/${b.reference}`, viewer.cookie);
    expect(page.body).not.toContain('Book All Flights');
    const post = await t.app.inject({
      method: 'POST',
      url: `/admin/bookings/${b.reference}/book-flights`,
      headers: { cookie: viewer.cookie, 'x-csrf-token': viewer.csrf },
    });
    expect(post.statusCode).toBe(403);
    expect((await t.database.db.select().from(bookings).where(eq(bookings.id, b.id)))[0]!.status).toBe(
      'pending_flight_booking',
    );
    expect((await get('/admin/bookings/IT-NOPE99', viewer.cookie)).statusCode).toBe(404);
  });
});
