// Departures: the list with its seats and money, and one departure's bookings, manifest, rooming
// list and services per day for a booking with a hotel upgrade, an extra activity and an extra
// transfer beside a plain one; the CSV exports (permission, audit row) and the booking's link.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import {
  adminAuditLog,
  bookingBalances,
  bookingPayments,
  bookings,
  clients,
  offers,
  seatHolds,
} from '../../db/schema/index.js';
import { attachPassengers, insertUpsells } from '../bookings/repository.js';

let t: TestApp;
let cat: CheckoutCatalog;
beforeAll(async () => {
  t = await createTestApp();
  cat = await seedCheckoutCatalog(t.database);
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie, accept: 'text/html' } });
const text = (h: string) =>
  h
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
const section = (body: string, id: string) => {
  const start = body.indexOf(`<h2 id="${id}">`);
  return body.slice(start, body.indexOf('</section>', start));
};

async function sold(
  reference: string,
  status: string,
  total: string,
  roomType: string,
  people: {
    title: string | null;
    first: string;
    last: string;
    nationality: string;
    birth: string;
    expiry: string;
    phone: string;
  }[],
) {
  const db = t.database.db;
  const [client] = await db
    .insert(clients)
    .values({
      firstName: people[0]!.first,
      lastName: people[0]!.last,
      email: `${reference}@example.com`,
      phone: people[0]!.phone,
    })
    .returning();
  const [b] = await db
    .insert(bookings)
    .values({
      reference,
      status,
      offerId: cat.offers.active,
      marketCode: 'es',
      language: 'es',
      clientId: client!.id,
      paxCount: 2,
      actualPaxCount: people.length,
      actualRoomType: roomType,
      totalPrice: total,
      currency: 'EUR',
    })
    .returning();
  await attachPassengers(
    db,
    b!.id,
    people.map((p) => ({
      clientId: client!.id,
      title: p.title,
      gender: null,
      firstName: p.first,
      lastName: p.last,
      nationality: p.nationality,
      passportNumber: 'X1',
      passportExpiry: p.expiry,
      birthDate: p.birth,
      phone: p.phone,
      email: `${reference}@example.com`,
    })),
  );
  return b!;
}

describe('departures', () => {
  it('lists a departure with seats, bookings and revenue, and shows its manifest, rooming list and services per day', async () => {
    const db = t.database.db;
    const upgraded = await sold('IT-DEPA1', 'flights_confirmed', '4500.00', '2A', [
      {
        title: 'ms',
        first: 'Ana',
        last: 'Lopez',
        nationality: 'ES',
        birth: '1980-02-03',
        expiry: '2031-05-06',
        phone: '+34600111222',
      },
      {
        title: 'mr',
        first: 'Ben',
        last: 'Lopez',
        nationality: 'ES',
        birth: '1979-07-08',
        expiry: '2030-01-02',
        phone: '+34600111223',
      },
    ]);
    const plain = await sold('IT-DEPB2', 'pending_flight_booking', '2000.00', '1A', [
      {
        title: null,
        first: 'Carl',
        last: 'Diaz',
        nationality: 'DE',
        birth: '1990-10-11',
        expiry: '2029-12-13',
        phone: '+49151000000',
      },
    ]);
    await insertUpsells(db, [
      {
        bookingId: upgraded.id,
        currency: 'EUR',
        type: 'hotel_upgrade',
        itemId: cat.hotels.tokyoLuxury,
        name: 'Park Hyatt Tokyo',
        nightsStart: 1,
        nightsEnd: 3,
        unitPrice: '600.00',
        quantity: 1,
        totalPrice: '600.00',
      },
      {
        bookingId: upgraded.id,
        currency: 'EUR',
        type: 'activity',
        itemId: cat.activities.sushi,
        name: 'Sushi class',
        dayNumber: 2,
        unitPrice: '40.00',
        quantity: 2,
        totalPrice: '80.00',
      },
      {
        bookingId: upgraded.id,
        currency: 'EUR',
        type: 'transfer',
        itemId: cat.transfers.privateArrival,
        name: 'Private arrival transfer',
        dayNumber: 1,
        unitPrice: '80.00',
        quantity: 1,
        totalPrice: '80.00',
      },
    ]);
    await db.insert(bookingPayments).values({
      bookingId: upgraded.id,
      intentId: 'pi_dep_1',
      gatewayCode: 'sandbox',
      methodCode: 'card',
      amount: '1000.00',
      totalPrice: '4500.00',
      currency: 'EUR',
      status: 'Succeeded',
      finalizedAt: new Date('2026-06-10T10:00:00Z'),
    });
    await db.insert(bookingBalances).values({
      bookingId: upgraded.id,
      departureDate: '2026-08-14',
      dueDate: '2026-07-15',
      totalPrice: '4500.00',
      amountPaid: '1000.00',
      remainingPrice: '3500.00',
      currency: 'EUR',
      status: 'scheduled',
    });
    // an unfinished checkout holding 2 seats: not in the manifest, counted as held
    const [open] = await db
      .insert(bookings)
      .values({
        reference: 'IT-DEPC3',
        status: 'checkout',
        offerId: cat.offers.active,
        marketCode: 'es',
        language: 'es',
        paxCount: 2,
        actualPaxCount: 2,
        actualRoomType: '2A',
        totalPrice: '3910.00',
        currency: 'EUR',
      })
      .returning();
    await db.insert(seatHolds).values({
      bookingId: open!.id,
      offerId: cat.offers.active,
      seats: 2,
      expiresAt: new Date('2026-06-15T11:00:00Z'),
    });
    await db.update(offers).set({ allotmentUsed: 3 }).where(eq(offers.id, cat.offers.active));

    const admin = await signIn(t.app, { permissions: ['view_booking', 'export_booking'] });
    const list = await get(
      '/admin/departures?market=es&product=japan-essentials&from=2026-08-14&to=2026-08-14',
      admin.cookie,
    );
    expect(list.statusCode).toBe(200);
    const rows = [...list.body.matchAll(/<tr><td><a href="\/admin\/departures\/(\d+)">[\s\S]*?<\/tr>/g)];
    // the offer is the Spanish product's ("Japón esencial"): the console names the tour in English
    // other offers of the fixture leave that day too (inactive, a draft product's): the active one's row
    const row = rows.find((r) => Number(r[1]) === cat.offers.active)!;
    expect(text(row[0])).toBe(
      '2026-08-14 Japan essentials japan-essentials · O-ACTIVE es MAD 3 2 5 2 6500.00 EUR Active',
    );
    // upcoming departures by default: the past one is not listed
    expect(await get('/admin/departures', admin.cookie).then((r) => r.body)).not.toContain(
      `/admin/departures/${cat.offers.past}"`,
    );

    // the booking page links to its departure
    const bookingPage = await get('/admin/bookings/IT-DEPA1', admin.cookie);
    expect(bookingPage.body).toContain(`<a href="/admin/departures/${cat.offers.active}">`);

    const page = await get(`/admin/departures/${cat.offers.active}`, admin.cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body.match(/<h1[ >]/g)).toHaveLength(1);
    expect(text(page.body)).toContain('Seats 3 sold, 2 held, 5 free of 10');
    expect(text(page.body)).toContain('(and 1 unfinished checkout(s))');
    expect(text(section(page.body, 'bookings'))).toBe(
      'Bookings and payments Booking Status Contact Travellers Room Total Paid To pay Balance ' +
        'IT-DEPA1 flights confirmed Ana Lopez +34600111222 2 2A 4500.00 EUR 1000.00 EUR 3500.00 EUR scheduled due 2026-07-15 ' +
        'IT-DEPB2 pending flight booking Carl Diaz +49151000000 1 1A 2000.00 EUR 0.00 EUR 2000.00 EUR –',
    );
    expect(text(section(page.body, 'manifest'))).toBe(
      'Passenger manifest Export CSV Booking Name Nationality Birth date Passport expiry Lead Contact phone ' +
        'IT-DEPA1 ms Ana Lopez ES 1980-02-03 2031-05-06 Lead +34600111222 ' +
        'IT-DEPA1 mr Ben Lopez ES 1979-07-08 2030-01-02 +34600111223 ' +
        'IT-DEPB2 Carl Diaz DE 1990-10-11 2029-12-13 Lead +49151000000',
    );
    expect(text(section(page.body, 'rooming'))).toBe(
      'Rooming list Export CSV ' +
        'Nights of days 1–3: 2026-08-14 to 2026-08-17 ' +
        'Park Hyatt Tokyo (luxury) , 1 room(s) Booking Room type Guests Upgrade IT-DEPA1 2A Ana Lopez, Ben Lopez Upgrade ' +
        'Hotel Gracery (selection) , 1 room(s) Booking Room type Guests Upgrade IT-DEPB2 1A Carl Diaz ' +
        'Nights of days 4–4: 2026-08-17 to 2026-08-18 ' +
        'Kyoto Tower Hotel (selection) , 2 room(s) Booking Room type Guests Upgrade IT-DEPA1 2A Ana Lopez, Ben Lopez IT-DEPB2 1A Carl Diaz',
    );
    expect(text(section(page.body, 'services'))).toBe(
      'Activities and transfers per day ' +
        'Day 1, 2026-08-14 Transfer: Shared arrival transfer (included): 3 participant(s): IT-DEPA1 (Ana Lopez, Ben Lopez); IT-DEPB2 (Carl Diaz) ' +
        'Transfer: Private arrival transfer (extra): 2 participant(s): IT-DEPA1 (Ana Lopez, Ben Lopez) ' +
        'Day 2, 2026-08-15 Activity: Tea ceremony (included): 3 participant(s): IT-DEPA1 (Ana Lopez, Ben Lopez); IT-DEPB2 (Carl Diaz) ' +
        'Activity: Sushi class (extra): 2 participant(s): IT-DEPA1 (Ana Lopez, Ben Lopez) ' +
        'Day 5, 2026-08-18 Transfer: Shared departure transfer (included): 3 participant(s): IT-DEPA1 (Ana Lopez, Ben Lopez); IT-DEPB2 (Carl Diaz)',
    );

    const manifest = await get(`/admin/departures/${cat.offers.active}/manifest.csv`, admin.cookie);
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(manifest.headers['content-disposition']).toBe('attachment; filename="manifest-O-ACTIVE.csv"');
    expect(manifest.body).toBe(
      '\uFEFFbooking,booking_status,lead,title,first_name,last_name,nationality,birth_date,passport_expiry,contact_phone\r\n' +
        'IT-DEPA1,flights_confirmed,yes,ms,Ana,Lopez,ES,1980-02-03,2031-05-06,+34600111222\r\n' +
        'IT-DEPA1,flights_confirmed,no,mr,Ben,Lopez,ES,1979-07-08,2030-01-02,+34600111223\r\n' +
        'IT-DEPB2,pending_flight_booking,yes,,Carl,Diaz,DE,1990-10-11,2029-12-13,+49151000000\r\n',
    );
    const rooming = await get(`/admin/departures/${cat.offers.active}/rooming.csv`, admin.cookie);
    expect(rooming.body).toBe(
      '\uFEFFnights_of_days,check_in,check_out,hotel,tier,booking,room_type,guests,upgrade\r\n' +
        '1-3,2026-08-14,2026-08-17,Park Hyatt Tokyo,luxury,IT-DEPA1,2A,Ana Lopez; Ben Lopez,yes\r\n' +
        '1-3,2026-08-14,2026-08-17,Hotel Gracery,selection,IT-DEPB2,1A,Carl Diaz,no\r\n' +
        '4-4,2026-08-17,2026-08-18,Kyoto Tower Hotel,selection,IT-DEPA1,2A,Ana Lopez; Ben Lopez,no\r\n' +
        '4-4,2026-08-17,2026-08-18,Kyoto Tower Hotel,selection,IT-DEPB2,1A,Carl Diaz,no\r\n',
    );
    const audits = await db.select().from(adminAuditLog).where(eq(adminAuditLog.actor, admin.email));
    expect(audits.map((a) => [a.action, a.details])).toEqual([
      ['departure.manifest.export', { offer_id: cat.offers.active }],
      ['departure.rooming.export', { offer_id: cat.offers.active }],
    ]);
    expect(plain.reference).toBe('IT-DEPB2');
  });

  it('shows no export without export_booking and refuses the CSV; an unknown departure is a 404 page', async () => {
    const viewer = await signIn(t.app, { permissions: ['view_booking'] });
    const page = await get(`/admin/departures/${cat.offers.active}`, viewer.cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Export CSV');
    expect((await get(`/admin/departures/${cat.offers.active}/manifest.csv`, viewer.cookie)).statusCode).toBe(403);
    const missing = await get('/admin/departures/999999', viewer.cookie);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('There is no departure (offer) 999999.');
    const bad = await get('/admin/departures?from=2026-13-01', viewer.cookie);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Departing from: 2026-13-01 is not a day of the calendar.');
  });
});
