// The reports: Revenue (per month of booking and market: booked value, money taken as deposits
// and balances, refunded, what is still outstanding; and per product) and the checkout Funnel (from the
// step visits spec 2 records: sessions started, reached each step, paid, conversion between
// steps) for a period, a market and a product. Months and days are UTC.
import type { Database } from '../../db/database.js';
import { formatCents, toCents } from '../../platform/money.js';
import { BOOKING_CANCELLED } from '../bookings/cancellation-rules.js';
import { UNSOLD_STATUSES } from '../bookings/search.js';
import { FUNNEL_STEPS } from '../checkout/rules.js';
import { percent } from './rules.js';

const SOLD = `b.status NOT IN (${UNSOLD_STATUSES.map((s) => `'${s}'`).join(', ')})`;
/** a booking that still owes what it has not paid (a cancelled one owes nothing) */
const LIVE = `b.status <> '${BOOKING_CANCELLED}'`;

export interface ReportFilter {
  /** first and last UTC day of the period, inclusive */
  from: string;
  to: string;
  market?: string;
  product?: string;
}

function conditions(f: ReportFilter): { where: string[]; params: unknown[] } {
  const params: unknown[] = [f.from, f.to];
  const where = [
    `b.created_at >= $1::date::timestamp AT TIME ZONE 'UTC'`,
    `b.created_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'`,
  ];
  if (f.market) {
    params.push(f.market);
    where.push(`b.market_code = $${params.length}`);
  }
  if (f.product) {
    params.push(f.product);
    where.push(`b.offer_id IN (SELECT o.id FROM offers o JOIN market_products mp ON mp.id = o.market_product_id
                 JOIN product_templates pt ON pt.id = mp.template_id WHERE pt.code = $${params.length})`);
  }
  return { where, params };
}

export interface RevenueRow {
  /** YYYY-MM, or the product's code and title in the per-product table */
  key: string;
  label: string;
  market: string;
  currency: string;
  bookings: number;
  booked: string;
  deposits: string;
  balances: string;
  refunded: string;
  outstanding: string;
}

/**
 * Booked value of the sold bookings made in the period, grouped by `by` (month or product) and
 * market and currency; taken: their succeeded payments (a deposit is a payment made with the
 * checkout's quote, a balance one made after); refunded: their succeeded refunds; outstanding:
 * booked less taken of the bookings not cancelled (a cancelled booking owes nothing: its fee is
 * what it kept of the money taken). A refund never adds to what is owed. Three grouped reads
 * (bookings, payments, refunds, each joined to their bookings) merged here: none walks another.
 */
export async function revenue(database: Database, f: ReportFilter, by: 'month' | 'product'): Promise<RevenueRow[]> {
  const { where, params } = conditions(f);
  const key = by === 'month' ? `to_char(b.created_at AT TIME ZONE 'UTC', 'YYYY-MM')` : `coalesce(pt.code, '')`;
  const products =
    by === 'product'
      ? `LEFT JOIN offers o ON o.id = b.offer_id LEFT JOIN market_products mp ON mp.id = o.market_product_id
         LEFT JOIN product_templates pt ON pt.id = mp.template_id`
      : '';
  const label = by === 'product' ? 'max(pt.title)' : 'NULL';
  const [booked, taken, refunded] = await Promise.all([
    database.query<{
      key: string;
      label: string | null;
      market: string;
      currency: string;
      bookings: number;
      booked: string;
      owed: string;
    }>(
      `SELECT ${key} AS key, ${label} AS label, b.market_code AS market, b.currency, count(*)::int AS bookings,
              sum(b.total_price)::numeric(14, 2)::text AS booked,
              coalesce(sum(b.total_price) FILTER (WHERE ${LIVE}), 0)::numeric(14, 2)::text AS owed
         FROM bookings b ${products}
        WHERE ${where.join(' AND ')} AND ${SOLD}
        GROUP BY 1, 3, 4 ORDER BY 1, 3, 4`,
      params,
    ),
    database.query<{
      key: string;
      market: string;
      currency: string;
      deposits: string;
      balances: string;
      paid: string;
    }>(
      `SELECT ${key} AS key, b.market_code AS market, b.currency,
              coalesce(sum(bp.amount) FILTER (WHERE bp.quote IS NOT NULL), 0)::numeric(14, 2)::text AS deposits,
              coalesce(sum(bp.amount) FILTER (WHERE bp.quote IS NULL), 0)::numeric(14, 2)::text AS balances,
              coalesce(sum(bp.amount) FILTER (WHERE ${LIVE}), 0)::numeric(14, 2)::text AS paid
         FROM booking_payments bp JOIN bookings b ON b.id = bp.booking_id ${products}
        WHERE bp.status = 'Succeeded' AND ${where.join(' AND ')} AND ${SOLD}
        GROUP BY 1, 2, 3`,
      params,
    ),
    database.query<{ key: string; market: string; currency: string; refunded: string }>(
      `SELECT ${key} AS key, b.market_code AS market, b.currency,
              sum(br.amount)::numeric(14, 2)::text AS refunded
         FROM booking_refunds br JOIN bookings b ON b.id = br.booking_id ${products}
        WHERE br.status = 'succeeded' AND ${where.join(' AND ')} AND ${SOLD}
        GROUP BY 1, 2, 3`,
      params,
    ),
  ]);
  const group = (r: { key: string; market: string; currency: string }) => `${r.key}|${r.market}|${r.currency}`;
  const takenOf = new Map(taken.rows.map((r) => [group(r), r]));
  const refundedOf = new Map(refunded.rows.map((r) => [group(r), r.refunded]));
  return booked.rows.map((r) => {
    const t = takenOf.get(group(r));
    const deposits = t?.deposits ?? '0.00';
    const balances = t?.balances ?? '0.00';
    const outstanding = Math.max(0, toCents(r.owed) - toCents(t?.paid ?? '0.00'));
    return {
      key: r.key,
      label: r.key === '' ? '(offer removed)' : (r.label ?? r.key),
      market: r.market,
      currency: r.currency,
      bookings: r.bookings,
      booked: r.booked,
      deposits,
      balances,
      refunded: refundedOf.get(group(r)) ?? '0.00',
      outstanding: formatCents(outstanding),
    };
  });
}

export interface FunnelReport {
  started: number;
  steps: { step: string; reached: number; ofStarted: number | null; ofPrevious: number | null }[];
  paid: number;
  paidOfStarted: number | null;
  paidOfLastStep: number | null;
}

/** Checkouts started in the period (every start makes a booking), the steps they reached, paid. */
export async function funnel(database: Database, f: ReportFilter): Promise<FunnelReport> {
  const { where, params } = conditions(f);
  const [totals, visits] = await Promise.all([
    database.query<{ started: number; paid: number }>(
      `SELECT count(*)::int AS started, count(*) FILTER (WHERE ${SOLD})::int AS paid FROM bookings b WHERE ${where.join(' AND ')}`,
      params,
    ),
    database.query<{ step: string; reached: number }>(
      `SELECT v.step, count(*)::int AS reached FROM booking_step_visits v JOIN bookings b ON b.id = v.booking_id
        WHERE ${where.join(' AND ')} GROUP BY v.step`,
      params,
    ),
  ]);
  const started = totals.rows[0]?.started ?? 0;
  const paid = totals.rows[0]?.paid ?? 0;
  const reachedOf = (s: string) => visits.rows.find((v) => v.step === s)?.reached ?? 0;
  const steps = FUNNEL_STEPS.map((step, i) => {
    const reached = reachedOf(step);
    return {
      step,
      reached,
      ofStarted: percent(reached, started),
      ofPrevious: i === 0 ? percent(reached, started) : percent(reached, reachedOf(FUNNEL_STEPS[i - 1]!)),
    };
  });
  return {
    started,
    steps,
    paid,
    paidOfStarted: percent(paid, started),
    paidOfLastStep: percent(paid, reachedOf(FUNNEL_STEPS.at(-1)!)),
  };
}
