// The console in headless Chromium against the real app on 127.0.0.1:0: sign-in (wrong password,
// right password, sign-out), bookings search and Book All Flights to flights_confirmed on the
// sandbox provider, the notifications bell's count changing, a POST without CSRF token refused,
// and a permission refusal. CONSOLE_SCREENSHOTS=1 also writes docs/console-*.png.
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { projectPath } from '../../src/platform/paths.js';
import { signIn, TEST_PASSWORD } from '../support/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { insertPaidBooking } from '../support/flight-booking.js';
import { waitFor } from '../support/wait.js';
import { launchChromium } from './chromium.js';

let t: TestApp;
let base: string;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;
const shots = process.env.CONSOLE_SCREENSHOTS === '1';

beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'true' }, clock: systemClock });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  chromium = await launchChromium(base);
  context = chromium.context;
});
afterAll(async () => {
  await chromium?.close();
  await t?.close();
});

/** a new tab with no cookies (the previous test's session is gone) */
async function newPage() {
  await context.clearCookies();
  const page = await context.newPage();
  return { context, page, close: () => page.close() };
}

const visible = (l: Locator, timeout = 10_000) => l.first().waitFor({ state: 'visible', timeout });
async function textMatches(l: Locator, re: RegExp, timeout = 10_000) {
  await waitFor(
    async () =>
      re.test(
        (await l
          .first()
          .textContent()
          .catch(() => '')) ?? '',
      ),
    timeout,
    100,
  );
}
async function countIs(l: Locator, n: number, timeout = 10_000) {
  await waitFor(async () => (await l.count()) === n, timeout, 100);
}

async function signInWith(page: Page, email: string, password: string) {
  await page.goto('/admin/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the console in a browser', () => {
  it('signs in (wrong password, then the right one) and out', async () => {
    const admin = await signIn(t.app, { email: 'browser@example.com' });
    const { page, close } = await newPage();
    await signInWith(page, admin.email, 'not the password at all');
    await textMatches(page.getByRole('alert'), /^The e-mail or password is not right\.$/);
    if (shots) await page.screenshot({ path: projectPath('docs', 'console-login.png') });
    await signInWith(page, admin.email, TEST_PASSWORD);
    await visible(page.getByRole('heading', { level: 1, name: 'The day at a glance' }));
    if (shots) {
      for (const [path, name] of [
        ['/admin/users', 'users'],
        ['/admin/roles', 'roles'],
        ['/admin/api-tokens', 'api-tokens'],
        ['/admin/audit-log', 'audit-log'],
        ['/pulse', 'pulse'],
        ['/admin', 'home'],
      ] as const) {
        await page.goto(path);
        await page.screenshot({ path: projectPath('docs', `console-${name}.png`), fullPage: true });
      }
    }
    await visible(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Bookings' }));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await visible(page.getByRole('button', { name: 'Sign in' }));
    await page.goto('/admin/bookings');
    expect(page.url()).toMatch(/\/admin\/login\?next=/);
    await close();
  });

  it('finds a booking, books all its flights to flights_confirmed, and the bell counts the notifications', async () => {
    const admin = await signIn(t.app, { permissions: ['view_booking', 'book_flights_booking'] });
    for (let i = 0; i < 3; i++)
      await insertPaidBooking(t.database, { status: i === 0 ? 'flights_confirmed' : 'checkout' });
    const b = await insertPaidBooking(t.database);
    const { page, close } = await newPage();
    await signInWith(page, admin.email, TEST_PASSWORD);
    const bell = page.getByRole('link', { name: /^Notifications/ }).first();
    await textMatches(bell, /Notifications\s*\d+\s*unread/);
    const before = Number(/(\d+)/.exec((await bell.textContent()) ?? '')![1]);

    await page.goto('/admin/bookings');
    await page.getByLabel('Search').fill(b.reference);
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.getByRole('table').getByRole('row');
    await countIs(rows, 2); // header + the booking
    if (shots) {
      await page.goto('/admin/bookings');
      await page.screenshot({ path: projectPath('docs', 'console-bookings.png'), fullPage: true });
      await page.goto(`/admin/bookings?q=${b.reference}`);
    }
    await page.getByRole('link', { name: b.reference }).click();
    await visible(page.getByRole('heading', { name: `Booking ${b.reference}` }));
    await page.getByRole('link', { name: 'Book All Flights' }).click();
    await page.getByRole('button', { name: 'Book All Flights' }).click();
    await textMatches(page.getByRole('status'), /Flight booking started/);
    // the page refreshes itself (htmx) until the legs are booked
    await textMatches(page.locator('#booking-panel .badge'), /^flights confirmed$/, 30_000);
    await countIs(page.getByRole('cell', { name: /^[A-Z0-9]{6}$/ }), 2);
    if (shots) await page.screenshot({ path: projectPath('docs', 'console-booking.png'), fullPage: true });

    // the bell is polled: it shows the new notifications without a reload
    await waitFor(
      async () => !new RegExp(`Notifications\\s*${before}\\s*unread`).test((await bell.textContent()) ?? ''),
      20_000,
      200,
    );
    const after = Number(/(\d+)/.exec((await bell.textContent()) ?? '')![1]);
    expect(after).toBeGreaterThan(before);
    await bell.click();
    await visible(page.getByRole('heading', { name: 'Notifications' }));
    if (shots) await page.screenshot({ path: projectPath('docs', 'console-notifications.png'), fullPage: true });
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await textMatches(bell, /Notifications\s*0\s*unread/, 20_000);
    await close();
  });

  it('refuses a POST without CSRF token, and a page the role does not allow', async () => {
    const clerk = await signIn(t.app, { permissions: ['view_booking'] });
    const b = await insertPaidBooking(t.database);
    const { page, close } = await newPage();
    await signInWith(page, clerk.email, TEST_PASSWORD);
    await visible(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Bookings' }));
    expect(
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Admin users' }).count(),
    ).toBe(0);

    // the session cookie goes along, the token does not
    const forged = await context.request.post('/admin/notifications/read-all', { form: { x: '1' }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('Request refused');

    await page.goto(`/admin/bookings/${b.reference}`);
    expect(await page.getByRole('link', { name: 'Book All Flights' }).count()).toBe(0);
    const refused = await page.goto('/admin/users');
    expect(refused?.status()).toBe(403);
    await visible(page.getByRole('heading', { name: 'Not allowed' }));
    await close();
  });
});
