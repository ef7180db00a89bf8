import { describe, expect, it } from 'vitest';
import {
  balanceChargeKey,
  balanceDueDate,
  depositFor,
  isReminderDue,
  nextBalanceAttempt,
  statusWhenBalanceOverdue,
  statusWhenBalancePaid,
} from './rules.js';

describe('balance rules', () => {
  it('falls due BALANCE_DUE_DAYS before departure', () => {
    expect(balanceDueDate('2026-10-01', 60)).toBe('2026-08-02');
    expect(balanceDueDate('2026-03-01', 1)).toBe('2026-02-28');
  });

  it('takes the deposit percentage, or the whole total once the due date has passed', () => {
    const base = { totalCents: 391_000, depositPercent: 30, balanceDueDays: 60 };
    expect(depositFor({ ...base, departureDate: '2026-10-01', today: '2026-06-15' })).toEqual({
      depositCents: 117_300,
      remainingCents: 273_700,
      balanceDueDate: '2026-08-02',
      paysInFull: false,
    });
    // due today: still a deposit, the hourly run collects the balance the same day
    expect(depositFor({ ...base, departureDate: '2026-08-14', today: '2026-06-15' })).toMatchObject({
      depositCents: 117_300,
      balanceDueDate: '2026-06-15',
      paysInFull: false,
    });
    expect(depositFor({ ...base, departureDate: '2026-08-13', today: '2026-06-15' })).toEqual({
      depositCents: 391_000,
      remainingCents: 0,
      balanceDueDate: '2026-06-14',
      paysInFull: true,
    });
  });

  it('tries a failed charge again 24 h and 72 h after the first failure, then gives up', () => {
    const first = new Date('2026-08-02T10:00:00Z');
    expect(nextBalanceAttempt(first, 1)).toEqual(new Date('2026-08-03T10:00:00Z'));
    expect(nextBalanceAttempt(first, 2)).toEqual(new Date('2026-08-05T10:00:00Z'));
    expect(nextBalanceAttempt(first, 3)).toBeNull();
  });

  it('reminds from 7 days before the due date until the day before', () => {
    expect(isReminderDue('2026-08-02', '2026-07-25')).toBe(false);
    expect(isReminderDue('2026-08-02', '2026-07-26')).toBe(true);
    expect(isReminderDue('2026-08-02', '2026-08-01')).toBe(true);
    expect(isReminderDue('2026-08-02', '2026-08-02')).toBe(false);
  });

  it('names charge attempts by booking and attempt number', () => {
    expect(balanceChargeKey(42, 3)).toBe('balance-42-3');
  });

  it('moves settled bookings to fully_paid or balance_overdue; the flight workflow keeps its status', () => {
    expect(statusWhenBalancePaid('flights_confirmed', null)).toBe('fully_paid');
    expect(statusWhenBalancePaid('pending_land_confirmation', null)).toBe('fully_paid');
    expect(statusWhenBalancePaid('flight_booking_in_progress', null)).toBeNull();
    expect(statusWhenBalancePaid('balance_overdue', 'pending_flight_booking')).toBe('pending_flight_booking');
    expect(statusWhenBalancePaid('balance_overdue', 'flights_confirmed')).toBe('fully_paid');
    expect(statusWhenBalanceOverdue('flights_confirmed')).toBe('balance_overdue');
    expect(statusWhenBalanceOverdue('pending_flight_booking')).toBe('balance_overdue');
    expect(statusWhenBalanceOverdue('flight_booking_in_progress')).toBeNull();
  });
});
