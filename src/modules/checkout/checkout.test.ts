import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { bookingStepVisits, bookings, checkoutSessions, offers } from '../../db/schema/index.js';

let t: TestApp;
let c: CheckoutCatalog;

beforeAll(async () => {
  t = await createTestApp();
  c = await seedCheckoutCatalog(t.database);
});
afterAll(() => t.close());

/** A browser's cookie jar: keeps what Set-Cookie gives, sends it back. */
class Jar {
  readonly cookies = new Map<string, string>();
  keep(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const ck of res.cookies as { name: string; value: string }[]) this.cookies.set(ck.name, ck.value);
    return res;
  }
  get header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
async function call(jar: Jar | null, method: Method, url: string, payload?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: jar?.header ? { cookie: jar.header } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return jar ? jar.keep(res) : res;
}

const ES = '/api/es/es/checkout';

const traveler = (first: string) => ({
  first_name: first,
  last_name: 'Garcia Lopez',
  nationality: 'ES',
  passport_number: 'PAA123456',
  passport_expiry: '2031-03-01',
  birth_date: '1985-02-11',
  phone: '+34 600 111 222',
  email: `${first.toLowerCase()}@example.com`,
});

async function booking(id: number) {
  const [row] = await t.database.db.select().from(bookings).where(eq(bookings.id, id));
  return row;
}

describe('the whole checkout with a cookie jar', () => {
  it('starts, selects upgrades, activities and transfers, and takes contact and traveler data', async () => {
    const jar = new Jar();
    const start = await call(jar, 'POST', `${ES}/${c.offers.active}`);
    expect(start.statusCode).toBe(201);
    const { session_token, ...session } = start.json().data;
    expect(session_token).toMatch(/^[\w-]{43}$/);
    expect(session).toMatchObject({
      offer_id: c.offers.active,
      booking_reference: expect.stringMatching(/^IT-[0-9A-HJKMNP-TV-Z]{10}$/),
      started_at: '2026-06-15T10:00:00.000Z',
      flight_selection: null,
      hotel_selections: [],
      base_price: 3910,
      extras_price: 0,
      total_price: 3910,
      currency: { code: 'EUR', symbol: '€' },
      pax_count: 2,
      actual_pax_count: 2,
      actual_room_type: '2A',
      is_non_standard_pax: false,
    });
    const cookies = start.headers['set-cookie'] as string[];
    expect(cookies).toHaveLength(2);
    for (const ck of cookies) {
      expect(ck).toMatch(/HttpOnly/);
      expect(ck).toMatch(/SameSite=Lax/);
      expect(ck).toMatch(/Max-Age=7200/);
      expect(ck).not.toMatch(/Secure/);
    }
    const b = await booking(session.booking_id);
    expect(b).toMatchObject({ status: 'checkout', reference: session.booking_reference, checkoutStep: null });

    const got = await call(jar, 'GET', ES);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ success: true, data: session });

    // hotels: upgrade Tokyo to luxury (450) and Kyoto to luxury (100); a client price is ignored
    const hotels = (await call(jar, 'GET', `${ES}/${c.offers.active}/hotels`)).json().data.hotels;
    expect(hotels.map((h: { id: string }) => h.id)).toEqual([
      `${c.hotels.tokyo}-selection-1-3`,
      `${c.hotels.tokyoLuxury}-luxury-1-3`,
      `${c.hotels.tokyoGrand}-grand_luxury-1-3`,
      `${c.hotels.kyoto}-selection-4-4`,
      `${c.hotels.kyotoLuxury}-luxury-4-4`,
    ]);
    const putHotels = await call(jar, 'PUT', `${ES}/hotels`, {
      hotel_selections: [
        { upgrade_hotel_id: c.hotels.tokyoLuxury, nights_start: 1, nights_end: 3, price_difference: 1 },
        { upgrade_hotel_id: c.hotels.kyotoLuxury, nights_start: 4, nights_end: 4 },
      ],
    });
    expect(putHotels.statusCode).toBe(200);
    expect(putHotels.json().data).toMatchObject({
      hotel_selections: [
        {
          upsell_hotel_id: c.hotels.tokyoLuxury,
          nights_start: 1,
          nights_end: 3,
          price_difference: 450,
          hotel_name: 'Park Hyatt Tokyo',
          location: 'Tokyo, Japan',
        },
        { upsell_hotel_id: c.hotels.kyotoLuxury, price_difference: 100, hotel_name: 'Ritz-Carlton Kyoto' },
      ],
      extras_price: 550,
      total_price: 4460,
    });
    expect((await booking(session.booking_id)).checkoutStep).toBe('activities');

    // activities: sushi 40 pp and sake 55 USD = 50 EUR pp, x 2 travelers
    const putActivities = await call(jar, 'PUT', `${ES}/activities`, {
      activity_selections: [
        { activity_id: c.activities.sushi, day_number: 2, price: 0 },
        { activity_id: c.activities.sake, day_number: 3 },
      ],
    });
    expect(putActivities.statusCode).toBe(200);
    expect(putActivities.json().data).toMatchObject({
      activity_selections: [
        { activity_id: c.activities.sushi, day_number: 2, price: 40, activity_name: 'Sushi class' },
        { activity_id: c.activities.sake, day_number: 3, price: 50, activity_name: 'Sake tasting', location: 'Tokyo' },
      ],
      extras_price: 550 + 180,
    });

    // transfers: private arrival 80 flat + bullet train 110 USD = 100 EUR flat
    const putTransfers = await call(jar, 'PUT', `${ES}/transfers`, {
      transfer_selections: [
        { transfer_id: c.transfers.privateArrival, day_number: 1 },
        { transfer_id: c.transfers.bulletTrain, day_number: 4 },
      ],
    });
    expect(putTransfers.statusCode).toBe(200);
    expect(putTransfers.json().data).toMatchObject({
      transfer_selections: [
        {
          transfer_id: c.transfers.privateArrival,
          day_number: 1,
          price: 80,
          transfer_name: 'Private arrival transfer',
        },
        { transfer_id: c.transfers.bulletTrain, day_number: 4, price: 100 },
      ],
      base_price: 3910,
      extras_price: 910,
      total_price: 4820,
    });

    const summary = await call(jar, 'GET', `${ES}/${c.offers.active}/contact`);
    expect(summary.json()).toEqual({
      success: true,
      data: {
        offer_id: c.offers.active,
        offer_sku: 'japan-essentials-es-es',
        tour_name: 'Japón esencial',
        product_url: '/es/es/viajes/japon-esencial',
        final_price: 3910,
        price_per_person: 1955,
        departure_date: '2026-08-14',
        return_date: '2026-08-18',
        pax_count: 2,
        currency: { code: 'EUR', symbol: '€' },
      },
    });
    const client = { first_name: 'Zoë', last_name: 'Ñúñez', email: 'zoe@example.com', phone: '+34 600 000 000' };
    const putContact = await call(jar, 'PUT', `${ES}/contact`, { client });
    expect(putContact.statusCode).toBe(200);
    expect(putContact.json().data.client_data).toEqual(client);

    expect((await call(jar, 'GET', `${ES}/${c.offers.active}/travelers`)).json()).toEqual(summary.json());
    const putTravelers = await call(jar, 'PUT', `${ES}/travelers`, { travelers: [traveler('Ana'), traveler('Luis')] });
    expect(putTravelers.statusCode).toBe(200);
    const final = putTravelers.json().data;
    expect(final.traveler_data).toHaveLength(2);
    expect(final.total_price).toBe(4820);
    expect((await call(jar, 'GET', ES)).json().data).toEqual(final);

    const done = await booking(session.booking_id);
    expect(done).toMatchObject({ checkoutStep: 'summary', currentStep: 'summary' });
    const visits = await t.database.db
      .select()
      .from(bookingStepVisits)
      .where(eq(bookingStepVisits.bookingId, session.booking_id));
    expect(visits.map((v) => v.step).sort()).toEqual(
      ['activities', 'main_contact', 'summary', 'transfers', 'travelers'].sort(),
    );
  });
});

describe('start', () => {
  it('answers 404 offer_not_found for missing, foreign, inactive, past and draft-product offers', async () => {
    for (const id of [999999, c.offers.otherMarket, c.offers.inactive, c.offers.draftProduct]) {
      const res = await call(null, 'POST', `${ES}/${id}`);
      expect(res.statusCode, `offer ${id}`).toBe(404);
      expect(res.json()).toMatchObject({ success: false, error: 'offer_not_found' });
    }
    // a malformed id names itself in the message (not a placeholder id)
    expect((await call(null, 'POST', `${ES}/abc`)).json()).toMatchObject({
      error: 'offer_not_found',
      message: 'Offer abc not found.',
    });
    expect((await call(null, 'GET', `${ES}/0/flights`)).json().message).toBe('Offer 0 not found.');
    // the same offer through another market
    expect((await call(null, 'POST', `/api/de/de/checkout/${c.offers.active}`)).statusCode).toBe(404);
  });

  it('answers 410 offer_expired for an Active offer inside the lead time (or already departed)', async () => {
    for (const id of [c.offers.soon, c.offers.past]) {
      const res = await call(null, 'POST', `${ES}/${id}`);
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({ success: false, error: 'offer_expired' });
    }
    // the other readers do not expose it
    expect((await call(null, 'GET', `${ES}/${c.offers.soon}/contact`)).statusCode).toBe(404);
  });

  it('answers market errors before anything else', async () => {
    expect((await call(null, 'POST', `/api/fr/fr/checkout/${c.offers.active}`)).statusCode).toBe(403);
    expect((await call(null, 'POST', `/api/es/de/checkout/${c.offers.active}`)).statusCode).toBe(400);
  });

  it('validates actual_pax_count 1..4', async () => {
    for (const n of [0, 5, 2.5, 'two']) {
      const res = await call(null, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: n });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', errors: { actual_pax_count: expect.any(Array) } });
      // only the field at fault: not the other branch of the optional (object or null) body
      expect(Object.keys(res.json().errors)).toEqual(['actual_pax_count']);
    }
    const list = await call(null, 'POST', `${ES}/${c.offers.active}`, [1]);
    expect(list.statusCode).toBe(400);
    expect(list.json().errors).toEqual({ body: ['The body field must be of type object or null.'] });
  });

  it('takes body values as sent: no coercion of strings, booleans, lists or null into numbers', async () => {
    // Fastify's Ajv would have read each of these as a party of 3 (or 1, or 0): bodies are strict
    for (const sent of ['3', true, ['3'], null]) {
      const res = await call(null, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: sent });
      expect(res.statusCode, JSON.stringify(sent)).toBe(400);
      expect(res.json().errors, JSON.stringify(sent)).toEqual({
        actual_pax_count: ['The actual_pax_count field must be of type integer.'],
      });
    }
    const room = await call(null, 'POST', `${ES}/${c.offers.active}`, { actual_room_type: 5 });
    expect(room.json().errors).toEqual({ actual_room_type: ['The actual_room_type field must be of type string.'] });
    const jar = new Jar();
    expect((await call(jar, 'POST', `${ES}/${c.offers.active}`)).statusCode).toBe(201);
    const travelers = await call(jar, 'PUT', `${ES}/travelers`, { advance: 'false', travelers: [] });
    expect(travelers.statusCode).toBe(400);
    expect(travelers.json().errors).toEqual({ advance: ['The advance field must be of type boolean.'] });
  });

  it('answers 422 room_type_not_available for unknown room types, rooms that do not fit, and missing rates', async () => {
    for (const body of [
      { actual_room_type: 'XL' },
      { actual_room_type: '3A' },
      { actual_pax_count: 4, actual_room_type: '2A+2CH' },
    ]) {
      const res = await call(null, 'POST', `${ES}/${c.offers.active}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toMatchObject({ success: false, error: 'room_type_not_available' });
    }
    // legacy package tours have no base-hotel room types beyond the party's own
    const legacy = await call(null, 'POST', `${ES}/${c.offers.legacy}`, {
      actual_pax_count: 3,
      actual_room_type: '2A+1CH',
    });
    expect(legacy.statusCode).toBe(422);
  });

  it('prices a non-standard party from the recalculated land price, flights per person and rounding', async () => {
    const three = await call(null, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: 3 });
    expect(three.statusCode).toBe(201);
    // land (2000 - 600 hotels 2A) / 2 x 3 + 800 hotels 3A = 2900; flights 3 x 700; x 1.15 = 5750 -> 1919.99 pp
    expect(three.json().data).toMatchObject({
      base_price: 5759.97,
      total_price: 5759.97,
      actual_pax_count: 3,
      actual_room_type: '3A',
      is_non_standard_pax: true,
      pax_count: 2,
    });
    const one = await call(null, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: 1 });
    expect(one.json().data).toMatchObject({ base_price: 2069.99, actual_room_type: '1A', is_non_standard_pax: true });
    // 2A+1CH: (700 x 3) + 3 x 180 + 28000 JPY (175) = 2815; + 2100 flights = 4915 x 1.15 = 5652.25 -> 1884.08 -> 1884.99 pp
    const child = await call(null, 'POST', `${ES}/${c.offers.active}`, {
      actual_pax_count: 3,
      actual_room_type: '2A+1CH',
    });
    expect(child.json().data).toMatchObject({ base_price: 5654.97, actual_room_type: '2A+1CH' });
    // legacy tour: land scales per person; (1500 / 2 x 3 + 3 x 600) x 1.10 = 4455 -> 1485 -> 1484.99 pp
    const legacy = await call(null, 'POST', `${ES}/${c.offers.legacy}`, { actual_pax_count: 3 });
    expect(legacy.json().data).toMatchObject({ base_price: 4454.97, is_non_standard_pax: true });
  });

  it('stores a booking with a unique human-friendly reference for every start', async () => {
    const refs = new Set<string>();
    for (let i = 0; i < 5; i++) {
      refs.add((await call(null, 'POST', `${ES}/${c.offers.active}`)).json().data.booking_reference);
    }
    expect(refs.size).toBe(5);
  });

  it('always gives a fresh session: the previous one of the visitor is discarded', async () => {
    const jar = new Jar();
    await call(jar, 'POST', `${ES}/${c.offers.active}`);
    const old = new Jar();
    for (const [k, v] of jar.cookies) old.cookies.set(k, v);
    await call(jar, 'PUT', `${ES}/contact`, {
      client: { first_name: 'A', last_name: 'Bc', email: 'a@b.co', phone: '1' },
    });
    const again = await call(jar, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: 3 });
    expect(again.json().data.client_data).toBeNull();
    expect((await call(old, 'GET', ES)).statusCode).toBe(404);
    expect((await call(jar, 'GET', ES)).json().data.actual_pax_count).toBe(3);
  });

  it('leaves exactly one live session when one visitor starts twice in parallel', async () => {
    const jar = new Jar();
    const first = await call(jar, 'POST', `${ES}/${c.offers.active}`);
    // the database store's rows (with REDIS_URL the sessions live in Redis; the cookies below tell)
    const [{ visitorId } = { visitorId: '' }] = await t.database.db
      .select({ visitorId: checkoutSessions.visitorId })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.bookingId, first.json().data.booking_id));
    const [a, b] = await Promise.all([
      t.app.inject({ method: 'POST', url: `${ES}/${c.offers.active}`, headers: { cookie: jar.header } }),
      t.app.inject({
        method: 'POST',
        url: `${ES}/${c.offers.active}`,
        headers: { cookie: jar.header },
        payload: { actual_pax_count: 3 },
      }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    const rows = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.visitorId, visitorId));
    expect(rows[0].n).toBe(t.config.redisUrl ? 0 : 1);
    // exactly one of the two cookies still opens a session
    const statuses = await Promise.all(
      [a, b].map((res) => {
        const session = (res.cookies as { name: string; value: string }[]).find((x) => x.name === 'itinera_checkout')!;
        return t.app.inject({ method: 'GET', url: ES, headers: { cookie: `itinera_checkout=${session.value}` } });
      }),
    );
    expect(statuses.map((s) => s.statusCode).sort()).toEqual([200, 404]);
  });
});

describe('session', () => {
  it('answers 404 no_checkout_session without, with a forged or an expired cookie, or in another market', async () => {
    const none = await call(null, 'GET', ES);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ success: false, error: 'no_checkout_session', message: expect.any(String) });
    const jar = new Jar();
    await call(jar, 'POST', `${ES}/${c.offers.active}`);
    const forged = jar.cookies.get('itinera_checkout')!.replace(/^./, (ch) => (ch === 'a' ? 'b' : 'a'));
    expect(
      (await t.app.inject({ method: 'GET', url: ES, headers: { cookie: `itinera_checkout=${forged}` } })).statusCode,
    ).toBe(404);
    expect((await call(jar, 'GET', '/api/de/de/checkout')).statusCode).toBe(404);
    t.clock.advance(121 * 60_000);
    try {
      expect((await call(jar, 'GET', ES)).statusCode).toBe(404);
    } finally {
      t.clock.advance(-121 * 60_000);
    }
  });

  it('refreshes base and total when the offer price changed, except for non-standard parties', async () => {
    const standard = new Jar();
    const other = new Jar();
    await call(standard, 'POST', `${ES}/${c.offers.active}`);
    await call(other, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: 3 });
    await call(standard, 'PUT', `${ES}/transfers`, {
      transfer_selections: [{ transfer_id: c.transfers.privateArrival, day_number: 1 }],
    });
    await t.database.db.update(offers).set({ finalPrice: '3990.00' }).where(eq(offers.id, c.offers.active));
    try {
      expect((await call(standard, 'GET', ES)).json().data).toMatchObject({
        base_price: 3990,
        extras_price: 80,
        total_price: 4070,
      });
      expect((await call(other, 'GET', ES)).json().data).toMatchObject({ base_price: 5759.97, total_price: 5759.97 });
      // the answers of session-bound writes use the same current price
      await t.database.db.update(offers).set({ finalPrice: '3950.00' }).where(eq(offers.id, c.offers.active));
      const put = await call(standard, 'PUT', `${ES}/contact`, {
        client: { first_name: 'Ana', last_name: 'Ruiz', email: 'ana@example.org', phone: '+34600111222' },
      });
      expect(put.json().data).toMatchObject({ base_price: 3950, extras_price: 80, total_price: 4030 });
    } finally {
      await t.database.db.update(offers).set({ finalPrice: '3910.00' }).where(eq(offers.id, c.offers.active));
    }
  });

  it('answers 400 no_checkout_session to session-bound PUTs without a session', async () => {
    const bodies: [string, unknown][] = [
      ['hotels', { hotel_selections: [] }],
      ['activities', { activity_selections: [] }],
      ['transfers', { transfer_selections: [] }],
      ['contact', { client: { first_name: 'A', last_name: 'Bc', email: 'a@b.co', phone: '1' } }],
      ['travelers', { travelers: [] }],
    ];
    for (const [path, body] of bodies) {
      const res = await call(null, 'PUT', `${ES}/${path}`, body);
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: 'no_checkout_session' });
    }
  });
});

describe('hotels', () => {
  it('prices upgrades for the query room type, then the session one, then 2A', async () => {
    const url = `${ES}/${c.offers.active}/hotels`;
    const prices = (res: LightMyRequestResponse) =>
      res.json().data.hotels.map((h: { priceDifference: number | null }) => h.priceDifference);
    expect(prices(await call(null, 'GET', url))).toEqual([null, 450, 1050, null, 100]);
    // 4A: the grand luxury hotel lacks a 4A rate -> null (not selectable)
    expect(prices(await call(null, 'GET', `${url}?room_type=4A`))).toEqual([null, 570, null, null, 125]);
    const jar = new Jar();
    await call(jar, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: 1 });
    expect(prices(await call(jar, 'GET', url))).toEqual([null, 300, 900, null, 87.5]);
    expect(prices(await call(jar, 'GET', `${url}?room_type=3A`))).toEqual([null, 540, 1200, null, 112.5]);
    const bad = await call(null, 'GET', `${url}?room_type=5A`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('validation_failed');
  });

  it('describes each entry', async () => {
    const data = (await call(null, 'GET', `${ES}/${c.offers.active}/hotels`)).json().data;
    expect(data).toMatchObject({
      offer_id: c.offers.active,
      offer_sku: 'japan-essentials-es-es',
      tour_name: 'Japón esencial',
      final_price: 3910,
      pax_count: 2,
      currency: { code: 'EUR', symbol: '€' },
    });
    expect(data.hotels[0]).toEqual({
      id: `${c.hotels.tokyo}-selection-1-3`,
      hotelId: c.hotels.tokyo,
      name: 'Hotel Gracery',
      location: 'Tokyo, Japan',
      tier: 'selection',
      tier_label: 'Selección',
      nights: { start: 1, end: 3 },
      imageUrl: 'http://api.test/storage/hotels/gracery.jpg',
      description: null,
      isIncluded: true,
      priceDifference: null,
      selectionHotelName: null,
    });
    expect(data.hotels[2]).toMatchObject({
      tier: 'grand_luxury',
      tier_label: 'Gran Lujo',
      imageUrl: 'https://cdn.test/aman.jpg',
      isIncluded: false,
      selectionHotelName: 'Hotel Gracery',
    });
  });

  it('converts supplier rates into the market currency', async () => {
    const data = (await call(null, 'GET', `/api/us/en/checkout/${c.offers.usd}/hotels`)).json().data;
    expect(data.currency).toEqual({ code: 'USD', symbol: '$' });
    expect(data.hotels.map((h: { tier_label: string }) => h.tier_label)).toContain('Luxury'); // labels follow the language
    expect(data.hotels.map((h: { priceDifference: number | null }) => h.priceDifference)).toEqual([
      null,
      495,
      1155,
      null,
      110,
    ]);
  });

  it('falls back to the package service of legacy tours', async () => {
    const data = (await call(null, 'GET', `${ES}/${c.offers.legacy}/hotels`)).json().data;
    expect(data.hotels).toEqual([
      {
        id: 'package-selection-1-8',
        hotelId: null,
        name: 'Golden Triangle land package',
        location: null,
        tier: 'selection',
        tier_label: 'Selección',
        nights: { start: 1, end: 8 },
        imageUrl: null,
        description: null,
        isIncluded: true,
        priceDifference: null,
        selectionHotelName: null,
      },
    ]);
  });

  it('refuses hotels that are not upgrades of those nights or have no price, and bad bodies', async () => {
    const jar = new Jar();
    await call(jar, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: 4 });
    for (const sel of [
      { upgrade_hotel_id: c.hotels.tokyo, nights_start: 1, nights_end: 3 },
      { upgrade_hotel_id: c.hotels.tokyoLuxury, nights_start: 1, nights_end: 2 },
      { upgrade_hotel_id: 99999, nights_start: 4, nights_end: 4 },
      { upgrade_hotel_id: c.hotels.tokyoGrand, nights_start: 1, nights_end: 3 },
    ]) {
      const res = await call(jar, 'PUT', `${ES}/hotels`, { hotel_selections: [sel] });
      expect(res.statusCode, JSON.stringify(sel)).toBe(422);
      expect(res.json()).toMatchObject({ success: false, error: 'hotel_not_available' });
    }
    const overlap = await call(jar, 'PUT', `${ES}/hotels`, {
      hotel_selections: [
        { upgrade_hotel_id: c.hotels.tokyoLuxury, nights_start: 1, nights_end: 3 },
        { upgrade_hotel_id: c.hotels.tokyoGrand, nights_start: 1, nights_end: 3 },
      ],
    });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json().errors).toHaveProperty(['hotel_selections.1']);
    const missing = await call(jar, 'PUT', `${ES}/hotels`, { hotel_selections: [{ upgrade_hotel_id: 3 }] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      error: 'validation_failed',
      errors: { 'hotel_selections.0.nights_start': expect.any(Array) },
    });
    // a list item is named with its list, not as "the 0 field"
    const notObject = await call(jar, 'PUT', `${ES}/hotels`, { hotel_selections: [5] });
    expect(notObject.json().message).toBe('The hotel_selections.0 field must be of type object.');
    // 4 travelers: the luxury upgrade is priced per room for 4A
    const ok = await call(jar, 'PUT', `${ES}/hotels`, {
      hotel_selections: [{ upgrade_hotel_id: c.hotels.tokyoLuxury, nights_start: 1, nights_end: 3 }],
    });
    expect(ok.json().data).toMatchObject({ extras_price: 570, hotel_selections: [{ price_difference: 570 }] });
  });

  it('does not move the funnel when advance is false', async () => {
    const jar = new Jar();
    const start = await call(jar, 'POST', `${ES}/${c.offers.active}`);
    const id = start.json().data.booking_id;
    await call(jar, 'PUT', `${ES}/hotels`, { advance: false, hotel_selections: [] });
    expect(await booking(id)).toMatchObject({ checkoutStep: null, currentStep: null });
    await call(jar, 'PUT', `${ES}/transfers`, { transfer_selections: [] });
    await call(jar, 'PUT', `${ES}/hotels`, { hotel_selections: [] });
    // backward with advance: the furthest step stays
    expect(await booking(id)).toMatchObject({ checkoutStep: 'main_contact', currentStep: 'activities' });
  });
});

describe('activities', () => {
  it('lists included and optional activities per day with converted per-person prices', async () => {
    const res = await call(null, 'GET', `${ES}/${c.offers.active}/activities`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ offer_id: c.offers.active, price_per_person: 1955, final_price: 3910 });
    expect(data.days).toHaveLength(5);
    expect(data.days[1]).toEqual({
      day_number: 2,
      destination: 'Tokyo',
      included_activities: [{ name: 'Tea ceremony' }],
      available_activities: [
        {
          id: c.activities.sushi,
          name: 'Sushi class',
          description: null,
          image_url: 'http://api.test/storage/act/sushi.jpg',
          price: 40,
        },
      ],
    });
    expect(data.days[2].available_activities.map((a: { price: number | null }) => a.price)).toEqual([50, null]);
    expect(data.days[3]).toMatchObject({ included_activities: [], available_activities: [] });
  });

  it('refuses activities that are not optional on that day or have no price', async () => {
    const jar = new Jar();
    await call(jar, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: 3 });
    for (const sel of [
      { activity_id: c.activities.sushi, day_number: 3 },
      { activity_id: c.activities.tea, day_number: 2 },
      { activity_id: c.activities.noRate, day_number: 3 },
      { activity_id: c.activities.swap, day_number: 4 },
    ]) {
      const res = await call(jar, 'PUT', `${ES}/activities`, { activity_selections: [sel] });
      expect(res.statusCode, JSON.stringify(sel)).toBe(422);
      expect(res.json().error).toBe('activity_not_available');
    }
    const dup = await call(jar, 'PUT', `${ES}/activities`, {
      activity_selections: [
        { activity_id: c.activities.sushi, day_number: 2 },
        { activity_id: c.activities.sushi, day_number: 2 },
      ],
    });
    expect(dup.statusCode).toBe(400);
    // x actual_pax_count (3)
    const ok = await call(jar, 'PUT', `${ES}/activities`, {
      activity_selections: [{ activity_id: c.activities.sushi, day_number: 2 }],
    });
    expect(ok.json().data).toMatchObject({ base_price: 5759.97, extras_price: 120, total_price: 5879.97 });
  });
});

describe('transfers', () => {
  it('lists only days with upsell transfers, with flat per-trip prices', async () => {
    const data = (await call(null, 'GET', `${ES}/${c.offers.active}/transfers`)).json().data;
    expect(data).toMatchObject({ product_url: '/es/es/viajes/japon-esencial', price_per_person: 1955 });
    expect(data.days.map((d: { day_number: number }) => d.day_number)).toEqual([1, 4]);
    expect(data.days[0]).toEqual({
      day_number: 1,
      destination: 'Tokyo',
      included_transfers: [{ name: 'Shared arrival transfer' }],
      available_transfers: [
        {
          id: c.transfers.privateArrival,
          name: 'Private arrival transfer',
          description: null,
          image_url: 'http://api.test/storage/tr/sedan.jpg',
          vehicle_type: 'sedan',
          duration_minutes: 60,
          price: 80,
        },
      ],
    });
    expect(data.days[1].available_transfers.map((x: { price: number | null }) => x.price)).toEqual([100, null]);
  });

  it('answers 422 for a transfer that is not an upsell of that day, 400 for bad ids', async () => {
    const jar = new Jar();
    await call(jar, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: 3 });
    for (const sel of [
      { transfer_id: c.transfers.privateArrival, day_number: 4 },
      { transfer_id: c.transfers.arrival, day_number: 1 },
      { transfer_id: c.transfers.noRate, day_number: 4 },
    ]) {
      const res = await call(jar, 'PUT', `${ES}/transfers`, { transfer_selections: [sel] });
      expect(res.statusCode, JSON.stringify(sel)).toBe(422);
      expect(res.json().error).toBe('transfer_not_available');
    }
    for (const sel of [
      { transfer_id: 0, day_number: 1 },
      { transfer_id: 1, day_number: 0 },
    ]) {
      expect((await call(jar, 'PUT', `${ES}/transfers`, { transfer_selections: [sel] })).statusCode).toBe(400);
    }
    // flat: not multiplied by the 3 travelers
    const ok = await call(jar, 'PUT', `${ES}/transfers`, {
      transfer_selections: [{ transfer_id: c.transfers.bulletTrain, day_number: 4 }],
    });
    expect(ok.json().data.extras_price).toBe(100);
  });
});

describe('contact and travelers', () => {
  it('answers 400 validation_failed with per-field messages for client data', async () => {
    const jar = new Jar();
    await call(jar, 'POST', `${ES}/${c.offers.active}`);
    const res = await call(jar, 'PUT', `${ES}/contact`, {
      client: { first_name: '', last_name: 'X', email: 'not-an-email', phone: '1'.repeat(31) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: 'validation_failed',
      message: 'The first name field is required.',
      errors: {
        'client.first_name': ['The first name field is required.'],
        'client.last_name': ['The last name field must be at least 2 characters.'],
        'client.email': ['The email field must be a valid email address.'],
        'client.phone': ['The phone field must not be greater than 30 characters.'],
      },
    });
    const noClient = await call(jar, 'PUT', `${ES}/contact`, {});
    expect(noClient.json()).toMatchObject({ error: 'validation_failed', errors: { client: expect.any(Array) } });
    // a NUL character cannot be stored (text, jsonb): refused as input, not a database error
    const nul = await call(jar, 'PUT', `${ES}/contact`, {
      client: { first_name: 'A\u0000B', last_name: 'Lopez', email: 'eva@example.com', phone: '600' },
    });
    expect(nul.statusCode).toBe(400);
    const nowhere = await t.app.inject({ method: 'PUT', url: '/api/nowhere', payload: { a: 'A\u0000' } });
    expect(nowhere.statusCode).toBe(404); // an unknown route stays unknown, whatever its body
    expect(nul.json()).toMatchObject({
      error: 'validation_failed',
      errors: { 'client.first_name': ['The first_name field is invalid: it contains a NUL character.'] },
    });
  });

  it('checks every traveler rule and the traveler count against the chosen passengers', async () => {
    const jar = new Jar();
    await call(jar, 'POST', `${ES}/${c.offers.active}`, { actual_pax_count: 3 });
    const two = await call(jar, 'PUT', `${ES}/travelers`, { travelers: [traveler('Ana'), traveler('Luis')] });
    expect(two.statusCode).toBe(400);
    expect(two.json()).toMatchObject({
      error: 'validation_failed',
      message: 'The number of travelers must be 3, got 2.',
      errors: { travelers: ['The number of travelers must be 3, got 2.'] },
    });
    const bad = await call(jar, 'PUT', `${ES}/travelers`, {
      travelers: [
        traveler('Ana'),
        { ...traveler('José'), nationality: 'XX', passport_expiry: '2026-06-15', birth_date: '2026-06-16' },
        { ...traveler('Luis'), last_name: 'G', email: 'x', phone: '' },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual([
      'travelers.1.first_name',
      'travelers.1.nationality',
      'travelers.1.passport_expiry',
      'travelers.1.birth_date',
      'travelers.2.last_name',
      'travelers.2.phone',
      'travelers.2.email',
    ]);
    const ok = await call(jar, 'PUT', `${ES}/travelers`, {
      travelers: [traveler('Ana'), traveler('Luis'), { ...traveler('Eva'), nationality: 'pt' }],
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.traveler_data[2]).toMatchObject({ first_name: 'Eva', nationality: 'PT' });
    expect(ok.json().data.total_price).toBe(5759.97);
  });
});
