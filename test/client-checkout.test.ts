// A storefront's whole checkout through the generated client (packages/client, as built in dist/)
// from a server (no cookie jar: carryCheckoutSession) against the app listening on a real port: start, options and selections, flights, contact, travelers, the
// sandbox payment and the confirmation. The client's types come from the committed document, so
// a change to a shape the funnel uses breaks this file's typecheck as well as its run.

import { carryCheckoutSession, createItineraClient, type ItineraClient } from '@itinera/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { type CheckoutCatalog, cacheFlightsOf, seedCheckoutCatalog } from './support/checkout-fixture.js';

let t: TestApp;
let cat: CheckoutCatalog;
let api: ItineraClient;
const path = { market: 'es', lang: 'es' };

beforeAll(async () => {
  t = await createTestApp({ env: { CORS_ORIGINS: 'https://shop.example.com' } });
  cat = await seedCheckoutCatalog(t.database);
  await cacheFlightsOf(t.database, cat.offers.active);
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  api = createItineraClient({ baseUrl: address });
  // a server-side caller: no cookie jar, the session rides in X-Checkout-Session
  api.use(carryCheckoutSession());
});
afterAll(() => t.close());

describe('a checkout through the generated client', () => {
  it('goes from the start to the confirmation', async () => {
    const offerId = String(cat.offers.active);

    const started = await api.POST('/api/{market}/{lang}/checkout/{offerId}', {
      params: { path: { ...path, offerId } },
      body: {},
    });
    expect(started.response.status).toBe(201);
    const session = started.data!.data;
    expect(session).toMatchObject({ offer_id: cat.offers.active, pax_count: 2, total_price: 3910 });
    expect(session.currency).toEqual({ code: 'EUR', symbol: '€' });

    const read = await api.GET('/api/{market}/{lang}/checkout', { params: { path } });
    expect(read.data!.data.booking_reference).toBe(session.booking_reference);

    const hotels = await api.GET('/api/{market}/{lang}/checkout/{offerId}/hotels', {
      params: { path: { ...path, offerId } },
    });
    expect(hotels.data!.data.hotels.length).toBeGreaterThan(0);
    const withHotels = await api.PUT('/api/{market}/{lang}/checkout/hotels', {
      params: { path },
      body: { hotel_selections: [] },
    });
    expect(withHotels.response.status).toBe(200);

    const activities = await api.PUT('/api/{market}/{lang}/checkout/activities', {
      params: { path },
      body: { activity_selections: [{ activity_id: cat.activities.sushi, day_number: 2 }] },
    });
    expect(activities.data!.data.activity_selections.map((a) => a.activity_id)).toEqual([cat.activities.sushi]);
    expect(activities.data!.data.extras_price).toBe(80); // 40 EUR per person, 2 people

    const transfers = await api.PUT('/api/{market}/{lang}/checkout/transfers', {
      params: { path },
      body: { transfer_selections: [] },
    });
    expect(transfers.response.status).toBe(200);

    const flights = await api.GET('/api/{market}/{lang}/checkout/{offerId}/flights', {
      params: { path: { ...path, offerId } },
    });
    const outbound = flights.data!.data.outbound_options[0];
    expect(outbound.departure_airport).toBe('MAD');
    const chosen = await api.PUT('/api/{market}/{lang}/checkout/flights', {
      params: { path },
      body: { cabin_class: 'ECONOMY', outbound: { departure_airport: 'MAD', arrival_airport: 'NRT' } },
    });
    expect(chosen.response.status).toBe(200);
    expect(chosen.data!.data.flight_selection).toMatchObject({ cabin_class: 'ECONOMY' });

    const contact = await api.PUT('/api/{market}/{lang}/checkout/contact', {
      params: { path },
      body: { client: { first_name: 'Ana', last_name: 'Garcia', email: 'ana@example.com', phone: '+34600000000' } },
    });
    expect(contact.data!.data.client_data).toEqual({
      first_name: 'Ana',
      last_name: 'Garcia',
      email: 'ana@example.com',
      phone: '+34600000000',
    });

    const traveler = (first_name: string, passport_number: string) => ({
      first_name,
      last_name: 'Garcia',
      nationality: 'ES',
      passport_number,
      passport_expiry: '2031-01-01',
      birth_date: '1980-02-03',
      phone: '+34600000000',
      email: 'ana@example.com',
    });
    const travelers = await api.PUT('/api/{market}/{lang}/checkout/travelers', {
      params: { path },
      body: { travelers: [traveler('Ana', 'X1234567'), traveler('Luis', 'X7654321')] },
    });
    expect(travelers.data!.data.traveler_data).toHaveLength(2);

    const intent = await api.POST('/api/{market}/{lang}/checkout/payment/intent', { params: { path } });
    expect(intent.data!.data).toMatchObject({
      payment_gateway: 'sandbox',
      deposit_percent: 30,
      booking_reference: session.booking_reference,
      total_price: 3990,
      amount: 1197, // 30 % of 3990
    });

    const confirmed = await api.POST('/api/{market}/{lang}/checkout/payment/confirm', {
      params: { path },
      body: { payment_intent_id: intent.data!.data.payment_intent_id },
    });
    expect(confirmed.data!.data).toMatchObject({
      booking_reference: session.booking_reference,
      payment_status: 'Succeeded',
      amount_paid: 1197,
    });

    const confirmation = await api.GET('/api/{market}/{lang}/checkout/confirmation/{reference}', {
      params: { path: { ...path, reference: session.booking_reference } },
    });
    expect(confirmation.data!.data).toMatchObject({ booking_reference: session.booking_reference, travelers: 2 });

    // the session cookie is spent: the session is gone
    const after = await api.GET('/api/{market}/{lang}/checkout', { params: { path } });
    expect(after.response.status).toBe(404);
    expect(after.error).toMatchObject({ success: false });
  });
});
