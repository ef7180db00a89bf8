// The console's jobs page over HTTP: counts per queue, failed jobs with payload, error and tries,
// Retry (a new job, fresh tries) and Delete, each behind its permission and audited.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { adminAuditLog } from '../../db/schema/index.js';
import { leadCrmPushJob } from '../leads/jobs.js';
import { payloadSummary } from './jobs-console.js';

let t: TestApp;
beforeAll(async () => {
  // no workers: jobs stay where the test puts them
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' } });
});
afterAll(() => t.close());

/** A lead CRM push that failed on its last try, as pg-boss stores one. */
async function failedJob(leadId: number): Promise<string> {
  const id = (await t.app.ctx.queue.dispatch(leadCrmPushJob(t.app.ctx), { leadId }))!;
  await t.database.query(
    `UPDATE pgboss.job SET state = 'failed', retry_count = 2, completed_on = now(),
            output = '{"message":"Pipedrive answered 401: invalid token"}'::jsonb WHERE id = $1`,
    [id],
  );
  return id;
}
const jobState = async (id: string) =>
  (await t.database.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [id])).rows[0]?.state;
const post = (url: string, cookie: string, csrf?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: csrf ? `_csrf=${csrf}` : '',
  });

describe('/admin/jobs', () => {
  it('summarizes a payload by its ids', () => {
    expect(payloadSummary({ leadId: 7 })).toBe('leadId=7');
    expect(payloadSummary({ subscriberId: 3, phoneOnly: false })).toBe('subscriberId=3 phoneOnly=false');
  });

  it('shows counts per queue and the failed jobs; view_job alone has no actions', async () => {
    const id = await failedJob(41);
    const a = await signIn(t.app, { permissions: ['view_job'] });
    const page = await t.app.inject({ url: '/admin/jobs', headers: { cookie: a.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<td>crm-sync</td>');
    expect(page.body).toContain('lead.crm-push');
    expect(page.body).toContain('leadId=41');
    expect(page.body).toContain('Pipedrive answered 401: invalid token');
    expect(page.body).toMatch(/<td class="n">3<\/td>/); // tries
    expect(page.body).not.toContain('>Retry</button>');
    expect((await post(`/admin/jobs/crm-sync/${id}/retry`, a.cookie, a.csrf)).statusCode).toBe(403);
    expect(await jobState(id)).toBe('failed');
  });

  it('Retry sends the job again with fresh tries and removes the failed one; Delete removes it', async () => {
    const retried = await failedJob(42);
    const deleted = await failedJob(43);
    const a = await signIn(t.app, { permissions: ['view_job', 'retry_job', 'delete_job'] });
    expect((await post(`/admin/jobs/crm-sync/${retried}/retry`, a.cookie)).statusCode).toBe(403); // no CSRF token
    const r = await post(`/admin/jobs/crm-sync/${retried}/retry`, a.cookie, a.csrf);
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe('/admin/jobs?done=retry');
    expect(await jobState(retried)).toBeUndefined();
    const fresh = await t.database.query<{ state: string; retry_count: number; data: { payload: unknown } }>(
      `SELECT state, retry_count, data FROM pgboss.job WHERE name = 'crm-sync' AND state = 'created'`,
    );
    expect(fresh.rows.map((j) => [j.state, j.retry_count, j.data.payload])).toContainEqual([
      'created',
      0,
      { leadId: 42 },
    ]);
    expect((await post(`/admin/jobs/crm-sync/${deleted}/delete`, a.cookie, a.csrf)).headers.location).toBe(
      '/admin/jobs?done=delete',
    );
    expect(await jobState(deleted)).toBeUndefined();
    // a second click on the same job finds nothing
    expect((await post(`/admin/jobs/crm-sync/${deleted}/delete`, a.cookie, a.csrf)).statusCode).toBe(404);
    const audit = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.actor, a.email));
    expect(audit.map((x) => [x.action, x.resourceId])).toEqual([
      ['job.retry', retried],
      ['job.delete', deleted],
    ]);
  });
});
