// "Manage my booking" (issue 27 section 3): the signed manage URL of the confirm answer and the
// confirmation e-mail, the booking it answers, the travelers' corrections and the signature and
// rate-limit refusals.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { seedMarkets } from '../../../test/support/markets.js';
import { paidBooking } from '../../../test/support/paid-booking.js';
import { adminNotifications, mailOutbox } from '../../db/schema/index.js';
import * as repo from './repository.js';

let t: TestApp;
let cat: CheckoutCatalog;
beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' } });
  cat = await seedCheckoutCatalog(t.database);
});
afterAll(() => t.close());

const path = (url: string) => url.replace('http://api.test', '');
const get = (url: string) => t.app.inject({ url, headers: { 'x-forwarded-for': '203.0.113.9' } });
const put = (url: string, payload: object) =>
  t.app.inject({ method: 'PUT', url, payload, headers: { 'x-forwarded-for': '203.0.113.9' } });

describe('manage my booking', () => {
  it('answers the booking on the signed URL of the confirm answer and the confirmation e-mail', async () => {
    // departs 2026-10-13, returns 2026-10-17: the URL is valid until the end of the return day
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const expires = 1792281600; // 2026-10-18T00:00:00Z
    expect(b.manageUrl).toMatch(
      new RegExp(`^http://api\\.test/api/es/es/bookings/${b.reference}\\?expires=${expires}&signature=[0-9a-f]{64}$`),
    );
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.bookingId, b.bookingId), eq(mailOutbox.kind, 'booking_confirmation')));
    expect(mail!.textBody).toContain(`Gestionar tu reserva: ${b.manageUrl}`);

    const res = await get(path(b.manageUrl!));
    expect(res.statusCode).toBe(200);
    // 2 travelers, no extras: the offer's 3910 EUR; 30% deposit 1173 paid, 2737 due 60 days before departure
    expect(res.json()).toEqual({
      success: true,
      data: {
        booking_reference: b.reference,
        status: 'pending_land_confirmation',
        tour_name: 'Japón esencial',
        departure_date: '2026-10-13',
        return_date: '2026-10-17',
        travelers: [
          {
            position: 0,
            first_name: 'Ana',
            last_name: 'Garcia',
            nationality: 'ES',
            passport_number: '••A',
            passport_expiry: '2031-01-01',
            birth_date: '1980-02-03',
            is_lead: true,
          },
          {
            position: 1,
            first_name: 'Luis',
            last_name: 'Garcia',
            nationality: 'ES',
            passport_number: '••B',
            passport_expiry: '2031-01-01',
            birth_date: '1980-02-03',
            is_lead: false,
          },
        ],
        selections: [],
        payments: {
          total: 3910,
          paid: 1173,
          refunded: 0,
          balance_due: 2737,
          balance_due_date: '2026-08-14',
          currency: 'EUR',
        },
        // 113 days before departure: the default policy's 60+ days step, 10 % of 3910
        cancellation: { fee: 391, refund: 782, policy_step: { days_before_departure: 60, fee_percent: 10 } },
      },
    });
  });

  it('lets the customer cancel: the quote for today, then the traveller cancellation with its refund', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const [base, query] = path(b.manageUrl!).split('?') as [string, string];
    const quote = await get(`${base}/cancellation?${query}`);
    expect(quote.statusCode).toBe(200);
    expect(quote.json().data).toMatchObject({
      fee: 391,
      refund: 782,
      policy_step: { days_before_departure: 60, fee_percent: 10 },
    });
    const cancel = await t.app.inject({
      method: 'POST',
      url: `${base}/cancel?${query}`,
      payload: { reason: 'Family emergency' },
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().data).toMatchObject({
      status: 'cancelled',
      fee: 391,
      refund: { amount: 782, currency: 'EUR' },
    });
    const after = await get(path(b.manageUrl!));
    expect(after.json().data).toMatchObject({ status: 'cancelled', cancellation: null });
    const moves = await repo.transitionsOf(t.database.db, b.bookingId);
    expect(moves.at(-1)!.metadata).toMatchObject({
      cancelled_by: 'traveller',
      reason: 'Family emergency',
      fee: 391,
      refund: 782,
    });
    const again = await t.app.inject({ method: 'POST', url: `${base}/cancel?${query}`, payload: {} });
    expect(again.statusCode).toBe(409);
  });

  it('answers 403 invalid_signature to a missing, forged, expired or other booking signature', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const other = await paidBooking(t, cat, { departureInDays: 120 });
    const url = path(b.manageUrl!);
    const [base, query] = url.split('?') as [string, string];
    const forged = query.replace(/signature=([0-9a-f])/, (_, c) => `signature=${c === 'a' ? 'b' : 'a'}`);
    const otherQuery = path(other.manageUrl!).split('?')[1]!;
    const refused = [base, `${base}?${forged}`, `${base}?${otherQuery}`];
    for (const u of refused) {
      const res = await get(u);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        success: false,
        error: 'invalid_signature',
        message: 'This link is not valid or has expired.',
      });
    }
    expect((await put(`${base}/travelers?${forged}`, { travelers: [{ position: 0 }] })).statusCode).toBe(403);
    try {
      t.clock.set('2026-10-18T00:00:01Z');
      expect((await get(url)).statusCode).toBe(403);
      t.clock.set('2026-10-17T23:59:59Z');
      expect((await get(url)).statusCode).toBe(200);
    } finally {
      t.clock.set('2026-06-15T10:00:00Z');
    }
  });

  it('lets the customer correct passport data and birth dates until 14 days before departure', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const [base, query] = path(b.manageUrl!).split('?') as [string, string];
    const travelers = `${base}/travelers?${query}`;
    const res = await put(travelers, {
      travelers: [
        { position: 1, passport_number: 'XK123456', passport_expiry: '2032-05-06', birth_date: '1981-07-08' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.travelers[1]).toMatchObject({
      passport_number: '•••••456',
      passport_expiry: '2032-05-06',
      birth_date: '1981-07-08',
    });
    const stored = await repo.passengersOf(t.database.db, b.bookingId);
    expect([stored[1]!.passportNumber, stored[1]!.passportExpiry, stored[1]!.birthDate]).toEqual([
      'XK123456',
      '2032-05-06',
      '1981-07-08',
    ]);
    const amendments = await repo.amendmentsOf(t.database.db, b.bookingId);
    expect(amendments.map((a) => [a.kind, a.actor, a.priceDifference, a.changes])).toEqual([
      [
        'travelers',
        'customer',
        '0.00',
        {
          travelers: [
            { traveler: 1, field: 'passport_number', old: '••B', new: '•••••456' },
            { traveler: 1, field: 'passport_expiry', old: '2031-01-01', new: '2032-05-06' },
            { traveler: 1, field: 'birth_date', old: '1980-02-03', new: '1981-07-08' },
          ],
        },
      ],
    ]);
    const notes = await t.database.db
      .select()
      .from(adminNotifications)
      .where(and(eq(adminNotifications.bookingId, b.bookingId), eq(adminNotifications.type, 'booking_amended')));
    expect(notes).toHaveLength(1);
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.bookingId, b.bookingId), eq(mailOutbox.kind, 'booking_amended')));
    expect(mail!.subject).toBe(`Reserva ${b.reference} modificada`);
    expect(mail!.textBody).toContain('- Luis Garcia: passport number •••••456');
    expect(mail!.textBody).toContain('- Luis Garcia: birth date 1981-07-08');

    // an expiry before the return date and a future birth date are refused
    const bad = await put(travelers, {
      travelers: [{ position: 0, passport_expiry: '2026-10-16', birth_date: '2027-01-01' }],
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['travelers.0.birth_date', 'travelers.0.passport_expiry']);
    const missing = await put(travelers, { travelers: [{ position: 5, birth_date: '1970-01-01' }] });
    expect(missing.statusCode).toBe(422);

    // departure 2026-10-13: changes are allowed on 2026-09-29, not on 2026-09-30
    try {
      t.clock.set('2026-09-29T12:00:00Z');
      expect((await put(travelers, { travelers: [{ position: 0, birth_date: '1980-02-04' }] })).statusCode).toBe(200);
      t.clock.set('2026-09-30T00:00:00Z');
      const late = await put(travelers, { travelers: [{ position: 0, birth_date: '1980-02-05' }] });
      expect(late.statusCode).toBe(409);
      expect(late.json().error).toBe('travelers_locked_departure_soon');
    } finally {
      t.clock.set('2026-06-15T10:00:00Z');
    }
  });
});

describe('manage my booking rate limit', () => {
  it('answers 429 after RATE_LIMIT_SIGNED_LINKS requests a minute from one IP', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_SIGNED_LINKS: '2', IN_PROCESS_WORKERS: 'false' } });
    await seedMarkets(limited.database);
    try {
      const url = `/api/es/es/bookings/IT-XXXXXX?expires=1792281600&signature=${'a'.repeat(64)}`;
      const codes = [];
      for (let i = 0; i < 3; i++) {
        codes.push((await limited.app.inject({ url, headers: { 'x-forwarded-for': '198.51.100.4' } })).statusCode);
      }
      expect(codes).toEqual([403, 403, 429]);
    } finally {
      await limited.close();
    }
  });
});
