// The business gauges of /metrics, read from the tables at scrape time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function booking(status: string): Promise<number> {
  const { rows } = await t.database.query<{ id: number }>(
    `INSERT INTO bookings (reference, status, offer_id, market_code, language, pax_count, actual_pax_count,
       actual_room_type, total_price, currency)
     VALUES ('R' || floor(random() * 1e9)::text, $1, 1, 'es', 'es', 2, 2, '2A', 1000, 'EUR') RETURNING id`,
    [status],
  );
  return rows[0].id;
}

describe('business metrics', () => {
  it('counts bookings, payments, flight legs, CRM records, marketing and queue jobs', async () => {
    const paid = await booking('pending_flight_booking');
    await booking('pending_flight_booking');
    await booking('checkout');
    const pay = (status: string, amount: string) =>
      t.database.query(
        `INSERT INTO booking_payments (booking_id, intent_id, gateway_code, method_code, amount, total_price, currency, status)
         VALUES ($1, 'pi_' || floor(random() * 1e9)::text, 'sandbox', 'card', $2, 1000, 'EUR', $3)`,
        [paid, amount, status],
      );
    await pay('Succeeded', '300.00');
    await pay('Succeeded', '150.50');
    await pay('Failed', '300.00');
    await t.database.query(
      `INSERT INTO flight_bookings (booking_id, leg_index, flight_type, cabin_class, provider, fare_id, reservation_id,
         status, total_price, currency, flight_numbers)
       VALUES ($1, 0, 'international', 'ECONOMY', 'sandbox', 'f1', 'r1', 'confirmed', 700, 'EUR', '{IB1}')`,
      [paid],
    );
    await t.database.query(
      `INSERT INTO crm_sync_records (model_type, model_id, status) VALUES ('lead', 1, 'Failed'), ('lead', 2, 'Synced')`,
    );
    await t.database.query(
      `INSERT INTO newsletter_subscribers (email, name, consent_given_at, privacy_policy_version)
       VALUES ('a@example.com', 'A', now(), 'v1'), ('b@example.com', 'B', now(), 'v1')`,
    );
    await t.database.query(
      `INSERT INTO pgboss.job (name, data, state) VALUES ('crm-sync', '{}', 'failed'), ('crm-sync', '{}', 'created')`,
    );

    const text = (await t.app.inject('/metrics')).body;
    const line = (s: string) => expect(text.split('\n')).toContain(s);
    line('itinera_bookings{status="pending_flight_booking"} 2');
    line('itinera_bookings{status="checkout"} 1');
    line('itinera_payments{outcome="Succeeded"} 2');
    line('itinera_payments{outcome="Failed"} 1');
    line('itinera_payments_amount{outcome="Succeeded",currency="EUR"} 450.5');
    line('itinera_flight_legs{outcome="confirmed"} 1');
    line('itinera_flight_legs_unmatched 0');
    line('itinera_crm_sync_records{model="lead",status="Failed"} 1');
    line('itinera_crm_sync_records{model="lead",status="Synced"} 1');
    line('itinera_marketing_subscribers{state="pending"} 2');
    line('itinera_queue_jobs{queue="crm-sync",state="failed"} 1');
    line('itinera_queue_jobs{queue="crm-sync",state="waiting"} 1');
  });
});
