// The balance pay link on the sandbox gateway (the demo without a Stripe key): the page's intent
// is confirmed with Stripe's test payment methods, as the checkout's confirm is; a declined
// method answers 402 and another one pays the balance.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { paidBooking } from '../../../test/support/paid-booking.js';
import { bookings } from '../../db/schema/index.js';
import { payLink } from './pay-link.js';

let t: TestApp;
let cat: CheckoutCatalog;
beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false', FRONTEND_URL: 'https://travel.example' } });
  cat = await seedCheckoutCatalog(t.database);
});
afterAll(() => t.close());

describe('sandbox pay link', () => {
  it('is paid with the test payment methods: declined first, then paid with pm_card_visa', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, b.bookingId));
    const link = new URL(payLink(t.config, row, b.departureDate));
    const api = `/api/es/es/balance/${b.reference}`;
    const intent = (await t.app.inject({ method: 'POST', url: `${api}/intent${link.search}` })).json().data;
    expect(intent).toMatchObject({ payment_gateway: 'sandbox' });
    // the balance is the total minus the 30 % deposit
    expect(Math.round(intent.amount * 100)).toBe(Math.round(b.totalPrice * 100) - Math.round(b.deposit * 100));

    const confirm = (payment_method?: string) =>
      t.app.inject({
        method: 'POST',
        url: `${api}/confirm${link.search}`,
        payload: { payment_intent_id: intent.payment_intent_id, ...(payment_method ? { payment_method } : {}) },
      });
    const declined = await confirm('pm_card_chargeDeclined');
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ success: false, error: 'payment_not_succeeded' });
    const paid = await confirm('pm_card_visa');
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data).toMatchObject({ payment_status: 'Succeeded', amount_paid: b.totalPrice, balance_due: 0 });
  });

  it('without a method, the sandbox confirms with pm_card_visa', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, b.bookingId));
    const link = new URL(payLink(t.config, row, b.departureDate));
    const api = `/api/es/es/balance/${b.reference}`;
    const intent = (await t.app.inject({ method: 'POST', url: `${api}/intent${link.search}` })).json().data;
    const paid = await t.app.inject({
      method: 'POST',
      url: `${api}/confirm${link.search}`,
      payload: { payment_intent_id: intent.payment_intent_id },
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data.balance_due).toBe(0);
  });
});
