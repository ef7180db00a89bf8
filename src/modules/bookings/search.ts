// The console's booking list: search (reference prefix, customer e-mail, last name or "first
// last" prefix), filters (status, market, departure range), sorting, and pages of 50 found with
// LIMIT 51 (a next page exists when the 51st row does), so no page counts the whole table. Every
// filter and sort has an index (migrations 0701, 0702).
import type { Database } from '../../db/database.js';

export const PAGE_SIZE = 50;

export const SORTS = {
  newest: 'b.created_at DESC, b.id DESC',
  oldest: 'b.created_at ASC, b.id ASC',
  departure: 'o.departure_date ASC, b.id ASC',
  departure_desc: 'o.departure_date DESC, b.id DESC',
  reference: 'b.reference ASC',
} as const;
export type SortName = keyof typeof SORTS;

export interface BookingFilter {
  q?: string;
  status?: string;
  market?: string;
  departureFrom?: string;
  departureTo?: string;
  /** created (checkout started) on these UTC days, inclusive */
  createdFrom?: string;
  createdTo?: string;
  /** sold: paid bookings (every status after the checkout) */
  stage?: 'sold';
  /** balance due within 7 days of `today`, or overdue on `today` */
  balance?: 'due_7' | 'overdue';
  /** not cancelled, with a supplier confirmation still requested (pending) or declined */
  supplier?: 'pending' | 'declined';
  /** money taken (a succeeded deposit or balance charge) on these UTC days, inclusive */
  paidFrom?: string;
  paidTo?: string;
  /** money given back (a succeeded refund, counted when it succeeded) on these UTC days, inclusive */
  refundedFrom?: string;
  refundedTo?: string;
  /** one departure (offer id) */
  offer?: number;
  /** the UTC day the balance filters count from */
  today?: string;
  sort: SortName;
  page: number;
}

/** The statuses of bookings that are not sold (yet): the checkout and its abandoned remains. */
export const UNSOLD_STATUSES = ['checkout', 'abandoned'] as const;

export interface BookingListRow {
  id: number;
  reference: string;
  status: string;
  market_code: string;
  total_price: string;
  currency: string;
  created_at: Date;
  departure_date: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
}

const likePrefix = (term: string) => `${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The WHERE conditions of a filter (on bookings `b` and offers `o`) and their parameters. */
function conditionsOf(f: Omit<BookingFilter, 'sort' | 'page'>): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.status) where.push(`b.status = ${p(f.status)}`);
  if (f.market) where.push(`b.market_code = ${p(f.market)}`);
  if (f.departureFrom) where.push(`o.departure_date >= ${p(f.departureFrom)}::date`);
  if (f.departureTo) where.push(`o.departure_date <= ${p(f.departureTo)}::date`);
  if (f.offer !== undefined) where.push(`b.offer_id = ${p(f.offer)}`);
  if (f.stage === 'sold') where.push(`b.status NOT IN (${UNSOLD_STATUSES.map((s) => `'${s}'`).join(', ')})`);
  // created_at is a timestamptz: a day is [day 00:00 UTC, next day 00:00 UTC)
  if (f.createdFrom) where.push(`b.created_at >= ${p(f.createdFrom)}::date::timestamp AT TIME ZONE 'UTC'`);
  if (f.createdTo) where.push(`b.created_at < (${p(f.createdTo)}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  if (f.balance) {
    const today = p(f.today ?? new Date().toISOString().slice(0, 10));
    where.push(
      f.balance === 'due_7'
        ? `b.id IN (SELECT booking_id FROM booking_balances WHERE status IN ('scheduled', 'retrying')
             AND due_date >= ${today}::date AND due_date <= ${today}::date + 7)`
        : `b.id IN (SELECT booking_id FROM booking_balances WHERE status = 'overdue'
             OR (status IN ('scheduled', 'retrying') AND due_date < ${today}::date))`,
    );
  }
  if (f.supplier) {
    // the home's "work waiting" counts the same bookings (operations/repository.ts bookingWork)
    const status = f.supplier === 'pending' ? 'requested' : 'declined';
    where.push(
      `b.status <> 'cancelled' AND b.id IN (SELECT booking_id FROM supplier_confirmations WHERE status = '${status}')`,
    );
  }
  if (f.paidFrom || f.paidTo) {
    const from = p(f.paidFrom ?? '1970-01-01');
    const to = p(f.paidTo ?? '9999-12-30');
    const range = (col: string) =>
      `${col} >= ${from}::date::timestamp AT TIME ZONE 'UTC' AND ${col} < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC'`;
    // deposits and balances alike are Succeeded payment rows, taken when finalized (deposit) or recorded
    where.push(`b.id IN (SELECT booking_id FROM booking_payments WHERE status = 'Succeeded'
      AND ${range('coalesce(finalized_at, created_at)')})`);
  }
  if (f.refundedFrom || f.refundedTo) {
    const from = p(f.refundedFrom ?? '1970-01-01');
    const to = p(f.refundedTo ?? '9999-12-30');
    // a succeeded refund row is last changed when it succeeded (the home counts it on that day)
    where.push(`b.id IN (SELECT booking_id FROM booking_refunds WHERE status = 'succeeded'
      AND updated_at >= ${from}::date::timestamp AT TIME ZONE 'UTC' AND updated_at < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC')`);
  }
  const q = f.q?.trim().replace(/\s+/g, ' ');
  if (q) {
    const lower = p(likePrefix(q.toLowerCase()));
    const upper = p(likePrefix(q.toUpperCase()));
    // each branch on its own index; a plain OR would filter every booking row. The matches are
    // collected first (an InitPlan array), so the few matching bookings are fetched by id instead
    // of walking the whole created_at index to find 51 of them
    where.push(`b.id = ANY(ARRAY(
      SELECT id FROM bookings WHERE reference LIKE ${upper}
      UNION
      SELECT id FROM bookings WHERE client_id IN (
        SELECT id FROM clients WHERE lower(email) LIKE ${lower} OR lower(last_name) LIKE ${lower}
            OR lower(first_name || ' ' || last_name) LIKE ${lower})))`);
  }
  return { where, params };
}

/** SQL and parameters of one page (exported for EXPLAIN in the bench). */
export function bookingListQuery(f: BookingFilter): { sql: string; params: unknown[] } {
  const { where, params } = conditionsOf(f);
  // the page is chosen on bookings (and offers) alone; its 51 rows then get their customer
  const order = SORTS[f.sort];
  // sorted or filtered by departure, the walk starts on offers' departure index (an inner join:
  // a booking whose offer row is gone has no departure to sort or filter by)
  const byDeparture = f.sort.startsWith('departure') || Boolean(f.departureFrom || f.departureTo);
  const page = `LIMIT ${PAGE_SIZE + 1} OFFSET ${(f.page - 1) * PAGE_SIZE}`;
  const where_ = where.length ? `WHERE ${where.join(' AND ')}` : '';
  // not sorted or filtered by departure: the page is chosen on bookings alone (an index walk that
  // reads no offer for the rows of earlier pages); its 51 rows then get their departure
  const sql = byDeparture
    ? `SELECT b.id, b.reference, b.status, b.market_code, b.total_price, b.currency, b.created_at,
       b.departure_date, c.first_name, c.last_name, c.email
  FROM (SELECT b.id, b.reference, b.status, b.market_code, b.total_price, b.currency, b.created_at, b.client_id,
               o.departure_date::text AS departure_date, o.departure_date AS departure_day
          FROM bookings b JOIN offers o ON o.id = b.offer_id
         ${where_} ORDER BY ${order} ${page}) b
  LEFT JOIN clients c ON c.id = b.client_id
 ORDER BY ${order.replaceAll('o.departure_date', 'b.departure_day')}`
    : `SELECT b.id, b.reference, b.status, b.market_code, b.total_price, b.currency, b.created_at,
       o.departure_date::text AS departure_date, c.first_name, c.last_name, c.email
  FROM (SELECT b.id, b.reference, b.status, b.market_code, b.total_price, b.currency, b.created_at, b.client_id, b.offer_id
          FROM bookings b ${where_} ORDER BY ${order} ${page}) b
  LEFT JOIN offers o ON o.id = b.offer_id
  LEFT JOIN clients c ON c.id = b.client_id
 ORDER BY ${order}`;
  return { sql, params };
}

export async function listBookings(
  database: Database,
  f: BookingFilter,
): Promise<{ rows: BookingListRow[]; hasNext: boolean }> {
  const { sql, params } = bookingListQuery(f);
  const { rows } = await database.query<BookingListRow>(sql, params);
  return { rows: rows.slice(0, PAGE_SIZE), hasNext: rows.length > PAGE_SIZE };
}

export async function bookingIdByReference(database: Database, reference: string): Promise<number | null> {
  const { rows } = await database.query<{ id: number }>('SELECT id FROM bookings WHERE reference = $1', [
    reference.toUpperCase(),
  ]);
  return rows[0]?.id ?? null;
}

/** The markets bookings were made in (the market filter's options). */
export async function bookingMarkets(database: Database): Promise<string[]> {
  const { rows } = await database.query<{ code: string }>('SELECT code FROM markets ORDER BY code');
  return rows.map((r) => r.code);
}

export interface BookingExportRow extends BookingListRow {
  language: string;
  actual_pax_count: number;
  actual_room_type: string;
  phone: string | null;
  offer_id: number;
}

/**
 * The bookings a filter finds, by id after `afterId`, `limit` at a time: the export walks them in
 * batches (keyset), so no batch holds more than `limit` rows whatever the total.
 */
export async function bookingExportBatch(
  database: Database,
  f: Omit<BookingFilter, 'sort' | 'page'>,
  afterId: number,
  limit: number,
): Promise<BookingExportRow[]> {
  const { where, params } = conditionsOf(f);
  params.push(afterId, limit);
  const { rows } = await database.query<BookingExportRow>(
    `SELECT b.id, b.reference, b.status, b.market_code, b.language, b.offer_id, o.departure_date::text AS departure_date,
            b.actual_pax_count, b.actual_room_type, b.total_price, b.currency, b.created_at,
            c.first_name, c.last_name, c.email, c.phone
       FROM bookings b
       LEFT JOIN offers o ON o.id = b.offer_id
       LEFT JOIN clients c ON c.id = b.client_id
      WHERE ${[...where, `b.id > $${params.length - 1}`].join(' AND ')}
      ORDER BY b.id LIMIT $${params.length}`,
    params,
  );
  return rows;
}
