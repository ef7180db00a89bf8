// Hostile input from outside (issue 20, item 4): invalid Unicode, NUL in paths, prototype keys,
// deep bodies and the envelope of every refusal, from any layer.
import { type AddressInfo, connect, type Socket } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createTestApp, type TestApp, testConfig } from '../support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../support/checkout-fixture.js';
import { createTestDatabase } from '../support/db.js';

let t: TestApp;
let c: CheckoutCatalog;

beforeAll(async () => {
  t = await createTestApp();
  c = await seedCheckoutCatalog(t.database);
});
afterAll(() => t.close());

const ES = '/api/es/es/checkout';

function cookiesOf(res: LightMyRequestResponse): string {
  return (res.cookies as { name: string; value: string }[]).map((k) => `${k.name}=${k.value}`).join('; ');
}

async function started(): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `${ES}/${c.offers.active}` });
  expect(res.statusCode).toBe(201);
  return cookiesOf(res);
}

function expectEnvelope(res: LightMyRequestResponse, status: number, error: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ success: false, error });
  expect(typeof body.message).toBe('string');
}

const contact = {
  first_name: 'Ana',
  last_name: 'Garcia',
  email: 'ana@example.com',
  phone: '+34 600 111 222',
};

describe('invalid Unicode', () => {
  it('refuses a lone surrogate in a contact field with a 400 naming the field', async () => {
    const cookie = await started();
    // JSON text with an escaped lone surrogate: valid JSON, not valid Unicode
    const payload = `{"client":{"first_name":"\\ud800","last_name":"Garcia","email":"ana@example.com","phone":"+34 600 111 222"}}`;
    const res = await t.app.inject({
      method: 'PUT',
      url: `${ES}/contact`,
      headers: { cookie, 'content-type': 'application/json' },
      payload,
    });
    expectEnvelope(res, 400, 'validation_failed');
    expect(Object.keys(res.json().errors)).toEqual(['client.first_name']);
    // nothing was stored: the session still has no contact
    const session = await t.app.inject({ method: 'GET', url: ES, headers: { cookie } });
    expect(session.statusCode).toBe(200);
    expect(JSON.stringify(session.json())).not.toContain('\\ud800');
  });

  it('refuses a lone low surrogate in a traveler field', async () => {
    const cookie = await started();
    const payload = `{"travelers":[{"first_name":"Ana","last_name":"x\\udc00y"}]}`;
    const res = await t.app.inject({
      method: 'PUT',
      url: `${ES}/travelers`,
      headers: { cookie, 'content-type': 'application/json' },
      payload,
    });
    expectEnvelope(res, 400, 'validation_failed');
    expect(Object.keys(res.json().errors)).toEqual(['travelers.0.last_name']);
  });

  it('refuses invalid UTF-8 bytes instead of storing U+FFFD', async () => {
    const cookie = await started();
    const body = Buffer.concat([
      Buffer.from('{"client":{"first_name":"Ana","last_name":"Garcia","email":"'),
      Buffer.from([0xff]),
      Buffer.from('lone@example.com","phone":"+34 600 111 222"}}'),
    ]);
    const res = await t.app.inject({
      method: 'PUT',
      url: `${ES}/contact`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: body,
    });
    expectEnvelope(res, 400, 'validation_failed');
    expect(res.json().errors).toEqual({ 'client.email': ['The email field is invalid: it is not valid UTF-8 text.'] });
    // bad bytes outside any string: the body as a whole
    const broken = await t.app.inject({
      method: 'PUT',
      url: `${ES}/contact`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: Buffer.concat([Buffer.from('{"client":'), Buffer.from([0xc3]), Buffer.from('}')]),
    });
    expectEnvelope(broken, 400, 'invalid_utf8');
  });

  it('refuses a lone surrogate in a lead', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { 'content-type': 'application/json' },
      remoteAddress: '198.51.100.7',
      payload: `{"name":"Ana \\ud83d","email":"ana@example.com","consent":true}`,
    });
    // the leads route answers validation failures with 422 (spec 3)
    expectEnvelope(res, 422, 'validation_failed');
    expect(Object.keys(res.json().errors)).toEqual(['name']);
    const { rows } = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM leads');
    expect(rows[0]!.n).toBe(0);
  });

  it('accepts a well-formed surrogate pair (an emoji)', async () => {
    const cookie = await started();
    const res = await t.app.inject({
      method: 'PUT',
      url: `${ES}/contact`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ client: { ...contact, first_name: 'Ana 😀' } }),
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('NUL in a path', () => {
  for (const url of [
    '/api/es/es/cms/regions/a%00b',
    '/api/es/es/cms/countries/a%00b',
    '/telescope/requests/a%00b',
    '/api/es/es/products/slug/a%00b',
    '/api/es%00/es/products',
  ]) {
    it(`answers ${url} with a 4xx envelope`, async () => {
      const res = await t.app.inject({ method: 'GET', url });
      expect([400, 404]).toContain(res.statusCode);
      expect(res.json()).toMatchObject({ success: false });
    });
  }
});

describe('body shape', () => {
  it('names a __proto__ key precisely', async () => {
    const cookie = await started();
    const res = await t.app.inject({
      method: 'PUT',
      url: `${ES}/contact`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{"client":{"__proto__":{"x":1}}}',
    });
    expectEnvelope(res, 400, 'forbidden_key');
    expect(res.json().message).toContain('__proto__');
  });

  it('names a constructor.prototype key precisely', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      headers: { 'content-type': 'application/json' },
      payload: '{"constructor":{"prototype":{"x":1}}}',
    });
    expectEnvelope(res, 400, 'forbidden_key');
  });

  it('refuses an over-deep body with body_too_deep', async () => {
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":${deep}}`,
    });
    expectEnvelope(res, 400, 'body_too_deep');
  });

  it('keeps "invalid_json" for text that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expectEnvelope(res, 400, 'invalid_json');
  });
});

describe('refusals from the framework use the envelope with a specific code', () => {
  it('413 payload_too_large', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"${'a'.repeat(1024 * 1024 + 10)}"}`,
    });
    expectEnvelope(res, 413, 'payload_too_large');
  });

  it('415 unsupported_media_type', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      headers: { 'content-type': 'application/xml' },
      payload: '<email/>',
    });
    expectEnvelope(res, 415, 'unsupported_media_type');
  });
});

/** sends raw bytes to a listening server and collects everything it answers until it closes */
function rawExchange(port: number, send: (socket: Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
    socket.on('connect', () => send(socket));
  });
}

function envelopeOf(raw: string): { status: number; body: Record<string, unknown> } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return { status, body: JSON.parse(body) };
}

describe('refusals of the HTTP layer, on a listening server', () => {
  it('431 header_fields_too_large for headers over Node limit', async () => {
    const s = await createTestApp();
    try {
      await s.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (s.app.server.address() as AddressInfo).port;
      const raw = await rawExchange(port, (socket) =>
        socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      );
      const { status, body } = envelopeOf(raw);
      expect(status).toBe(431);
      expect(body).toMatchObject({ success: false, error: 'header_fields_too_large' });
    } finally {
      await s.close();
    }
  });

  it('503 shutting_down with Retry-After for a request arriving while the server drains', async () => {
    const database = await createTestDatabase();
    const config = testConfig();
    const app = await buildApp({ config, database });
    // a route that holds its answer until the test releases it: the in-flight request of the drain
    let release!: () => void;
    let reached!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const inFlight = new Promise<void>((r) => {
      reached = r;
    });
    app.get('/test/slow', async () => {
      reached();
      await gate;
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as AddressInfo).port;
    let closed: Promise<void> | undefined;
    const raw = await rawExchange(port, (socket) => {
      socket.write('GET /test/slow HTTP/1.1\r\nHost: x\r\n\r\n');
      void inFlight.then(async () => {
        closed = app.close();
        await new Promise((r) => setTimeout(r, 50));
        // pipelined on the same open connection, after close() began
        socket.write('GET /api/markets HTTP/1.1\r\nHost: x\r\n\r\n');
        await new Promise((r) => setTimeout(r, 50));
        release();
      });
    });
    await closed;
    await database.close();
    const second = raw.slice(raw.indexOf('HTTP/1.1', 10));
    expect(raw.startsWith('HTTP/1.1 200')).toBe(true);
    const { status, body } = envelopeOf(second);
    expect(status).toBe(503);
    expect(second.toLowerCase()).toContain('retry-after: 5');
    expect(body).toMatchObject({ success: false, error: 'shutting_down' });
  });
});
