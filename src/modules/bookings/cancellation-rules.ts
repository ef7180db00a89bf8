// Pure rules of a booking's cancellation: the policy (steps of days before departure and a fee
// percentage), the step that applies on a day, and what the traveller pays and gets back. The
// fee is a percentage of the booking total, half up at the cent, never more than what was paid
// plus what is still due; cancelled by the organiser it is nothing (everything paid comes back).
import { AppError } from '../../platform/errors.js';
import { BOOKING_TRANSITIONS, BookingStatus, transitionAllowed } from './rules.js';

export interface CancellationStep {
  /** the step applies from this many days before departure (the largest not above the days left) */
  days_before_departure: number;
  /** 0..100, of the booking total */
  fee_percent: number;
}

export type CancelledBy = 'traveller' | 'organiser';

/** 60+ days 10 %, 30-59 days 30 %, 15-29 days 60 %, under 15 days 100 % (CANCELLATION_POLICY). */
export const DEFAULT_CANCELLATION_POLICY = '60:10,30:30,15:60,0:100';

export const BOOKING_CANCELLED = BookingStatus.cancelled;

/** Paid statuses a booking may be cancelled from: those BOOKING_TRANSITIONS lets move to cancelled. */
export const CANCELLABLE_STATUSES: readonly string[] = Object.keys(BOOKING_TRANSITIONS).filter((s) =>
  transitionAllowed(s, BookingStatus.cancelled),
);

/**
 * A policy's problems (empty when it is valid): steps with whole days >= 0, fee 0..100 with at
 * most two decimals, no day twice, and a step at 0 days so every day before departure is covered.
 */
export function policyErrors(steps: unknown): string[] {
  if (!Array.isArray(steps) || steps.length === 0) return ['a list of {days_before_departure, fee_percent} steps'];
  const errors: string[] = [];
  const days = new Set<number>();
  for (const [i, s] of steps.entries()) {
    const step = s as Partial<CancellationStep>;
    if (!Number.isInteger(step?.days_before_departure) || (step.days_before_departure as number) < 0) {
      errors.push(`step ${i + 1}: days_before_departure must be a whole number >= 0`);
    } else if (days.has(step.days_before_departure as number)) {
      errors.push(`step ${i + 1}: ${step.days_before_departure} days appears twice`);
    } else days.add(step.days_before_departure as number);
    const fee = step?.fee_percent;
    if (typeof fee !== 'number' || fee < 0 || fee > 100 || Math.round(fee * 100) !== fee * 100) {
      errors.push(`step ${i + 1}: fee_percent must be 0 to 100 with at most two decimals`);
    }
  }
  if (errors.length === 0 && !days.has(0)) errors.push('a step with days_before_departure 0 (the last days)');
  return errors;
}

/** "60:10,30:30,15:60,0:100" -> steps (the configuration's form); throws on a bad policy. */
export function parsePolicy(text: string): CancellationStep[] {
  const steps = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const m = /^(\d+):(\d+(?:\.\d{1,2})?)$/.exec(part);
      return m ? { days_before_departure: Number(m[1]), fee_percent: Number(m[2]) } : ({} as CancellationStep);
    });
  const errors = policyErrors(steps);
  if (errors.length) throw new Error(`cancellation policy "${text}": ${errors.join('; ')}`);
  return sortPolicy(steps);
}

/** Steps from the most days before departure to the fewest. */
export function sortPolicy(steps: CancellationStep[]): CancellationStep[] {
  return [...steps].sort((a, b) => b.days_before_departure - a.days_before_departure);
}

/** The step that applies `daysLeft` days before departure (the last one after departure). */
export function policyStepFor(policy: CancellationStep[], daysLeft: number): CancellationStep {
  const sorted = sortPolicy(policy);
  return sorted.find((s) => s.days_before_departure <= daysLeft) ?? sorted[sorted.length - 1];
}

export interface CancellationQuoteInput {
  totalCents: number;
  /** paid and not refunded */
  paidCents: number;
  /** still to pay (the balance) */
  dueCents: number;
  policy: CancellationStep[];
  daysLeft: number;
  by: CancelledBy;
}

export interface CancellationQuote {
  feeCents: number;
  refundCents: number;
  paidCents: number;
  /** null for an organiser's cancellation (no policy applies) */
  step: CancellationStep | null;
}

/** What a cancellation costs and gives back. */
export function quoteCancellation(input: CancellationQuoteInput): CancellationQuote {
  if (input.by === 'organiser') {
    return { feeCents: 0, refundCents: input.paidCents, paidCents: input.paidCents, step: null };
  }
  const step = policyStepFor(input.policy, input.daysLeft);
  // fee_percent has at most two decimals: total x (percent x 100) / 10000, half up
  const basisPoints = Math.round(step.fee_percent * 100);
  const fee = Math.floor((input.totalCents * basisPoints + 5000) / 10000);
  const feeCents = Math.min(fee, input.paidCents + input.dueCents);
  return {
    feeCents,
    refundCents: Math.max(0, input.paidCents - feeCents),
    paidCents: input.paidCents,
    step,
  };
}

/** 409 unless the booking can be cancelled from `status`. */
export function assertCancellable(status: string): void {
  if (status === BOOKING_CANCELLED) {
    throw new AppError(409, 'booking_already_cancelled', 'This booking is already cancelled.');
  }
  if (!CANCELLABLE_STATUSES.includes(status)) {
    throw new AppError(
      409,
      'booking_not_cancellable',
      `A booking in status ${status} cannot be cancelled (an unpaid checkout is abandoned instead).`,
    );
  }
}
