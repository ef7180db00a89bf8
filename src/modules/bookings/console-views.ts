// Console pages of the bookings module: the list (search, filters, sorting, pages) and one
// booking (status and timeline, contact, passengers, selections, payments, flight legs with their
// flight-booking records, notifications) with its Book All Flights / Retry action.

import { type FilterErrors, filterError, filterProblems, invalidAttrs } from '../../console/filters.js';
import { allows } from '../../console/permissions.js';
import { badge, csrfField, layout, notice, type PageContext, when } from '../../console/views.js';
import { type Html, html } from '../../platform/html.js';
import { CANCELLABLE_STATUSES } from './cancellation-rules.js';
import type { BookingFilter, BookingListRow } from './search.js';
import type { bookingView } from './view.js';

export type BookingView = Awaited<ReturnType<typeof bookingView>>;

const SORT_LABELS: Record<BookingFilter['sort'], string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  departure: 'Departure, soonest first',
  departure_desc: 'Departure, latest first',
  reference: 'Reference',
};

export function bookingsPage(
  p: PageContext,
  f: BookingFilter,
  markets: string[],
  data: { rows: BookingListRow[]; hasNext: boolean },
  href: (page: number) => string,
  opts: { errors: FilterErrors; exportHref?: string; statuses: readonly string[] },
): string {
  const { errors } = opts;
  const option = (value: string, label: string, current?: string) =>
    html`<option value="${value}"${value === (current ?? '') ? html` selected` : ''}>${label}</option>`;
  const rows = data.rows.length
    ? data.rows.map(
        (b) => html`<tr><td><a href="/admin/bookings/${b.reference}">${b.reference}</a></td>
<td>${b.first_name ?? ''} ${b.last_name ?? ''}<br><span class="muted">${b.email ?? ''}</span></td>
<td>${badge(b.status)}</td><td>${b.market_code}</td><td>${b.departure_date ?? '–'}</td>
<td class="n">${b.total_price} ${b.currency}</td><td>${when(b.created_at)}</td></tr>`,
      )
    : html`<tr><td colspan="7" class="muted">${Object.keys(errors).length ? 'Change the filters above to list bookings.' : 'No booking matches.'}</td></tr>`;
  const dateInput = (name: string, label: string, value: string | undefined) =>
    html`<div><label for="${name}">${label}</label><input id="${name}" name="${name}" type="date" value="${value ?? ''}"${invalidAttrs(errors, name)}>${filterError(errors, name)}</div>`;
  // the home's links filter by what the form has no field for: kept as hidden fields and said in words
  const hidden: [string, string | undefined, string][] = [
    ['stage', f.stage, 'sold bookings only'],
    ['balance', f.balance, f.balance === 'due_7' ? 'balance due within 7 days' : 'balance overdue'],
    ['supplier', f.supplier, f.supplier === 'pending' ? 'a supplier has not answered yet' : 'a supplier declined'],
    ['paid_from', f.paidFrom, `money taken from ${f.paidFrom}`],
    ['paid_to', f.paidTo, `money taken until ${f.paidTo}`],
    ['refunded_from', f.refundedFrom, `money refunded from ${f.refundedFrom}`],
    ['refunded_to', f.refundedTo, `money refunded until ${f.refundedTo}`],
    ['offer', f.offer === undefined ? undefined : String(f.offer), `departure (offer) ${f.offer}`],
  ];
  const kept = hidden.filter(([, v]) => v !== undefined);
  return layout(
    p,
    'Bookings',
    html`<h1>Bookings</h1>${filterProblems(errors)}
<form method="get" action="/admin/bookings" class="card filters" role="search" aria-label="Find bookings">
<div><label for="q">Search</label><input id="q" name="q" type="search" value="${f.q ?? ''}" placeholder="Reference, customer name or e-mail"></div>
<div><label for="status">Status</label><select id="status" name="status"${invalidAttrs(errors, 'status')}>${option('', 'Any status', f.status)}${opts.statuses.map((s) => option(s, s.replaceAll('_', ' '), f.status))}</select>${filterError(errors, 'status')}</div>
<div><label for="market">Market</label><select id="market" name="market"${invalidAttrs(errors, 'market')}>${option('', 'Any market', f.market)}${[...new Set([...markets, ...(f.market ? [f.market] : [])])].map((m) => option(m, m, f.market))}</select>${filterError(errors, 'market')}</div>
${dateInput('from', 'Departure from', f.departureFrom)}${dateInput('to', 'Departure to', f.departureTo)}
${dateInput('created_from', 'Booked from', f.createdFrom)}${dateInput('created_to', 'Booked to', f.createdTo)}
<div><label for="sort">Sort</label><select id="sort" name="sort">${Object.entries(SORT_LABELS).map(([k, v]) => option(k, v, f.sort))}</select></div>
${kept.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<div><button type="submit">Search</button></div></form>
${kept.length ? html`<p>Also filtered by: ${kept.map(([, , words]) => words).join(', ')}. <a href="/admin/bookings">Clear all filters</a></p>` : ''}
${opts.exportHref ? html`<p class="no-print"><a class="button secondary" href="${opts.exportHref}">Export CSV</a> <span class="muted">every booking these filters find, as a CSV file</span></p>` : ''}
<div class="card table-wrap"><table><caption>Bookings, page ${f.page}</caption>
<thead><tr><th scope="col">Reference</th><th scope="col">Customer</th><th scope="col">Status</th><th scope="col">Market</th><th scope="col">Departure</th><th scope="col" class="n">Total</th><th scope="col">Created</th></tr></thead>
<tbody>${rows}</tbody></table>
<nav class="pager" aria-label="Pages">${f.page > 1 ? html`<a href="${href(f.page - 1)}" rel="prev">Previous page</a>` : ''}
<span>Page ${f.page}</span>${data.hasNext ? html`<a href="${href(f.page + 1)}" rel="next">Next page</a>` : ''}</nav></div>`,
  );
}

function metadata(m: Record<string, unknown> | null | undefined): Html {
  if (!m || Object.keys(m).length === 0) return html``;
  return html`<dl class="facts">${Object.entries(m).map(
    ([k, v]) =>
      html`<dt>${k.replaceAll('_', ' ')}</dt><dd>${typeof v === 'object' && v !== null ? html`<code>${JSON.stringify(v)}</code>` : String(v)}</dd>`,
  )}</dl>`;
}

/** A leg of the stored flight selection (see flights/rules.ts internationalLeg, domesticLeg). */
interface SelectedLeg {
  leg_index: number;
  type?: string;
  flight_type?: string;
  route?: string;
  origin?: string;
  destination?: string;
  departure_date?: string;
  departure_time?: string;
  flight_numbers?: { outbound?: string[]; inbound?: string[] } | string[];
}

/** A leg as an operator reads it: route, date and flight numbers per direction, never JSON. */
function flightsOf(leg: SelectedLeg, booked?: string[]): Html {
  const numbers = leg.flight_numbers;
  const out = Array.isArray(numbers) ? numbers : (numbers?.outbound ?? []);
  const back = Array.isArray(numbers) ? [] : (numbers?.inbound ?? []);
  const route = leg.route ?? (leg.origin && leg.destination ? `${leg.origin}-${leg.destination}` : '');
  const [there, home] = route.split('/');
  const line = (label: string, path: string | undefined, list: string[]) =>
    html`<div>${label}${path ? html` ${path.replace('-', ' → ')}` : ''}${list.length ? html`: ${list.join(', ')}` : ''}</div>`;
  return html`${line('Out', there, booked ?? out)}${leg.departure_date ? html`<div class="muted">${leg.departure_date}${leg.departure_time ? ` ${leg.departure_time}` : ''}</div>` : ''}${home || back.length ? line('Back', home, back) : ''}`;
}

/** The part of the booking page that htmx refreshes while flight jobs run. */
/** A booking the customer has paid for (its confirmation e-mail exists and can be sent again). */
const CONFIRMED = (status: string) => status !== 'checkout' && status !== 'abandoned';

export function bookingPanel(p: PageContext, b: BookingView, canBook: boolean, bookable: boolean): Html {
  const running = b.status === 'flight_booking_in_progress';
  const selection = b.flight_selection as { legs?: SelectedLeg[] } | null;
  const legs = selection?.legs ?? [];
  const action = b.status === 'flight_booking_failed' ? 'Retry' : 'Book All Flights';
  const unfinished = b.status === 'checkout' || b.status === 'abandoned';
  const legRows = legs.length
    ? legs.map((leg) => {
        const rec = b.flight_bookings.find((r) => r.leg_index === leg.leg_index);
        const attempt = b.leg_attempts.find((a) => a.leg_index === leg.leg_index);
        return html`<tr><td>${leg.leg_index}</td><td>${rec?.flight_type ?? leg.type ?? leg.flight_type ?? ''}</td>
<td>${flightsOf(leg, rec?.flight_numbers)}</td>
<td>${rec ? badge(rec.status) : badge('not booked')}</td><td>${rec?.pnr ?? '–'}</td><td>${rec ? `${rec.total_price} ${rec.currency}` : ''}</td>
<td>${attempt?.last_error ? metadata(attempt.last_error) : ''}</td></tr>`;
      })
    : html`<tr><td colspan="7" class="muted">${
        unfinished
          ? 'No flights chosen yet: the customer has not finished the checkout.'
          : 'No flight legs (land services only).'
      }</td></tr>`;
  return html`<section id="booking-panel" aria-live="polite"${running ? html` hx-get="/admin/bookings/${b.reference}/panel" hx-trigger="every 2s" hx-swap="outerHTML"` : ''}>
<div class="card"><div class="actions"><h1>Booking ${b.reference}</h1>${badge(b.status)}
${running ? html`<span class="muted">Flight jobs are running; this page refreshes itself.</span>` : ''}
${canBook && bookable ? html`<a class="button" href="/admin/bookings/${b.reference}/book-flights">${action}</a>` : ''}
${
  allows(p.actor.grant, 'resend_confirmation_booking') && CONFIRMED(b.status)
    ? html`<a class="button secondary" href="/admin/bookings/${b.reference}/resend-confirmation">Resend confirmation e-mail</a>`
    : ''
}${
  allows(p.actor.grant, 'refund_booking') && b.money.paid > b.money.refunded
    ? html`<a class="button secondary" href="/admin/bookings/${b.reference}/refund">Refund</a>`
    : ''
}${
  allows(p.actor.grant, 'cancel_booking') && CANCELLABLE_STATUSES.includes(b.status)
    ? html`<a class="button danger" href="/admin/bookings/${b.reference}/cancel">Cancel booking</a>`
    : ''
}</div></div>
<div class="card table-wrap"><h2>Flight legs</h2><table><thead><tr><th>Leg</th><th>Type</th><th>Flights</th><th>Status</th><th>PNR</th><th>Price</th><th>Last failure</th></tr></thead>
<tbody>${legRows}</tbody></table></div>
<div class="card"><h2>Timeline</h2>${
    b.status_transitions.length
      ? html`<ol class="timeline">${b.status_transitions.map(
          (t) =>
            html`<li>${when(t.at)}: ${t.from ? html`${badge(t.from)} → ` : ''}${badge(t.to)}${metadata(t.metadata)}</li>`,
        )}</ol>`
      : html`<p class="muted">No status change recorded.</p>`
  }</div>
<div class="card table-wrap"><h2>Notifications</h2><table><thead><tr><th>Time</th><th>Title</th><th>Message</th></tr></thead><tbody>
${b.notifications.length ? b.notifications.map((n) => html`<tr><td>${when(n.at)}</td><td>${n.title}</td><td>${n.message}</td></tr>`) : html`<tr><td colspan="3" class="muted">None.</td></tr>`}</tbody></table></div>
</section>`;
}

export function bookingPage(
  p: PageContext,
  b: BookingView,
  canBook: boolean,
  bookable: boolean,
  done?: string,
): string {
  const paid = b.payments
    .filter((x) => x.status.toLowerCase() === 'succeeded')
    .reduce((sum, x) => sum + Math.round(x.amount * 100), 0);
  const balance = (Math.round(b.total_price * 100) - paid) / 100;
  return layout(
    p,
    `Booking ${b.reference}`,
    html`<p><a href="/admin/bookings">← Bookings</a></p>${notice(done)}${bookingPanel(p, b, canBook, bookable)}
<div class="grid">
<div class="card"><h2>Customer contact</h2>${
      b.contact
        ? html`<dl class="facts"><dt>Name</dt><dd>${b.contact.first_name} ${b.contact.last_name}</dd>
<dt>E-mail</dt><dd><a href="mailto:${b.contact.email}">${b.contact.email}</a></dd><dt>Phone</dt><dd>${b.contact.phone}</dd></dl>`
        : html`<p class="muted">Not given yet.</p>`
    }</div>
<div class="card"><h2>Trip</h2><dl class="facts"><dt>Tour</dt><dd>${b.tour_name ?? '–'}</dd>
<dt>Departure</dt><dd>${b.departure_date ?? '–'}</dd><dt>Return</dt><dd>${b.return_date ?? '–'}</dd>
<dt>Market</dt><dd>${b.market} (${b.language})</dd><dt>Offer</dt><dd>${b.offer_id}</dd><dt>Departure list</dt><dd><a href="/admin/departures/${b.offer_id}">Departure ${b.offer_id}: manifest and rooming list</a></dd>
<dt>Travellers</dt><dd>${b.actual_pax_count} (${b.actual_room_type})</dd><dt>Total</dt><dd>${b.total_price} ${b.currency}</dd>
<dt>Checkout step</dt><dd>${b.checkout_step ?? '–'}</dd><dt>Created</dt><dd>${when(b.created_at)}</dd></dl></div>
<div class="card"><h2>Payments</h2>${
      b.payments.length
        ? html`<table><thead><tr><th>Time</th><th class="n">Amount</th><th>Status</th></tr></thead><tbody>${b.payments.map(
            (x) =>
              html`<tr><td>${when(x.at)}</td><td class="n">${x.amount} ${x.currency}</td><td>${badge(x.status)}</td></tr>`,
          )}</tbody></table>`
        : html`<p class="muted">No payment yet.</p>`
    }
<dl class="facts"><dt>Paid</dt><dd>${b.money.paid} ${b.currency}</dd><dt>Refunded</dt><dd>${b.money.refunded} ${b.currency}</dd>
${b.money.fee === null ? '' : html`<dt>Cancellation fee</dt><dd>${b.money.fee} ${b.currency}</dd>`}<dt>Net</dt><dd>${b.money.net} ${b.currency}</dd>
<dt>Balance</dt><dd>${b.status === 'cancelled' ? 0 : balance} ${b.currency}</dd>
<dt>Balance due date</dt><dd>${b.balance && balance > 0 && b.status !== 'cancelled' ? b.balance.due_date : '–'}</dd></dl></div>
</div>
<div class="card table-wrap"><h2>Refunds</h2><table><thead><tr><th>Time</th><th class="n">Amount</th><th>Status</th><th>Kind</th><th>Reason</th><th>By</th></tr></thead><tbody>
${b.refunds.length ? b.refunds.map((r) => html`<tr><td>${when(r.created_at)}</td><td class="n">${r.amount} ${r.currency}</td><td>${badge(r.status)}</td><td>${r.kind.replaceAll('_', ' ')}</td><td>${r.reason ?? ''}${r.failure_reason ? ` (${r.failure_reason})` : ''}</td><td>${r.requested_by}</td></tr>`) : html`<tr><td colspan="6" class="muted">None.</td></tr>`}</tbody></table></div>
<div class="card table-wrap"><h2>Travelers</h2><table><thead><tr><th>Name</th><th>Nationality</th><th>Passport</th><th>Expiry</th><th>Birth date</th><th>Lead</th></tr></thead><tbody>
${b.passengers.map((x) => html`<tr><td>${x.first_name} ${x.last_name}</td><td>${x.nationality}</td><td>${x.passport_number}</td><td>${x.passport_expiry}</td><td>${x.birth_date}</td><td>${x.is_lead ? 'yes' : ''}</td></tr>`)}</tbody></table>
${canUpdate(p) ? travelerForms(p, b) : ''}</div>
<div class="card table-wrap"><h2>Selections and upsells</h2><table><thead><tr><th>Type</th><th>Name</th><th>Quantity</th><th class="n">Total</th></tr></thead><tbody>
${b.upsells.length ? b.upsells.map((u) => html`<tr><td>${u.type}</td><td>${u.name}</td><td>${u.quantity}</td><td class="n">${u.total_price} ${u.currency}</td></tr>`) : html`<tr><td colspan="4" class="muted">None.</td></tr>`}</tbody></table>
${b.flight_selection ? html`<p>Cabin: ${(b.flight_selection as { cabin_class?: string }).cabin_class ?? '–'}</p>` : ''}</div>
${suppliersCard(p, b)}${amendmentsCard(b)}${notesCard(p, b)}`,
  );
}

const canUpdate = (p: PageContext) => allows(p.actor.grant, 'update_booking');

/** One form per traveler: the fields filled in are changed, empty ones kept. */
function travelerForms(p: PageContext, b: BookingView): Html {
  const booked = b.flight_bookings.length > 0;
  return html`<details><summary>Change travelers</summary>${
    booked
      ? html`<p class="notice" role="alert">The flights are booked: a change must also be made with the airline, which may charge for it.</p>`
      : ''
  }${b.passengers.map(
    (
      x,
    ) => html`<form method="post" action="/admin/bookings/${b.reference}/travelers/${x.position}" aria-label="Change ${x.first_name} ${x.last_name}">${csrfField(p.csrfToken)}
<fieldset><legend>${x.first_name} ${x.last_name}</legend>
<label for="t${x.position}-first">First name</label><input id="t${x.position}-first" name="first_name" maxlength="57">
<label for="t${x.position}-last">Last name</label><input id="t${x.position}-last" name="last_name" maxlength="57">
<label for="t${x.position}-passport">Passport number</label><input id="t${x.position}-passport" name="passport_number" maxlength="50">
<label for="t${x.position}-expiry">Passport expiry</label><input id="t${x.position}-expiry" name="passport_expiry" type="date">
<label for="t${x.position}-birth">Birth date</label><input id="t${x.position}-birth" name="birth_date" type="date">
<button type="submit">Change traveler ${x.position + 1}</button></fieldset></form>`,
  )}</details>`;
}

/** Supplier confirmations with their status; an operator records an answer given by phone or e-mail. */
function suppliersCard(p: PageContext, b: BookingView): Html {
  const rows = b.supplier_confirmations.map((c) => {
    const dates = c.end_date ? `${c.service_date} → ${c.end_date}` : c.service_date;
    const answer = c.supplier_reference ?? c.decline_reason ?? '';
    const form =
      canUpdate(p) && c.status !== 'cancelled'
        ? html`<form method="post" action="/admin/bookings/${b.reference}/confirmations/${c.id}" class="inline" aria-label="Answer of ${c.service_name}">${csrfField(p.csrfToken)}
<label for="answer-${c.id}">Answer</label><select id="answer-${c.id}" name="answer"><option value="confirm">Confirmed</option><option value="decline">Declined</option></select>
<label for="reference-${c.id}">Supplier reference</label><input id="reference-${c.id}" name="reference" maxlength="100">
<label for="reason-${c.id}">Decline reason</label><input id="reason-${c.id}" name="reason" maxlength="1000">
<button type="submit">Record answer</button></form>`
        : '';
    return html`<tr><td>${c.service_type}</td><td>${c.service_name}</td><td>${dates}</td><td>${c.supplier_name ?? ''} ${c.supplier_email ?? html`<span class="muted">no e-mail</span>`}</td>
<td>${badge(c.status)}</td><td>${answer}</td><td>${c.answered_by ?? ''}</td><td>${form}</td></tr>`;
  });
  return html`<div class="card table-wrap" id="suppliers"><h2>Supplier confirmations</h2><table><thead><tr><th>Type</th><th>Service</th><th>Dates</th><th>Supplier</th><th>Status</th><th>Reference or reason</th><th>Answered by</th><th><span class="sr-only">Answer</span></th></tr></thead><tbody>
${rows.length ? rows : html`<tr><td colspan="8" class="muted">No land service to confirm.</td></tr>`}</tbody></table></div>`;
}

function amendmentsCard(b: BookingView): Html {
  return html`<div class="card table-wrap" id="amendments"><h2>Amendments</h2><table><thead><tr><th>Time</th><th>Kind</th><th>Changes</th><th class="n">Price difference</th><th>By</th></tr></thead><tbody>
${
  b.amendments.length
    ? b.amendments.map(
        (a) =>
          html`<tr><td>${when(a.at)}</td><td>${a.kind}</td><td>${metadata(a.changes)}</td><td class="n">${a.price_difference} ${a.currency}</td><td>${a.actor}</td></tr>`,
      )
    : html`<tr><td colspan="5" class="muted">None.</td></tr>`
}</tbody></table></div>`;
}

function notesCard(p: PageContext, b: BookingView): Html {
  return html`<div class="card" id="notes"><h2>Internal notes</h2>${
    b.internal_notes.length
      ? html`<ul class="notes">${b.internal_notes.map((n) => html`<li><p>${n.body}</p><p class="muted">${n.author}, ${when(n.at)}</p></li>`)}</ul>`
      : html`<p class="muted">No note yet.</p>`
  }${
    canUpdate(p)
      ? html`<form method="post" action="/admin/bookings/${b.reference}/notes">${csrfField(p.csrfToken)}
<label for="note-body">New note</label><textarea id="note-body" name="body" required maxlength="4000"></textarea>
<button type="submit">Add note</button></form>`
      : ''
  }</div>`;
}
