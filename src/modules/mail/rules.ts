// Pure rules of the mail outbox.

/** Seconds before try 2, 3, ... of a mail the SMTP server did not take; after the last: failed. */
export const MAIL_RETRY_SECONDS = [60, 300, 900, 3_600, 3 * 3_600, 6 * 3_600, 12 * 3_600, 24 * 3_600] as const;

/** When to try again after `failedTries` failed tries (null: give up, the mail is failed). */
export function nextMailAttempt(now: Date, failedTries: number): Date | null {
  const seconds = MAIL_RETRY_SECONDS[failedTries - 1];
  return seconds === undefined ? null : new Date(now.getTime() + seconds * 1000);
}

/** How long a delivery run holds the mails it claimed (a crashed run's mails go out after it). */
export const MAIL_LEASE_SECONDS = 300;
