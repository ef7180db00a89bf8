// Pure rules of console sign-in: how long an account waits after failed attempts.

/** Failed sign-ins an account may have before it is slowed down. */
export const FREE_FAILURES = 5;
/** The longest wait between two attempts on one account, however many failures. */
export const MAX_DELAY_SECONDS = 60;
/** Failures older than this (since the last one) are forgotten. */
export const FORGET_FAILURES_AFTER_SECONDS = 15 * 60;

/**
 * Seconds an account waits after its last failed sign-in before the next attempt is checked: none
 * for the first FREE_FAILURES failures, then 1, 2, 4, 8 … seconds, at most MAX_DELAY_SECONDS. A
 * growing delay, not a lock-out: the right password always works once the delay has passed, so a
 * stranger guessing wrong cannot keep the account's owner out for long.
 */
export function signInDelaySeconds(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(MAX_DELAY_SECONDS, 2 ** (failures - FREE_FAILURES));
}

/** Milliseconds the account must still wait at `now` (0: the attempt is checked). */
export function signInWaitMs(account: { failures: number; lastFailedAt: Date | null }, now: Date): number {
  if (!account.lastFailedAt || account.failures === 0) return 0;
  const since = now.getTime() - account.lastFailedAt.getTime();
  if (since > FORGET_FAILURES_AFTER_SECONDS * 1000) return 0;
  return Math.max(0, signInDelaySeconds(account.failures) * 1000 - since);
}
