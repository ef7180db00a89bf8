// The console's booking page after the sale (issue 27 section 4): the whole story in one place, the
// operator's internal notes and suppliers' answers recorded by hand, and the list's status filter.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { paidBooking } from '../../../test/support/paid-booking.js';
import { adminAuditLog, bookings, hotels } from '../../db/schema/index.js';
import * as repo from './repository.js';
import { recordSupplierAnswer } from './supplier-confirmations.js';

let t: TestApp;
let cat: CheckoutCatalog;
beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' } });
  cat = await seedCheckoutCatalog(t.database);
  await t.database.db
    .update(hotels)
    .set({ supplierEmail: 'res@gracery.example', supplierName: 'Gracery reservations' })
    .where(eq(hotels.id, cat.hotels.tokyo));
});
afterAll(() => t.close());

const form = (url: string, cookie: string, body: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(body).toString(),
  });
const statusOf = async (id: number) =>
  (await t.database.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0]!.s;

describe('the booking page after the sale', () => {
  it('shows the trip, masked passports, supplier confirmations, the balance due date; notes and answers are recorded', async () => {
    // the first paid booking of this file: passports P1A and P1B; departs 2026-10-13, back 2026-10-17
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const rows = await repo.supplierConfirmationsOf(t.database.db, b.bookingId);
    const gracery = rows.find((r) => r.serviceName === 'Hotel Gracery')!;
    await recordSupplierAnswer(t.app.ctx, gracery.id, { answer: 'decline', reason: 'Closed for works' }, 'supplier');

    const a = await signIn(t.app, { permissions: ['view_booking', 'update_booking'] });
    const page = await t.app.inject({ url: `/admin/bookings/${b.reference}`, headers: { cookie: a.cookie } });
    expect(page.statusCode).toBe(200);
    const body = page.body;
    expect(body).toContain('<dt>Tour</dt><dd>Japón esencial</dd>');
    expect(body).toContain('<dt>Departure</dt><dd>2026-10-13</dd><dt>Return</dt><dd>2026-10-17</dd>');
    expect(body).toContain('<dt>Market</dt><dd>es (es)</dd>');
    expect(body).toContain('<td>Ana Garcia</td><td>ES</td><td>••A</td>');
    expect(body).toContain('<td>Luis Garcia</td><td>ES</td><td>••B</td>');
    expect(body).not.toContain('P1A');
    // the balance falls due 60 days before departure
    expect(body).toContain('<dt>Balance due date</dt><dd>2026-08-14</dd>');
    expect(body).toContain('<h2>Supplier confirmations</h2>');
    expect(body).toContain('<td>Hotel Gracery</td><td>2026-10-13 → 2026-10-16</td>');
    expect(body).toContain('Closed for works');
    expect(body).toContain('No flight legs (land services only).');
    expect(body).toContain('Supplier declined a service');

    // an internal note, with its author and time
    const noted = await form(`/admin/bookings/${b.reference}/notes`, a.cookie, {
      _csrf: a.csrf,
      body: 'Customer asked for a quiet room.',
    });
    expect(noted.statusCode).toBe(303);
    const notes = await repo.notesOf(t.database.db, b.bookingId);
    expect(notes.map((n) => [n.author, n.body, n.createdAt.toISOString()])).toEqual([
      [a.email, 'Customer asked for a quiet room.', '2026-06-15T10:00:00.000Z'],
    ]);
    const after = await t.app.inject({ url: `/admin/bookings/${b.reference}`, headers: { cookie: a.cookie } });
    expect(after.body).toContain('<p>Customer asked for a quiet room.</p>');
    expect(after.body).toContain(`${a.email}, `);

    // the operator records every supplier's answer (Gracery found a room after all): confirmed
    for (const r of rows) {
      const res = await form(`/admin/bookings/${b.reference}/confirmations/${r.id}`, a.cookie, {
        _csrf: a.csrf,
        answer: 'confirm',
        reference: `PHONE-${r.id}`,
        reason: '',
      });
      expect(res.statusCode).toBe(303);
    }
    expect(await statusOf(b.bookingId)).toBe('confirmed');
    const g = await repo.findSupplierConfirmation(t.database.db, gracery.id);
    expect([g!.status, g!.supplierReference, g!.answeredBy]).toEqual([
      'confirmed',
      `PHONE-${gracery.id}`,
      `admin:${a.email}`,
    ]);
    const audit = await t.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.actor, a.email), eq(adminAuditLog.resourceId, b.reference)));
    expect(audit.map((r) => r.action)).toEqual(['booking.note', ...rows.map(() => 'booking.supplier_confirmed')]);
    expect(audit[1]!.details).toMatchObject({ service: 'Shared arrival transfer', old: 'requested', new: 'confirmed' });

    // an answer without its reference is refused
    const bad = await form(`/admin/bookings/${b.reference}/confirmations/${gracery.id}`, a.cookie, {
      _csrf: a.csrf,
      answer: 'confirm',
      reference: '',
    });
    expect(bad.statusCode).toBe(400);
  });

  it('is read-only without update_booking', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const a = await signIn(t.app, { permissions: ['view_booking'] });
    const page = await t.app.inject({ url: `/admin/bookings/${b.reference}`, headers: { cookie: a.cookie } });
    expect(page.body).not.toContain('Add note');
    expect(page.body).not.toContain('Record answer');
    const res = await form(`/admin/bookings/${b.reference}/notes`, a.cookie, { _csrf: a.csrf, body: 'x' });
    expect(res.statusCode).toBe(403);
    expect(await repo.notesOf(t.database.db, b.bookingId)).toEqual([]);
  });

  it('filters the list by the statuses after the sale', async () => {
    const a = await signIn(t.app, { permissions: ['view_booking'] });
    const list = await t.app.inject({ url: '/admin/bookings?status=confirmed', headers: { cookie: a.cookie } });
    for (const s of ['confirmed', 'completed', 'cancelled', 'balance_overdue', 'fully_paid', 'abandoned']) {
      expect(list.body).toContain(`<option value="${s}"`);
    }
    expect(list.body).toContain('<option value="confirmed" selected>confirmed</option>');
  });
});
