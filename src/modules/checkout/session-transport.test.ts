// A storefront on another site keeps its checkout without cookies: the start answers the
// session_token, and every checkout call (options, selections, flights, contact, travelers,
// payment) takes it in the X-Checkout-Session header. The cookies stay for same-site storefronts:
// SameSite=Lax there, SameSite=None; Secure; Partitioned once CORS_ORIGINS lists another site.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, cacheFlightsOf, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { clientInput, travelerInput } from '../../../test/support/checkout-jar.js';

const ES = '/api/es/es/checkout';
const SHOP = 'https://shop.example.com';

describe('the X-Checkout-Session header', () => {
  let t: TestApp;
  let c: CheckoutCatalog;
  beforeAll(async () => {
    t = await createTestApp({ env: { APP_URL: 'https://api.example.net', CORS_ORIGINS: SHOP } });
    c = await seedCheckoutCatalog(t.database);
    await cacheFlightsOf(t.database, c.offers.active);
  });
  afterAll(() => t.close());

  /** a call as a cross-site storefront makes it: no cookie, the token in the header */
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string | null, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { origin: SHOP, ...(token === null ? {} : { 'x-checkout-session': token }) },
      ...(payload ? { payload } : {}),
    });

  async function start() {
    const res = await call('POST', `${ES}/${c.offers.active}`, null, {});
    expect(res.statusCode).toBe(201);
    return res;
  }

  it('answers session_token on start (body and exposed header) with cross-site cookies', async () => {
    const res = await start();
    const token = res.json().data.session_token;
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(res.headers['x-checkout-session']).toBe(token);
    expect(res.headers['access-control-expose-headers']).toContain('x-checkout-session');
    const cookies = res.headers['set-cookie'] as string[];
    expect(cookies.map((ck) => ck.split('=')[0])).toEqual(['itinera_checkout', 'itinera_visitor']);
    for (const ck of cookies) {
      expect(ck).toMatch(/; Max-Age=7200; Path=\/; HttpOnly; Secure; Partitioned; SameSite=None$/);
    }
  });

  it('carries the whole funnel with the header alone: options, selections, flights, contact, travelers, payment', async () => {
    const started = (await start()).json().data;
    const token: string = started.session_token;
    const offer = c.offers.active;

    const read = await call('GET', ES, token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.booking_reference).toBe(started.booking_reference);

    expect((await call('GET', `${ES}/${offer}/hotels`, token)).statusCode).toBe(200);
    expect((await call('PUT', `${ES}/hotels`, token, { hotel_selections: [] })).statusCode).toBe(200);
    expect((await call('PUT', `${ES}/activities`, token, { activity_selections: [] })).statusCode).toBe(200);
    expect((await call('PUT', `${ES}/transfers`, token, { transfer_selections: [] })).statusCode).toBe(200);

    const search = await call('POST', `${ES}/${offer}/search-economy-flights`, token);
    expect(search.statusCode).toBe(200);
    const flights = await call('PUT', `${ES}/flights`, token, { cabin_class: 'ECONOMY' });
    expect(flights.statusCode).toBe(200);
    expect(flights.json().data.flight_selection).toMatchObject({ cabin_class: 'ECONOMY' });

    const contact = await call('PUT', `${ES}/contact`, token, { client: clientInput });
    expect(contact.statusCode).toBe(200);
    expect(contact.json().data.client_data).toEqual(clientInput);
    const travelers = await call('PUT', `${ES}/travelers`, token, {
      travelers: [travelerInput('Ana', 'X1234567'), travelerInput('Luis', 'X7654321')],
    });
    expect(travelers.statusCode).toBe(200);

    const intent = await call('POST', `${ES}/payment/intent`, token);
    expect(intent.statusCode).toBe(200);
    expect(intent.json().data).toMatchObject({ booking_reference: started.booking_reference, deposit_percent: 30 });
    const paid = await call('POST', `${ES}/payment/confirm`, token, {
      payment_intent_id: intent.json().data.payment_intent_id,
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().data).toMatchObject({
      booking_reference: started.booking_reference,
      payment_status: 'Succeeded',
    });
  });

  it('prefers the header over a cookie of another session, and refuses a token it never issued', async () => {
    const first = await start();
    const second = (await start()).json().data;
    const cookie = (first.headers['set-cookie'] as string[]).map((ck) => ck.split(';')[0]).join('; ');
    const read = await t.app.inject({
      method: 'GET',
      url: ES,
      headers: { cookie, 'x-checkout-session': second.session_token },
    });
    expect(read.json().data.booking_reference).toBe(second.booking_reference);

    const forged = await call('PUT', `${ES}/contact`, 'A'.repeat(43), { client: clientInput });
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ success: false, error: 'no_checkout_session' });
    const malformed = await call('GET', ES, 'not a token');
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json()).toMatchObject({ success: false });
  });
});

describe('the session cookies of a same-site storefront', () => {
  it('stay SameSite=Lax, not partitioned, when every allowed origin is on the API site', async () => {
    const t = await createTestApp({
      env: { APP_URL: 'https://api.example.com', CORS_ORIGINS: 'https://www.example.com,https://shop.example.com' },
    });
    try {
      const c = await seedCheckoutCatalog(t.database);
      const res = await t.app.inject({ method: 'POST', url: `${ES}/${c.offers.active}`, payload: {} });
      const cookies = res.headers['set-cookie'] as string[];
      expect(cookies).toHaveLength(2);
      for (const ck of cookies) {
        expect(ck).toMatch(/; Max-Age=7200; Path=\/; HttpOnly; SameSite=Lax$/);
        expect(ck).not.toContain('Partitioned');
        expect(ck).not.toContain('Secure'); // APP_ENV test: Secure only in production and staging
      }
    } finally {
      await t.close();
    }
  });
});
