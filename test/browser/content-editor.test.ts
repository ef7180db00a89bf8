// The content editor in headless Chromium (issue 18): edit a region's name in the console and read
// it from the public CMS endpoint; open a draft country's preview (a signed URL, new tab).
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/platform/clock.js';
import { signIn, TEST_PASSWORD } from '../support/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { seedContentWorld } from '../support/content-doc.js';
import { applyContent } from '../support/content-fixture.js';
import { launchChromium, signedInPage } from './chromium.js';

let t: TestApp;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;

beforeAll(async () => {
  t = await createTestApp({ clock: systemClock });
  await seedContentWorld(t.database);
  await applyContent(t.database, {
    countries: [
      { slug: 'fiji', region: 'asia', status: 'draft', translations: { es_ES: { name: 'Fiyi', tagline: 'Islas' } } },
    ],
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  chromium = await launchChromium(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
  context = chromium.context;
});
afterAll(async () => {
  await chromium?.close();
  await t?.close();
});

async function contentEditorPage() {
  const admin = await signIn(t.app, { permissions: ['view_content', 'edit_content', 'publish_content'] });
  return signedInPage(context, admin.email, TEST_PASSWORD);
}

describe('the content editor in a browser', () => {
  it("edits a region's name and the public CMS shows it", async () => {
    const page = await contentEditorPage();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Content' }).click();
    await page.getByRole('link', { name: 'asia', exact: true }).click();
    await page.getByRole('link', { name: 'Edit es_ES texts' }).click();
    const name = page.getByLabel('Name', { exact: true });
    expect(await name.inputValue()).toBe('Asia');
    await name.fill('Asia lejana');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const res = await page.request.get('/api/es/es/cms/regions/asia');
    expect(res.status()).toBe(200);
    expect((await res.json()).data.name).toBe('Asia lejana');
    await page.close();
  });

  it('previews a draft country in a new tab', async () => {
    const page = await contentEditorPage();
    expect((await page.request.get('/api/es/es/cms/countries/fiji')).status()).toBe(404);
    await page.goto('/admin/content/countries');
    await page.getByRole('link', { name: 'fiji', exact: true }).click();
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'Preview es_ES' }).click(),
    ]);
    await tab.waitForLoadState();
    // a readable page of the draft, with the signed JSON link beside it
    await tab.getByRole('heading', { level: 1, name: 'Fiyi' }).waitFor({ state: 'visible', timeout: 10_000 });
    const json = await tab.getByRole('link', { name: 'the signed JSON link' }).getAttribute('href');
    expect(json).toMatch(/^\/api\/es\/es\/cms\/countries\/fiji\/preview\?expires=\d+&signature=[0-9a-f]{64}$/);
    const body = await (await tab.request.get(json!)).json();
    expect(body.data).toMatchObject({ slug: 'fiji', name: 'Fiyi', tagline: 'Islas', region: { slug: 'asia' } });
    await tab.close();
    await page.close();
  });
});
