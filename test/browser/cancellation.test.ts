// The booking after the sale in the console, in headless Chromium against the real app (sandbox
// gateway): a refund without a cancellation, then "Cancel booking" with its quote and
// confirmation step, and the buttons hidden from a role without cancel_booking / refund_booking.
//
// The booking: 7,569.98 EUR for 2 departing in 120 days, deposit 30 % = 2,270.994 -> 2,270.99.
// A refund of 100.00 leaves 2,170.99 paid. Cancelled 120 days before by the traveller: 10 % of
// 7,569.98 = 756.998 -> 757.00, refund 2,170.99 - 757.00 = 1,413.99; by the organiser: no fee,
// refund 2,170.99.
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema/index.js';
import { systemClock } from '../../src/platform/clock.js';
import { signIn, TEST_PASSWORD } from '../support/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../support/checkout-fixture.js';
import { paidBooking } from '../support/paid-booking.js';
import { launchChromium, signedInPage, visible } from './chromium.js';

let t: TestApp;
let cat: CheckoutCatalog;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;

beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' }, clock: systemClock });
  cat = await seedCheckoutCatalog(t.database, new Date().toISOString());
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  chromium = await launchChromium(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
  context = chromium.context;
});
afterAll(async () => {
  await chromium?.close();
  await t?.close();
});

describe('Cancel booking and Refund in the console', () => {
  it('refunds 100.00, then cancels by the organiser after reading both quotes', async () => {
    const b = await paidBooking(t, cat, {
      departureInDays: 120,
      price: { finalPrice: '7569.98', pricePerPerson: '3784.99' },
    });
    const admin = await signIn(t.app, { permissions: ['view_booking', 'cancel_booking', 'refund_booking'] });
    const page = await signedInPage(context, admin.email, TEST_PASSWORD);
    await page.goto(`/admin/bookings/${b.reference}`);

    await page.getByRole('link', { name: 'Refund', exact: true }).click();
    await visible(page.getByRole('heading', { name: `Refund on booking ${b.reference}` }));
    await page.getByLabel('Amount (EUR)').fill('100');
    await page.getByLabel('Reason').fill('Sushi class removed');
    await page.getByRole('button', { name: 'Refund' }).click();
    await visible(page.getByRole('status').filter({ hasText: 'The refund is on its way to the card.' }));
    const refunds = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Kind' }) });
    await visible(refunds.getByRole('cell', { name: '100 EUR' }));
    expect(await refunds.getByRole('cell', { name: 'succeeded' }).count()).toBe(1);

    await page.getByRole('link', { name: 'Cancel booking' }).click();
    await visible(page.getByRole('heading', { name: `Cancel booking ${b.reference}` }));
    const quote = page.getByRole('definition');
    expect(await quote.allTextContents()).toEqual([
      '2170.99 EUR',
      '757 EUR',
      '1413.99 EUR',
      expect.stringMatching(/^10 % of the total \(120 days before departure/),
    ]);
    await page.getByRole('link', { name: 'By the organiser' }).click();
    await visible(page.getByRole('definition').filter({ hasText: 'none: cancelled by the organiser' }));
    expect((await page.getByRole('definition').allTextContents()).slice(0, 3)).toEqual([
      '2170.99 EUR',
      '0 EUR',
      '2170.99 EUR',
    ]);
    await page.getByLabel('Reason').fill('Minimum group not reached');
    await page.getByRole('button', { name: 'Confirm cancellation' }).click();
    await visible(page.getByRole('status').filter({ hasText: 'The booking is cancelled' }));
    await visible(page.getByRole('heading', { name: `Booking ${b.reference}` }));
    expect(await page.getByRole('link', { name: 'Cancel booking' }).count()).toBe(0);
    const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, b.bookingId));
    expect(row.status).toBe('cancelled');
    await page.close();
  });

  it('shows neither action to a role without cancel_booking and refund_booking', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const viewer = await signIn(t.app, { permissions: ['view_booking'] });
    const page = await signedInPage(context, viewer.email, TEST_PASSWORD);
    await page.goto(`/admin/bookings/${b.reference}`);
    await visible(page.getByRole('heading', { name: `Booking ${b.reference}` }));
    expect(await page.getByRole('link', { name: 'Cancel booking' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Refund', exact: true }).count()).toBe(0);
    const res = await page.goto(`/admin/bookings/${b.reference}/cancel`);
    expect(res?.status()).toBe(403);
    await page.close();
  });
});
