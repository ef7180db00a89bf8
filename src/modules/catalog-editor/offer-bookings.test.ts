// An offer with paid bookings keeps the departure they bought: the catalog editor and the import
// refuse a new departure date, return date, departure airport or pax basis (422
// offer_has_bookings, naming the count); its price may change for future bookings, and the booking
// keeps its own total. A cancelled or unpaid booking does not hold the offer.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { importFixture } from '../../../test/support/catalog-fixture.js';
import { encodeForm, fieldErrors, formValues } from '../../../test/support/console-form.js';
import { bookings, offers } from '../../db/schema/index.js';
import { runImport } from '../catalog/import.js';

let t: TestApp;
let editor: SignedIn;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  await importFixture(t.database);
  editor = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog', 'publish_catalog'] });
});
afterAll(() => t.close());

const offerOf = async (code: string) => (await t.database.db.select().from(offers).where(eq(offers.code, code)))[0];

async function book(code: string, status: string) {
  const o = await offerOf(code);
  const [b] = await t.database.db
    .insert(bookings)
    .values({
      reference: `IT-OB${String(++n).padStart(4, '0')}`,
      status,
      offerId: o.id,
      marketCode: 'de',
      language: 'de',
      paxCount: 2,
      actualPaxCount: 2,
      actualRoomType: '2A',
      isNonStandardPax: false,
      totalPrice: o.finalPrice,
      currency: 'EUR',
    })
    .returning();
  return b;
}

async function save(code: string, changes: Record<string, string>) {
  const o = await offerOf(code);
  const action = `/admin/catalog/offers/${o.id}`;
  const page = await t.app.inject({ url: action, headers: { cookie: editor.cookie } });
  expect(page.statusCode).toBe(200);
  const values = { ...formValues(page.body, action), ...changes, _csrf: editor.csrf };
  return t.app.inject({
    method: 'POST',
    url: action,
    headers: { cookie: editor.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: encodeForm(values),
  });
}

describe('an offer that has paid bookings', () => {
  it('refuses a new departure date or return date in the editor (422 offer_has_bookings, with the count)', async () => {
    await book('JE-DE-1', 'pending_land_confirmation');
    await book('JE-DE-1', 'fully_paid');
    await book('JE-DE-1', 'checkout'); // not paid: does not count
    const before = await offerOf('JE-DE-1');
    const res = await save('JE-DE-1', { departure_date: '2026-12-01', return_date: '2026-12-12' });
    expect(res.statusCode).toBe(422);
    expect(fieldErrors(res.body, 'departure_date')).toEqual([
      `offer_has_bookings: offer 'JE-DE-1' has 2 paid bookings; its departure_date stays ${before.departureDate} (moving bookings is a separate operation)`,
    ]);
    expect(fieldErrors(res.body, 'return_date')[0]).toMatch(/^offer_has_bookings: offer 'JE-DE-1' has 2 paid bookings/);
    expect((await offerOf('JE-DE-1')).departureDate).toBe(before.departureDate);
  });

  it('lets its price change for future bookings; the booking keeps its total', async () => {
    const b = await book('JE-DE-1', 'flights_confirmed');
    const res = await save('JE-DE-1', { final_price: '5000.00', price_per_person: '2500.00' });
    expect(res.statusCode).toBe(303);
    expect((await offerOf('JE-DE-1')).finalPrice).toBe('5000.00');
    const [kept] = await t.database.db.select().from(bookings).where(eq(bookings.id, b.id));
    expect(kept.totalPrice).toBe(b.totalPrice);
  });

  it('refuses a new airport or pax basis from an import, and allows them once its bookings are cancelled', async () => {
    const code = 'JE-ES-1';
    const paid = await book(code, 'pending_flight_booking');
    const doc = {
      market_products: [
        { template: 'japan-essentials', market: 'es', language: 'es', offers: [{ code, pax_count: 3 }] },
      ],
    };
    const refused = await runImport(t.database, doc);
    expect(refused).toMatchObject({
      ok: false,
      problems: [
        {
          path: '/market_products/0/offers/0/pax_count',
          reason: `offer_has_bookings: offer '${code}' has 1 paid booking; its pax_count stays 2 (moving bookings is a separate operation)`,
        },
        // 3 travellers also no longer share the stored final price per person
        { path: '/market_products/0/offers/0/price_per_person' },
      ],
    });
    await t.database.db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, paid.id));
    const o = await offerOf(code);
    const again = await runImport(t.database, {
      market_products: [
        {
          template: 'japan-essentials',
          market: 'es',
          language: 'es',
          offers: [{ code, departure_date: '2026-11-02', return_date: '2026-11-13' }],
        },
      ],
    });
    expect(again.ok).toBe(true);
    expect((await offerOf(code)).departureDate).not.toBe(o.departureDate);
  });
});
