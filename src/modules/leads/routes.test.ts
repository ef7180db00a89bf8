import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_NOW, type TestApp } from '../../../test/support/app.js';
import { randomClientIp } from '../../../test/support/redis.js';
import { crmSyncRecords, leads } from '../../db/schema/index.js';
import { deleteLeads, leadPage } from './service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PRIVACY_POLICY_VERSION: 'v2.3' } });
});
afterAll(() => t.close());

const valid = {
  name: '  Ana López ',
  email: 'ana@example.com',
  phone: '+34 600 000 000',
  region: 'Asia',
  destinations: [
    { type: 'country', id: 'jp', label: 'Japan' },
    { type: 'region', label: 'Southeast Asia' },
  ],
  preferred_call_time: 'mornings',
  consent: true,
};

// each request from its own address, so the 5/min limit (tested on its own) stays out of the way
const post = (payload: unknown, headers: Record<string, string> = {}, remoteAddress = randomClientIp()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/leads',
    payload: payload as object,
    headers,
    remoteAddress: headers['x-forwarded-for'] ? '127.0.0.1' : remoteAddress,
  });

async function lastLead() {
  const [row] = await t.database.db.select().from(leads).orderBy(desc(leads.id)).limit(1);
  return row;
}

describe('POST /api/leads', () => {
  it('stores the lead with its consent columns and answers 201', async () => {
    const res = await post(valid, { 'x-forwarded-for': '203.0.113.9' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: 'Lead received successfully.' });
    const row = await lastLead();
    expect(row).toMatchObject({
      name: 'Ana López',
      email: 'ana@example.com',
      phone: '+34 600 000 000',
      region: 'Asia',
      destinations: [
        { type: 'country', id: 'jp', label: 'Japan' },
        { type: 'region', label: 'Southeast Asia' },
      ],
      preferredCallTime: 'mornings',
      source: 'website',
      privacyPolicyVersion: 'v2.3',
      // inject's peer is 127.0.0.1, a trusted proxy by default: the forwarded client counts
      consentIp: '203.0.113.9',
    });
    expect(row.consentGivenAt.toISOString()).toBe(new Date(TEST_NOW).toISOString());
  });

  it('stores no consent IP when a trusted proxy forwards something that is no address', async () => {
    const res = await post(valid, { 'x-forwarded-for': 'not-an-ip-address-but-a-long-string-of-text-abcdefgh' });
    expect(res.statusCode).toBe(201);
    expect((await lastLead()).consentIp).toBeNull();
  });

  it('accepts the minimal body; optional fields may be null or blank', async () => {
    const res = await post(
      {
        name: 'Bo',
        email: 'bo@example.org',
        phone: null,
        region: '',
        destinations: null,
        preferred_call_time: '  ',
        consent: true,
      },
      {},
      '192.0.2.44',
    );
    expect(res.statusCode).toBe(201);
    expect(await lastLead()).toMatchObject({
      phone: null,
      region: null,
      destinations: [],
      preferredCallTime: null,
      consentIp: '192.0.2.44',
    });
  });

  it('answers 422 validation_failed for a missing name or email, with per-field messages', async () => {
    const res = await post({ consent: true });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body).toMatchObject({ success: false, error: 'validation_failed' });
    expect(body.errors.name).toEqual(['The name field is required.']);
    expect(body.errors.email).toEqual(['The email field is required.']);
    expect(body.message).toBe('The name field is required.');
  });

  it('answers 422 for a blank name', async () => {
    const res = await post({ ...valid, name: '   ' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ name: ['The name field is required.'] });
  });

  it('answers 422 for an invalid email', async () => {
    for (const email of ['not-an-email', 'a@b', 'a b@example.com', 'a@@example.com', 'a@example..com']) {
      const res = await post({ ...valid, email });
      expect(res.statusCode, email).toBe(422);
      expect(res.json().errors.email).toEqual(['The email field must be a valid email address.']);
    }
  });

  it('answers 422 when consent is missing or not accepted', async () => {
    const missing = await post({ ...valid, consent: undefined });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.consent).toEqual(['The consent field is required.']);
    const refused = await post({ ...valid, consent: false });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      message: 'The consent field must be accepted.',
      errors: { consent: ['The consent field must be accepted.'] },
    });
  });

  it('answers 422 for an invalid destinations type, a missing label, or too long values', async () => {
    const badType = await post({ ...valid, destinations: [{ type: 'city', label: 'Kyoto' }] });
    expect(badType.statusCode).toBe(422);
    expect(badType.json().errors).toHaveProperty(['destinations.0.type']);

    const noLabel = await post({ ...valid, destinations: [{ type: 'country' }] });
    expect(noLabel.statusCode).toBe(422);
    expect(noLabel.json().errors['destinations.0.label']).toEqual(['The label field is required.']);

    const blankLabel = await post({ ...valid, destinations: [{ type: 'country', label: '  ' }] });
    expect(blankLabel.statusCode).toBe(422);
    expect(blankLabel.json().errors['destinations.0.label']).toEqual(['The label field is required.']);

    const longId = await post({ ...valid, destinations: [{ type: 'country', id: 'x'.repeat(101), label: 'J' }] });
    expect(longId.statusCode).toBe(422);
    expect(longId.json().errors['destinations.0.id']).toEqual([
      'The id field must not be greater than 100 characters.',
    ]);

    const longLabel = await post({ ...valid, destinations: [{ type: 'region', label: 'x'.repeat(101) }] });
    expect(longLabel.statusCode).toBe(422);
  });

  it('accepts 100 destinations and refuses 101', async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'country', label: `C${i}` }));
    expect((await post({ ...valid, destinations: many(100) })).statusCode).toBe(201);
    const res = await post({ ...valid, destinations: many(101) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.destinations).toEqual(['The destinations field must not have more than 100 items.']);
  });

  it('enforces the maximum lengths', async () => {
    const cases: [string, unknown][] = [
      ['name', 'n'.repeat(256)],
      ['email', `${'e'.repeat(250)}@x.com`],
      ['phone', '1'.repeat(51)],
      ['region', 'r'.repeat(256)],
      ['preferred_call_time', 'p'.repeat(256)],
    ];
    for (const [field, value] of cases) {
      const res = await post({ ...valid, [field]: value });
      expect(res.statusCode, field).toBe(422);
      expect(res.json().errors[field]?.[0], field).toMatch(/must not be greater than/);
    }
  });

  it('answers 422 (not 400) for a body of the wrong shape', async () => {
    const res = await post({ ...valid, destinations: 'Japan' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      success: false,
      error: 'validation_failed',
      errors: { destinations: ['The destinations field must be of type array or null.'] },
    });
  });

  it('takes JSON types as sent: a number or boolean is not a string, "1" is not a boolean', async () => {
    const before = (await lastLead())?.id ?? 0;
    const cases: Array<[object, string, string]> = [
      [{ ...valid, name: 123 }, 'name', 'The name field must be of type string.'],
      [{ ...valid, email: true }, 'email', 'The email field must be of type string.'],
      [{ ...valid, phone: 600123456 }, 'phone', 'The phone field must be of type string or null.'],
      [
        { ...valid, preferred_call_time: 9 },
        'preferred_call_time',
        'The preferred_call_time field must be of type string or null.',
      ],
      [
        { ...valid, destinations: [{ type: 'country', id: 5, label: 'Peru' }] },
        'destinations.0.id',
        'The id field must be of type string or null.',
      ],
      [{ ...valid, consent: 'true' }, 'consent', 'The consent field must be of type boolean.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await post(body);
      expect(res.statusCode, field).toBe(422);
      expect(res.json().errors[field], field).toEqual([message]);
    }
    const res = await post({ email: 'x@example.com', consent: true });
    expect(res.json().errors).toEqual({ name: ['The name field is required.'] });
    // PostgreSQL stores no U+0000 in text or jsonb: a 422 naming the field, not a 500
    const nul = await post({ ...valid, name: 'A\u0000', destinations: [{ type: 'region', label: 'x\u0000' }] });
    expect(nul.statusCode).toBe(422);
    expect(nul.json().errors).toEqual({
      name: ['The name field is invalid: it contains a NUL character.'],
      'destinations.0.label': ['The label field is invalid: it contains a NUL character.'],
    });
    expect((await lastLead())?.id ?? 0).toBe(before);
  });
});

describe('POST /api/leads queues the CRM push', () => {
  const jobsOn = async (app: TestApp, queue = 'crm-sync') =>
    (
      await app.database.query<{ data: { job: string; payload: { leadId: number } } }>(
        'SELECT data FROM pgboss.job WHERE name = $1',
        [queue],
      )
    ).rows.map((r) => r.data);

  it('dispatches exactly one lead job per lead when the CRM token is set', async () => {
    const app = await createTestApp({
      env: { CRM_API_TOKEN: 'tok', CRM_API_URL: 'http://127.0.0.1:9', IN_PROCESS_WORKERS: 'false' },
    });
    try {
      const res = await app.app.inject({ method: 'POST', url: '/api/leads', payload: valid });
      expect(res.statusCode).toBe(201);
      const [row] = await app.database.db.select().from(leads).orderBy(desc(leads.id)).limit(1);
      expect(await jobsOn(app)).toEqual([{ job: 'lead.crm-push', payload: { leadId: row.id } }]);
      const { rows } = await app.database.query<{ status: string }>(
        "SELECT status FROM crm_sync_records WHERE model_type = 'lead' AND model_id = $1",
        [row.id],
      );
      expect(rows).toEqual([{ status: 'Pending' }]);
    } finally {
      await app.close();
    }
  });

  it('dispatches nothing, silently, when the CRM token is empty', async () => {
    const app = await createTestApp({ env: { CRM_API_TOKEN: '', IN_PROCESS_WORKERS: 'false' } });
    try {
      const res = await app.app.inject({ method: 'POST', url: '/api/leads', payload: valid });
      expect(res.statusCode).toBe(201);
      expect(await jobsOn(app)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  // issue 20: a lead kept without its CRM push would never be synced; lead, sync record and job
  // are one transaction, so a failed dispatch stores nothing and the caller may send again
  it('a queue failure stores nothing: no lead, no sync record, and the caller gets an error', async () => {
    const app = await createTestApp({
      env: { CRM_API_TOKEN: 'tok', IN_PROCESS_WORKERS: 'false' },
    });
    try {
      // without its tables the queue throws on every dispatch
      await app.database.exec('DROP SCHEMA pgboss CASCADE');
      const count = async (table: string) => (await app.database.query(`SELECT id FROM ${table}`)).rows.length;
      const before = [await count('leads'), await count('crm_sync_records')];
      const res = await app.app.inject({ method: 'POST', url: '/api/leads', payload: valid });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ success: false, error: 'server_error', message: 'Internal server error.' });
      expect([await count('leads'), await count('crm_sync_records')]).toEqual(before);
    } finally {
      await app.close();
    }
  });
});

describe('admin use cases (read-only resource with bulk delete)', () => {
  it('lists newest first and bulk-deletes leads with their sync records', async () => {
    const page = await leadPage(t.app.ctx, 1, 2);
    expect(page.rows).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
    expect(page.rows[0].id).toBeGreaterThan(page.rows[1].id);
    const ids = page.rows.map((r) => r.id);
    await t.database.db.insert(crmSyncRecords).values({ modelType: 'lead', modelId: ids[0], status: 'Synced' });
    expect(await deleteLeads(t.app.ctx, [...ids, 9_999_999])).toBe(2);
    expect((await leadPage(t.app.ctx, 1, 100)).total).toBe(page.total - 2);
    const { rows } = await t.database.query("SELECT id FROM crm_sync_records WHERE model_type = 'lead'");
    expect(rows).toEqual([]);
  });
});

describe('rate limit', () => {
  it('allows 5 leads a minute per IP and answers the 6th with 429 and Retry-After', async () => {
    const ip = randomClientIp();
    for (let i = 0; i < 5; i++)
      expect((await post({ ...valid, email: `r${i}@example.org` }, {}, ip)).statusCode).toBe(201);
    const res = await post(valid, {}, ip);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toMatchObject({ success: false, error: 'too_many_requests' });
    expect((await post(valid, {}, randomClientIp())).statusCode).toBe(201);
  });
});
