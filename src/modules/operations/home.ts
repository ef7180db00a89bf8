// The console's home, "the day at a glance": what was sold, taken and refunded today, in 7 and in
// 30 days (per currency), the work waiting, and the last 30 days per day; each part only for the
// admin whose permissions show its records. Every figure carries the list address of its records.

import { allows, type Grant } from '../../console/permissions.js';
import type { AppContext } from '../../context.js';
import { addDays } from '../../platform/clock.js';
import { formatCents, toCents } from '../../platform/money.js';
import { failedJobCount } from '../monitoring/jobs-console.js';
import type { ChartDay } from './chart.js';
import { remembered } from './memo.js';
import * as repo from './repository.js';
import { daysEnding, dayWindows } from './rules.js';

/** how long the home keeps the sales of the days before today */
const PAST_DAYS_TTL_MS = 5 * 60_000;

export interface Amount {
  currency: string;
  value: string;
}

export interface WindowFigure {
  label: string;
  count: number;
  amounts: Amount[];
  href: string;
}

export interface WorkFigure {
  label: string;
  count: number;
  href: string;
}

export interface HomeFigures {
  today: string;
  sold?: WindowFigure[];
  taken?: WindowFigure[];
  refunded?: WindowFigure[];
  work: WorkFigure[];
  chart?: { days: ChartDay[]; currency: string | null };
}

const WINDOWS = [
  ['today', 'Today'],
  ['week', 'Last 7 days'],
  ['month', 'Last 30 days'],
] as const;

/** Per-window count and value per currency of day rows. */
function windowsOf(rows: repo.DayAmount[], today: string, href: (from: string) => string): WindowFigure[] {
  const w = dayWindows(today);
  return WINDOWS.map(([key, label]) => {
    const inside = rows.filter((r) => r.day >= w[key] && r.day <= today);
    const cents = new Map<string, number>();
    for (const r of inside) cents.set(r.currency, (cents.get(r.currency) ?? 0) + toCents(r.value));
    return {
      label,
      count: inside.reduce((s, r) => s + r.count, 0),
      amounts: [...cents]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, c]) => ({ currency, value: formatCents(c) })),
      href: href(w[key]),
    };
  });
}

export async function homeFigures(ctx: AppContext, grant: Grant): Promise<HomeFigures> {
  const today = ctx.clock.now().toISOString().slice(0, 10);
  const { month } = dayWindows(today);
  const db = ctx.database;
  const bookings = allows(grant, 'view_booking');
  const yesterday = addDays(today, -1);
  const [pastSold, todaySold, taken, refunded, work, sync, mails, jobs] = await Promise.all([
    // the days before today change rarely (kept 5 minutes, see memo.ts); today is read live
    bookings
      ? remembered(ctx, `sold:${month}:${yesterday}`, PAST_DAYS_TTL_MS, () => repo.soldPerDay(db, month, yesterday))
      : null,
    bookings ? repo.soldPerDay(db, today, today) : null,
    bookings ? repo.takenPerDay(db, month, today) : null,
    bookings ? repo.refundedPerDay(db, month, today) : null,
    bookings ? repo.bookingWork(db, today) : null,
    allows(grant, 'view_sync_record') ? repo.syncFailures(db) : null,
    allows(grant, 'view_mail') ? repo.failedMails(db) : null,
    allows(grant, 'view_job') ? failedJobCount(ctx, repo.WORK_COUNT_CAP) : null,
  ]);
  const out: HomeFigures = { today, work: [] };
  const sold = pastSold && todaySold ? [...pastSold.value, ...todaySold] : null;
  if (sold && taken && refunded) {
    out.sold = windowsOf(sold, today, (from) => `/admin/bookings?stage=sold&created_from=${from}&created_to=${today}`);
    out.taken = windowsOf(taken, today, (from) => `/admin/bookings?paid_from=${from}&paid_to=${today}`);
    out.refunded = windowsOf(refunded, today, (from) => `/admin/bookings?refunded_from=${from}&refunded_to=${today}`);
    // the line follows the currency most of the 30 days' value was sold in
    const byCurrency = new Map<string, number>();
    for (const r of sold) byCurrency.set(r.currency, (byCurrency.get(r.currency) ?? 0) + toCents(r.value));
    const currency = [...byCurrency].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null;
    out.chart = {
      currency,
      days: daysEnding(today, 30).map((day) => {
        const rows = sold.filter((r) => r.day === day);
        return {
          day,
          bookings: rows.reduce((s, r) => s + r.count, 0),
          valueCents: rows.filter((r) => r.currency === currency).reduce((s, r) => s + toCents(r.value), 0),
        };
      }),
    };
  }
  if (work) {
    out.work.push(
      {
        label: 'Bookings to book flights for',
        count: work.toBook,
        href: '/admin/bookings?status=pending_flight_booking',
      },
      {
        label: 'Bookings with failed flight legs',
        count: work.failedLegs,
        href: '/admin/bookings?status=flight_booking_failed',
      },
      { label: 'Balances due in 7 days', count: work.balancesDue7, href: '/admin/bookings?balance=due_7' },
      { label: 'Balances overdue', count: work.balancesOverdue, href: '/admin/bookings?balance=overdue' },
      {
        label: 'Bookings waiting for a supplier',
        count: work.suppliersPending,
        href: '/admin/bookings?supplier=pending',
      },
      {
        label: 'Bookings with a declined supplier',
        count: work.suppliersDeclined,
        href: '/admin/bookings?supplier=declined',
      },
    );
  }
  if (sync) {
    out.work.push(
      {
        label: 'Failed CRM syncs of subscribers',
        count: sync.subscribers,
        href: '/admin/sync?model=newsletter_subscriber&status=Failed',
      },
      { label: 'Failed CRM syncs of leads', count: sync.leads, href: '/admin/sync?model=lead&status=Failed' },
      { label: 'Marketing syncs failing or retried', count: sync.marketing, href: '/admin/sync#marketing' },
    );
  }
  if (jobs !== null) out.work.push({ label: 'Failed jobs', count: jobs, href: '/admin/jobs' });
  if (mails !== null) out.work.push({ label: 'Failed e-mails', count: mails, href: '/admin/outbox?status=failed' });
  return out;
}
