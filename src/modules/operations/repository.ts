// The operations pages' reads: aggregates over bookings, payments, balances, offers and the
// failure tables of the sync, mail and job modules. A read model in SQL, read-only: it writes
// nothing and every module keeps its own writes (see docs/decisions.md, "Operations console").
import type { Database } from '../../db/database.js';
import { UNSOLD_STATUSES } from '../bookings/search.js';

const SOLD = `status NOT IN (${UNSOLD_STATUSES.map((s) => `'${s}'`).join(', ')})`;
/** [day 00:00 UTC, last day + 1 00:00 UTC) of a timestamptz column */
const dayRange = (col: string, from: string, to: string) =>
  `${col} >= ${from}::date::timestamp AT TIME ZONE 'UTC' AND ${col} < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC'`;
/** when a payment's money was taken: a deposit when finalized, a balance when recorded */
export const TAKEN_AT = 'coalesce(finalized_at, created_at)';

export interface DayAmount {
  day: string;
  currency: string;
  count: number;
  value: string;
}

/** Sold bookings per UTC day (of their creation) and currency, from `from` to `to`. */
export async function soldPerDay(database: Database, from: string, to: string): Promise<DayAmount[]> {
  const { rows } = await database.query<DayAmount>(
    `SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, currency, count(*)::int AS count, sum(total_price)::text AS value
       FROM bookings WHERE ${dayRange('created_at', '$1', '$2')} AND ${SOLD}
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [from, to],
  );
  return rows;
}

/** Rows of a money table in `status` per UTC day (of the `at` column) and currency. */
async function moneyPerDay(
  database: Database,
  table: 'booking_payments' | 'booking_refunds',
  at: string,
  status: string,
  from: string,
  to: string,
): Promise<DayAmount[]> {
  const { rows } = await database.query<DayAmount>(
    `SELECT (${at} AT TIME ZONE 'UTC')::date::text AS day, currency, count(*)::int AS count, sum(amount)::text AS value
       FROM ${table} WHERE status = $3 AND ${dayRange(at, '$1', '$2')}
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [from, to, status],
  );
  return rows;
}

/** Money taken (succeeded deposits and balances) per UTC day and currency. */
export const takenPerDay = (database: Database, from: string, to: string) =>
  moneyPerDay(database, 'booking_payments', TAKEN_AT, 'Succeeded', from, to);

/**
 * when a refund's money went back: the last change of a `succeeded` row, which is the moment it
 * became succeeded (a row is only updated when its status or gateway id changes)
 */
const REFUNDED_AT = 'updated_at';

/** Money given back (succeeded refunds; pending, failed and canceled ones not) per UTC day and currency. */
export const refundedPerDay = (database: Database, from: string, to: string) =>
  moneyPerDay(database, 'booking_refunds', REFUNDED_AT, 'succeeded', from, to);

export interface BookingWork {
  toBook: number;
  failedLegs: number;
  balancesDue7: number;
  balancesOverdue: number;
  suppliersPending: number;
  suppliersDeclined: number;
}

/** Bookings waiting for someone: flights to book, failed legs, balances due soon or overdue. */
/** Counts stop here: past it the home says "1000+" (the list shows them all). */
export const WORK_COUNT_CAP = 1000;

/** bookings not cancelled with a supplier confirmation in this status (as the bookings list's `supplier` filter) */
const supplierWork = (status: 'requested' | 'declined') =>
  `bookings b WHERE b.status <> 'cancelled' AND b.id IN (SELECT booking_id FROM supplier_confirmations WHERE status = '${status}')`;

export async function bookingWork(database: Database, today: string): Promise<BookingWork> {
  // each count stops at the cap: a thousand bookings waiting is "1000+", and no count walks the table
  const capped = (where: string) =>
    `(SELECT count(*) FROM (SELECT 1 FROM ${where} LIMIT ${WORK_COUNT_CAP + 1}) x)::int`;
  const { rows } = await database.query<BookingWork>(
    `SELECT ${capped(`bookings WHERE status = 'pending_flight_booking'`)} AS "toBook",
            ${capped(`bookings WHERE status = 'flight_booking_failed'`)} AS "failedLegs",
            ${capped(`booking_balances WHERE status IN ('scheduled', 'retrying') AND due_date >= $1::date AND due_date <= $1::date + 7`)} AS "balancesDue7",
            ${capped(`booking_balances WHERE status = 'overdue' OR (status IN ('scheduled', 'retrying') AND due_date < $1::date)`)} AS "balancesOverdue",
            ${capped(supplierWork('requested'))} AS "suppliersPending",
            ${capped(supplierWork('declined'))} AS "suppliersDeclined"`,
    [today],
  );
  return rows[0]!;
}

/** CRM sync records that failed, and subscribers whose marketing sync failed or is being retried. */
export async function syncFailures(
  database: Database,
): Promise<{ subscribers: number; leads: number; marketing: number }> {
  const { rows } = await database.query<{ subscribers: number; leads: number; marketing: number }>(
    `SELECT (SELECT count(*) FROM crm_sync_records WHERE model_type = 'newsletter_subscriber' AND status = 'Failed')::int AS subscribers,
            (SELECT count(*) FROM crm_sync_records WHERE model_type = 'lead' AND status = 'Failed')::int AS leads,
            (SELECT count(*) FROM marketing_sync_states WHERE status IN ('Failed', 'Pending'))::int AS marketing`,
  );
  return rows[0] ?? { subscribers: 0, leads: 0, marketing: 0 };
}

/** Customer e-mails the outbox gave up on. */
export async function failedMails(database: Database): Promise<number> {
  const { rows } = await database.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM mail_outbox WHERE status = 'failed'`,
  );
  return rows[0]?.n ?? 0;
}
