// Markup of the catalog editor: lists of products, offers and markets, and their forms. A form is
// drawn from Values (the stored record as form text, or what was just posted), each field with the
// problems the importer found in it beside it (aria-invalid, aria-describedby), and every problem
// listed once more at the top with a link to its field.

import { type FieldErrors, type FieldSpec, formField, formProblems } from '../../console/forms.js';
import { allows } from '../../console/permissions.js';
import { badge, csrfField, layout, notice, type PageContext, pager, sectionTabs, when } from '../../console/views.js';
import { type Html, html } from '../../platform/html.js';
import { ACCOMMODATION_TIERS, ACTIVITY_TIERS, OFFER_STATUSES, PRODUCT_STATUSES } from '../catalog/import-schema.js';
import type * as repo from './repository.js';
import { actionsFrom, permissionToChange, rowsOf, STATUS_ACTIONS, type Values } from './rules.js';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** The form being drawn: its values, its problems, whether it can be changed. */
export interface FormState {
  values: Values;
  problems: FieldErrors;
  readOnly?: boolean;
  /** a prefix of the fields' ids, for the second form of a page (`tour`) */
  scope?: string;
}

const field = (f: FormState, spec: FieldSpec) =>
  formField(spec, f.values[spec.name] ?? '', f.problems[spec.name], { disabled: f.readOnly, scope: f.scope });

export function input(
  f: FormState,
  name: string,
  label: string,
  opts: { type?: 'text' | 'date' | 'number' | 'url'; hint?: Html | string } = {},
): Html {
  return field(f, { name, label, type: opts.type ?? 'text', hint: opts.hint });
}

export function textarea(f: FormState, name: string, label: string, opts: { hint?: string; rows?: number } = {}): Html {
  return field(f, { name, label, type: 'textarea', hint: opts.hint, rows: opts.rows ?? 3 });
}

export function select(
  f: FormState,
  name: string,
  label: string,
  options: readonly (string | { value: string; label: string })[],
  opts: { blank?: string } = {},
): Html {
  return field(f, { name, label, type: 'select', options, empty: opts.blank });
}

export function checkbox(f: FormState, name: string, label: string): Html {
  return field(f, { name, label, type: 'checkbox' });
}

/** Every problem once more at the top, each linking to its field; those of no field only here. */
const summary = (f: FormState) => formProblems(f.problems, { scope: f.scope });

const tabs = (p: PageContext) =>
  sectionTabs(p, 'Catalog', [
    ['/admin/catalog/products', 'Products'],
    ['/admin/catalog/offers', 'Offers'],
    ['/admin/catalog/markets', 'Markets'],
  ]);

const mediaHint = html`A storage path (<code>tours/japan/hero.jpg</code>) or a full URL; upload images under <a href="/admin/media">Media</a>.`;

const saveButton = (f: FormState, text = 'Save') =>
  f.readOnly ? html`` : html`<div class="actions"><button type="submit">${text}</button></div>`;

// ------------------------------------------------------------------------------------ products

export function productList(
  p: PageContext,
  data: { rows: repo.ProductListRow[]; total: number },
  filter: { market: string; status: string; q: string },
  markets: string[],
  page: number,
  perPage: number,
): string {
  const qs = (n: number) => `/admin/catalog/products?${new URLSearchParams({ ...filter, page: String(n) })}`;
  const canCreate = allows(p.actor.grant, 'edit_catalog');
  const rows = data.rows.length
    ? data.rows.map(
        (r) => html`<tr><td><a href="/admin/catalog/products/${r.id}">${r.title}</a></td><td>${r.template}</td>
<td>${r.market}/${r.language}</td><td>${badge(r.status)}</td><td>${r.sku}</td><td>${when(r.updatedAt)}</td></tr>`,
      )
    : html`<tr><td colspan="6" class="muted">No product matches.</td></tr>`;
  return layout(
    p,
    'Products',
    html`<h1>Products</h1>${tabs(p)}
${canCreate ? html`<p><a class="button" href="/admin/catalog/products/new">New product</a></p>` : ''}
<form method="get" action="/admin/catalog/products" class="card filters" role="search" aria-label="Find products">
<div><label for="q">Search</label><input id="q" name="q" type="search" value="${filter.q}" placeholder="Title, template or SKU"></div>
<div><label for="market">Market</label><select id="market" name="market"><option value="">All</option>${markets.map(
      (m) => html`<option${m === filter.market ? html` selected` : ''}>${m}</option>`,
    )}</select></div>
<div><label for="status">Status</label><select id="status" name="status"><option value="">All</option>${PRODUCT_STATUSES.map(
      (s) => html`<option${s === filter.status ? html` selected` : ''}>${s}</option>`,
    )}</select></div>
<div><button type="submit">Filter</button></div></form>
<div class="card table-wrap"><table><caption>Market products</caption>
<thead><tr><th scope="col">Title</th><th scope="col">Template</th><th scope="col">Market/language</th><th scope="col">Status</th><th scope="col">SKU</th><th scope="col">Changed</th></tr></thead>
<tbody>${rows}</tbody></table>${pager({ page, pages: Math.max(1, Math.ceil(data.total / perPage)), href: qs, total: data.total })}</div>`,
  );
}

export function newProductPage(p: PageContext, f: FormState, choices: repo.Choices): string {
  return layout(
    p,
    'New product',
    html`<h1>New product</h1>${tabs(p)}<p><a href="/admin/catalog/products">All products</a></p>
${summary(f)}
<form method="post" action="/admin/catalog/products" class="card" novalidate>${csrfField(p.csrfToken)}
<p class="muted">A new product is saved as a draft; it is public only once published.</p>
${select(
  f,
  'template',
  'Tour template',
  choices.templates.map((t) => ({ value: t.code, label: `${t.code} (${t.name})` })),
  { blank: 'Choose a template' },
)}
${select(
  f,
  'market',
  'Market',
  choices.markets.map((m) => ({ value: m.code, label: `${m.code} (${m.name}: ${m.languages.join(', ')})` })),
  { blank: 'Choose a market' },
)}
${input(f, 'language', 'Language', { hint: 'A language of the market, e.g. es' })}
${input(f, 'title', 'Title')}
${input(f, 'url_slug', 'URL slug', { hint: 'lower-case words joined by hyphens' })}
${input(f, 'country_name', 'Country name')}
${input(f, 'departure_airports', 'Departure airports', { hint: 'IATA codes of the market, the first one is in the SKU: MAD, BCN' })}
<div class="actions"><button type="submit">Create draft</button></div></form>`,
  );
}

export interface ProductPageData {
  product: repo.ProductRecord;
  form: FormState;
  template: FormState;
  templateNonDraft: number;
  choices: repo.Choices;
  offers: repo.OfferRecord[];
  rules: repo.RuleRecord[];
  /** the market's languages -> this tour's product in it, if there is one */
  languages: Map<string, number | undefined>;
  done?: string;
}

/** The tour's texts in the market's other languages: a link to each, or to create it. */
function languageLinks(p: PageContext, d: ProductPageData): Html {
  const canCreate = allows(p.actor.grant, 'edit_catalog');
  const mp = d.product;
  return html`${[...d.languages].map(([lang, id], i) => {
    const sep = i ? ', ' : '';
    if (id === mp.id) return html`${sep}<strong>${lang}</strong>`;
    if (id !== undefined) return html`${sep}<a href="/admin/catalog/products/${id}">${lang}</a>`;
    const q = new URLSearchParams({ template: mp.template, market: mp.market, language: lang });
    return canCreate
      ? html`${sep}<a href="/admin/catalog/products/new?${q}">add ${lang}</a>`
      : html`${sep}<span class="muted">${lang} (none)</span>`;
  })}`;
}

function itineraryRows(f: FormState, activities: repo.Choices['activities']): Html {
  const rows = rowsOf(f.values, 'itinerary');
  return html`${rows.map((r) => {
    const n = `itinerary.${r}`;
    const title = f.values[`${n}.title`] ? `Day ${f.values[`${n}.day`] ?? ''}: ${f.values[`${n}.title`]}` : 'New day';
    return html`<fieldset class="day"><legend>${title}</legend><div class="grid">
${input(f, `${n}.day`, 'Day number', { type: 'number' })}${input(f, `${n}.title`, 'Day title')}
${input(f, `${n}.city`, 'City')}${input(f, `${n}.country`, 'Country')}</div>
${textarea(f, `${n}.description`, 'Day description')}
${textarea(f, `${n}.activities`, 'Activities', { hint: `One per line: activity code and tier (${ACTIVITY_TIERS.join(', ')}), e.g. "${activities[0]?.code ?? 'tokyo-city-tour'} included"` })}
${f.readOnly ? '' : checkbox(f, `${n}.remove`, 'Remove this day')}</fieldset>`;
  })}`;
}

function templateForm(p: PageContext, d: ProductPageData): Html {
  const f = d.template;
  const stays = rowsOf(f.values, 'accommodations');
  const moves = rowsOf(f.values, 'day_transfers');
  const hotels = d.choices.hotels.map((h) => ({ value: h.code, label: `${h.code} (${h.name})` }));
  const transfers = d.choices.transfers.map((t) => ({ value: t.code, label: `${t.code} (${t.name})` }));
  return html`<section class="card" aria-labelledby="tpl-h"><h2 id="tpl-h">Hotels and transfers (tour ${d.product.template})</h2>
<p class="muted">Shared by every market and language of the tour${d.templateNonDraft ? html`; products of it that are not drafts: ${d.templateNonDraft}, so changes need publish_catalog` : ''}.</p>
${summary(f)}
<form method="post" action="/admin/catalog/templates/${d.product.template}" novalidate>${csrfField(p.csrfToken)}
<input type="hidden" name="product" value="${d.product.id}">
${input(f, 'hero_image', 'Tour hero image', { hint: mediaHint })}
<fieldset><legend>Hotels by tier</legend>${stays.map(
    (r) => html`<div class="grid">${select(f, `accommodations.${r}.hotel`, 'Hotel', hotels, { blank: '—' })}
${select(f, `accommodations.${r}.tier`, 'Tier', ACCOMMODATION_TIERS)}
${input(f, `accommodations.${r}.day_start`, 'From day', { type: 'number' })}${input(f, `accommodations.${r}.day_end`, 'To day', { type: 'number' })}
${f.readOnly ? '' : checkbox(f, `accommodations.${r}.remove`, 'Remove')}</div>`,
  )}</fieldset>
<fieldset><legend>Transfers by day</legend>${moves.map(
    (r) => html`<div class="grid">${input(f, `day_transfers.${r}.day`, 'Day', { type: 'number' })}
${select(f, `day_transfers.${r}.transfer`, 'Transfer', transfers, { blank: '—' })}
${select(f, `day_transfers.${r}.kind`, 'Kind', ['included', 'upsell'])}
${f.readOnly ? '' : checkbox(f, `day_transfers.${r}.remove`, 'Remove')}</div>`,
  )}</fieldset>
${saveButton(f, 'Save hotels and transfers')}</form></section>`;
}

function statusButtons(p: PageContext, d: ProductPageData): Html {
  if (!allows(p.actor.grant, 'publish_catalog')) return html``;
  return html`${actionsFrom(d.product.status).map((a) =>
    a === 'archive'
      ? html`<form method="post" action="/admin/catalog/products/${d.product.id}/archive/confirm">${csrfField(p.csrfToken)}<button type="submit" class="danger">Archive</button></form>`
      : html`<form method="post" action="/admin/catalog/products/${d.product.id}/status/${a}">${csrfField(p.csrfToken)}<button type="submit"${a === 'publish' ? '' : html` class="secondary"`}>${STATUS_ACTIONS[a].label}</button></form>`,
  )}`;
}

export function productPage(p: PageContext, d: ProductPageData): string {
  const { product: mp, form: f } = d;
  const canOffers = allows(p.actor.grant, 'edit_catalog');
  const offerRows = d.offers.length
    ? d.offers.map(
        (
          o,
        ) => html`<tr><td><a href="/admin/catalog/offers/${o.id}">${o.code}</a></td><td>${o.departureAirport}</td><td>${o.departureDate}</td>
<td>${badge(o.status)}</td><td class="n">${o.allotmentUsed} / ${o.allotment}</td><td class="n">${o.pricePerPerson}</td></tr>`,
      )
    : html`<tr><td colspan="6" class="muted">No offers.</td></tr>`;
  const ruleRows = d.rules.map(
    (
      r,
    ) => html`<tr><td><a href="/admin/catalog/rules/${r.id}">${r.code}</a></td><td>${r.departureAirport}</td><td>${r.seasonStart} – ${r.seasonEnd}</td>
<td>${r.weekdays.map((w) => WEEKDAYS[w - 1]?.slice(0, 3)).join(', ')}${r.dates.length ? ` + ${r.dates.length} date(s)` : ''}</td><td class="n">${r.seats}</td><td>${r.active ? 'yes' : 'no'}</td></tr>`,
  );
  return layout(
    p,
    `Product ${mp.title}`,
    html`<h1>${mp.title}</h1>${tabs(p)}<p><a href="/admin/catalog/products">All products</a></p>${notice(d.done)}
<div class="card"><dl class="facts"><dt>Status</dt><dd>${badge(mp.status)}</dd><dt>Tour template</dt><dd>${mp.template} (${mp.tripDurationDays} days)</dd>
<dt>Market and language</dt><dd><a href="/admin/catalog/markets/${mp.market}">${mp.market}</a> / ${mp.language}</dd><dt>Texts in the market's languages</dt><dd>${languageLinks(p, d)}</dd><dt>SKU</dt><dd>${mp.sku}</dd><dt>Changed</dt><dd>${when(mp.updatedAt)}</dd></dl>
<div class="actions"><a class="button secondary" href="/admin/catalog/products/${mp.id}/preview" target="_blank" rel="noopener">Preview</a>${statusButtons(p, d)}</div>
${f.readOnly && allows(p.actor.grant, 'edit_catalog') ? html`<p class="muted">This product is ${mp.status}: changing it needs the ${permissionToChange(mp.status)} permission.</p>` : ''}</div>
${summary(f)}
<form method="post" action="/admin/catalog/products/${mp.id}" novalidate>${csrfField(p.csrfToken)}
<section class="card" aria-labelledby="texts-h"><h2 id="texts-h">Texts (${mp.language})</h2>
${input(f, 'title', 'Title')}${input(f, 'subtitle', 'Subtitle')}
${textarea(f, 'short_description', 'Short description')}${textarea(f, 'long_description', 'Long description', { rows: 6 })}
${textarea(f, 'highlights', 'Highlights', { hint: 'One per line' })}${textarea(f, 'destination_info', 'Destination information')}
<div class="grid">${input(f, 'url_slug', 'URL slug')}${input(f, 'country_name', 'Country name')}${input(f, 'sort_order', 'Sort order', { type: 'number' })}</div>
${input(f, 'hero_image', 'Hero image', { hint: mediaHint })}
${input(f, 'departure_airports', 'Departure airports', { hint: 'IATA codes of the market, the first one is in the SKU: MAD, BCN' })}
${textarea(f, 'cancellation_policy', 'Cancellation policy', { hint: 'One step per line, days before departure:fee % of the total, e.g. 60:10 then 30:30, 15:60, 0:100 (a 0 line is required); empty: the default policy' })}</section>
<section class="card" aria-labelledby="days-h"><h2 id="days-h">Itinerary</h2>${itineraryRows(f, d.choices.activities)}</section>
${saveButton(f)}</form>
${templateForm(p, d)}
<section class="card" aria-labelledby="offers-h"><h2 id="offers-h">Offers</h2>
${canOffers ? html`<p><a class="button secondary" href="/admin/catalog/products/${mp.id}/offers/new">New offer</a></p>` : ''}
<div class="table-wrap"><table><thead><tr><th scope="col">Code</th><th scope="col">From</th><th scope="col">Departure</th><th scope="col">Status</th><th scope="col" class="n">Seats used</th><th scope="col" class="n">Per person</th></tr></thead>
<tbody>${offerRows}</tbody></table></div></section>
<section class="card" aria-labelledby="rules-h"><h2 id="rules-h">Departure rules</h2>
${canOffers ? html`<p><a class="button secondary" href="/admin/catalog/products/${mp.id}/rules/new">New departure rule</a></p>` : ''}
${d.rules.length ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Code</th><th scope="col">From</th><th scope="col">Season</th><th scope="col">Departs</th><th scope="col" class="n">Seats</th><th scope="col">Active</th></tr></thead><tbody>${ruleRows}</tbody></table></div>` : html`<p class="muted">No departure rules.</p>`}</section>`,
  );
}

// ------------------------------------------------------------------------------------ offers

export function offerList(
  p: PageContext,
  data: { rows: repo.OfferRecord[]; total: number },
  filter: { market: string; status: string; q: string },
  markets: string[],
  page: number,
  perPage: number,
): string {
  const qs = (n: number) => `/admin/catalog/offers?${new URLSearchParams({ ...filter, page: String(n) })}`;
  const rows = data.rows.length
    ? data.rows.map(
        (
          o,
        ) => html`<tr><td><a href="/admin/catalog/offers/${o.id}">${o.code}</a></td><td><a href="/admin/catalog/products/${o.marketProductId}">${o.productTitle}</a></td>
<td>${o.market}/${o.language}</td><td>${o.departureAirport}</td><td>${o.departureDate}</td><td>${badge(o.status)}</td>
<td class="n">${o.allotmentUsed} / ${o.allotment}</td><td class="n">${o.pricePerPerson}</td></tr>`,
      )
    : html`<tr><td colspan="8" class="muted">No offer matches.</td></tr>`;
  return layout(
    p,
    'Offers',
    html`<h1>Offers</h1>${tabs(p)}
<form method="get" action="/admin/catalog/offers" class="card filters" role="search" aria-label="Find offers">
<div><label for="q">Code</label><input id="q" name="q" type="search" value="${filter.q}" placeholder="Offer code prefix"></div>
<div><label for="market">Market</label><select id="market" name="market"><option value="">All</option>${markets.map(
      (m) => html`<option${m === filter.market ? html` selected` : ''}>${m}</option>`,
    )}</select></div>
<div><label for="status">Status</label><select id="status" name="status"><option value="">All</option>${OFFER_STATUSES.map(
      (s) => html`<option${s === filter.status ? html` selected` : ''}>${s}</option>`,
    )}</select></div>
<div><button type="submit">Filter</button></div></form>
<div class="card table-wrap"><table><caption>Offers, latest departure first</caption>
<thead><tr><th scope="col">Code</th><th scope="col">Product</th><th scope="col">Market/language</th><th scope="col">From</th><th scope="col">Departure</th><th scope="col">Status</th><th scope="col" class="n">Seats used</th><th scope="col" class="n">Per person</th></tr></thead>
<tbody>${rows}</tbody></table>${pager({ page, pages: Math.max(1, Math.ceil(data.total / perPage)), href: qs, total: data.total })}</div>`,
  );
}

export function offerPage(
  p: PageContext,
  d: {
    product: repo.ProductRecord;
    offer?: repo.OfferRecord;
    form: FormState;
    airports: string[];
    done?: string;
  },
): string {
  const f = d.form;
  const o = d.offer;
  const title = o ? `Offer ${o.code}` : 'New offer';
  const action = o ? `/admin/catalog/offers/${o.id}` : `/admin/catalog/products/${d.product.id}/offers`;
  const canArchive = o && !f.readOnly && o.status !== 'Archived';
  return layout(
    p,
    title,
    html`<h1>${title}</h1>${tabs(p)}<p><a href="/admin/catalog/products/${d.product.id}">${d.product.title}</a> (${d.product.market}/${d.product.language})</p>${notice(d.done)}
${o ? html`<div class="card"><dl class="facts"><dt>Status</dt><dd>${badge(o.status)}</dd><dt>Seats taken by bookings</dt><dd>${o.allotmentUsed}</dd></dl></div>` : ''}
${summary(f)}
<form method="post" action="${action}" class="card" novalidate>${csrfField(p.csrfToken)}
${o ? '' : input(f, 'code', 'Offer code', { hint: 'Letters, digits, . _ -; it never changes' })}
<div class="grid">${select(f, 'departure_airport', 'Departure airport', d.airports)}${input(f, 'departure_date', 'Departure date', { type: 'date' })}
${input(f, 'return_date', 'Return date', { type: 'date' })}${select(f, 'status', 'Status', OFFER_STATUSES)}</div>
<div class="grid">${input(f, 'pax_count', 'Travellers priced', { type: 'number' })}${input(f, 'allotment', 'Seats (allotment)', { type: 'number' })}</div>
<fieldset><legend>Price parts (${d.product.currency}, decimals with a point)</legend><div class="grid">
${input(f, 'land_base_price', 'Land base price')}${input(f, 'flight_price', 'Flight price')}${input(f, 'margin_percent', 'Margin %')}
${input(f, 'final_price', 'Final price')}${input(f, 'price_per_person', 'Price per person')}</div></fieldset>
${saveButton(f, o ? 'Save' : 'Create offer')}</form>
${canArchive ? html`<form method="post" action="/admin/catalog/offers/${o.id}/archive" class="actions">${csrfField(p.csrfToken)}<button type="submit" class="danger">Archive offer</button><span class="muted">Hidden everywhere; kept for its bookings.</span></form>` : ''}`,
  );
}

// ------------------------------------------------------------------------------------ departure rules

export function rulePage(
  p: PageContext,
  d: { product: repo.ProductRecord; rule?: repo.RuleRecord; form: FormState; airports: string[]; done?: string },
): string {
  const f = d.form;
  const title = d.rule ? `Departure rule ${d.rule.code}` : 'New departure rule';
  const action = d.rule ? `/admin/catalog/rules/${d.rule.id}` : `/admin/catalog/products/${d.product.id}/rules`;
  return layout(
    p,
    title,
    html`<h1>${title}</h1>${tabs(p)}<p><a href="/admin/catalog/products/${d.product.id}">${d.product.title}</a> (${d.product.market}/${d.product.language})</p>${notice(d.done)}
${summary(f)}
<form method="post" action="${action}" class="card" novalidate>${csrfField(p.csrfToken)}
${d.rule ? '' : input(f, 'code', 'Rule code', { hint: 'Generated offers are coded <code>-<YYYYMMDD>' })}
<div class="grid">${select(f, 'departure_airport', 'Departure airport', d.airports)}${input(f, 'season_start', 'Season starts', { type: 'date' })}${input(f, 'season_end', 'Season ends', { type: 'date' })}</div>
${field(f, { name: 'weekdays', label: 'Departs on', type: 'checkboxes', options: WEEKDAYS.map((w, i) => ({ value: String(i + 1), label: w })) })}
${input(f, 'dates', 'Single departure dates', { hint: 'YYYY-MM-DD, separated by commas' })}
<div class="grid">${input(f, 'seats', 'Seats per departure', { type: 'number' })}${input(f, 'pax_count', 'Travellers priced', { type: 'number' })}
${input(f, 'margin_percent', 'Margin %')}${input(f, 'fallback_flight_price', 'Fallback flight price per person')}</div>
${checkbox(f, 'active', 'Active (the offers.generate task creates its departures)')}
${saveButton(f, d.rule ? 'Save' : 'Create rule')}</form>`,
  );
}

// ------------------------------------------------------------------------------------ markets

export function marketList(p: PageContext, rows: Awaited<ReturnType<typeof repo.listMarkets>>): string {
  const canCreate = allows(p.actor.grant, 'edit_catalog');
  return layout(
    p,
    'Markets',
    html`<h1>Markets</h1>${tabs(p)}
${canCreate ? html`<p><a class="button" href="/admin/catalog/markets/new">New market</a></p>` : ''}
<div class="card table-wrap"><table><caption>Markets</caption>
<thead><tr><th scope="col">Code</th><th scope="col">Name</th><th scope="col">Active</th><th scope="col">Languages</th><th scope="col">Currency</th><th scope="col">Time zone</th></tr></thead>
<tbody>${rows.map(
      (
        m,
      ) => html`<tr><td><a href="/admin/catalog/markets/${m.code}">${m.code}</a></td><td>${m.name}</td><td>${badge(m.isActive ? 'active' : 'inactive')}</td>
<td>${m.languages.join(', ')}</td><td>${m.currencyCode}</td><td>${m.timezone}</td></tr>`,
    )}</tbody></table></div>`,
  );
}

export function marketPage(p: PageContext, d: { market?: repo.MarketRecord; form: FormState; done?: string }): string {
  const f = d.form;
  const m = d.market;
  const title = m ? `Market ${m.code}` : 'New market';
  const langs = (f.values.languages ?? '').split(/[\s,]+/).filter(Boolean);
  return layout(
    p,
    title,
    html`<h1>${title}</h1>${tabs(p)}<p><a href="/admin/catalog/markets">All markets</a></p>${notice(d.done)}
${summary(f)}
<form method="post" action="${m ? `/admin/catalog/markets/${m.code}` : '/admin/catalog/markets'}" class="card" novalidate>${csrfField(p.csrfToken)}
${m ? '' : input(f, 'code', 'Market code', { hint: 'two or three lower-case letters, e.g. fr' })}
${input(f, 'name', 'Name')}${checkbox(f, 'is_active', 'Active (its products are public)')}
<div class="grid">${input(f, 'languages', 'Languages', { hint: 'ISO codes separated by commas: es, ca, en' })}${input(f, 'default_language', 'Default language')}</div>
<fieldset><legend>Currency</legend><div class="grid">${input(f, 'currency.code', 'Currency code')}${input(f, 'currency.name', 'Currency name')}${input(f, 'currency.symbol', 'Currency symbol')}</div></fieldset>
${input(f, 'timezone', 'Time zone', { hint: 'IANA name, e.g. Europe/Madrid' })}
<fieldset><legend>Tour path per language</legend>${langs.length ? html`<div class="grid">${langs.map((l) => input(f, `tour_path_slugs.${l}`, `Tour path (${l})`))}</div>` : html`<p class="muted">Name the languages and save first.</p>`}</fieldset>
${input(f, 'airports', 'Departure airports', { hint: 'IATA codes, the primary one first: MAD, BCN' })}
${saveButton(f, m ? 'Save' : 'Create market')}</form>`,
  );
}
