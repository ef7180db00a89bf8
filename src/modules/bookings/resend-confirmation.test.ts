// "Resend confirmation e-mail" on the console's booking page: a confirmation step, then a new
// outbox row of the booking's confirmation (the first one stays), behind its own permission.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { paidBooking } from '../../../test/support/paid-booking.js';
import { adminAuditLog, mailOutbox } from '../../db/schema/index.js';

let t: TestApp;
let cat: CheckoutCatalog;
beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' } });
  cat = await seedCheckoutCatalog(t.database);
});
afterAll(() => t.close());

const post = (url: string, cookie: string, csrf: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `_csrf=${csrf}`,
  });
const confirmations = async (bookingId: number) =>
  (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.bookingId, bookingId))).filter(
    (m) => m.kind === 'booking_confirmation',
  );

describe('Resend confirmation e-mail', () => {
  it('puts the confirmation in the outbox again after a confirmation step, and audits it', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    expect(await confirmations(b.bookingId)).toHaveLength(1);
    const a = await signIn(t.app, { permissions: ['view_booking', 'resend_confirmation_booking'] });
    const page = await t.app.inject({ url: `/admin/bookings/${b.reference}`, headers: { cookie: a.cookie } });
    expect(page.body).toContain('Resend confirmation e-mail');
    const confirm = await t.app.inject({
      url: `/admin/bookings/${b.reference}/resend-confirmation`,
      headers: { cookie: a.cookie },
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('<button type="submit">Resend confirmation e-mail</button>');
    const done = await post(`/admin/bookings/${b.reference}/resend-confirmation`, a.cookie, a.csrf);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/admin/bookings/${b.reference}?done=resent`);
    const mails = await confirmations(b.bookingId);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe(mails[0]!.subject);
    expect(mails[1]!.toAddress).toBe(mails[0]!.toAddress);
    const audit = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.actor, a.email));
    expect(audit.map((r) => [r.action, r.resourceId])).toEqual([['booking.resend_confirmation', b.reference]]);
  });

  it('is refused without resend_confirmation_booking, and the button is not shown', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const a = await signIn(t.app, { permissions: ['view_booking'] });
    const page = await t.app.inject({ url: `/admin/bookings/${b.reference}`, headers: { cookie: a.cookie } });
    expect(page.body).not.toContain('Resend confirmation e-mail');
    expect((await post(`/admin/bookings/${b.reference}/resend-confirmation`, a.cookie, a.csrf)).statusCode).toBe(403);
    expect(await confirmations(b.bookingId)).toHaveLength(1);
  });

  it("lists the outbox in the console (view_mail): subject, recipient, state; one mail's text", async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const [mail] = await confirmations(b.bookingId);
    const a = await signIn(t.app, { permissions: ['view_mail'] });
    const list = await t.app.inject({ url: '/admin/outbox?status=pending', headers: { cookie: a.cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`<a href="/admin/outbox/${mail!.id}">${mail!.subject}</a>`);
    expect(list.body).toContain(mail!.toAddress);
    expect(list.body).toContain('SMTP_URL is not set');
    const one = await t.app.inject({ url: `/admin/outbox/${mail!.id}`, headers: { cookie: a.cookie } });
    expect(one.statusCode).toBe(200);
    expect(one.body).toContain(b.reference);
    const refused = await signIn(t.app, { permissions: ['view_booking'] });
    expect((await t.app.inject({ url: '/admin/outbox', headers: { cookie: refused.cookie } })).statusCode).toBe(403);
  });
});
