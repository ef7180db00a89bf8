import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFixture, FIXTURE_TODAY, importFixture } from '../../../test/support/catalog-fixture.js';
import { createTestDatabase } from '../../../test/support/db.js';
import type { Database } from '../../db/database.js';
import { catalogRevisionOf, runImport } from './import.js';
import { takeSeats } from './offers.js';

const TABLES = [
  'markets',
  'airports',
  'market_airports',
  'exchange_rates',
  'hotels',
  'hotel_rates',
  'activities',
  'activity_rates',
  'transfers',
  'transfer_rates',
  'product_templates',
  'accommodations',
  'tour_day_transfers',
  'market_products',
  'market_product_airports',
  'itinerary_days',
  'itinerary_day_activities',
  'offers',
];

async function snapshot(database: Database) {
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) {
    const { rows } = await database.query(`SELECT * FROM ${t} ORDER BY 1, 2`);
    out[t] = rows;
  }
  return out;
}

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('runImport', () => {
  it('rejects an invalid document with every problem (path + reason) and writes nothing', async () => {
    const doc = catalogFixture() as Record<string, any>;
    doc.markets[0].currency.code = 'euro';
    doc.markets[1].timezone = 42;
    doc.market_products[0].offers[0].status = 'Open';
    doc.market_products[0].offers[1].final_price = 12.5;
    doc.hotels[0].colour = 'red';
    doc.unknown_key = [];
    const result = await runImport(database, doc, { today: FIXTURE_TODAY });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { path: '/markets/0/currency/code', reason: expect.stringContaining('invalid format') },
        { path: '/markets/1/timezone', reason: 'must be text' },
        { path: '/market_products/0/offers/0/status', reason: expect.stringContaining("'Active'") },
        { path: '/market_products/0/offers/1/final_price', reason: expect.any(String) },
        { path: '/hotels/0/colour', reason: 'is not a known property' },
        { path: '/unknown_key', reason: 'is not a known property' },
      ]),
    );
    const { rows } = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM markets');
    expect(rows[0].n).toBe(0);
  });

  it('lists every schema problem, not only the first few', async () => {
    const doc = catalogFixture() as Record<string, any>;
    const expected: string[] = [];
    doc.market_products.forEach((p: { offers?: Record<string, unknown>[] }, i: number) => {
      (p.offers ?? []).forEach((o, j) => {
        o.departure_date = 'today+30'; // relative dates are for the demo loader only
        o.return_date = 'today+40';
        expected.push(
          `/market_products/${i}/offers/${j}/departure_date`,
          `/market_products/${i}/offers/${j}/return_date`,
        );
      });
    });
    const result = await runImport(database, doc, { today: FIXTURE_TODAY });
    if (result.ok) throw new Error('expected problems');
    expect(expected.length).toBeGreaterThan(8);
    expect(result.problems.map((p) => p.path).sort()).toEqual(expected.sort());
  });

  it('checks references and duplicates after the schema, and writes nothing', async () => {
    const doc = catalogFixture();
    doc.market_products![0].template = 'no-such-tour';
    doc.market_products![1].language = 'de';
    doc.market_products![0].offers![0].departure_airport = 'FRA';
    doc.market_products![0].offers![1].code = 'JE-ES-1';
    doc.market_products![0].offers![2].departure_date = '2026-02-30';
    doc.product_templates![0].accommodations![0].hotel = 'nowhere';
    doc.product_templates![0].accommodations![1].day_end = 20;
    doc.markets![0].airports!.push('XXX');
    doc.hotels![1].rates![0].currency = 'GBP';
    doc.markets![1].timezone = 'Mars/Olympus';
    const result = await runImport(database, doc, { today: FIXTURE_TODAY });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const paths = result.problems.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/market_products/0/template',
        '/market_products/1/language',
        '/market_products/0/offers/0/departure_airport',
        '/market_products/0/offers/1/code',
        '/market_products/0/offers/2/departure_date',
        '/product_templates/0/accommodations/0/hotel',
        '/product_templates/0/accommodations/1/day_end',
        '/markets/0/airports/2',
        '/hotels/1/rates/0/currency',
        '/markets/1/timezone',
      ]),
    );
    for (const p of result.problems) expect(p.reason.length).toBeGreaterThan(5);
    const { rows } = await database.query<{ n: number }>('SELECT count(*)::int AS n FROM airports');
    expect(rows[0].n).toBe(0);
  });

  it('imports a document, and importing it again changes nothing', async () => {
    const before = await catalogRevisionOf(database);
    const first = await importFixture(database);
    expect(first.markets).toEqual({ total: 3, inserted: 3, updated: 0 });
    expect(first.offers).toEqual({ total: 10, inserted: 10, updated: 0 });
    expect(await catalogRevisionOf(database)).toBe(before + 1);
    const once = await snapshot(database);
    expect(once.market_products).toHaveLength(5);
    expect(once.itinerary_day_activities).toHaveLength(3);

    const second = await importFixture(database);
    for (const [entity, c] of Object.entries(second)) {
      expect({ entity, inserted: c.inserted, updated: c.updated }).toEqual({ entity, inserted: 0, updated: 0 });
    }
    expect(await snapshot(database)).toEqual(once);
  });

  it('updates changed values on their natural keys and replaces a parent children', async () => {
    const doc = catalogFixture();
    doc.market_products![0].title = 'Japón esencial 2027';
    // the two price fields move together: 2,450.00 x 2 travellers = 4,900.00
    doc.market_products![0].offers![0].price_per_person = '2450.00';
    doc.market_products![0].offers![0].final_price = '4900.00';
    doc.market_products![0].itinerary = doc.market_products![0].itinerary!.slice(0, 2);
    doc.hotels![0].rates = doc.hotels![0].rates!.filter((r) => r.room_type !== '2A+1CH');
    const summary = await importFixture(database, doc);
    expect(summary.market_products.updated).toBe(1);
    expect(summary.offers.updated).toBe(1);
    const { rows: mp } = await database.query<{ title: string; days: number }>(
      `SELECT title, (SELECT count(*)::int FROM itinerary_days d WHERE d.market_product_id = p.id) AS days
       FROM market_products p WHERE url_slug = 'japon-esencial'`,
    );
    expect(mp).toEqual([{ title: 'Japón esencial 2027', days: 2 }]);
    const { rows: offer } = await database.query<{ price_per_person: string }>(
      `SELECT price_per_person FROM offers WHERE code = 'JE-ES-1'`,
    );
    expect(offer[0].price_per_person).toBe('2450.00');
    const { rows: roomTypes } = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM hotel_rates r JOIN hotels h ON h.id = r.hotel_id WHERE h.code = 'tokyo-selection'`,
    );
    expect(roomTypes[0].n).toBe(4);
  });

  it('keeps the allotment bookings consumed when the same offers are imported again', async () => {
    const doc = catalogFixture();
    await importFixture(database, doc);
    const { rows } = await database.query<{ id: number; allotment_used: number }>(
      `SELECT id, allotment_used FROM offers WHERE code = 'JE-ES-1'`,
    );
    await takeSeats(database.db, rows[0].id, 1); // a paid booking took a seat
    const again = await importFixture(database, doc);
    expect(again.offers).toMatchObject({ inserted: 0, updated: 0 });
    const { rows: after } = await database.query<{ allotment_used: number }>(
      `SELECT allotment_used FROM offers WHERE code = 'JE-ES-1'`,
    );
    expect(after[0].allotment_used).toBe(rows[0].allotment_used + 1);
    // a file that states more seats taken (another sales channel) still raises it
    doc.market_products![0].offers![0].allotment_used = rows[0].allotment_used + 3;
    expect((await importFixture(database, doc)).offers.updated).toBe(1);
    const { rows: raised } = await database.query<{ allotment_used: number }>(
      `SELECT allotment_used FROM offers WHERE code = 'JE-ES-1'`,
    );
    expect(raised[0].allotment_used).toBe(rows[0].allotment_used + 3);
  });

  it('refuses to move a stored offer to another market product', async () => {
    const doc = catalogFixture();
    await importFixture(database, doc);
    const [from, to] = doc.market_products!;
    const moved = { ...from.offers![0], departure_airport: to.departure_airports![0] };
    const result = await runImport(
      database,
      { market_products: [{ ...to, offers: [moved] }] },
      { today: FIXTURE_TODAY },
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          path: '/market_products/0/offers/0/code',
          reason: `offer '${moved.code}' belongs to market product '${from.template}/${from.market}/${from.language}'`,
        },
      ],
    });
  });

  it('accepts a partial document that refers to records already imported', async () => {
    const product = { ...catalogFixture().market_products![4], title: 'Japan entdecken (neu)', offers: [] };
    delete product.itinerary;
    const result = await runImport(database, { market_products: [product] }, { today: FIXTURE_TODAY });
    expect(result).toMatchObject({ ok: true, summary: { market_products: { total: 1, updated: 1 } } });
  });

  it('stores the supplier contact of hotels, activities and transfers; null removes it; a bad e-mail is refused', async () => {
    await runImport(database, catalogFixture(), { today: FIXTURE_TODAY });
    const f = catalogFixture();
    const hotel = {
      ...f.hotels![0],
      supplier: { email: 'res@hotel.example', name: 'Front desk', phone: '+81 3 1234' },
    };
    const activity = { ...f.activities![0], supplier: { email: 'tours@act.example' } };
    const transfer = { ...f.transfers![0], supplier: { email: 'ops@cars.example', phone: '+81 90 1' } };
    let result = await runImport(
      database,
      { hotels: [hotel], activities: [activity], transfers: [transfer] },
      { today: FIXTURE_TODAY },
    );
    expect(result.ok).toBe(true);
    const contact = async (table: string, code: string) =>
      (
        await database.query(`SELECT supplier_email, supplier_name, supplier_phone FROM ${table} WHERE code = $1`, [
          code,
        ])
      ).rows[0];
    expect(await contact('hotels', hotel.code)).toEqual({
      supplier_email: 'res@hotel.example',
      supplier_name: 'Front desk',
      supplier_phone: '+81 3 1234',
    });
    expect(await contact('activities', activity.code)).toEqual({
      supplier_email: 'tours@act.example',
      supplier_name: null,
      supplier_phone: null,
    });
    expect(await contact('transfers', transfer.code)).toEqual({
      supplier_email: 'ops@cars.example',
      supplier_name: null,
      supplier_phone: '+81 90 1',
    });
    result = await runImport(database, { hotels: [{ ...hotel, supplier: null }] }, { today: FIXTURE_TODAY });
    expect(result.ok).toBe(true);
    expect(await contact('hotels', hotel.code)).toEqual({
      supplier_email: null,
      supplier_name: null,
      supplier_phone: null,
    });
    result = await runImport(
      database,
      { hotels: [{ ...hotel, supplier: { email: 'not an e-mail' } }] },
      { today: FIXTURE_TODAY },
    );
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((p) => p.path)).toContain('/hotels/0/supplier/email');
  });
});
