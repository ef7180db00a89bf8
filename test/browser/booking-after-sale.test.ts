// The booking page's actions after the sale in headless Chromium, found by role and accessible
// name: an internal note, a supplier's answer recorded by the operator, and a traveler amendment.
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hotels } from '../../src/db/schema/index.js';
import * as repo from '../../src/modules/bookings/repository.js';
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
  await t.database.db.update(hotels).set({ supplierEmail: 'res@hotel.example' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  chromium = await launchChromium(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
  context = chromium.context;
});
afterAll(async () => {
  await chromium?.close();
  await t?.close();
});

describe('the booking page after the sale in a browser', () => {
  it('adds a note, records a supplier answer and amends a traveler', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const admin = await signIn(t.app, { permissions: ['view_booking', 'update_booking'] });
    const page = await signedInPage(context, admin.email, TEST_PASSWORD);
    await page.goto(`/admin/bookings/${b.reference}`);
    await visible(page.getByRole('heading', { name: `Booking ${b.reference}` }));

    await page.getByRole('textbox', { name: 'New note' }).fill('Honeymoon: ask the hotel for a late checkout.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await visible(page.getByRole('status'));
    expect(await page.getByRole('status').first().textContent()).toBe('Note added.');
    await visible(page.getByText('Honeymoon: ask the hotel for a late checkout.'));

    const answer = page.getByRole('form', { name: 'Answer of Hotel Gracery' });
    await answer.getByRole('combobox', { name: 'Answer' }).selectOption('confirm');
    await answer.getByRole('textbox', { name: 'Supplier reference' }).fill('GR-2211');
    await answer.getByRole('button', { name: 'Record answer' }).click();
    await visible(page.getByRole('status'));
    expect(await page.getByRole('status').first().textContent()).toBe("The supplier's answer is recorded.");
    await visible(page.getByRole('cell', { name: 'GR-2211' }));
    const gracery = (await repo.supplierConfirmationsOf(t.database.db, b.bookingId)).find(
      (c) => c.serviceName === 'Hotel Gracery',
    );
    expect([gracery!.status, gracery!.supplierReference]).toEqual(['confirmed', 'GR-2211']);

    await page.getByText('Change travelers').click();
    const luis = page.getByRole('group', { name: 'Luis Garcia' });
    await luis.getByRole('textbox', { name: 'First name' }).fill('Luisa');
    await luis.getByRole('button', { name: 'Change traveler 2' }).click();
    await visible(page.getByRole('status'));
    expect(await page.getByRole('status').first().textContent()).toBe(
      'The travelers are changed; the customer gets an e-mail.',
    );
    await visible(page.getByRole('cell', { name: 'Luisa Garcia' }));
    const [amendment] = await repo.amendmentsOf(t.database.db, b.bookingId);
    expect(amendment!.changes).toEqual({
      travelers: [{ traveler: 1, field: 'first_name', old: 'Luis', new: 'Luisa' }],
    });
    await page.close();
  });
});
