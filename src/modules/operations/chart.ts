// The home's chart, drawn on the server as SVG (no client code): bookings per day as bars on the
// left scale, their value per day as a line on the right scale, 30 days oldest first.
import { type Html, html } from '../../platform/html.js';
import { formatCents } from '../../platform/money.js';
import { niceMax } from './rules.js';

export interface ChartDay {
  day: string;
  bookings: number;
  valueCents: number;
}

const W = 900;
const H = 240;
const M = { top: 16, right: 70, bottom: 30, left: 44 };

export function dailyChart(days: ChartDay[], currency: string | null): Html {
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const maxCount = niceMax(Math.max(0, ...days.map((d) => d.bookings)));
  const maxValue = niceMax(Math.max(0, ...days.map((d) => d.valueCents)) / 100);
  const step = plotW / Math.max(1, days.length);
  const x = (i: number) => M.left + i * step;
  const yCount = (n: number) => M.top + plotH - (n / maxCount) * plotH;
  const yValue = (cents: number) => M.top + plotH - (cents / 100 / maxValue) * plotH;
  const bars = days.map((d, i) => {
    const top = yCount(d.bookings);
    return html`<rect class="bar" x="${(x(i) + 1).toFixed(1)}" y="${top.toFixed(1)}" width="${Math.max(1, step - 2).toFixed(1)}" height="${(M.top + plotH - top).toFixed(1)}"><title>${d.day}: ${d.bookings} booking(s), ${formatCents(d.valueCents)} ${currency ?? ''}</title></rect>`;
  });
  const points = days.map((d, i) => `${(x(i) + step / 2).toFixed(1)},${yValue(d.valueCents).toFixed(1)}`).join(' ');
  const label = (i: number) =>
    days[i]
      ? html`<text x="${(x(i) + step / 2).toFixed(1)}" y="${H - 10}" text-anchor="middle">${days[i]!.day.slice(5)}</text>`
      : '';
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const total = days.reduce((s, d) => s + d.bookings, 0);
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
<title id="chart-title">Bookings and their value per day</title>
<desc id="chart-desc">${total} booking(s) from ${first} to ${last}; bars count bookings (left scale up to ${maxCount}), the line is their value in ${currency ?? 'the main currency'} (right scale up to ${maxValue}).</desc>
<line class="axis" x1="${M.left}" y1="${M.top + plotH}" x2="${W - M.right}" y2="${M.top + plotH}"/>
<text x="${M.left - 6}" y="${M.top + 4}" text-anchor="end">${maxCount}</text><text x="${M.left - 6}" y="${M.top + plotH}" text-anchor="end">0</text>
<text x="${W - M.right + 6}" y="${M.top + 4}">${maxValue}</text><text x="${W - M.right + 6}" y="${M.top + plotH}">0</text>
${bars}${days.length ? html`<polyline class="line" points="${points}"/>` : ''}
${label(0)}${label(Math.floor(days.length / 2))}${label(days.length - 1)}</svg>`;
}
