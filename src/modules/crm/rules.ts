// The sync record's state machine (spec 3, "States and transitions") as one pure function, so
// every move the jobs, the monitor actions and the commands make is checked in one place.
import type { CrmSyncStatus } from '../../db/schema/crm.js';

export const CRM_SYNC_STATUSES: CrmSyncStatus[] = ['Pending', 'Synced', 'Failed', 'Ignored'];

export type SyncEvent =
  /** the mirror job delivered everything it had to */
  | { type: 'delivered'; remoteId: string }
  /** 429: the job is released for Retry-After without using a try */
  | { type: 'rate_limited'; error: string }
  /** connection error or time-out: the job is retried by backoff */
  | { type: 'connection_error'; error: string }
  /** 401/403, 400/422 or any other non-2xx (5xx included): not retried, reported */
  | { type: 'rejected'; error: string }
  /** the CRM reports the record deleted: no retry, no error report */
  | { type: 'deleted'; reason: string }
  /** the last try failed */
  | { type: 'exhausted'; error: string }
  /** monitor action Retry: reset only; a command re-dispatches */
  | { type: 'retry_action' }
  /** monitor action Reactivate: the next sync returns it to Ignored if it is still deleted */
  | { type: 'reactivate' }
  /** crm:reconcile found the CRM person by email: link it, status unchanged */
  | { type: 'linked'; remoteId: string };

export interface SyncState {
  status: CrmSyncStatus;
  remoteId: string | null;
  attempts: number;
  lastError: string | null;
}

export interface SyncMove {
  to: SyncState;
  /** how an operator hears of it: error = reported (logged at error), info = logged only */
  report: 'error' | 'info' | 'none';
}

/**
 * The next state, or null when the event is not allowed from `from` (the caller leaves the
 * record alone). Notes on moves the table does not show:
 * - delivered from Failed: a record that failed on a connection error is retried by backoff
 *   while Failed, and retry-failed re-dispatches Failed rows without resetting them.
 * - delivered from Synced: a phone-only job on an already synced person completes it again.
 * - rate_limited keeps the status it found (Pending in the table's row; Failed or Synced when a
 *   backoff retry or a phone-only job meets the 429) and only stores the error.
 * - nothing but Reactivate leaves Ignored, and no job event reaches an Ignored record (jobs
 *   stop on it first), so job events from Ignored are refused.
 */
export function transition(from: SyncState, event: SyncEvent): SyncMove | null {
  const used = from.attempts + 1;
  switch (event.type) {
    case 'delivered':
      if (from.status === 'Ignored') return null;
      return {
        to: { status: 'Synced', remoteId: event.remoteId, attempts: used, lastError: null },
        report: 'none',
      };
    case 'rate_limited':
      if (from.status === 'Ignored') return null;
      return { to: { ...from, lastError: event.error }, report: 'info' };
    case 'connection_error':
      if (from.status === 'Ignored') return null;
      return { to: { ...from, status: 'Failed', attempts: used, lastError: event.error }, report: 'info' };
    case 'rejected':
      if (from.status === 'Ignored') return null;
      return { to: { ...from, status: 'Failed', attempts: used, lastError: event.error }, report: 'error' };
    case 'deleted':
      if (from.status === 'Ignored') return null;
      return { to: { ...from, status: 'Ignored', attempts: used, lastError: event.reason }, report: 'info' };
    case 'exhausted':
      if (from.status === 'Ignored' || from.status === 'Synced') return null;
      return { to: { ...from, status: 'Failed', lastError: event.error }, report: 'error' };
    case 'retry_action':
      if (from.status !== 'Failed') return null;
      return { to: { ...from, status: 'Pending', attempts: 0 }, report: 'none' };
    case 'reactivate':
      if (from.status !== 'Ignored') return null;
      return { to: { ...from, status: 'Pending', attempts: 0, lastError: null }, report: 'none' };
    case 'linked':
      if (from.status === 'Ignored') return null;
      return { to: { ...from, remoteId: event.remoteId }, report: 'info' };
  }
}

/** Statuses a command may re-dispatch; Ignored never. */
export type RetryScope = 'failed' | 'pending' | 'all';

export function statusesFor(scope: RetryScope): CrmSyncStatus[] {
  if (scope === 'failed') return ['Failed'];
  if (scope === 'pending') return ['Pending'];
  return ['Failed', 'Pending'];
}

/** Pipedrive lead title: `{name} - {labels}` or `Web inquiry from {name}`. */
export function leadTitle(name: string, destinationLabels: string[]): string {
  const labels = destinationLabels.map((l) => l.trim()).filter(Boolean);
  return labels.length ? `${name} - ${labels.join(', ')}` : `Web inquiry from ${name}`;
}

/** Seconds to wait after a 429: Retry-After in seconds or as an HTTP date; min 1 s, 10 s when absent. */
export function retryAfterSeconds(header: string | null, now: Date): number {
  if (header === null || header.trim() === '') return 10;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Math.max(1, Number(value));
  const at = Date.parse(value);
  if (Number.isNaN(at)) return 10;
  return Math.max(1, Math.ceil((at - now.getTime()) / 1000));
}

/**
 * Seconds until Pipedrive's daily budget resets (the start of the next day, UTC), plus a minute
 * so the first call after the reset does not race it.
 */
export function secondsUntilDailyReset(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.ceil((next - now.getTime()) / 1000) + 60;
}

/** A consent timestamp as the CRM's date field wants it (YYYY-MM-DD, UTC). */
export function consentDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}
