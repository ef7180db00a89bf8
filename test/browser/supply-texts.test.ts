// The console's "Supply texts" page in headless Chromium, found by role and accessible name: an
// editor translates an activity's name into Spanish and the public catalog shows it; an admin
// with view_catalog only reads the form (disabled fields), without a save button.
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { projectPath } from '../../src/platform/paths.js';
import { signIn, TEST_PASSWORD } from '../support/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { importFixture } from '../support/catalog-fixture.js';
import { launchChromium, signedInPage, visible } from './chromium.js';

let t: TestApp;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;
let japanEs = 0;
const shots = process.env.CONSOLE_SCREENSHOTS === '1';

beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' }, clock: systemClock });
  await importFixture(t.database);
  const { rows } = await t.database.query<{ id: number }>(
    `SELECT mp.id FROM market_products mp JOIN product_templates t ON t.id = mp.template_id
      WHERE t.code = 'japan-essentials' AND mp.locale = 'es_ES'`,
  );
  japanEs = rows[0]!.id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  chromium = await launchChromium(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
  context = chromium.context;
});
afterAll(async () => {
  await chromium?.close();
  await t?.close();
});

describe('Supply texts in a browser', () => {
  it('an editor translates an activity name and the Spanish catalog shows it', async () => {
    const admin = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog'] });
    const page = await signedInPage(context, admin.email, TEST_PASSWORD);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Supply texts' }).click();
    await visible(page.getByRole('heading', { name: 'Supply texts' }));
    await page.getByRole('link', { name: 'tokyo-city-tour' }).click();
    await visible(page.getByRole('heading', { name: 'Texts of activity tokyo-city-tour' }));
    await page.getByRole('textbox', { name: 'Name (es)' }).fill('Visita de Tokio');
    await page.getByRole('button', { name: 'Save texts' }).click();
    await visible(page.getByRole('status'));
    expect(await page.getByRole('status').first().textContent()).toBe('Texts saved.');
    expect(await page.getByRole('textbox', { name: 'Name (es)' }).inputValue()).toBe('Visita de Tokio');
    if (shots) await page.screenshot({ path: projectPath('docs', 'console-supply-texts.png'), fullPage: true });
    const detail = (await t.app.inject(`/api/es/es/products/${japanEs}`)).json().data;
    expect(detail.itinerary[0].days[0].activities[0].name).toBe('Visita de Tokio');
    await page.close();
  });

  it('an admin with view_catalog only reads the texts', async () => {
    const admin = await signIn(t.app, { permissions: ['view_catalog'] });
    const page = await signedInPage(context, admin.email, TEST_PASSWORD);
    await page.goto('/admin/supply-texts/activities/tokyo-city-tour');
    await visible(page.getByRole('heading', { name: 'Texts of activity tokyo-city-tour' }));
    expect(await page.getByRole('textbox', { name: 'Name (es)' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save texts' }).count()).toBe(0);
    await page.close();
  });
});
