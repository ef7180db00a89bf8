// The console's home page: the day at a glance (see home.ts for what each figure counts).

import { layout, type PageContext } from '../../console/views.js';
import { type Html, html } from '../../platform/html.js';
import { dailyChart } from './chart.js';
import type { HomeFigures, WindowFigure } from './home.js';
import { WORK_COUNT_CAP } from './repository.js';

function windowCards(title: string, id: string, list: WindowFigure[], what: string): Html {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2><div class="figures">${list.map(
    (w) => html`<a class="figure" href="${w.href}"><span class="label">${w.label}</span>
<span class="value">${w.count} ${what}</span>${
      w.amounts.length
        ? w.amounts.map((a) => html`<span class="amount">${a.value} ${a.currency}</span><br>`)
        : html`<span class="muted">nothing</span>`
    }</a>`,
  )}</div></section>`;
}

export function homePage(p: PageContext, f: HomeFigures): string {
  const work = f.work.length
    ? html`<section aria-labelledby="work"><h2 id="work">Work waiting</h2><div class="figures">${f.work.map(
        (w) =>
          html`<a class="figure${w.count > 0 ? ' attention' : ''}" href="${w.href}"><span class="value">${w.count > WORK_COUNT_CAP ? `${WORK_COUNT_CAP}+` : w.count}</span><span class="label">${w.label}</span></a>`,
      )}</div></section>`
    : '';
  const nothing = !f.sold && f.work.length === 0;
  return layout(
    p,
    'Today',
    html`<h1>The day at a glance</h1><p class="muted">${f.today} (UTC) · signed in as ${p.actor.name}</p>
${f.sold ? windowCards('Bookings sold', 'sold', f.sold, 'booking(s)') : ''}
${f.taken ? windowCards('Money taken (deposits and balances)', 'taken', f.taken, 'payment(s)') : ''}
${f.refunded ? windowCards('Money refunded', 'refunded', f.refunded, 'refund(s)') : ''}
${work}
${
  f.chart
    ? html`<section aria-labelledby="per-day" class="card"><h2 id="per-day">Last 30 days, per day</h2>
<p class="legend"><span><span class="swatch bookings"></span>Bookings sold</span><span><span class="swatch revenue"></span>Their value${f.chart.currency ? ` (${f.chart.currency})` : ''}</span></p>
${dailyChart(f.chart.days, f.chart.currency)}</section>`
    : ''
}${nothing ? html`<p>Your roles show no figures here. Use the navigation, or ask an administrator for more.</p>` : ''}`,
  );
}
