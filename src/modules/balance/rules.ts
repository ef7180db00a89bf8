// Pure rules of balance payments: the due date, what the checkout takes as its deposit, when a
// failed charge is tried again, when the reminder goes out and the booking statuses they lead to.
import { addDays } from '../../platform/clock.js';
import { BookingStatus } from '../bookings/rules.js';
import { depositCents } from '../payments/rules.js';

/** The balance falls due `dueDays` before departure (BALANCE_DUE_DAYS, default 60). */
export function balanceDueDate(departureDate: string, dueDays: number): string {
  return addDays(departureDate, -dueDays);
}

export interface DepositInput {
  totalCents: number;
  depositPercent: number;
  /** YYYY-MM-DD */
  departureDate: string;
  /** YYYY-MM-DD, the day of the checkout */
  today: string;
  balanceDueDays: number;
}

export interface Deposit {
  depositCents: number;
  remainingCents: number;
  balanceDueDate: string;
  /** the balance's due date passed before the checkout day: the deposit is the whole total */
  paysInFull: boolean;
}

/**
 * What the checkout charges now. A booking whose balance due date has already passed (is before
 * the checkout day) pays its whole total at once; others pay the deposit percentage and the rest
 * on the due date (a balance due today is charged by the next hourly run).
 */
export function depositFor(input: DepositInput): Deposit {
  const due = balanceDueDate(input.departureDate, input.balanceDueDays);
  const paysInFull = due < input.today;
  const deposit = paysInFull ? Math.max(0, input.totalCents) : depositCents(input.totalCents, input.depositPercent);
  return {
    depositCents: deposit,
    remainingCents: Math.max(0, input.totalCents - deposit),
    balanceDueDate: due,
    paysInFull,
  };
}

/** Hours after the first failed charge at which it is tried again; after the last one: overdue. */
export const BALANCE_RETRY_HOURS = [24, 72] as const;

/** When to try again after `failedAttempts` failed charges (null: no more tries, overdue). */
export function nextBalanceAttempt(firstFailedAt: Date, failedAttempts: number): Date | null {
  const hours = BALANCE_RETRY_HOURS[failedAttempts - 1];
  return hours === undefined ? null : new Date(firstFailedAt.getTime() + hours * 3_600_000);
}

/** Days before the due date on which the customer gets the balance reminder. */
export const BALANCE_REMINDER_DAYS = 7;

/** The reminder is due from 7 days before the due date until the day before it. */
export function isReminderDue(dueDate: string, today: string): boolean {
  return today >= addDays(dueDate, -BALANCE_REMINDER_DAYS) && today < dueDate;
}

/** The idempotency key of charge attempt n: a retried run of the same attempt reuses it. */
export function balanceChargeKey(bookingId: number, attempt: number): string {
  return `balance-${bookingId}-${attempt}`;
}

export const BalanceStatus = {
  scheduled: 'scheduled',
  retrying: 'retrying',
  paid: 'paid',
  overdue: 'overdue',
  /** an off-session debit the gateway is processing: its webhook or the reconciliation finishes it */
  processing: 'processing',
  /** the saved card cannot be charged at all: only the pay link (no automatic attempts) */
  awaitingCustomer: 'awaiting_customer',
  /** the booking was cancelled: nothing more is collected */
  cancelled: 'cancelled',
} as const;

/** Booking statuses the balance leads to. */
export const BALANCE_OVERDUE = BookingStatus.balanceOverdue;
export const FULLY_PAID = BookingStatus.fullyPaid;

// Settled: nothing left to do for the trip but collect the money. While flights are still to book
// the flight workflow owns the status; the balance outcome is then recorded on the balance only.
const SETTLED = ['flights_confirmed', 'pending_land_confirmation'];
// a confirmed trip whose balance is not paid is overdue too; paying returns it to confirmed
const OVERDUE_FROM = [...SETTLED, 'pending_flight_booking', 'flight_booking_failed', 'confirmed'];

/** The booking status after the balance is paid (null: the status stays). */
export function statusWhenBalancePaid(current: string, beforeOverdue: string | null): string | null {
  if (SETTLED.includes(current)) return FULLY_PAID;
  if (current === BALANCE_OVERDUE) {
    return beforeOverdue && !SETTLED.includes(beforeOverdue) ? beforeOverdue : FULLY_PAID;
  }
  return null;
}

/** The booking status when the last charge failed (null: the status stays). */
export function statusWhenBalanceOverdue(current: string): string | null {
  return OVERDUE_FROM.includes(current) ? BALANCE_OVERDUE : null;
}
