// The console's sync monitor and subscribers page over HTTP: records by model and status with
// their errors, Retry and Reactivate per row and in bulk (retry_sync_record), Dispatch pending, the
// marketing mirror's failures, and the subscribers with both mirrors' state.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { adminAuditLog, crmSyncRecords, newsletterSubscribers } from '../../db/schema/index.js';
import { saveSyncState } from '../marketing/sync-state.js';

let t: TestApp;
const sub: Record<string, number> = {};
const record: Record<string, number> = {};
beforeAll(async () => {
  // no workers: the dispatched jobs stay queued where the test can count them
  t = await createTestApp({
    env: { CRM_API_TOKEN: 'test-token', CRM_API_URL: 'http://127.0.0.1:9', IN_PROCESS_WORKERS: 'false' },
  });
  const at = new Date('2026-06-10T09:00:00Z');
  for (const [key, email, status, error] of [
    ['failed', 'failed@example.com', 'Failed', 'Pipedrive answered 500 three times'],
    ['ignored', 'ignored@example.com', 'Ignored', 'person deleted in the CRM'],
    ['pending', 'pending@example.com', 'Pending', null],
    ['synced', 'synced@example.com', 'Synced', null],
  ] as const) {
    const [row] = await t.database.db
      .insert(newsletterSubscribers)
      .values({ email, consentGivenAt: at, privacyPolicyVersion: '2026-01', createdAt: at, updatedAt: at })
      .returning();
    sub[key] = row!.id;
    const [r] = await t.database.db
      .insert(crmSyncRecords)
      .values({ modelType: 'newsletter_subscriber', modelId: row!.id, status, lastError: error, attempts: 3 })
      .returning();
    record[key] = r!.id;
  }
  await saveSyncState(t.database.db, sub.failed!, { status: 'Failed', error: 'ActiveCampaign answered 422' }, 3, at);
});
afterAll(() => t.close());

const post = (url: string, cookie: string, values: [string, string][]) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(values).toString(),
  });
const statusOf = async (id: number) =>
  (await t.database.db.select().from(crmSyncRecords).where(eq(crmSyncRecords.id, id)))[0]!.status;

describe('/admin/sync', () => {
  it('lists Failed records with their error and counts per status, and the marketing failures', async () => {
    const a = await signIn(t.app, { permissions: ['view_sync_record'] });
    const page = await t.app.inject({ url: '/admin/sync', headers: { cookie: a.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Pipedrive answered 500 three times');
    expect(page.body).not.toContain('person deleted in the CRM'); // Failed is the default tab
    expect(page.body).toContain('Failed (1)');
    expect(page.body).toContain('Ignored (1)');
    expect(page.body).toContain('All (4)');
    expect(page.body).toContain('ActiveCampaign answered 422');
    // view only: no actions
    expect(page.body).not.toContain('>Retry<');
    expect(page.body).not.toContain('Dispatch pending');
    const refused = await post(`/admin/sync/${record.failed}/retry`, a.cookie, [['_csrf', a.csrf]]);
    expect(refused.statusCode).toBe(403);
    expect(await statusOf(record.failed!)).toBe('Failed');
  });

  it('Retry moves a Failed record to Pending, Reactivate an Ignored one; wrong states are refused', async () => {
    const a = await signIn(t.app, { permissions: ['view_sync_record', 'retry_sync_record'] });
    const page = await t.app.inject({ url: '/admin/sync', headers: { cookie: a.cookie } });
    expect(page.body).toContain('>Retry</button>');
    const retried = await post(`/admin/sync/${record.failed}/retry`, a.cookie, [
      ['_csrf', a.csrf],
      ['back', 'newsletter_subscriber|Failed'],
    ]);
    expect(retried.statusCode).toBe(303);
    expect(retried.headers.location).toBe(
      '/admin/sync?model=newsletter_subscriber&status=Failed&done=moved&n=1&refused=0',
    );
    expect(await statusOf(record.failed!)).toBe('Pending');
    const bulk = await post('/admin/sync/bulk', a.cookie, [
      ['_csrf', a.csrf],
      ['action', 'reactivate'],
      ['ids', String(record.ignored)],
      ['ids', String(record.synced)],
    ]);
    expect(bulk.headers.location).toContain('done=moved&n=1&refused=1');
    expect(await statusOf(record.ignored!)).toBe('Pending');
    expect(await statusOf(record.synced!)).toBe('Synced');
    const shown = await t.app.inject({ url: bulk.headers.location as string, headers: { cookie: a.cookie } });
    expect(shown.body).toContain('1 record(s) Pending again. 1 refused');
    const audit = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.actor, a.email));
    expect(audit.map((r) => [r.action, r.details])).toEqual([
      ['sync_record.retry', { moved: 1, refused: 0 }],
      ['sync_record.reactivate', { moved: 1, refused: 1 }],
    ]);
  });

  it('Dispatch pending queues the CRM job of every Pending record once', async () => {
    const a = await signIn(t.app, { permissions: ['view_sync_record', 'retry_sync_record'] });
    const first = await post('/admin/sync/dispatch', a.cookie, [
      ['_csrf', a.csrf],
      ['model', 'newsletter_subscriber'],
    ]);
    // pending, plus failed and ignored moved to Pending by the test above
    expect(first.headers.location).toBe(
      '/admin/sync?model=newsletter_subscriber&status=Pending&done=dispatched&n=3&already=0',
    );
    const again = await post('/admin/sync/dispatch', a.cookie, [
      ['_csrf', a.csrf],
      ['model', 'newsletter_subscriber'],
    ]);
    expect(again.headers.location).toContain('done=dispatched&n=0&already=3');
    const { rows } = await t.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'crm-sync' AND state = 'created'`,
    );
    expect(rows[0]!.n).toBe(3);
  });
});

describe('/admin/subscribers', () => {
  it('lists subscribers with their CRM and marketing state, and finds one', async () => {
    const a = await signIn(t.app, { permissions: ['view_subscriber'] });
    const page = await t.app.inject({ url: '/admin/subscribers?q=synced', headers: { cookie: a.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('synced@example.com');
    expect(page.body).not.toContain('failed@example.com');
    const one = await t.app.inject({ url: `/admin/subscribers?id=${sub.failed}`, headers: { cookie: a.cookie } });
    expect(one.body).toContain('failed@example.com');
    expect(one.body).toContain('ActiveCampaign answered 422');
    const refused = await t.app.inject({
      url: '/admin/subscribers',
      headers: { cookie: (await signIn(t.app, { permissions: ['view_lead'] })).cookie },
    });
    expect(refused.statusCode).toBe(403);
  });
});
