// POST /api/newsletter/subscribe over HTTP (app.inject) against the real database and a fake DNS.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeDns, startFakeDns } from '../../../test/fakes/dns.js';
import { createTestApp, TEST_NOW, type TestApp } from '../../../test/support/app.js';
import { randomClientIp } from '../../../test/support/redis.js';
import { NEWSLETTER_CRM_JOB } from '../crm/jobs.js';
import { MARKETING_JOB, MARKETING_QUEUE } from '../marketing/jobs.js';

let dns: FakeDns;
let t: TestApp;

beforeAll(async () => {
  dns = await startFakeDns({
    'viajes.test': { mx: [[10, 'mx.viajes.test']] },
    'correo.test': { a: ['192.0.2.7'] },
    'nomail.test': { mx: [[0, '.']] },
    'slow.test': { silent: true },
  });
  t = await createTestApp({
    env: {
      DNS_SERVERS: dns.server,
      DNS_TIMEOUT_MS: '1000', // long enough for a loaded CI machine; only slow.test waits it out
      IN_PROCESS_WORKERS: 'false',
      PRIVACY_POLICY_VERSION: 'v2.3',
    },
  });
});
afterAll(async () => {
  await t.close();
  await dns.close();
});
beforeEach(async () => {
  await t.database.exec('DELETE FROM newsletter_subscribers; DELETE FROM pgboss.job;');
});

// each request from its own address, so the 5/min limit (tested on its own) stays out of the way
const subscribe = (body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/newsletter/subscribe',
    payload: body as object,
    headers,
    remoteAddress: headers['x-forwarded-for'] ? '127.0.0.1' : randomClientIp(),
  });

async function rows() {
  return (
    await t.database.query<Record<string, any>>(
      'SELECT id, email, name, phone, market, consent_given_at, privacy_policy_version, consent_ip FROM newsletter_subscribers ORDER BY id',
    )
  ).rows;
}

async function jobs() {
  return (
    await t.database.query<{ name: string; data: any }>(
      `SELECT name, data FROM pgboss.job WHERE name NOT LIKE '\\_\\_%' ORDER BY created_on`,
    )
  ).rows;
}

describe('first subscription', () => {
  it('stores the trimmed subscriber with the consent audit and queues the mirror jobs: 201', async () => {
    const res = await subscribe(
      {
        name: '  Ana María López ',
        email: ' Ana@Viajes.test ',
        phone: ' +34 (600) 12-34.56 ',
        market: 'es',
        consent: false,
      },
      { 'x-forwarded-for': '198.51.100.7' },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, message: '¡Gracias por suscribirte!' });
    const [row] = await rows();
    expect(row).toMatchObject({
      email: 'Ana@Viajes.test',
      name: 'Ana María López',
      phone: '+34 (600) 12-34.56',
      market: 'es',
      privacy_policy_version: 'v2.3',
      consent_ip: '198.51.100.7',
    });
    expect(new Date(row.consent_given_at).toISOString()).toBe(new Date(TEST_NOW).toISOString());
    expect(await jobs()).toEqual([
      { name: 'crm-sync', data: { job: NEWSLETTER_CRM_JOB, payload: { subscriberId: row.id, phoneOnly: false } } },
      { name: MARKETING_QUEUE, data: { job: MARKETING_JOB, payload: { subscriberId: row.id, phoneOnly: false } } },
    ]);
  });

  it('treats a blank phone and a blank market as none, and takes the caller IP when not proxied', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      payload: { name: 'Luis', email: 'luis@correo.test', phone: '   ', market: '' },
      remoteAddress: '203.0.113.9',
      headers: { 'x-forwarded-for': '198.51.100.99' },
    });
    expect(res.statusCode).toBe(201);
    expect((await rows())[0]).toMatchObject({ phone: null, market: null, consent_ip: '203.0.113.9' });
  });

  it('stores no consent IP when a trusted proxy forwards something that is no address (it was a 500)', async () => {
    const forwarded = ['not-an-ip-address-but-a-long-string-of-text-abcdefgh', 'garbage'];
    for (const [i, xff] of forwarded.entries()) {
      const res = await subscribe({ name: 'Ivo', email: `ivo${i}@viajes.test` }, { 'x-forwarded-for': xff });
      expect(res.statusCode).toBe(201);
    }
    expect((await rows()).map((r) => r.consent_ip)).toEqual([null, null]);
  });

  it('accepts a domain whose resolver does not answer in time (logged), rather than refusing signups', async () => {
    const res = await subscribe({ name: 'Eva', email: 'eva@slow.test' });
    expect(res.statusCode).toBe(201);
  });

  it('creates one row and one set of jobs for two concurrent first submits', async () => {
    const [a, b] = await Promise.all([
      subscribe({ name: 'Pablo', email: 'pablo@viajes.test', phone: '600123456' }),
      subscribe({ name: 'Pablo', email: 'PABLO@viajes.test', phone: '600123456' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(await rows()).toHaveLength(1);
    expect((await jobs()).map((j) => j.data.job)).toEqual([NEWSLETTER_CRM_JOB, MARKETING_JOB]);
  });
});

describe('repeat subscription', () => {
  beforeEach(async () => {
    await subscribe({ name: 'Marta Ruiz', email: 'marta@viajes.test', market: 'de' });
    await t.database.exec('DELETE FROM pgboss.job');
  });

  it('answers 200 and changes and queues nothing without a new phone', async () => {
    const before = await rows();
    const res = await subscribe(
      { name: 'Otra', email: ' MARTA@viajes.test', market: 'us', consent: true },
      { 'x-forwarded-for': '192.0.2.200' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Ya estás suscrito. ¡Gracias por tu interés!' });
    expect(await rows()).toEqual(before);
    expect(await jobs()).toEqual([]);
  });

  it('fills an empty phone once and queues the mirrors in phone-only mode', async () => {
    const res = await subscribe({ name: 'Marta Ruiz', email: 'marta@viajes.test', phone: '+49 170 1234567' });
    expect(res.statusCode).toBe(200);
    const [row] = await rows();
    expect(row).toMatchObject({ phone: '+49 170 1234567', name: 'Marta Ruiz', market: 'de' });
    expect(await jobs()).toEqual([
      { name: 'crm-sync', data: { job: NEWSLETTER_CRM_JOB, payload: { subscriberId: row.id, phoneOnly: true } } },
      { name: MARKETING_QUEUE, data: { job: MARKETING_JOB, payload: { subscriberId: row.id, phoneOnly: true } } },
    ]);

    // a stored phone is never replaced
    await t.database.exec('DELETE FROM pgboss.job');
    const again = await subscribe({ name: 'Marta', email: 'marta@viajes.test', phone: '+49 170 7654321' });
    expect(again.statusCode).toBe(200);
    expect((await rows())[0].phone).toBe('+49 170 1234567');
    expect(await jobs()).toEqual([]);
  });
});

describe('validation (422, Spanish messages, the first one as message)', () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['missing name', { email: 'a@viajes.test' }, 'name', 'El nombre es obligatorio.'],
    ['blank name', { name: '   ', email: 'a@viajes.test' }, 'name', 'El nombre es obligatorio.'],
    [
      'long name',
      { name: 'x'.repeat(256), email: 'a@viajes.test' },
      'name',
      'El nombre no puede tener más de 255 caracteres.',
    ],
    ['missing email', { name: 'Ana' }, 'email', 'El correo electrónico es obligatorio.'],
    ['malformed email', { name: 'Ana', email: 'ana@@viajes' }, 'email', 'El correo electrónico no es válido.'],
    // RFC 5322: the domain is a dot-atom, which cannot end with a dot (it made a second row for one mailbox)
    ['trailing dot', { name: 'Ana', email: 'ana@viajes.test.' }, 'email', 'El correo electrónico no es válido.'],
    // PostgreSQL cannot store U+0000 (it was a 500): the JSON parser refuses it for every route
    [
      'NUL in name',
      { name: 'Ana\u0000', email: 'a@viajes.test' },
      'name',
      'The name field is invalid: it contains a NUL character.',
    ],
    [
      'email without a dot domain',
      { name: 'Ana', email: 'ana@localhost' },
      'email',
      'El correo electrónico no es válido.',
    ],
    [
      'long email',
      { name: 'Ana', email: `${'a'.repeat(250)}@viajes.test` },
      'email',
      'El correo electrónico no puede tener más de 255 caracteres.',
    ],
    [
      'NXDOMAIN',
      { name: 'Ana', email: 'ana@no-such-domain.test' },
      'email',
      'El dominio del correo electrónico no puede recibir correo.',
    ],
    [
      'null MX',
      { name: 'Ana', email: 'ana@nomail.test' },
      'email',
      'El dominio del correo electrónico no puede recibir correo.',
    ],
    [
      'short phone',
      { name: 'Ana', email: 'a@viajes.test', phone: '12345' },
      'phone',
      'El teléfono no es válido: usa de 7 a 15 dígitos, con + inicial opcional.',
    ],
    [
      'long digits',
      { name: 'Ana', email: 'a@viajes.test', phone: '1234567890123456' },
      'phone',
      'El teléfono no es válido: usa de 7 a 15 dígitos, con + inicial opcional.',
    ],
    [
      'letters in phone',
      { name: 'Ana', email: 'a@viajes.test', phone: '600 12 AB 34' },
      'phone',
      'El teléfono no es válido: usa de 7 a 15 dígitos, con + inicial opcional.',
    ],
    [
      'plus inside phone',
      { name: 'Ana', email: 'a@viajes.test', phone: '600+123456' },
      'phone',
      'El teléfono no es válido: usa de 7 a 15 dígitos, con + inicial opcional.',
    ],
    [
      'phone over 50',
      { name: 'Ana', email: 'a@viajes.test', phone: `600123456${' '.repeat(45)}7` },
      'phone',
      'El teléfono no puede tener más de 50 caracteres.',
    ],
    [
      'unknown market',
      { name: 'Ana', email: 'a@viajes.test', market: 'fr' },
      'market',
      'El mercado seleccionado no es válido.',
    ],
    [
      'upper-case market',
      { name: 'Ana', email: 'a@viajes.test', market: 'ES' },
      'market',
      'El mercado seleccionado no es válido.',
    ],
    [
      'non-boolean consent',
      { name: 'Ana', email: 'a@viajes.test', consent: 'maybe' },
      'consent',
      'El consentimiento debe ser verdadero o falso.',
    ],
    // JSON types are taken as sent, not coerced: a number is not a name or a phone
    ['numeric name', { name: 123, email: 'a@viajes.test' }, 'name', 'El nombre debe ser un texto.'],
    ['boolean name', { name: true, email: 'a@viajes.test' }, 'name', 'El nombre debe ser un texto.'],
    [
      'numeric phone',
      { name: 'Ana', email: 'a@viajes.test', phone: 600123456 },
      'phone',
      'El teléfono debe ser un texto.',
    ],
    [
      'numeric market',
      { name: 'Ana', email: 'a@viajes.test', market: 1 },
      'market',
      'El mercado seleccionado no es válido.',
    ],
  ];

  it.each(cases)('%s', async (_label, body, field, message) => {
    const res = await subscribe(body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ success: false, error: 'validation_failed', message, errors: { [field]: [message] } });
    expect(await rows()).toEqual([]);
    expect(await jobs()).toEqual([]);
  });

  it('lists every problem and reports the first field of the form as the message', async () => {
    const res = await subscribe({ email: 'bad', phone: '12', market: 'xx' });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toBe('El nombre es obligatorio.');
    expect(Object.keys(body.errors)).toEqual(['name', 'email', 'phone', 'market']);
  });

  it('accepts every market of the list and a null market', async () => {
    for (const [i, market] of ['es', 'de', 'us', 'uk', 'ca', null].entries()) {
      const res = await subscribe({ name: 'Ana', email: `ana${i}@viajes.test`, market });
      expect(res.statusCode).toBe(201);
    }
    expect((await rows()).map((r) => r.market)).toEqual(['es', 'de', 'us', 'uk', 'ca', null]);
  });
});

describe('dispatch failure', () => {
  it('keeps the subscriber, answers 201 and logs the subscriber id and job class', async () => {
    const lines: any[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(JSON.parse(String(chunk)));
        cb();
      },
    });
    const original = t.app.ctx.log;
    t.app.ctx.log = pino({ level: 'info' }, sink) as never;
    // the queue's table refuses the insert: a real send failure
    await t.database.exec(`
      CREATE FUNCTION refuse_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'queue unavailable'; END $$;
      CREATE TRIGGER refuse_jobs BEFORE INSERT ON pgboss.job FOR EACH ROW EXECUTE FUNCTION refuse_jobs();`);
    try {
      const res = await subscribe({ name: 'Sara', email: 'sara@viajes.test' });
      expect(res.statusCode).toBe(201);
      const [row] = await rows();
      expect(row.email).toBe('sara@viajes.test');
      // each mirror is dispatched on its own: both failures are logged, neither loses the row
      const logged = lines.filter((l) => l.msg === 'newsletter: could not queue mirror job');
      expect(logged).toEqual([
        expect.objectContaining({ level: 50, subscriberId: row.id, jobClass: NEWSLETTER_CRM_JOB, phoneOnly: false }),
        expect.objectContaining({ level: 50, subscriberId: row.id, jobClass: MARKETING_JOB, phoneOnly: false }),
      ]);
    } finally {
      t.app.ctx.log = original;
      await t.database.exec('DROP TRIGGER refuse_jobs ON pgboss.job; DROP FUNCTION refuse_jobs();');
    }
  });
});

describe('rate limit', () => {
  it('allows 5 requests a minute per IP and answers the 6th with 429 and Retry-After', async () => {
    const ip = randomClientIp();
    const send = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/newsletter/subscribe',
        payload: { name: 'Rita', email: `rita${i}@correo.test` },
        remoteAddress: ip,
      });
    for (let i = 0; i < 5; i++) expect((await send(i)).statusCode).toBe(201);
    const res = await send(5);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toMatchObject({ success: false, error: 'too_many_requests' });
  });
});
