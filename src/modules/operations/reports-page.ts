// Console pages of the reports: Revenue and Funnel, with one filter form (period, market,
// product) and tabs between them.

import { type FilterErrors, filterError, filterProblems, invalidAttrs } from '../../console/filters.js';
import { layout, type PageContext, sectionTabs, when } from '../../console/views.js';
import { type Html, html } from '../../platform/html.js';
import type { FunnelReport, ReportFilter, RevenueRow } from './reports.js';

const TABS = [
  ['/admin/reports/revenue', 'Revenue'],
  ['/admin/reports/funnel', 'Funnel'],
] as const;

const option = (value: string, label: string, current?: string) =>
  html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${label}</option>`;

function filterForm(
  action: string,
  f: Partial<ReportFilter>,
  choices: { products: { code: string; title: string }[]; markets: string[] },
  errors: FilterErrors,
): Html {
  const date = (name: 'from' | 'to', label: string) =>
    html`<div><label for="${name}">${label}</label><input id="${name}" name="${name}" type="date" value="${f[name] ?? ''}"${invalidAttrs(errors, name)}>${filterError(errors, name)}</div>`;
  return html`${filterProblems(errors)}<form method="get" action="${action}" class="card filters" role="search" aria-label="Report period and scope">
${date('from', 'Booked from')}${date('to', 'Booked until')}
<div><label for="market">Market</label><select id="market" name="market"${invalidAttrs(errors, 'market')}>${option('', 'Every market', f.market)}${choices.markets.map((m) => option(m, m, f.market))}</select>${filterError(errors, 'market')}</div>
<div><label for="product">Product</label><select id="product" name="product"${invalidAttrs(errors, 'product')}>${option('', 'Every product', f.product)}${choices.products.map((x) => option(x.code, `${x.title} (${x.code})`, f.product))}</select>${filterError(errors, 'product')}</div>
<div><button type="submit">Show</button></div></form>`;
}

function revenueTable(caption: string, first: string, rows: RevenueRow[]): Html {
  return html`<div class="card table-wrap"><table><caption>${caption}</caption>
<thead><tr><th scope="col">${first}</th><th scope="col">Market</th><th scope="col" class="n">Bookings</th><th scope="col" class="n">Booked</th><th scope="col" class="n">Deposits taken</th><th scope="col" class="n">Balances taken</th><th scope="col" class="n">Refunded</th><th scope="col" class="n">Outstanding</th></tr></thead>
<tbody>${
    rows.length
      ? rows.map(
          (
            r,
          ) => html`<tr><th scope="row">${r.label}</th><td>${r.market}</td><td class="n">${r.bookings}</td><td class="n">${r.booked} ${r.currency}</td>
<td class="n">${r.deposits} ${r.currency}</td><td class="n">${r.balances} ${r.currency}</td><td class="n">${r.refunded} ${r.currency}</td><td class="n">${r.outstanding} ${r.currency}</td></tr>`,
        )
      : html`<tr><td colspan="8" class="muted">No booking sold in this period.</td></tr>`
  }</tbody></table></div>`;
}

export interface ReportChoices {
  products: { code: string; title: string }[];
  markets: string[];
}

export function revenuePage(
  p: PageContext,
  f: Partial<ReportFilter>,
  choices: ReportChoices,
  errors: FilterErrors,
  data: { months: RevenueRow[]; products: RevenueRow[]; at: Date } | null,
): string {
  return layout(
    p,
    'Revenue report',
    html`<h1>Reports: revenue</h1>${sectionTabs(p, 'Reports', TABS)}${filterForm('/admin/reports/revenue', f, choices, errors)}
<p class="muted">Sold bookings made in the period, by the UTC month they were made in: their value, the money taken for them so far (deposits at checkout, balances after), what was refunded to them and what they still owe (a cancelled booking owes nothing).</p>
${data ? html`${asOf(data.at)}${revenueTable('Per month and market', 'Month', data.months)}${revenueTable('Per product and market', 'Product', data.products)}` : ''}`,
  );
}

/** when the figures were computed: they are kept a minute */
const asOf = (at: Date) =>
  html`<p class="muted">Figures as of ${when(at)}; they are computed at most once a minute.</p>`;

const pct = (v: number | null) => (v === null ? '–' : `${v} %`);

export function funnelPage(
  p: PageContext,
  f: Partial<ReportFilter>,
  choices: ReportChoices,
  errors: FilterErrors,
  data: (FunnelReport & { at: Date }) | null,
): string {
  return layout(
    p,
    'Funnel report',
    html`<h1>Reports: checkout funnel</h1>${sectionTabs(p, 'Reports', TABS)}${filterForm('/admin/reports/funnel', f, choices, errors)}
<p class="muted">Checkouts started in the period (each start makes a booking), the first visit of each step they reached, and those paid.</p>
${
  data
    ? html`${asOf(data.at)}<div class="card table-wrap"><table><caption>Checkout funnel</caption>
<thead><tr><th scope="col">Step</th><th scope="col" class="n">Sessions</th><th scope="col" class="n">Of started</th><th scope="col" class="n">From the step before</th></tr></thead>
<tbody><tr><th scope="row">Started</th><td class="n">${data.started}</td><td class="n">100 %</td><td class="n">–</td></tr>
${data.steps.map(
  (s) =>
    html`<tr><th scope="row">${s.step.replaceAll('_', ' ')}</th><td class="n">${s.reached}</td><td class="n">${pct(s.ofStarted)}</td><td class="n">${pct(s.ofPrevious)}</td></tr>`,
)}<tr><th scope="row">Paid</th><td class="n">${data.paid}</td><td class="n">${pct(data.paidOfStarted)}</td><td class="n">${pct(data.paidOfLastStep)}</td></tr></tbody></table></div>`
    : ''
}`,
  );
}
