// Issue 26 item 5: the confirmation lookup by reference. New references are 10 characters of a
// 32-symbol alphabet (old 6-letter ones keep working); lookups are limited per client IP; the
// answer is what spec 2 lists plus the status and the amounts, nothing more.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createTestDatabase } from '../../../test/support/db.js';
import { insertPaidBooking } from '../../../test/support/flight-booking.js';
import { seedMarkets } from '../../../test/support/markets.js';
import { bookings } from '../../db/schema/index.js';

let t: TestApp;
beforeAll(async () => {
  const database = await createTestDatabase();
  await seedMarkets(database);
  t = await createTestApp({ database, env: { RATE_LIMIT_CONFIRMATION_LOOKUPS: '3', REDIS_URL: '' } });
});
afterAll(async () => {
  await t.close();
  await t.database.close();
});

const lookup = (reference: string, remoteAddress: string) =>
  t.app.inject({ url: `/api/es/es/checkout/confirmation/${reference}`, remoteAddress });

describe('GET /confirmation/{reference}', () => {
  it('finds a booking made before issue 26 by its 6-letter reference, and shows spec 2 plus status and amounts only', async () => {
    const b = await insertPaidBooking(t.database);
    await t.database.db.update(bookings).set({ reference: 'IT-ACDEFG' }).where(eq(bookings.id, b.id));
    const res = await lookup('IT-ACDEFG', '192.0.2.10');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual([
      'amount_paid',
      'balance_due',
      'booking_reference',
      'duration_days',
      'duration_nights',
      'hero_image',
      'refunded',
      'status',
      'tour_name',
      'travelers',
      'trip_url',
    ]);
    expect(data).toMatchObject({ booking_reference: 'IT-ACDEFG', status: 'pending_flight_booking', travelers: 2 });
  });

  it('answers 429 with Retry-After after 3 lookups a minute from one address, found or not', async () => {
    const ip = '192.0.2.20';
    expect((await lookup('IT-0000000000', ip)).statusCode).toBe(404);
    expect((await lookup('IT-0000000001', ip)).statusCode).toBe(404);
    expect((await lookup('IT-0000000002', ip)).statusCode).toBe(404);
    const refused = await lookup('IT-0000000003', ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json()).toEqual({
      success: false,
      error: 'too_many_requests',
      message: 'Too many requests. Please try again in 60 seconds.',
    });
    // another address has its own count
    expect((await lookup('IT-0000000003', '192.0.2.21')).statusCode).toBe(404);
  });
});
