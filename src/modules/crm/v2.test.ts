// Pipedrive API v2 (issue 17 section 2): v2 paths and bodies, the token in a header, cursor
// pagination, one person per e-mail across mirrors, a job's time-out reaching the CRM calls, and
// what a sync that ends Failed raises.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakePipedrive, startFakePipedrive } from '../../../test/fakes/pipedrive.js';
import { createTestApp } from '../../../test/support/app.js';
import { addLead, addSubscriber, crmDeps } from '../../../test/support/crm.js';
import type { Database } from '../../db/database.js';
import { JobTimeoutError } from '../../platform/queue-pgboss.js';
import { leadCrmPushJob } from '../leads/jobs.js';
import { newsletterCrmSyncJob } from './jobs.js';
import { FieldKeyCache, PipedriveClient } from './pipedrive.js';
import { findRecord } from './repository.js';

let fake: FakePipedrive;
let app: Awaited<ReturnType<typeof createTestApp>>;
let database: Database;
beforeAll(async () => {
  fake = await startFakePipedrive();
  app = await createTestApp();
  database = app.database;
});
afterAll(async () => {
  await fake.close();
  await app.close();
});
beforeEach(() => fake.reset());

const jobInfo = (signal = new AbortController().signal) => ({
  id: 'j1',
  name: 'crm',
  queue: 'crm-sync',
  attempt: 1,
  signal,
});

describe('the fake speaks v2 only', () => {
  it('answers 410 to the v1 person endpoints and 401 to a token in the URL', async () => {
    const v1 = await fetch(`${fake.url}/v1/persons/search?term=a@b.c`, { headers: { 'x-api-token': fake.token } });
    expect(v1.status).toBe(410);
    const inUrl = await fetch(`${fake.url}/api/v2/persons/search?term=a@b.c&api_token=${fake.token}`);
    expect(inUrl.status).toBe(401);
    const ok = await fetch(`${fake.url}/api/v2/persons/search?term=a@b.c`, { headers: { 'x-api-token': fake.token } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('80');
    expect(ok.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });
});

describe('PipedriveClient on API v2', () => {
  const client = (signal?: AbortSignal) =>
    new PipedriveClient({
      apiUrl: fake.url,
      apiToken: fake.token,
      timeoutMs: 60_000,
      fieldCache: new FieldKeyCache(),
      signal,
    });

  it('sends the token in x-api-token only, v2 bodies, and PATCH for updates', async () => {
    const c = client();
    const created = await c.createPerson(
      { name: 'Ana', email: 'ana@example.com', phone: null, custom: { 'Consent IP': '203.0.113.9' } },
      [{ name: 'Consent IP', type: 'varchar' }],
    );
    await c.setPersonPhone(created.id, '+34 600 000 001');
    expect(await c.getPerson(created.id)).toEqual({
      id: created.id,
      name: 'Ana',
      emails: ['ana@example.com'],
      phones: ['+34 600 000 001'],
    });
    for (const r of fake.requests) {
      expect(r.query.api_token).toBeUndefined();
      expect(r.headers['x-api-token']).toBe(fake.token);
      expect(r.path).toMatch(/^\/api\/v2\//);
    }
    const post = fake.requests.find((r) => r.method === 'POST' && r.path === '/api/v2/persons')!;
    const code = fake.personFields.find((f) => f.field_name === 'Consent IP')!.field_code;
    expect(post.body).toEqual({
      name: 'Ana',
      emails: [{ value: 'ana@example.com', primary: true, label: 'work' }],
      custom_fields: { [code]: '203.0.113.9' },
    });
    expect(fake.requests.find((r) => r.path === '/api/v2/personFields' && r.method === 'POST')!.body).toEqual({
      field_name: 'Consent IP',
      field_type: 'varchar',
    });
    expect(fake.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });

  it('reads a field schema over several cursor pages before creating anything', async () => {
    for (let i = 0; i < 1100; i++) {
      fake.personFields.push({
        field_code: `f${i}`,
        field_name: `Field ${i}`,
        field_type: 'varchar',
        is_custom_field: true,
      });
    }
    const keys = await client().fieldKeys('personFields', [{ name: 'Field 1099', type: 'varchar' }]);
    expect(keys.get('field 1099')).toBe('f1099');
    const reads = fake.requests.filter((r) => r.path === '/api/v2/personFields');
    // 1103 fields at 500 a page: three pages, the 2nd and 3rd by the cursor the page before gave
    expect(reads.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
    expect(reads[0].query.cursor).toBeUndefined();
    expect(reads[1].query.cursor).toBeTruthy();
    expect(reads[2].query.cursor).not.toBe(reads[1].query.cursor);
  });

  it('stops a call when the caller aborts (a job time-out), as a connection failure', async () => {
    const controller = new AbortController();
    fake.fail({ path: '/api/v2/persons/search' }, { hang: true });
    const call = client(controller.signal).findPersonByEmail('slow@example.com');
    controller.abort(new JobTimeoutError('timed out after 120 s'));
    await expect(call).rejects.toMatchObject({
      kind: 'connection',
      message: 'GET /api/v2/persons/search: stopped: timed out after 120 s',
    });
  });
});

describe('one person per e-mail', () => {
  it('a newsletter sign-up and a lead for the same new e-mail, synced together, create one person', async () => {
    const email = `both-${Date.now()}@example.com`;
    const sub = await addSubscriber(database, { email });
    const lead = await addLead(database, { email: email.toUpperCase() });
    // both searches would answer "nobody" before either creates without the lock
    fake.delay(/^\/api\/v2\/persons\/search$/, 150);
    const { deps } = crmDeps(database, fake);
    // a loaded machine must not turn this into a time-out case
    deps.crmTimeoutMs = 30_000;
    const [a, b] = await Promise.all([
      newsletterCrmSyncJob(deps).handler({ subscriberId: sub.id, phoneOnly: false }, jobInfo()),
      leadCrmPushJob(deps).handler({ leadId: lead.id }, jobInfo()),
    ]);
    expect([a, b]).toEqual([{ kind: 'done' }, { kind: 'done' }]);
    const creates = fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/persons');
    expect(creates).toHaveLength(1);
    const personId = [...fake.persons.values()].find((p) => p.emails[0].value === email)!.id;
    expect((await findRecord(database.db, 'newsletter_subscriber', sub.id))?.remoteId).toBe(String(personId));
    expect(fake.leads.at(-1)?.person_id).toBe(personId);
  });
});

describe('a job time-out', () => {
  it('stops the CRM call and leaves the sync record Failed with the error, for the backoff retry', async () => {
    const sub = await addSubscriber(database);
    fake.fail({ path: '/api/v2/persons/search' }, { hang: true });
    const { deps } = crmDeps(database, fake, {});
    deps.crmTimeoutMs = 60_000;
    const controller = new AbortController();
    const running = newsletterCrmSyncJob(deps).handler(
      { subscriberId: sub.id, phoneOnly: false },
      jobInfo(controller.signal),
    );
    // what the queue does when the job's 120 s pass
    const started = Date.now();
    while (!fake.requests.some((r) => r.path === '/api/v2/persons/search') && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    controller.abort(new JobTimeoutError('timed out after 120 s'));
    expect(await running).toEqual({
      kind: 'retry',
      error: 'GET /api/v2/persons/search: stopped: timed out after 120 s',
    });
    expect(await findRecord(database.db, 'newsletter_subscriber', sub.id)).toMatchObject({
      status: 'Failed',
      attempts: 1,
      lastError: 'GET /api/v2/persons/search: stopped: timed out after 120 s',
    });
  });
});

describe('a sync that ends Failed', () => {
  it('counts crm_sync_failed_total by model and notifies the admins once an hour', async () => {
    const before = await app.app.inject('/metrics');
    expect(before.body).not.toMatch(/crm_sync_failed_total\{model="lead"\}/);
    const { deps, logger } = crmDeps(database, fake);
    deps.crmTimeoutMs = 30_000; // a loaded machine must not turn this into a time-out case
    for (const _ of [1, 2]) {
      const lead = await addLead(database);
      fake.fail({ method: 'POST', path: '/api/v2/persons' }, { status: 422 });
      expect(await leadCrmPushJob(deps).handler({ leadId: lead.id }, jobInfo())).toMatchObject({ kind: 'fail' });
    }
    const sub = await addSubscriber(database);
    const job = newsletterCrmSyncJob(deps);
    await job.onExhausted!({ subscriberId: sub.id, phoneOnly: false }, jobInfo(), 'timed out after 120 s');

    const res = await app.app.inject('/metrics');
    expect(res.body).toContain('# TYPE crm_sync_failed_total counter');
    expect(res.body).toMatch(/crm_sync_failed_total\{model="lead"\} 2/);
    // the subscriber had no record yet: exhausted without one is only logged
    const notices = logger.lines.filter((l) => l.msg === 'admin notification (no SMTP configured)');
    expect(notices).toHaveLength(1);
    const consoleRows = await database.query<{ type: string; title: string }>(
      `SELECT type, title FROM admin_notifications WHERE type = 'crm:sync-failed'`,
    );
    expect(consoleRows.rows).toHaveLength(1);
    expect(consoleRows.rows[0].title).toMatch(/^CRM sync failed \(lead \d+\)$/);
    expect((notices[0].alert as { subject: string }).subject).toMatch(
      /^\[itinera test\] CRM sync failed \(lead \d+\)$/,
    );
  });
});
