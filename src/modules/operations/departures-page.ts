// Console pages of departures: the list (filters: product, market, date range) and one
// departure: bookings with their payments, manifest, rooming list, services per day. The page
// prints as a document for a guide or a hotel (console.css, @media print).

import { type FilterErrors, filterError, filterProblems, invalidAttrs } from '../../console/filters.js';
import { badge, layout, type PageContext } from '../../console/views.js';
import { type Html, html } from '../../platform/html.js';
import { type Departure, type DepartureFilter, type DepartureRow, freeSeats, owed } from './departures.js';

const option = (value: string, label: string, current?: string) =>
  html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${label}</option>`;

export function departuresPage(
  p: PageContext,
  f: DepartureFilter,
  choices: { products: { code: string; title: string }[]; markets: string[] },
  data: { rows: DepartureRow[]; hasNext: boolean },
  errors: FilterErrors,
  href: (page: number) => string,
): string {
  const rows = data.rows.length
    ? data.rows.map(
        (
          d,
        ) => html`<tr><td><a href="/admin/departures/${d.id}">${d.departure_date}</a></td><td>${d.product}<br><span class="muted">${d.template} · ${d.code}</span></td>
<td>${d.market}</td><td>${d.departure_airport}</td><td class="n">${d.sold}</td><td class="n">${d.held}</td><td class="n">${freeSeats(d)}</td>
<td class="n"><a href="/admin/bookings?offer=${d.id}&amp;stage=sold" aria-label="${d.bookings} booking(s) of ${d.departure_date} ${d.product}">${d.bookings}</a></td>
<td class="n">${d.revenue} ${d.currency}</td><td>${badge(d.status)}</td></tr>`,
      )
    : html`<tr><td colspan="10" class="muted">${Object.keys(errors).length ? 'Change the filters above to list departures.' : 'No departure matches.'}</td></tr>`;
  const dateInput = (name: 'from' | 'to', label: string) =>
    html`<div><label for="${name}">${label}</label><input id="${name}" name="${name}" type="date" value="${f[name] ?? ''}"${invalidAttrs(errors, name)}>${filterError(errors, name)}</div>`;
  return layout(
    p,
    'Departures',
    html`<h1>Departures</h1>${filterProblems(errors)}
<form method="get" action="/admin/departures" class="card filters" role="search" aria-label="Find departures">
<div><label for="product">Product</label><select id="product" name="product"${invalidAttrs(errors, 'product')}>${option('', 'Any product', f.product)}${choices.products.map((x) => option(x.code, `${x.title} (${x.code})`, f.product))}</select>${filterError(errors, 'product')}</div>
<div><label for="market">Market</label><select id="market" name="market"${invalidAttrs(errors, 'market')}>${option('', 'Any market', f.market)}${choices.markets.map((m) => option(m, m, f.market))}</select>${filterError(errors, 'market')}</div>
${dateInput('from', 'Departing from')}${dateInput('to', 'Departing until')}
<div><button type="submit">Show departures</button></div></form>
<div class="card table-wrap"><table><caption>Departures by date, page ${f.page}</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Product</th><th scope="col">Market</th><th scope="col">Airport</th><th scope="col" class="n">Seats sold</th><th scope="col" class="n">Held</th><th scope="col" class="n">Free</th><th scope="col" class="n">Bookings</th><th scope="col" class="n">Revenue</th><th scope="col">Status</th></tr></thead>
<tbody>${rows}</tbody></table>
<nav class="pager" aria-label="Pages">${f.page > 1 ? html`<a href="${href(f.page - 1)}" rel="prev">Previous page</a>` : ''}
<span>Page ${f.page}</span>${data.hasNext ? html`<a href="${href(f.page + 1)}" rel="next">Next page</a>` : ''}</nav></div>`,
  );
}

const exportLink = (href: string, what: string, canExport: boolean): Html =>
  canExport
    ? html` <a class="button secondary small no-print" href="${href}" aria-label="Export CSV: ${what}">Export CSV</a>`
    : html``;

export function departurePage(p: PageContext, d: Departure, canExport: boolean): string {
  const o = d.offer;
  const base = `/admin/departures/${o.id}`;
  const bookings = d.bookings.length
    ? d.bookings.map(
        (b) => html`<tr><td><a href="/admin/bookings/${b.reference}">${b.reference}</a></td><td>${badge(b.status)}</td>
<td>${b.contact_name ?? '–'}<br><span class="muted">${b.contact_phone ?? ''}</span></td><td class="n">${b.pax}</td><td>${b.room_type}</td>
<td class="n">${b.total_price} ${b.currency}</td><td class="n">${b.paid} ${b.currency}</td><td class="n">${owed(b)} ${b.currency}</td>
<td>${b.balance_status ? html`${badge(b.balance_status)}${b.balance_due ? html` <span class="muted">due ${b.balance_due}</span>` : ''}` : html`<span class="muted">–</span>`}</td></tr>`,
      )
    : html`<tr><td colspan="9" class="muted">No booking yet.</td></tr>`;
  const manifest = d.manifest.length
    ? d.manifest.map(
        (
          m,
        ) => html`<tr><td>${m.booking}</td><td>${m.title ? `${m.title} ` : ''}${m.first_name} ${m.last_name}</td><td>${m.nationality}</td>
<td>${m.birth_date}</td><td>${m.passport_expiry}</td><td>${m.lead ? 'Lead' : ''}</td><td>${m.phone}</td></tr>`,
      )
    : html`<tr><td colspan="7" class="muted">No passenger yet.</td></tr>`;
  const rooming = d.rooming.length
    ? d.rooming.map(
        (g) =>
          html`<h3>Nights of days ${g.start}–${g.end}: ${g.checkIn} to ${g.checkOut}</h3>${
            g.hotels.length
              ? g.hotels.map(
                  (
                    h,
                  ) => html`<table><caption>${h.hotel} <span class="muted">(${h.tier.replaceAll('_', ' ')})</span>, ${h.rooms.length} room(s)</caption>
<thead><tr><th scope="col">Booking</th><th scope="col">Room type</th><th scope="col">Guests</th><th scope="col">Upgrade</th></tr></thead>
<tbody>${h.rooms.map((r) => html`<tr><td>${r.booking}</td><td>${r.roomType}</td><td>${r.guests.join(', ')}</td><td>${r.upgrade ? 'Upgrade' : ''}</td></tr>`)}</tbody></table>`,
                )
              : html`<p class="muted">No room booked.</p>`
          }`,
      )
    : html`<p class="muted">The tour has no hotel stays.</p>`;
  const days = d.days.length
    ? d.days.map(
        (day) =>
          html`<h3>Day ${day.day}, ${day.date}</h3><ul>${day.services.map(
            (
              s,
            ) => html`<li><strong>${s.kind === 'activity' ? 'Activity' : 'Transfer'}: ${s.name}</strong> (${s.included ? 'included' : 'extra'}):
${s.participants.reduce((n, x) => n + x.names.length, 0)} participant(s)${s.participants.length ? html`: ${s.participants.map((x) => `${x.booking} (${x.names.join(', ')})`).join('; ')}` : ''}</li>`,
          )}</ul>`,
      )
    : html`<p class="muted">No activity or transfer on this tour.</p>`;
  return layout(
    p,
    `Departure ${o.departure_date} ${o.product}`,
    html`<p class="no-print"><a href="/admin/departures">← Departures</a></p>
<h1>${o.product}: ${o.departure_date}</h1>
<div class="card"><dl class="facts"><dt>Offer</dt><dd>${o.code} (${o.template}, market ${o.market})</dd><dt>Departure</dt><dd>${o.departure_date} from ${o.departure_airport}${o.return_date ? `, back ${o.return_date}` : ''}</dd>
<dt>Status</dt><dd>${badge(o.status)}</dd><dt>Seats</dt><dd>${o.sold} sold, ${o.held} held, ${freeSeats(o)} free of ${o.allotment}</dd>
<dt>Bookings</dt><dd>${o.bookings}, ${o.revenue} ${o.currency}${d.unfinishedCheckouts ? html` <span class="muted">(and ${d.unfinishedCheckouts} unfinished checkout(s))</span>` : ''}</dd></dl>
<p class="muted no-print">Printing this page (Ctrl+P) leaves out the navigation and the buttons: a document to send a guide or a hotel.</p></div>
<section class="card table-wrap" aria-labelledby="bookings"><h2 id="bookings">Bookings and payments</h2><table>
<thead><tr><th scope="col">Booking</th><th scope="col">Status</th><th scope="col">Contact</th><th scope="col" class="n">Travellers</th><th scope="col">Room</th><th scope="col" class="n">Total</th><th scope="col" class="n">Paid</th><th scope="col" class="n">To pay</th><th scope="col">Balance</th></tr></thead>
<tbody>${bookings}</tbody></table></section>
<section class="card table-wrap" aria-labelledby="manifest"><h2 id="manifest">Passenger manifest${exportLink(`${base}/manifest.csv`, 'passenger manifest', canExport)}</h2><table>
<thead><tr><th scope="col">Booking</th><th scope="col">Name</th><th scope="col">Nationality</th><th scope="col">Birth date</th><th scope="col">Passport expiry</th><th scope="col">Lead</th><th scope="col">Contact phone</th></tr></thead>
<tbody>${manifest}</tbody></table></section>
<section class="card table-wrap" aria-labelledby="rooming"><h2 id="rooming">Rooming list${exportLink(`${base}/rooming.csv`, 'rooming list', canExport)}</h2>${rooming}</section>
<section class="card" aria-labelledby="services"><h2 id="services">Activities and transfers per day</h2>${days}</section>`,
  );
}
