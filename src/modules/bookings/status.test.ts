// transition() is the booking's one status move: a move BOOKING_TRANSITIONS lists is made and
// recorded; any other is refused with 409 booking_transition_not_allowed and changes nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../../../test/support/checkout-fixture.js';
import { paidBooking } from '../../../test/support/paid-booking.js';
import { bookings } from '../../db/schema/index.js';
import { AppError } from '../../platform/errors.js';
import { transitionsOf } from './repository.js';
import { transitionAllowed } from './rules.js';
import { transition } from './status.js';

let t: TestApp;
let cat: CheckoutCatalog;
beforeAll(async () => {
  t = await createTestApp({ env: { IN_PROCESS_WORKERS: 'false' } });
  cat = await seedCheckoutCatalog(t.database);
});
afterAll(() => t.close());

const statusOf = async (id: number) =>
  (await t.database.db.select({ s: bookings.status }).from(bookings).where(eq(bookings.id, id)))[0].s;

describe('the booking status moves', () => {
  it('lists the moves a booking may make', () => {
    expect(transitionAllowed('checkout', 'pending_flight_booking')).toBe(true);
    expect(transitionAllowed('abandoned', 'pending_land_confirmation')).toBe(true);
    expect(transitionAllowed('flight_booking_in_progress', 'flights_confirmed')).toBe(true);
    expect(transitionAllowed('balance_overdue', 'fully_paid')).toBe(true);
    expect(transitionAllowed('fully_paid', 'checkout')).toBe(false);
    expect(transitionAllowed('pending_land_confirmation', 'flight_booking_in_progress')).toBe(false);
    expect(transitionAllowed('checkout', 'fully_paid')).toBe(false);
    expect(transitionAllowed('no_such_status', 'checkout')).toBe(false);
    // every paid status may be cancelled; a checkout is abandoned instead; cancelled is the end
    for (const paid of ['pending_flight_booking', 'flights_confirmed', 'balance_overdue', 'fully_paid']) {
      expect(transitionAllowed(paid, 'cancelled')).toBe(true);
    }
    expect(transitionAllowed('checkout', 'cancelled')).toBe(false);
    expect(transitionAllowed('cancelled', 'fully_paid')).toBe(false);
  });

  it('refuses a move the table does not list: 409, the status and its record unchanged', async () => {
    // a paid booking without flights waits for the land confirmation
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    expect(await statusOf(b.bookingId)).toBe('pending_land_confirmation');
    const before = await transitionsOf(t.database.db, b.bookingId);

    const refused = await transition(t.database.db, b.bookingId, ['pending_land_confirmation'], 'checkout').catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 409, code: 'booking_transition_not_allowed' });
    expect(await statusOf(b.bookingId)).toBe('pending_land_confirmation');
    expect(await transitionsOf(t.database.db, b.bookingId)).toHaveLength(before.length);
  });

  it('makes a listed move and records it with its metadata', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    const moved = await transition(t.database.db, b.bookingId, ['pending_land_confirmation'], 'balance_overdue', {
      purpose: 'balance',
    });
    expect(moved).toBe(true);
    expect(await statusOf(b.bookingId)).toBe('balance_overdue');
    const last = (await transitionsOf(t.database.db, b.bookingId)).at(-1);
    expect(last).toMatchObject({
      fromStatus: 'pending_land_confirmation',
      toStatus: 'balance_overdue',
      metadata: { purpose: 'balance' },
    });
  });

  it('does nothing when the booking is no longer in one of the from statuses (a concurrent duplicate)', async () => {
    const b = await paidBooking(t, cat, { departureInDays: 120 });
    expect(await transition(t.database.db, b.bookingId, ['flights_confirmed'], 'fully_paid')).toBe(false);
    expect(await statusOf(b.bookingId)).toBe('pending_land_confirmation');
  });
});
