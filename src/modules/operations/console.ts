// Console routes of the operations module: the home (the day at a glance), departures with their
// manifest and rooming list, the revenue and funnel reports, and the CSV exports.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { dateField, type FilterErrors, rangeOrder } from '../../console/filters.js';
import { guard, pageOf, sendPage } from '../../console/http.js';
import { allows } from '../../console/permissions.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { filterOf } from '../bookings/console.js';
import { type DepartureFilter, departure, departureProducts, listDepartures } from './departures.js';
import { departurePage, departuresPage } from './departures-page.js';
import { exportBookings, exportDeparture, exportLeads, exportSubscribers } from './exports.js';
import { homeFigures } from './home.js';
import { homePage } from './home-page.js';
import { remembered } from './memo.js';
import { funnel, type ReportFilter, revenue } from './reports.js';
import { funnelPage, revenuePage } from './reports-page.js';

const hidden = { hide: true };
/** reports are computed at most once a minute per filter (memo.ts): the page says when */
const REPORT_TTL_MS = 60_000;

/** A code as the catalog writes it (product templates, markets): anything else is a sentence. */
function codeField(raw: string | undefined, name: string, label: string, errors: FilterErrors) {
  const v = raw?.trim();
  if (!v) return undefined;
  if (/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(v) && v.length <= 100) return v;
  errors[name] = `${label}: "${v.slice(0, 40)}" is not a code from the list. Pick one from the list.`;
  return undefined;
}

export function departureFilterOf(
  query: Record<string, string | undefined>,
  today: string,
): { filter: DepartureFilter; errors: FilterErrors } {
  const errors: FilterErrors = {};
  const filter: DepartureFilter = {
    product: codeField(query.product, 'product', 'Product', errors),
    market: codeField(query.market, 'market', 'Market', errors),
    // upcoming departures unless the form says otherwise (an emptied field: from the first one)
    from: query.from === undefined ? today : dateField(query.from, 'from', 'Departing from', errors),
    to: dateField(query.to, 'to', 'Departing until', errors),
    page: Math.max(1, Math.min(1000, Number.parseInt(query.page ?? '1', 10) || 1)),
  };
  rangeOrder(filter.from, filter.to, 'to', 'Departing until', errors);
  return { filter, errors };
}

/** The reports' period (default: the first day of the month 11 months back, to today), market and product. */
export function reportFilterOf(
  query: Record<string, string | undefined>,
  today: string,
): { filter: Partial<ReportFilter>; errors: FilterErrors } {
  const errors: FilterErrors = {};
  const yearStart = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  yearStart.setUTCMonth(yearStart.getUTCMonth() - 11);
  const filter: Partial<ReportFilter> = {
    from:
      query.from === undefined
        ? yearStart.toISOString().slice(0, 10)
        : dateField(query.from, 'from', 'Booked from', errors),
    to: query.to === undefined ? today : dateField(query.to, 'to', 'Booked until', errors),
    market: codeField(query.market, 'market', 'Market', errors),
    product: codeField(query.product, 'product', 'Product', errors),
  };
  if (!filter.from && !errors.from) errors.from = 'Booked from: give the first day of the period.';
  if (!filter.to && !errors.to) errors.to = 'Booked until: give the last day of the period.';
  rangeOrder(filter.from, filter.to, 'to', 'Booked until', errors);
  return { filter, errors };
}

function departuresHref(f: DepartureFilter, page: number): string {
  const q = new URLSearchParams();
  if (f.product) q.set('product', f.product);
  if (f.market) q.set('market', f.market);
  q.set('from', f.from ?? '');
  if (f.to) q.set('to', f.to);
  if (page > 1) q.set('page', String(page));
  return `/admin/departures?${q}`;
}

function offerIdOf(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  if (!/^\d{1,9}$/.test(raw)) throw new AppError(404, 'departure_not_found', 'There is no such departure.');
  return Number(raw);
}

export async function operationsConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const opts = (permission?: Parameters<typeof guard>[1]) => ({ schema: hidden, preHandler: guard(ctx, permission) });
  const today = () => ctx.clock.now().toISOString().slice(0, 10);

  app.get('/admin', opts(), async (request, reply) => {
    const p = pageOf(request);
    return sendPage(reply, homePage(p, await homeFigures(ctx, p.actor.grant)));
  });

  // ------------------------------------------------------------------------------- departures
  app.get('/admin/departures', opts('view_booking'), async (request, reply) => {
    const { filter, errors } = departureFilterOf(request.query as Record<string, string>, today());
    const failed = Object.keys(errors).length > 0;
    const [data, products, markets] = await Promise.all([
      failed ? { rows: [], hasNext: false } : listDepartures(ctx.database, filter),
      departureProducts(ctx.database),
      ctx.markets.all(),
    ]);
    return sendPage(
      reply,
      departuresPage(pageOf(request), filter, { products, markets: [...markets.keys()].sort() }, data, errors, (n) =>
        departuresHref(filter, n),
      ),
      failed ? 422 : 200,
    );
  });

  app.get('/admin/departures/:id', opts('view_booking'), async (request, reply) => {
    const p = pageOf(request);
    const d = await departure(ctx.database, offerIdOf(request));
    return sendPage(reply, departurePage(p, d, allows(p.actor.grant, 'export_booking')));
  });

  for (const what of ['manifest', 'rooming'] as const) {
    app.get(`/admin/departures/:id/${what}.csv`, opts('export_booking'), async (request, reply) => {
      const d = await departure(ctx.database, offerIdOf(request));
      return exportDeparture(ctx, pageOf(request).actor, reply, d, what);
    });
  }

  // ------------------------------------------------------------------------------- reports
  app.get('/admin/reports', opts('view_report'), async (_request, reply) =>
    reply.redirect('/admin/reports/revenue', 303),
  );

  const choices = async () => {
    const [products, markets] = await Promise.all([departureProducts(ctx.database), ctx.markets.all()]);
    return { products, markets: [...markets.keys()].sort() };
  };

  app.get('/admin/reports/revenue', opts('view_report'), async (request, reply) => {
    const { filter, errors } = reportFilterOf(request.query as Record<string, string>, today());
    const ok = Object.keys(errors).length === 0;
    const f = filter as ReportFilter;
    const [data, c] = await Promise.all([
      ok
        ? remembered(ctx, `revenue:${JSON.stringify(f)}`, REPORT_TTL_MS, async () => {
            const [months, products] = await Promise.all([
              revenue(ctx.database, f, 'month'),
              revenue(ctx.database, f, 'product'),
            ]);
            return { months, products };
          })
        : null,
      choices(),
    ]);
    return sendPage(
      reply,
      revenuePage(pageOf(request), filter, c, errors, data ? { ...data.value, at: data.at } : null),
      ok ? 200 : 422,
    );
  });

  app.get('/admin/reports/funnel', opts('view_report'), async (request, reply) => {
    const { filter, errors } = reportFilterOf(request.query as Record<string, string>, today());
    const ok = Object.keys(errors).length === 0;
    const f = filter as ReportFilter;
    const [data, c] = await Promise.all([
      ok ? remembered(ctx, `funnel:${JSON.stringify(f)}`, REPORT_TTL_MS, () => funnel(ctx.database, f)) : null,
      choices(),
    ]);
    return sendPage(
      reply,
      funnelPage(pageOf(request), filter, c, errors, data ? { ...data.value, at: data.at } : null),
      ok ? 200 : 422,
    );
  });

  // ------------------------------------------------------------------------------- exports
  app.get('/admin/bookings/export.csv', opts('export_booking'), async (request, reply) => {
    const query = request.query as Record<string, string>;
    const { filter, errors } = filterOf(query, { today: today() });
    if (Object.keys(errors).length > 0) {
      throw new AppError(422, 'invalid_filter', Object.values(errors).join(' '));
    }
    const given = Object.fromEntries(Object.entries(query).filter(([k, v]) => k !== 'page' && v));
    return exportBookings(ctx, pageOf(request).actor, reply, filter, given);
  });

  app.get('/admin/leads/export.csv', opts('export_lead'), async (request, reply) =>
    exportLeads(ctx, pageOf(request).actor, reply),
  );

  app.get('/admin/subscribers/export.csv', opts('export_subscriber'), async (request, reply) =>
    exportSubscribers(ctx, pageOf(request).actor, reply),
  );
}
