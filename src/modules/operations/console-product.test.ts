// The console as a product: navigation in sections, HTML for every console address (404 in the
// layout), refused filter values as form errors (never a 500), booking legs as flights, and an
// unfinished checkout that does not claim to be land-only.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { insertPaidBooking } from '../../../test/support/flight-booking.js';
import { bookings } from '../../db/schema/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie, accept: 'text/html' } });

describe('the console as a product', () => {
  it('groups the navigation into Sales, Catalog, Operations and System, each with the pages the role allows', async () => {
    const admin = await signIn(t.app);
    const page = (await get('/admin', admin.cookie)).body;
    const sections = [
      ...page.matchAll(/<span class="nav-section" id="[^"]+">([^<]+)<\/span><ul[^>]*>([\s\S]*?)<\/ul>/g),
    ].map((m) => [m[1], [...m[2]!.matchAll(/<a [^>]*>([^<]+)<\/a>/g)].map((a) => a[1])]);
    expect(sections).toEqual([
      ['Sales', ['Bookings', 'Departures', 'Leads', 'Subscribers']],
      ['Catalog', ['Products', 'Supply texts', 'Content', 'Media']],
      ['Operations', ['Jobs', 'Sync monitor', 'Outbox', 'Reports']],
      ['System', ['Health', 'Pulse', 'Telescope', 'Admin users', 'Roles', 'API tokens', 'Audit log']],
    ]);
    const leadsOnly = await signIn(t.app, { permissions: ['view_lead'] });
    const small = (await get('/admin', leadsOnly.cookie)).body;
    expect(small).toContain('<span class="nav-section" id="nav-sales">Sales</span>');
    expect(small).not.toContain('nav-system');
  });

  it('answers an unknown console address with the 404 page in the layout, and a visitor without a session with the sign-in', async () => {
    const admin = await signIn(t.app, { permissions: ['view_booking'] });
    const res = await get('/admin/no-such-page/at-all', admin.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<nav aria-label="Console"');
    expect(res.body).toContain('<h1>Not found</h1>');
    expect(res.body.match(/<h1[ >]/g)).toHaveLength(1);
    const anonymous = await t.app.inject({ url: '/admin/no-such-page', headers: { accept: 'text/html' } });
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toBe('/admin/login?next=%2Fadmin%2Fno-such-page');
  });

  it('shows an impossible filter value as a form error beside its field (422), never a 500', async () => {
    const admin = await signIn(t.app, { permissions: ['view_booking'] });
    const res = await get('/admin/bookings?from=2027-02-30', admin.cookie);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('<h1>Bookings</h1>');
    expect(res.body).toContain(
      '<span class="field-error" id="from-error">Departure from: 2027-02-30 is not a day of the calendar. Choose a date that exists.</span>',
    );
    expect(res.body).toContain(
      'id="from" name="from" type="date" value="" aria-invalid="true" aria-describedby="from-error"',
    );
    const others = await get(
      '/admin/bookings?to=14%2F03%2F2027&status=lost&market=Spain&from=2027-03-01&created_to=2027-01-01&created_from=2027-02-01',
      admin.cookie,
    );
    expect(others.statusCode).toBe(422);
    expect(others.body).toContain('Departure to: write the date as year-month-day, e.g. 2027-03-14.');
    expect(others.body).toContain('Status: &quot;lost&quot; is not one of the choices. Pick one from the list.');
    expect(others.body).toContain('Market: use the market code of two or three lowercase letters, e.g. es.');
    expect(others.body).toContain('Booked to: the end date is before the start date.');
    expect(others.body).toContain('Nothing is listed: 4 filters need a change.');
  });

  it('answers no console list with a 500, whatever a filter holds (a NUL byte, an impossible date, 300 characters)', async () => {
    const admin = await signIn(t.app);
    const pages = [
      '/admin/bookings',
      '/admin/departures',
      '/admin/reports/revenue',
      '/admin/reports/funnel',
      '/admin/leads',
      '/admin/subscribers',
      '/admin/sync',
      '/admin/outbox',
      '/admin/jobs',
      '/admin/catalog/products',
      '/admin/catalog/offers',
      '/admin/supply-texts',
      '/admin/content/regions',
      '/admin/audit-log',
      '/pulse',
      '/telescope',
    ];
    const failures: string[] = [];
    for (const page of pages) {
      for (const name of ['q', 'status', 'market', 'from', 'to', 'page', 'product', 'kind', 'model']) {
        for (const value of ['%00', '2027-02-30', 'x'.repeat(300)]) {
          const res = await get(`${page}?${name}=${value}`, admin.cookie);
          if (res.statusCode >= 500) failures.push(`${page}?${name}=${value.slice(0, 12)}: ${res.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('shows a booking’s legs as flights (route, date, flight numbers), never JSON', async () => {
    const admin = await signIn(t.app, { permissions: ['view_booking'] });
    const b = await insertPaidBooking(t.database);
    const page = (await get(`/admin/bookings/${b.reference}`, admin.cookie)).body;
    const legs = page.slice(page.indexOf('<h2>Flight legs</h2>'), page.indexOf('<h2>Timeline</h2>'));
    expect(legs).toContain('<div>Out MAD → NRT: ');
    expect(legs).toContain('<div>Back NRT → MAD: ');
    expect(legs).toContain('<div>Out NRT → KIX: ');
    expect(legs).toContain('<div class="muted">2026-09-01</div>');
    expect(legs).not.toContain('{');
    expect(legs).not.toContain('<code>');
    expect(page).toContain(`<a href="/admin/departures/1">Departure 1: manifest and rooming list</a>`);
  });

  it('prints a page without the navigation and buttons (the stylesheet has a print layout)', async () => {
    const css = (await t.app.inject({ url: '/admin/assets/console.css' })).body;
    const print = css.slice(css.indexOf('@media print'));
    expect(print).toMatch(/header\.top,\s*nav\.side,\s*\.skip,\s*\.no-print,\s*form\.filters\s*\{\s*display: none;/);
  });

  it('does not call an unfinished checkout "land services only"', async () => {
    const admin = await signIn(t.app, { permissions: ['view_booking'] });
    const b = await insertPaidBooking(t.database, { status: 'checkout' });
    await t.database.db.update(bookings).set({ flightSelection: null }).where(eq(bookings.id, b.id));
    const page = (await get(`/admin/bookings/${b.reference}`, admin.cookie)).body;
    expect(page).toContain('No flights chosen yet: the customer has not finished the checkout.');
    expect(page).not.toContain('land services only');
  });
});
