// The traveler step with a flight provider that books with more than the spec's fields (Duffel:
// title and gender): required then, with their own messages; the spec's fields and rules stay.
// With the sandbox they stay optional. What is given reaches the passenger records at payment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { checkTravelers } from './rules.js';

const ES = '/api/es/es/checkout';
const traveler = (first: string, extra: Record<string, string> = {}) => ({
  ...extra,
  first_name: first,
  last_name: 'Garcia Lopez',
  nationality: 'ES',
  passport_number: 'PAA123456',
  passport_expiry: '2031-03-01',
  birth_date: '1985-02-11',
  phone: '+34 600 111 222',
  email: `${first.toLowerCase()}@example.com`,
});

async function session(t: TestApp, offerId: number): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: `${ES}/${offerId}` });
  return (res.cookies as { name: string; value: string }[]).map((c) => `${c.name}=${c.value}`).join('; ');
}

describe('traveler step with Duffel as flight provider', () => {
  let t: TestApp;
  let c: CheckoutCatalog;
  beforeAll(async () => {
    // no call reaches Duffel in this file: the URL only has to be valid
    t = await createTestApp({
      env: { FLIGHTS_PROVIDER: 'duffel', DUFFEL_API_TOKEN: 'duffel_test_x', DUFFEL_API_URL: 'http://127.0.0.1:9' },
    });
    c = await seedCheckoutCatalog(t.database);
  });
  afterAll(() => t.close());

  it('requires title and gender and checks their values, next to the spec rules', async () => {
    const cookie = await session(t, c.offers.active);
    const put = (travelers: unknown[]) =>
      t.app.inject({ method: 'PUT', url: `${ES}/travelers`, headers: { cookie }, payload: { travelers } });
    const missing = await put([traveler('Ana'), traveler('Luis', { title: 'sir', gender: 'x' })]);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({
      'travelers.0.title': ['The title field is required by the flight provider.'],
      'travelers.0.gender': ['The gender field is required by the flight provider.'],
      'travelers.1.title': ['The title field must be one of: mr, ms, mrs, miss, dr.'],
      'travelers.1.gender': ['The gender field must be one of: m, f.'],
    });
    const ok = await put([
      traveler('Ana', { title: 'Ms', gender: 'F' }),
      traveler('Luis', { title: 'mr', gender: 'm' }),
    ]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.traveler_data.map((x: { title: string; gender: string }) => [x.title, x.gender])).toEqual([
      ['ms', 'f'],
      ['mr', 'm'],
    ]);
  });

  it('stores a local number of the market in E.164 and refuses one that is no phone number, by field', async () => {
    const cookie = await session(t, c.offers.active);
    const put = (travelers: unknown[]) =>
      t.app.inject({ method: 'PUT', url: `${ES}/travelers`, headers: { cookie }, payload: { travelers } });
    const titled = (first: string, phone: string) => ({ ...traveler(first, { title: 'ms', gender: 'f' }), phone });

    const bad = await put([titled('Ana', '612 345 678'), titled('Eva', '12 34')]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, error: 'validation_failed' });
    expect(bad.json().errors).toEqual({
      'travelers.1.phone': [
        'The phone field must be a valid phone number with its country code (e.g. +34 612 345 678): the flight provider books it in international format.',
      ],
    });

    const ok = await put([titled('Ana', '612 345 678'), titled('Eva', '+44 20 7946 0958')]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.traveler_data.map((x: { phone: string }) => x.phone)).toEqual([
      '+34612345678',
      '+442079460958',
    ]);
  });
});

describe('traveler step with the sandbox', () => {
  it('keeps title and gender optional, and the spec rules as they are', () => {
    expect(checkTravelers([traveler('Ana')], 1, '2026-06-15')).toEqual([
      {
        first_name: 'Ana',
        last_name: 'Garcia Lopez',
        nationality: 'ES',
        passport_number: 'PAA123456',
        passport_expiry: '2031-03-01',
        birth_date: '1985-02-11',
        phone: '+34 600 111 222',
        email: 'ana@example.com',
      },
    ]);
    expect(checkTravelers([traveler('Ana', { gender: 'f' })], 1, '2026-06-15')[0].gender).toBe('f');
    expect(() => checkTravelers([traveler('Ana', { title: 'lord' })], 1, '2026-06-15')).toThrow(/title/);
  });
});
