// The operations console in headless Chromium, found by role and accessible name: the home's
// figures lead to their bookings, a departure's manifest and rooming list, the reports, the
// navigation at 820 px, and axe-core (injected into each page) finding no violation on the
// console's main pages. CONSOLE_SCREENSHOTS=1 rewrites docs/console-home.png and the others.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingPayments, bookings, clients, mailOutbox } from '../../src/db/schema/index.js';
import { attachPassengers, insertUpsells } from '../../src/modules/bookings/repository.js';
import { systemClock } from '../../src/platform/clock.js';
import { projectPath } from '../../src/platform/paths.js';
import { signIn, TEST_PASSWORD } from '../support/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../support/checkout-fixture.js';
import { launchChromium, signedInPage, visible } from './chromium.js';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

let t: TestApp;
let cat: CheckoutCatalog;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;
let email: string;
let reference: string;
const shots = process.env.CONSOLE_SCREENSHOTS === '1';
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: projectPath('docs', `console-${name}.png`), fullPage: true });
};

beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' }, clock: systemClock });
  cat = await seedCheckoutCatalog(t.database, new Date().toISOString());
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  chromium = await launchChromium(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
  context = chromium.context;
  email = (await signIn(t.app)).email;
  // a booking sold an hour ago on the fixture's active departure, with a hotel upgrade and an extra
  const db = t.database.db;
  const [client] = await db
    .insert(clients)
    .values({ firstName: 'Ana', lastName: 'Lopez', email: 'ana.lopez@example.com', phone: '+34600111222' })
    .returning();
  const [b] = await db
    .insert(bookings)
    .values({
      reference: 'IT-BROWSE1',
      status: 'pending_flight_booking',
      offerId: cat.offers.active,
      marketCode: 'es',
      language: 'es',
      clientId: client!.id,
      paxCount: 2,
      actualPaxCount: 2,
      actualRoomType: '2A',
      totalPrice: '4500.00',
      currency: 'EUR',
      createdAt: new Date(Date.now() - 3_600_000),
    })
    .returning();
  reference = b!.reference;
  await attachPassengers(
    db,
    b!.id,
    ['Ana', 'Ben'].map((first, i) => ({
      clientId: client!.id,
      title: i === 0 ? 'ms' : 'mr',
      gender: null,
      firstName: first,
      lastName: 'Lopez',
      nationality: 'ES',
      passportNumber: `P${i}`,
      passportExpiry: '2031-05-06',
      birthDate: '1980-02-03',
      phone: '+34600111222',
      email: 'ana.lopez@example.com',
    })),
  );
  await insertUpsells(db, [
    {
      bookingId: b!.id,
      currency: 'EUR',
      type: 'hotel_upgrade',
      itemId: cat.hotels.tokyoLuxury,
      name: 'Park Hyatt Tokyo',
      nightsStart: 1,
      nightsEnd: 3,
      unitPrice: '600.00',
      quantity: 1,
      totalPrice: '600.00',
    },
    {
      bookingId: b!.id,
      currency: 'EUR',
      type: 'activity',
      itemId: cat.activities.sushi,
      name: 'Sushi class',
      dayNumber: 2,
      unitPrice: '40.00',
      quantity: 2,
      totalPrice: '80.00',
    },
  ]);
  await db.insert(bookingPayments).values({
    bookingId: b!.id,
    intentId: 'pi_browser_1',
    gatewayCode: 'sandbox',
    methodCode: 'card',
    amount: '1000.00',
    totalPrice: '4500.00',
    currency: 'EUR',
    status: 'Succeeded',
    quote: { total: '4500.00' },
    finalizedAt: new Date(Date.now() - 3_500_000),
  });
  await db.insert(mailOutbox).values({
    key: 'browser-failed-1',
    kind: 'booking_confirmation',
    toAddress: 'ana.lopez@example.com',
    language: 'es',
    subject: 'Your booking',
    textBody: 't',
    htmlBody: 'h',
    status: 'failed',
  });
});
afterAll(async () => {
  await chromium?.close();
  await t?.close();
});

/** axe-core's violations on the page (injected through the debugger protocol: the CSP stays on). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe;
    const r = await axe.run();
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
  });
  return found;
}

describe('the operations console in a browser', () => {
  it("home: the day's figures, each opening the bookings it counts", async () => {
    const page = await signedInPage(context, email, TEST_PASSWORD);
    await page.goto('/admin');
    await visible(page.getByRole('heading', { level: 1, name: 'The day at a glance' }));
    const today = page
      .getByRole('region', { name: 'Bookings sold' })
      .getByRole('link', { name: /^Today 1 booking\(s\) 4500\.00 EUR/ });
    await visible(today);
    await visible(page.getByRole('link', { name: /^1 Bookings to book flights for/ }));
    await visible(page.getByRole('link', { name: /^1 Failed e-mails/ }));
    await visible(page.getByRole('img', { name: 'Bookings and their value per day' }));
    await shot(page, 'home');
    await today.click();
    await visible(page.getByRole('heading', { level: 1, name: 'Bookings' }));
    expect(await page.getByRole('link', { name: reference }).count()).toBe(1);
    await page.close();
  });

  it("departures: the list, then one departure's manifest, rooming list with the upgrade, and its exports", async () => {
    const page = await signedInPage(context, email, TEST_PASSWORD);
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Departures' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Departures' }));
    await page.getByLabel('Product').selectOption('japan-essentials');
    await page.getByLabel('Market').selectOption('es');
    await page.getByRole('button', { name: 'Show departures' }).click();
    const row = page.getByRole('row').filter({ hasText: 'O-ACTIVE' });
    await visible(row);
    expect(await row.getByRole('cell').nth(7).textContent()).toBe('1');
    await row.getByRole('link').first().click();
    await visible(page.getByRole('heading', { level: 1, name: /^Japan essentials: / }));
    const manifest = page.getByRole('region', { name: /Passenger manifest/ });
    await visible(manifest.getByRole('cell', { name: 'ms Ana Lopez' }));
    await visible(manifest.getByRole('cell', { name: 'mr Ben Lopez' }));
    const rooming = page.getByRole('region', { name: /Rooming list/ });
    await visible(rooming.getByRole('table', { name: /Park Hyatt Tokyo/ }).getByRole('cell', { name: 'Upgrade' }));
    await visible(
      page
        .getByRole('region', { name: 'Activities and transfers per day' })
        .getByText(/Sushi class \(extra\):\s+2 participant/),
    );
    const csv = await page.getByRole('link', { name: 'Export CSV: passenger manifest' }).getAttribute('href');
    const res = await page.request.get(csv!);
    expect(res.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect((await res.text()).split('\r\n')[1]).toBe(
      `${reference},pending_flight_booking,yes,ms,Ana,Lopez,ES,1980-02-03,2031-05-06,+34600111222`,
    );
    await visible(page.getByRole('link', { name: 'Export CSV: rooming list' }));
    await shot(page, 'departure');
    // the booking page links back to its departure
    await page.goto(`/admin/bookings/${reference}`);
    await page.getByRole('link', { name: /manifest and rooming list/ }).click();
    await visible(page.getByRole('heading', { level: 1, name: /^Japan essentials: / }));
    await page.close();
  });

  it('reports: revenue per month and market, then the funnel', async () => {
    const page = await signedInPage(context, email, TEST_PASSWORD);
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Reports' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Reports: revenue' }));
    const month = new Date(Date.now() - 3_600_000).toISOString().slice(0, 7);
    const line = page.getByRole('table', { name: 'Per month and market' }).getByRole('row').filter({ hasText: month });
    await visible(line);
    expect((await line.getByRole('cell').allTextContents()).slice(1)).toEqual([
      '1',
      '4500.00 EUR',
      '1000.00 EUR',
      '0.00 EUR',
      '0.00 EUR',
      '3500.00 EUR',
    ]);
    await shot(page, 'reports');
    await page.getByRole('navigation', { name: 'Reports' }).getByRole('link', { name: 'Funnel' }).click();
    await visible(page.getByRole('table', { name: 'Checkout funnel' }));
    await page.close();
  });

  it('navigation at 820 px: every section and link reachable, no page wider than the window', async () => {
    const page = await signedInPage(context, email, TEST_PASSWORD);
    await page.setViewportSize({ width: 820, height: 900 });
    for (const path of [
      '/admin',
      '/admin/bookings',
      `/admin/departures/${cat.offers.active}`,
      '/admin/reports/revenue',
      '/pulse',
      '/telescope',
      '/health-dashboard',
    ]) {
      await page.goto(path);
      const nav = page.getByRole('navigation', { name: 'Console' });
      for (const name of ['Bookings', 'Departures', 'Products', 'Jobs', 'Reports', 'Pulse', 'Audit log']) {
        await visible(nav.getByRole('link', { name, exact: true }));
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
    }
    await page.goto('/admin');
    await shot(page, 'nav-820');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Departures' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Departures' }));
    await page.close();
  });

  it("axe-core finds no violation on the console's main pages", async () => {
    const page = await signedInPage(context, email, TEST_PASSWORD);
    const pages = [
      '/admin',
      '/admin/bookings',
      `/admin/bookings/${reference}`,
      '/admin/departures',
      `/admin/departures/${cat.offers.active}`,
      '/admin/reports/revenue',
      '/admin/reports/funnel',
      '/admin/leads',
      '/admin/subscribers',
      '/admin/sync',
      '/admin/jobs',
      '/admin/outbox',
      '/admin/catalog/products',
      '/admin/content',
      '/admin/users',
      '/admin/audit-log',
      '/pulse',
      '/health-dashboard',
      '/admin/no-such-page',
      '/admin/bookings?from=2027-02-30',
    ];
    const found: Record<string, string[]> = {};
    for (const path of pages) {
      await page.goto(path);
      const v = await axeViolations(page);
      const h1 = await page.getByRole('heading', { level: 1 }).count();
      if (h1 !== 1) v.push(`${h1} h1 headings`);
      if (v.length) found[path] = v;
    }
    expect(found).toEqual({});
    await page.close();
  });
});
