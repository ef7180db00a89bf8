import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakePipedrive, startFakePipedrive } from '../../../test/fakes/pipedrive.js';
import { addSubscriber, crmDeps } from '../../../test/support/crm.js';
import { createTestDatabase } from '../../../test/support/db.js';
import type { Database } from '../../db/database.js';
import { crmSyncRecords, newsletterSubscribers } from '../../db/schema/index.js';
import { newsletterCrmDispatchOptions, newsletterCrmSyncJob, syncSubscriber } from './jobs.js';
import { findRecord } from './repository.js';
import { reactivateSyncRecord, retrySyncRecord } from './service.js';

let database: Database;
let fake: FakePipedrive;
beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakePipedrive();
});
afterAll(async () => {
  await fake.close();
  await database.close();
});
beforeEach(() => fake.reset());

const info = {
  id: 'j1',
  name: 'newsletter.crm-sync',
  queue: 'crm-sync',
  attempt: 1,
  signal: new AbortController().signal,
};

async function run(subscriberId: number, phoneOnly = false, env: Record<string, string> = {}) {
  const { deps, logger } = crmDeps(database, fake, env);
  const job = newsletterCrmSyncJob(deps);
  const result = await job.handler({ subscriberId, phoneOnly }, info);
  const record = await findRecord(database.db, 'newsletter_subscriber', subscriberId);
  const [sub] = await database.db
    .select()
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.id, subscriberId));
  return { result, record, sub, logger, deps, job };
}

async function setRecord(modelId: number, values: Partial<typeof crmSyncRecords.$inferInsert>) {
  await database.db
    .insert(crmSyncRecords)
    .values({ modelType: 'newsletter_subscriber', modelId, ...values })
    .onConflictDoUpdate({ target: [crmSyncRecords.modelType, crmSyncRecords.modelId], set: values });
}

describe('newsletter CRM job definition', () => {
  it('runs on the crm-sync queue with 3 tries, 120 s, backoff 30/60/180 and a 600 s unique window', () => {
    const { deps } = crmDeps(database, fake, { CRM_SYNC_QUEUE: 'crm-custom' });
    const job = newsletterCrmSyncJob(deps);
    expect(job).toMatchObject({
      name: 'newsletter.crm-sync',
      queue: 'crm-custom',
      tries: 3,
      timeoutSeconds: 120,
      backoffSeconds: [30, 60, 180],
      uniqueSeconds: 600,
    });
  });

  it('gives phone-only jobs their own uniqueness key', () => {
    expect(newsletterCrmDispatchOptions({ subscriberId: 5, phoneOnly: false }).uniqueKey).toBe('newsletter-crm:5');
    expect(newsletterCrmDispatchOptions({ subscriberId: 5, phoneOnly: true }).uniqueKey).toBe('newsletter-crm-phone:5');
  });
});

describe('step 1: stop early', () => {
  it('subscriber deleted: logs and stops without calling the CRM', async () => {
    const { result, record, logger } = await run(999_999);
    expect(result).toEqual({ kind: 'ignore', reason: 'subscriber deleted' });
    expect(record).toBeNull();
    expect(fake.requests).toHaveLength(0);
    expect(logger.lines.some((l) => /subscriber deleted/.test(l.msg))).toBe(true);
  });

  it('CRM token blank: logs and stops, no failed job, no record', async () => {
    const sub = await addSubscriber(database);
    const { result, record, logger } = await run(sub.id, false, { CRM_API_TOKEN: '' });
    expect(result).toEqual({ kind: 'ignore', reason: 'CRM token blank' });
    expect(record).toBeNull();
    expect(fake.requests).toHaveLength(0);
    expect(logger.lines.some((l) => /token blank/.test(l.msg))).toBe(true);
  });

  it('record Ignored: stops without calling the CRM', async () => {
    const sub = await addSubscriber(database);
    await setRecord(sub.id, { status: 'Ignored', remoteId: '77' });
    const { result, record } = await run(sub.id);
    expect(result.kind).toBe('ignore');
    expect(record?.status).toBe('Ignored');
    expect(fake.requests).toHaveLength(0);
  });

  it('remote id set and no local phone: marks Synced without calling the CRM', async () => {
    const sub = await addSubscriber(database, { phone: null });
    await setRecord(sub.id, { status: 'Pending', remoteId: '321' });
    const { result, record, sub: after } = await run(sub.id);
    expect(result).toEqual({ kind: 'done' });
    expect(record).toMatchObject({ status: 'Synced', remoteId: '321', lastError: null });
    expect(after.crmPersonId).toBe(321);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('steps 2-4: resolve, create, enrich', () => {
  it('miss on initial delivery: creates the person with name, primary email and phone and the consent fields', async () => {
    const sub = await addSubscriber(database, { name: 'Ana López', phone: '+34 600 111 222' });
    const { result, record, sub: after } = await run(sub.id);
    expect(result).toEqual({ kind: 'done' });

    const search = fake.calls()[0];
    expect(search).toMatchObject({ method: 'GET', path: '/api/v2/persons/search' });
    expect(search.query).toMatchObject({
      term: sub.email,
      fields: 'email',
      exact_match: 'true',
    });
    // the token travels in the header, never in the URL (Pipedrive API v2)
    expect(search.query.api_token).toBeUndefined();
    expect(search.headers['x-api-token']).toBe(fake.token);

    const create = fake.calls().find((r) => r.method === 'POST' && r.path === '/api/v2/persons')!;
    expect(create.body).toMatchObject({
      name: 'Ana López',
      emails: [{ value: sub.email, primary: true }],
      phones: [{ value: '+34 600 111 222', primary: true }],
    });
    const person = fake.persons.get(after.crmPersonId!)!;
    expect(fake.personCustom(person, 'Consent Given At')).toBe('2026-06-01');
    expect(fake.personCustom(person, 'Privacy Policy Version')).toBe('v1.0');
    expect(fake.personCustom(person, 'Consent IP')).toBe('203.0.113.7');
    // the fields were created under the person schema with their types
    expect(fake.personFields.find((f) => f.field_name === 'Consent Given At')?.field_type).toBe('date');

    expect(record).toMatchObject({ status: 'Synced', remoteId: String(person.id), attempts: 1, lastError: null });
  });

  it('creates without a phone when the subscriber has none, and reuses the cached field keys', async () => {
    const { deps } = crmDeps(database, fake);
    const a = await addSubscriber(database, { consentIp: null });
    const b = await addSubscriber(database);
    await syncSubscriber(deps, { subscriberId: a.id, phoneOnly: false });
    await syncSubscriber(deps, { subscriberId: b.id, phoneOnly: false });
    const creates = fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/persons');
    expect(creates[0].body.phones).toBeUndefined();
    expect(Object.values(creates[0].body)).not.toContain(null);
    expect(fake.requests.filter((r) => r.method === 'GET' && r.path === '/api/v2/personFields')).toHaveLength(1);
  });

  it('concurrent jobs on a fresh account create each custom field once', async () => {
    const fresh = await startFakePipedrive();
    try {
      const { deps } = crmDeps(database, fresh);
      const subs = await Promise.all([1, 2, 3].map(() => addSubscriber(database)));
      const results = await Promise.all(
        subs.map((s) => syncSubscriber(deps, { subscriberId: s.id, phoneOnly: false })),
      );
      expect(results).toEqual([{ kind: 'done' }, { kind: 'done' }, { kind: 'done' }]);
      const created = fresh.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/personFields');
      expect(created.map((r) => r.body.field_name).sort()).toEqual([
        'Consent Given At',
        'Consent IP',
        'Privacy Policy Version',
      ]);
    } finally {
      await fresh.close();
    }
  });

  it('a hit by email is linked; name, email, consent and an existing phone are preserved', async () => {
    const sub = await addSubscriber(database, { name: 'New Name', phone: '+34 611 000 000' });
    const existing = fake.addPerson({ name: 'Sales Name', email: sub.email.toUpperCase(), phone: '+1 555 0100' });
    const { result, record, sub: after } = await run(sub.id);
    expect(result).toEqual({ kind: 'done' });
    expect(after.crmPersonId).toBe(existing.id);
    expect(record).toMatchObject({ status: 'Synced', remoteId: String(existing.id) });
    expect(fake.calls().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/v2/persons/search']);
    expect(existing.name).toBe('Sales Name');
    expect(existing.phones[0]?.value).toBe('+1 555 0100');
  });

  it('a hit with an empty phone gets the local phone, and nothing else is sent', async () => {
    const sub = await addSubscriber(database, { phone: '+34 622 333 444' });
    const existing = fake.addPerson({ name: 'Sales Name', email: sub.email });
    const { record } = await run(sub.id);
    const patch = fake.calls().find((r) => r.method === 'PATCH')!;
    expect(patch.path).toBe(`/api/v2/persons/${existing.id}`);
    expect(patch.body).toEqual({ phones: [{ value: '+34 622 333 444', primary: true, label: 'mobile' }] });
    expect(existing.phones[0]?.value).toBe('+34 622 333 444');
    expect(existing.name).toBe('Sales Name');
    expect(record?.status).toBe('Synced');
  });

  it('uses the linked id before searching by email', async () => {
    const sub = await addSubscriber(database, { phone: '+34 633 000 111' });
    const existing = fake.addPerson({ name: 'Linked', email: 'other@example.com' });
    await database.db
      .update(newsletterSubscribers)
      .set({ crmPersonId: existing.id })
      .where(eq(newsletterSubscribers.id, sub.id));
    const { record } = await run(sub.id);
    expect(fake.calls().map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/v2/persons/${existing.id}`,
      `PATCH /api/v2/persons/${existing.id}`,
    ]);
    expect(record).toMatchObject({ status: 'Synced', remoteId: String(existing.id) });
  });

  it('saves the link before the phone step, so a retry after a failure there creates nobody', async () => {
    const sub = await addSubscriber(database, { phone: '+34 644 555 666' });
    const existing = fake.addPerson({ name: 'Sales', email: sub.email });
    fake.fail({ method: 'PATCH', path: /^\/api\/v2\/persons\/\d+$/ }, { hang: true });
    const first = await run(sub.id);
    expect(first.result.kind).toBe('retry');
    expect(first.sub.crmPersonId).toBe(existing.id);
    expect(first.record).toMatchObject({ status: 'Failed', remoteId: String(existing.id) });

    fake.reset();
    const second = await run(sub.id);
    expect(second.result).toEqual({ kind: 'done' });
    expect(fake.calls().map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/v2/persons/${existing.id}`,
      `PATCH /api/v2/persons/${existing.id}`,
    ]);
    expect(second.record).toMatchObject({ status: 'Synced', attempts: 2 });
  });
});

describe('phone-only delivery', () => {
  it('never creates a person', async () => {
    const sub = await addSubscriber(database, { phone: '+34 655 000 000' });
    const { result, record } = await run(sub.id, true);
    expect(result.kind).toBe('ignore');
    expect(fake.calls().map((r) => r.method)).toEqual(['GET']);
    expect(record?.status).toBe('Pending');
  });

  it('fills an empty CRM phone on the linked person and never replaces one', async () => {
    const sub = await addSubscriber(database, { phone: '+34 666 000 000' });
    const p = fake.addPerson({ name: 'X', email: sub.email });
    await setRecord(sub.id, { status: 'Synced', remoteId: String(p.id) });
    const first = await run(sub.id, true);
    expect(first.result).toEqual({ kind: 'done' });
    expect(p.phones[0]?.value).toBe('+34 666 000 000');

    const sub2 = await addSubscriber(database, { phone: '+34 677 000 000' });
    const p2 = fake.addPerson({ name: 'Y', email: sub2.email, phone: '+49 1' });
    await setRecord(sub2.id, { status: 'Synced', remoteId: String(p2.id) });
    fake.reset();
    await run(sub2.id, true);
    expect(fake.calls().map((r) => r.method)).toEqual(['GET']);
    expect(p2.phones[0]?.value).toBe('+49 1');
  });
});

describe('failure classes', () => {
  it('429 with Retry-After: released for that delay, record stays Pending with the error, no try used', async () => {
    const sub = await addSubscriber(database);
    fake.fail({ path: '/api/v2/persons/search' }, { status: 429, retryAfter: '30' });
    const { result, record, logger } = await run(sub.id);
    expect(result).toMatchObject({ kind: 'release', seconds: 30 });
    expect(record).toMatchObject({ status: 'Pending', attempts: 0 });
    expect(record?.lastError).toMatch(/429/);
    expect(logger.errors()).toHaveLength(0);
  });

  it('429 without Retry-After: released for 10 s', async () => {
    const sub = await addSubscriber(database);
    fake.fail({ path: '/api/v2/persons/search' }, { status: 429 });
    const { result } = await run(sub.id);
    expect(result).toMatchObject({ kind: 'release', seconds: 10 });
  });

  it('a spent daily budget parks the record with its reason until the next day, then resumes', async () => {
    const sub = await addSubscriber(database);
    fake.spendDailyBudget(true);
    const { result, record } = await run(sub.id);
    // 10:00 UTC: 14 h to the reset at 00:00 UTC, plus a minute = 50 460 s, one call, no polling
    expect(result).toMatchObject({ kind: 'release', seconds: 50_460 });
    expect(fake.requests).toHaveLength(1);
    expect(record).toMatchObject({ status: 'Pending', attempts: 0 });
    expect(record?.lastError).toMatch(/daily API budget spent, parked until 2026-06-16T00:01:00\.000Z/);
    fake.spendDailyBudget(false);
    const after = await run(sub.id);
    expect(after.result).toEqual({ kind: 'done' });
    expect(after.record).toMatchObject({ status: 'Synced', lastError: null });
  });

  for (const status of [401, 403, 400, 422, 500] as const) {
    it(`HTTP ${status}: Failed, not retried, reported at error`, async () => {
      const sub = await addSubscriber(database);
      fake.fail({ method: 'POST', path: '/api/v2/persons' }, { status });
      const { result, record, logger } = await run(sub.id);
      expect(result.kind).toBe('fail');
      expect(record).toMatchObject({ status: 'Failed', attempts: 1 });
      expect(record?.lastError).toContain(`HTTP ${status}`);
      expect(record?.lastError).not.toContain(fake.token);
      expect(logger.errors()).toHaveLength(1);
    });
  }

  it('a wrong token is a 401 from the CRM: Failed, reported', async () => {
    const sub = await addSubscriber(database);
    const { result, record } = await run(sub.id, false, { CRM_API_TOKEN: 'wrong' });
    expect(result.kind).toBe('fail');
    expect(record?.lastError).toContain('HTTP 401');
  });

  it('a time-out: Failed and retried by backoff, not reported', async () => {
    const sub = await addSubscriber(database);
    fake.fail({ path: '/api/v2/persons/search' }, { hang: true });
    const { result, record, logger } = await run(sub.id);
    expect(result.kind).toBe('retry');
    expect(record).toMatchObject({ status: 'Failed', attempts: 1 });
    expect(record?.lastError).toMatch(/timed out/);
    expect(logger.errors()).toHaveLength(0);
  });

  it('a connection reset or refused: Failed and retried', async () => {
    const sub = await addSubscriber(database);
    fake.fail({ path: '/api/v2/persons/search' }, { reset: true });
    expect((await run(sub.id)).result.kind).toBe('retry');
    const sub2 = await addSubscriber(database);
    const refused = await run(sub2.id, false, { CRM_API_URL: 'http://127.0.0.1:9' });
    expect(refused.result.kind).toBe('retry');
    expect(refused.record?.status).toBe('Failed');
  });

  it('retries exhausted: Failed, logged at error', async () => {
    const sub = await addSubscriber(database);
    fake.fail({ path: '/api/v2/persons/search' }, { hang: true });
    const { job, logger, record } = await run(sub.id);
    expect(record?.status).toBe('Failed');
    await job.onExhausted!({ subscriberId: sub.id, phoneOnly: false }, { ...info, attempt: 3 }, 'timed out');
    const after = await findRecord(database.db, 'newsletter_subscriber', sub.id);
    expect(after).toMatchObject({ status: 'Failed', lastError: 'timed out' });
    expect(logger.errors().some((l) => l.syncRecordId === after!.id)).toBe(true);
  });

  for (const how of ['soft', 'hard', 'gone'] as const) {
    it(`a deleted linked person (${how}): Ignored, no retry, no error report`, async () => {
      const sub = await addSubscriber(database, { phone: '+34 600 000 999' });
      const p = fake.addPerson({ name: 'Gone', email: sub.email });
      await setRecord(sub.id, { status: 'Synced', remoteId: String(p.id) });
      fake.deletePerson(p.id, how);
      const { result, record, logger } = await run(sub.id);
      expect(result.kind).toBe('ignore');
      expect(record?.status).toBe('Ignored');
      expect(logger.errors()).toHaveLength(0);
      expect(fake.requests.some((r) => r.method === 'POST')).toBe(false);
    });
  }
});

describe('monitor actions', () => {
  it('Retry moves Failed to Pending (reset only) and refuses other statuses', async () => {
    const sub = await addSubscriber(database);
    await setRecord(sub.id, { status: 'Failed', attempts: 3, lastError: 'HTTP 500' });
    const rec = (await findRecord(database.db, 'newsletter_subscriber', sub.id))!;
    const { deps } = crmDeps(database, fake);
    const after = await retrySyncRecord(deps, rec.id);
    expect(after).toMatchObject({ status: 'Pending', attempts: 0 });
    expect(fake.requests).toHaveLength(0);
    await expect(retrySyncRecord(deps, rec.id)).rejects.toMatchObject({ status: 409 });
    await expect(retrySyncRecord(deps, 9_999_999)).rejects.toMatchObject({ status: 404 });
  });

  it('Reactivate moves Ignored to Pending; a still-deleted person returns it to Ignored on the next sync', async () => {
    const sub = await addSubscriber(database, { phone: '+34 699 000 000' });
    const p = fake.addPerson({ name: 'Gone', email: sub.email });
    fake.deletePerson(p.id, 'soft');
    await setRecord(sub.id, { status: 'Ignored', remoteId: String(p.id) });
    const rec = (await findRecord(database.db, 'newsletter_subscriber', sub.id))!;
    const { deps } = crmDeps(database, fake);
    expect(await reactivateSyncRecord(deps, rec.id)).toMatchObject({ status: 'Pending' });
    await expect(reactivateSyncRecord(deps, rec.id)).rejects.toMatchObject({ status: 409 });
    const { record } = await run(sub.id);
    expect(record?.status).toBe('Ignored');
  });
});
