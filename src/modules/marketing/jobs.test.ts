// The marketing-sync job against a fake ActiveCampaign server: every delivery path and failure class.
import { type AddressInfo, createServer } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeActiveCampaign } from '../../../test/fakes/activecampaign.js';
import { type FakeDns, startFakeDns } from '../../../test/fakes/dns.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { waitFor } from '../../../test/support/wait.js';
import type { JobInfo, JobOutcome } from '../../platform/queue.js';
import { type MarketingDeps, marketingSyncJob } from './jobs.js';
import { syncStateOf } from './sync-state.js';

let ac: FakeActiveCampaign;
let t: TestApp;
const logs: any[] = [];

beforeAll(async () => {
  ac = await FakeActiveCampaign.start();
  t = await createTestApp({
    env: {
      MARKETING_API_URL: ac.url,
      MARKETING_API_TOKEN: ac.token,
      MARKETING_LIST_ID: '7',
      IN_PROCESS_WORKERS: 'false',
    },
  });
});
afterAll(async () => {
  await t.close();
  await ac.close();
});
beforeEach(async () => {
  ac.reset();
  logs.length = 0;
  t.clock.set('2026-06-15T10:00:00Z');
  await t.database.exec('DELETE FROM newsletter_subscribers; DELETE FROM marketing_remote_ids;');
});

function deps(over: Partial<MarketingDeps> = {}): MarketingDeps {
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  return {
    config: t.config,
    database: t.database,
    clock: t.clock,
    log: pino({ level: 'info' }, sink) as never,
    ...over,
  };
}

const info: JobInfo = {
  id: 'job-1',
  name: 'marketing.subscriber-sync',
  queue: 'marketing-sync',
  attempt: 1,
  signal: new AbortController().signal,
};

async function run(subscriberId: number, phoneOnly = false, d = deps(), timeoutMs?: number): Promise<JobOutcome> {
  return marketingSyncJob(d, { timeoutMs }).handler({ subscriberId, phoneOnly }, info);
}

async function addSubscriber(
  over: Partial<{
    name: string;
    email: string;
    phone: string | null;
    market: string | null;
    ip: string | null;
    contact: number | null;
  }> = {},
): Promise<number> {
  const { rows } = await t.database.query<{ id: number }>(
    `INSERT INTO newsletter_subscribers (email, name, phone, market, consent_given_at, privacy_policy_version, consent_ip, marketing_contact_id)
     VALUES ($1, $2, $3, $4, '2026-06-14T23:30:00Z', 'v1.0', $5, $6) RETURNING id`,
    [
      over.email ?? 'ana@viajes.test',
      over.name ?? 'Ana María López',
      over.phone ?? null,
      over.market === undefined ? 'es' : over.market,
      over.ip === undefined ? '203.0.113.9' : over.ip,
      over.contact ?? null,
    ],
  );
  return rows[0].id;
}

async function contactIdOf(id: number): Promise<number | null> {
  const { rows } = await t.database.query<{ c: number | null }>(
    'SELECT marketing_contact_id AS c FROM newsletter_subscribers WHERE id = $1',
    [id],
  );
  return rows[0].c;
}

describe('skips', () => {
  it('ignores the job when URL, token or list id is unset, without calling out', async () => {
    const id = await addSubscriber();
    for (const key of ['apiUrl', 'apiToken', 'listId'] as const) {
      const config = { ...t.config, marketing: { ...t.config.marketing, [key]: '' } };
      expect(await run(id, false, deps({ config }))).toEqual({ kind: 'ignore', reason: 'marketing not configured' });
    }
    expect(ac.requests).toEqual([]);
  });

  it('ignores a deleted subscriber', async () => {
    expect(await run(999_999)).toEqual({ kind: 'ignore', reason: 'subscriber deleted' });
    expect(ac.requests).toEqual([]);
  });
});

describe('initial delivery', () => {
  it('creates the consent fields, upserts the contact, subscribes, tags by market, then stores the id', async () => {
    const id = await addSubscriber();
    expect(await run(id)).toEqual({ kind: 'done' });
    expect(await syncStateOf(t.database.db, id)).toMatchObject({ status: 'Synced', lastError: null });
    expect(ac.log).toEqual([
      'GET /fields',
      'POST /fields',
      'POST /fieldRels',
      'POST /fields',
      'POST /fieldRels',
      'POST /fields',
      'POST /fieldRels',
      'POST /contact/sync',
      'POST /contactLists',
      'GET /tags',
      'POST /tags',
      'POST /contactTags',
    ]);
    expect(ac.requests.every((r) => r.headers['api-token'] === ac.token)).toBe(true);
    expect(ac.calls('GET /fields')[0].query).toEqual({ limit: '100', offset: '0' });
    expect(ac.fields.map((f) => [f.title, f.type])).toEqual([
      ['Consent Given At', 'date'],
      ['Privacy Policy Version', 'text'],
      ['Consent IP', 'text'],
    ]);
    expect(ac.fieldRels.map((r) => r.relid)).toEqual([0, 0, 0]);
    const [given, version, ip] = ac.fields.map((f) => f.id);
    expect(ac.calls('POST /contact/sync')[0].body).toEqual({
      contact: {
        email: 'ana@viajes.test',
        firstName: 'Ana',
        lastName: 'María López',
        fieldValues: [
          { field: given, value: '2026-06-14' },
          { field: version, value: 'v1.0' },
          { field: ip, value: '203.0.113.9' },
        ],
      },
    });
    const contact = ac.contacts[0];
    expect(ac.calls('POST /contactLists')[0].body).toEqual({
      contactList: { list: 7, contact: contact.id, status: 1 },
    });
    expect(ac.calls('GET /tags')[0].query).toEqual({ search: 'es', limit: '100', offset: '0' });
    expect(ac.calls('POST /tags')[0].body).toEqual({ tag: { tag: 'es', tagType: 'contact', description: '' } });
    expect(ac.contactTags).toEqual([{ contact: String(contact.id), tag: ac.tags[0].id }]);
    expect(await contactIdOf(id)).toBe(contact.id);
  });

  it('reuses cached tag and field ids for 7 days, then resolves them again by name', async () => {
    const first = await addSubscriber();
    await run(first);
    const second = await addSubscriber({ email: 'bea@viajes.test', name: 'Bea' });
    ac.requests = [];
    expect(await run(second)).toEqual({ kind: 'done' });
    expect(ac.log).toEqual(['POST /contact/sync', 'POST /contactLists', 'POST /contactTags']);

    t.clock.advance(8 * 86_400_000);
    const third = await addSubscriber({ email: 'carla@viajes.test', name: 'Carla' });
    ac.requests = [];
    expect(await run(third)).toEqual({ kind: 'done' });
    // found by name this time: nothing is created twice
    expect(ac.log).toEqual([
      'GET /fields',
      'POST /contact/sync',
      'POST /contactLists',
      'GET /tags',
      'POST /contactTags',
    ]);
    expect(ac.fields).toHaveLength(3);
    expect(ac.tags).toHaveLength(1);
  });

  it('a cached tag or field id that answers 404 is dropped and looked up again at once', async () => {
    await run(await addSubscriber());
    // a marketer deletes the tag and a consent field in ActiveCampaign
    const goneTag = ac.tags[0].id;
    const goneField = ac.fields.find((f) => f.title === 'Consent IP')!.id;
    ac.tags = [];
    ac.fields = ac.fields.filter((f) => f.id !== goneField);
    ac.requests = [];
    const second = await addSubscriber({ email: 'bea@viajes.test', name: 'Bea' });
    expect(await run(second)).toEqual({ kind: 'done' });
    expect(ac.log).toEqual([
      'POST /contact/sync',
      'GET /fields',
      'POST /fields',
      'POST /fieldRels',
      'POST /contact/sync',
      'POST /contactLists',
      'POST /contactTags',
      'GET /tags',
      'POST /tags',
      'POST /contactTags',
    ]);
    const newTag = ac.tags[0].id;
    const newField = ac.fields.find((f) => f.title === 'Consent IP')!.id;
    expect(newTag).not.toBe(goneTag);
    expect(newField).not.toBe(goneField);
    const contact = ac.contacts.find((c) => c.email === 'bea@viajes.test')!;
    expect(contact.fieldValues[newField]).toBe('203.0.113.9');
    expect(ac.contactTags).toContainEqual({ contact: String(contact.id), tag: newTag });
    // and the cache holds the new ids: the next job makes no lookups
    ac.requests = [];
    expect(await run(await addSubscriber({ email: 'carla@viajes.test', name: 'Carla' }))).toEqual({ kind: 'done' });
    expect(ac.log).toEqual(['POST /contact/sync', 'POST /contactLists', 'POST /contactTags']);
  });

  it('a job time-out stops the marketing call (the handler gets the job signal)', async () => {
    const id = await addSubscriber();
    ac.fail('/contact/sync', 'timeout');
    const controller = new AbortController();
    const running = marketingSyncJob(deps(), { timeoutMs: 60_000 }).handler(
      { subscriberId: id, phoneOnly: false },
      { ...info, signal: controller.signal },
    );
    const started = Date.now();
    while (!ac.requests.some((r) => r.path === '/api/3/contact/sync') && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 20));
    }
    controller.abort(new Error('timed out after 120 s'));
    expect(await running).toEqual({ kind: 'retry', error: 'POST /contact/sync: stopped: timed out after 120 s' });
  });

  it('jobs running side by side create each field and tag once', async () => {
    const ids = [
      await addSubscriber(),
      await addSubscriber({ email: 'bea@viajes.test', name: 'Bea' }),
      await addSubscriber({ email: 'carla@viajes.test', name: 'Carla' }),
    ];
    expect(await Promise.all(ids.map((id) => run(id)))).toEqual(ids.map(() => ({ kind: 'done' })));
    expect(ac.fields.map((f) => f.title)).toEqual(['Consent Given At', 'Privacy Policy Version', 'Consent IP']);
    expect(ac.tags.map((t) => t.tag)).toEqual(['es']);
    // every contact carries the same three field ids
    const fieldIds = ac.fields.map((f) => f.id).sort();
    for (const call of ac.calls('POST /contact/sync')) {
      expect(call.body.contact.fieldValues.map((v: { field: string }) => v.field).sort()).toEqual(fieldIds);
    }
  });

  it('matches an existing tag by exact name only', async () => {
    ac.tags.push({ id: '501', tag: 'es-old', tagType: 'contact' }, { id: '502', tag: 'des', tagType: 'contact' });
    const id = await addSubscriber();
    await run(id);
    expect(ac.calls('POST /tags')).toHaveLength(1);
    ac.tags.push({ id: '600', tag: 'de', tagType: 'contact' });
    const de = await addSubscriber({ email: 'dora@viajes.test', market: 'de' });
    await run(de);
    expect(ac.contactTags.at(-1)?.tag).toBe('600');
  });

  it('finds the market tag past the first pages when more than 20 tags contain the code', async () => {
    // 130 tags contain "es" (best-sellers-001 ...), the market's own "es" was made last
    for (let i = 1; i <= 130; i++) {
      ac.tags.push({ id: String(1000 + i), tag: `best-sellers-${String(i).padStart(3, '0')}`, tagType: 'contact' });
    }
    ac.tags.push({ id: '2000', tag: 'es', tagType: 'contact' });
    const id = await addSubscriber();
    expect(await run(id)).toEqual({ kind: 'done' });
    expect(ac.calls('GET /tags').map((c) => c.query)).toEqual([
      { search: 'es', limit: '100', offset: '0' },
      { search: 'es', limit: '100', offset: '100' },
    ]);
    expect(ac.calls('POST /tags')).toHaveLength(0);
    expect(ac.contactTags.at(-1)?.tag).toBe('2000');
    expect(await contactIdOf(id)).not.toBeNull();
  });

  it('adds no tag when the market is unknown, and sends an empty Consent IP when there is none', async () => {
    const id = await addSubscriber({ market: null, ip: null, name: 'Cher' });
    expect(await run(id)).toEqual({ kind: 'done' });
    expect(ac.log.filter((l) => l.includes('tag'))).toEqual([]);
    const body = ac.calls('POST /contact/sync')[0].body.contact;
    expect(body.firstName).toBe('Cher');
    expect(body.lastName).toBe('');
    expect(body.fieldValues[2].value).toBe('');
  });

  it('fills the phone only when the contact has none', async () => {
    const id = await addSubscriber({ phone: '+34 600 123 456' });
    await run(id);
    expect(ac.log.slice(-2)).toEqual([`GET /contacts/${ac.contacts[0].id}`, `PUT /contacts/${ac.contacts[0].id}`]);
    expect(ac.contacts[0].phone).toBe('+34 600 123 456');
    // the upsert never carries the phone, so an existing one is never replaced
    expect(ac.calls('POST /contact/sync')[0].body.contact.phone).toBeUndefined();

    ac.contacts.push({
      id: 900,
      email: 'eli@viajes.test',
      firstName: 'Eli',
      lastName: '',
      phone: '+1 555',
      fieldValues: {},
    });
    const eli = await addSubscriber({ email: 'eli@viajes.test', phone: '+34 611 000 000' });
    ac.requests = [];
    await run(eli);
    expect(ac.calls(/^PUT/)).toEqual([]);
    expect(ac.contacts.find((c) => c.id === 900)?.phone).toBe('+1 555');
  });
});

describe('phone-only delivery', () => {
  it('fills an empty phone on the linked contact and touches nothing else', async () => {
    ac.contacts.push({ id: 321, email: 'ana@viajes.test', firstName: 'Ana', lastName: '', phone: '', fieldValues: {} });
    const id = await addSubscriber({ phone: '600123456', contact: 321 });
    expect(await run(id, true)).toEqual({ kind: 'done' });
    expect(ac.log).toEqual(['GET /contacts/321', 'PUT /contacts/321']);
    expect(ac.calls('PUT /contacts/321')[0].body).toEqual({ contact: { phone: '600123456' } });
  });

  it('never replaces an existing phone', async () => {
    ac.contacts.push({
      id: 321,
      email: 'ana@viajes.test',
      firstName: 'Ana',
      lastName: '',
      phone: '+49 1',
      fieldValues: {},
    });
    const id = await addSubscriber({ phone: '600123456', contact: 321 });
    expect(await run(id, true)).toEqual({ kind: 'done' });
    expect(ac.log).toEqual(['GET /contacts/321']);
  });

  it('finds the contact by email when no id is stored, and never creates one', async () => {
    const id = await addSubscriber({ phone: '600123456' });
    expect(await run(id, true)).toEqual({ kind: 'ignore', reason: 'no marketing contact for this email yet' });
    expect(ac.log).toEqual(['GET /contacts']);
    expect(ac.calls('GET /contacts')[0].query).toEqual({ email: 'ana@viajes.test', limit: '100', offset: '0' });
    expect(ac.contacts).toEqual([]);

    ac.contacts.push({ id: 77, email: 'ANA@viajes.test', firstName: 'Ana', lastName: '', phone: '', fieldValues: {} });
    expect(await run(id, true)).toEqual({ kind: 'done' });
    expect(ac.contacts[0].phone).toBe('600123456');
    expect(await contactIdOf(id)).toBeNull();
  });

  it('a failed phone update leaves the stored contact id intact', async () => {
    ac.contacts.push({ id: 321, email: 'ana@viajes.test', firstName: 'Ana', lastName: '', phone: '', fieldValues: {} });
    const id = await addSubscriber({ phone: '600123456', contact: 321 });
    ac.fail('/contacts/321', { status: 422, body: { errors: [{ title: 'bad phone' }] } }, { method: 'PUT' });
    expect((await run(id, true)).kind).toBe('fail');
    expect(await contactIdOf(id)).toBe(321);
  });
});

describe('failures', () => {
  it('releases a 429 for Retry-After seconds (at least 1), or 10 s without the header', async () => {
    const id = await addSubscriber();
    ac.fail('/fields', { status: 429, headers: { 'Retry-After': '7' } });
    expect(await run(id)).toEqual({ kind: 'release', seconds: 7, error: 'GET /fields?limit=100&offset=0: HTTP 429' });
    ac.fail('/fields', { status: 429, headers: { 'Retry-After': '0' } });
    expect(await run(id)).toMatchObject({ kind: 'release', seconds: 1 });
    ac.fail('/fields', { status: 429 });
    expect(await run(id)).toMatchObject({ kind: 'release', seconds: 10 });
    expect(await contactIdOf(id)).toBeNull();
  });

  it.each([401, 403, 400, 422, 404])('fails a %i without retry and reports it at error', async (status) => {
    const id = await addSubscriber();
    ac.fail('/contact/sync', { status, body: { message: 'nope' } });
    const out = await run(id);
    expect(out).toEqual({ kind: 'fail', error: `POST /contact/sync: HTTP ${status} {"message":"nope"}` });
    expect(logs.find((l) => l.msg === 'marketing sync failed')).toMatchObject({ level: 50, status, subscriberId: id });
    expect(await contactIdOf(id)).toBeNull();
  });

  it('fails a 2xx answer without a contact id', async () => {
    const id = await addSubscriber();
    ac.fail('/contact/sync', 'no-contact-id');
    expect(await run(id)).toEqual({ kind: 'fail', error: 'contact/sync answered without a contact id' });
    // recorded per subscriber, where the console's subscribers page and sync monitor show it
    expect(await syncStateOf(t.database.db, id)).toMatchObject({
      status: 'Failed',
      attempts: 1,
      lastError: 'contact/sync answered without a contact id',
    });
  });

  it('retries a 5xx; a partial failure leaves the contact id null for the backfill', async () => {
    const id = await addSubscriber();
    ac.fail('/contactLists', { status: 502 });
    expect(await run(id)).toEqual({ kind: 'retry', error: 'POST /contactLists: HTTP 502' });
    expect(await syncStateOf(t.database.db, id)).toMatchObject({
      status: 'Pending',
      lastError: 'POST /contactLists: HTTP 502',
    });
    expect(ac.contacts).toHaveLength(1);
    expect(await contactIdOf(id)).toBeNull();
  });

  it('retries a connection error and a time-out', async () => {
    const id = await addSubscriber();
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const config = { ...t.config, marketing: { ...t.config.marketing, apiUrl: `http://127.0.0.1:${port}` } };
    expect(await run(id, false, deps({ config }))).toMatchObject({
      kind: 'retry',
      error: 'GET /fields?limit=100&offset=0: ECONNREFUSED',
    });
    ac.fail('/fields', 'timeout');
    const started = Date.now();
    expect(await run(id, false, deps(), 300)).toEqual({
      kind: 'retry',
      error: 'GET /fields?limit=100&offset=0: timed out after 300 ms',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('through the queue', () => {
  let dns: FakeDns;
  let app: TestApp;
  beforeAll(async () => {
    dns = await startFakeDns({ 'viajes.test': { mx: [[10, 'mx.viajes.test']] } });
    app = await createTestApp({
      env: {
        MARKETING_API_URL: ac.url,
        MARKETING_API_TOKEN: ac.token,
        MARKETING_LIST_ID: '7',
        IN_PROCESS_WORKERS: 'true',
        DNS_SERVERS: dns.server,
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await dns.close();
  });

  it('a subscription reaches the marketing system through the worker', async () => {
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      payload: { name: 'Queue Test', email: 'queue@viajes.test', market: 'uk' },
    });
    expect(res.statusCode).toBe(201);
    const contactId = async () =>
      (await app.database.query<{ c: number | null }>('SELECT marketing_contact_id AS c FROM newsletter_subscribers'))
        .rows[0]?.c;
    await waitFor(async () => (await contactId()) != null, 10_000);
    expect(ac.contacts.find((c) => c.email === 'queue@viajes.test')?.id).toBe(await contactId());
  });
});
