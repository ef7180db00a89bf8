// The console's operations pages in headless Chromium, found by role and accessible name: bulk
// lead delete allowed (delete_lead) and refused (view_lead only, and a forged POST), and Retry of
// a Failed CRM sync record in the sync monitor.
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmSyncRecords, leads } from '../../src/db/schema/index.js';
import { insertLead } from '../../src/modules/leads/repository.js';
import { systemClock } from '../../src/platform/clock.js';
import { projectPath } from '../../src/platform/paths.js';
import { signIn, TEST_PASSWORD } from '../support/admin.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { waitFor } from '../support/wait.js';
import { launchChromium, signedInPage, visible } from './chromium.js';

let t: TestApp;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let context: BrowserContext;
const shots = process.env.CONSOLE_SCREENSHOTS === '1';

beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' }, clock: systemClock });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  chromium = await launchChromium(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`);
  context = chromium.context;
});
afterAll(async () => {
  await chromium?.close();
  await t?.close();
});

const newPage = (email: string) => signedInPage(context, email, TEST_PASSWORD);

async function addLead(name: string, email: string) {
  const at = new Date();
  return insertLead(t.database.db, {
    name,
    email,
    source: 'website',
    consentGivenAt: at,
    privacyPolicyVersion: '2026-01',
    createdAt: at,
    updatedAt: at,
  });
}

describe('operations pages in a browser', () => {
  it('deletes the selected leads for an admin with delete_lead, after the confirmation step', async () => {
    const keep = await addLead('Kept Lead', 'kept@example.com');
    await addLead('Gone One', 'gone1@example.com');
    await addLead('Gone Two', 'gone2@example.com');
    const admin = await signIn(t.app, { permissions: ['view_lead', 'delete_lead'] });
    const page = await newPage(admin.email);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Leads' }).click();
    await visible(page.getByRole('heading', { name: 'Leads' }));
    if (shots) await page.screenshot({ path: projectPath('docs', 'console-leads.png'), fullPage: true });
    await page.getByRole('checkbox', { name: 'Select lead Gone One' }).check();
    await page.getByRole('checkbox', { name: 'Select lead Gone Two' }).check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await visible(page.getByRole('heading', { name: 'Delete 2 lead(s)?' }));
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await visible(page.getByRole('status'));
    expect(await page.getByRole('status').first().textContent()).toBe('Deleted 2 lead(s).');
    expect((await t.database.db.select().from(leads)).map((l) => l.id)).toEqual([keep.id]);
    await page.close();
  });

  it('shows no selection or delete to a view_lead admin, and refuses a delete posted anyway', async () => {
    const lead = await addLead('Viewer Sees', 'sees@example.com');
    const admin = await signIn(t.app, { permissions: ['view_lead'] });
    const page = await newPage(admin.email);
    await page.goto('/admin/leads');
    await visible(page.getByRole('link', { name: 'Viewer Sees' }));
    expect(await page.getByRole('button', { name: 'Delete selected' }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    // a hand-made POST from the page's own origin, with the session's CSRF token: still 403
    const status = await page.evaluate(async (id) => {
      const token = document.querySelector<HTMLInputElement>('input[name="_csrf"]')?.value ?? '';
      const r = await fetch('/admin/leads/delete', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: token, ids: String(id) }).toString(),
      });
      return r.status;
    }, lead.id);
    expect(status).toBe(403);
    expect((await t.database.db.select().from(leads)).map((l) => l.email)).toContain('sees@example.com');
    await page.close();
  });

  it('retries a Failed sync record from the sync monitor', async () => {
    const lead = await addLead('Failed Sync', 'failed-sync@example.com');
    await t.database.db.insert(crmSyncRecords).values({
      modelType: 'lead',
      modelId: lead.id,
      status: 'Failed',
      attempts: 3,
      lastError: 'Pipedrive answered 503 three times',
    });
    const admin = await signIn(t.app, { permissions: ['view_sync_record', 'retry_sync_record'] });
    const page = await newPage(admin.email);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Sync monitor' }).click();
    await page.getByRole('navigation', { name: 'Model' }).getByRole('link', { name: 'Leads' }).click();
    const row = page.getByRole('row', { name: /Pipedrive answered 503 three times/ });
    await visible(row);
    if (shots) await page.screenshot({ path: projectPath('docs', 'console-sync.png'), fullPage: true });
    await row.getByRole('button', { name: 'Retry' }).click();
    await visible(page.getByRole('status'));
    expect(await page.getByRole('status').first().textContent()).toBe('1 record(s) Pending again.');
    await waitFor(async () => {
      const [r] = await t.database.db.select().from(crmSyncRecords);
      return r?.status === 'Pending';
    });
    await page.close();
  });
});
