// The catalog editor in headless Chromium, found by role and accessible name: a product title
// edited in the console and read back from the public API, Preview of a draft opening its signed
// URL in a new tab (200 with the draft's title), and an admin without publish_catalog seeing no
// Publish button and having a forged POST refused. The app listens on the port APP_URL names, so
// the preview URL the console signs is one the browser can open.
import { createServer } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productIdByKey } from '../../src/modules/catalog-editor/repository.js';
import { systemClock } from '../../src/platform/clock.js';
import { projectPath } from '../../src/platform/paths.js';
import { signIn, TEST_PASSWORD } from '../support/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { importFixture } from '../support/catalog-fixture.js';
import { launchChromium, signedInPage, visible } from './chromium.js';

let t: TestApp;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;
const ids: Record<string, number> = {};
const shots = process.env.CONSOLE_SCREENSHOTS === '1';

/** A port free right now (the app listens on it next, so APP_URL can name it). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false', APP_URL: base }, clock: systemClock });
  await importFixture(t.database);
  ids.peru = (await productIdByKey(t.database.db, 'peru-inca-trail', 'es', 'es'))!;
  ids.draft = (await productIdByKey(t.database.db, 'japan-essentials', 'es', 'en'))!;
  await t.app.listen({ port, host: '127.0.0.1' });
  chromium = await launchChromium(base);
  context = chromium.context;
});
afterAll(async () => {
  await chromium?.close();
  await t?.close();
});

const newPage = (email: string) => signedInPage(context, email, TEST_PASSWORD);

describe('catalog editor in a browser', () => {
  it('edits a product title in the console; the public API shows it at once', async () => {
    const admin = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog', 'publish_catalog'] });
    const page = await newPage(admin.email);
    // the API has the product cached before the edit
    expect((await (await page.request.get(`/api/es/es/products/${ids.peru}`)).json()).data.title).toBe(
      'Perú y el Camino Inca',
    );
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Products' }).click();
    await visible(page.getByRole('heading', { name: 'Products' }));
    if (shots) await page.screenshot({ path: projectPath('docs', 'console-catalog-products.png'), fullPage: true });
    await page.getByRole('link', { name: 'Perú y el Camino Inca' }).click();
    await visible(page.getByRole('heading', { name: 'Perú y el Camino Inca' }));
    await page.getByLabel('Title', { exact: true }).fill('Perú: el Camino Inca a pie');
    await page.getByLabel('URL slug').fill('Not a slug');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // the importer's problem beside the field it is about, nothing saved
    await visible(page.getByRole('alert'));
    const slug = page.getByLabel('URL slug');
    expect(await slug.getAttribute('aria-invalid')).toBe('true');
    // aria-describedby names the problems first, then the hint
    const [problemsId] = (await slug.getAttribute('aria-describedby'))!.split(' ');
    expect(await page.locator(`#${problemsId}`).textContent()).toMatch(/^has an invalid format/);
    if (shots) {
      await slug.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: projectPath('docs', 'console-catalog-product.png') });
    }
    await slug.fill('peru-camino-inca');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await visible(page.getByRole('status'));
    expect(await page.getByRole('status').first().textContent()).toBe('Saved.');
    const api = await page.request.get(`/api/es/es/products/${ids.peru}`);
    expect(api.status()).toBe(200);
    expect((await api.json()).data.title).toBe('Perú: el Camino Inca a pie');
    // everything else the page posted back came through unchanged
    const detail = (await api.json()).data;
    expect(detail.itinerary.flatMap((s: { days: { title: string }[] }) => s.days.map((d) => d.title))).toEqual([
      'Lima',
    ]);
    await page.close();
  });

  it('previews a draft: the Preview button opens a readable page with its signed JSON link, in a new tab', async () => {
    const admin = await signIn(t.app, { permissions: ['view_catalog'] });
    const page = await newPage(admin.email);
    await page.goto(`/admin/catalog/products/${ids.draft}`);
    await visible(page.getByRole('heading', { name: 'Japan Essentials' }));
    // the draft is not public
    expect((await page.request.get(`/api/es/en/products/${ids.draft}`)).status()).toBe(404);
    const [tab] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: 'Preview' }).click()]);
    await tab.waitForLoadState();
    // a readable page of the draft, with the signed JSON link beside it
    await visible(tab.getByRole('heading', { level: 1, name: 'Japan Essentials' }));
    const json = await tab.getByRole('link', { name: 'the signed JSON link' }).getAttribute('href');
    expect(json).toMatch(new RegExp(`^/api/es/en/products/${ids.draft}/preview\\?expires=\\d+&signature=[0-9a-f]+$`));
    const again = await tab.request.get(json!);
    expect(again.status()).toBe(200);
    expect((await again.json()).data.title).toBe('Japan Essentials');
    await tab.close();
    await page.close();
  });

  it('shows no Publish button without publish_catalog and refuses a forged publish', async () => {
    const admin = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog'] });
    const page = await newPage(admin.email);
    await page.goto(`/admin/catalog/products/${ids.draft}`);
    await visible(page.getByRole('button', { name: 'Save', exact: true }));
    expect(await page.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Archive' }).count()).toBe(0);
    const status = await page.evaluate(async (id) => {
      const token = document.querySelector<HTMLInputElement>('input[name="_csrf"]')?.value ?? '';
      const r = await fetch(`/admin/catalog/products/${id}/status/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: token }).toString(),
      });
      return r.status;
    }, ids.draft);
    expect(status).toBe(403);
    expect((await page.request.get(`/api/es/en/products/${ids.draft}`)).status()).toBe(404);
    await page.close();
  });
});
