// The console's shared markup: the layout (header, navigation, notifications bell, sign-out),
// the sign-in page, error pages, status badges and small form and table pieces. Every value is
// escaped by the `html` tag; no inline script or style (the CSP allows only our own files).

import { type Html, html } from '../platform/html.js';
import { navigationSections } from './navigation.js';
import { type AdminActor, allows } from './permissions.js';

export const ASSET_VERSION = '3';

export interface PageContext {
  actor: AdminActor;
  csrfToken: string;
  /** the current path, for aria-current in the navigation */
  path: string;
}

/** Status words and the badge colour they get everywhere in the console. */
const BADGES: Record<string, string> = {
  flights_confirmed: 'green',
  pending_land_confirmation: 'blue',
  pending_flight_booking: 'yellow',
  flight_booking_in_progress: 'blue',
  flight_booking_failed: 'red',
  checkout: 'grey',
  succeeded: 'green',
  confirmed: 'green',
  booked: 'green',
  failed: 'red',
  pending: 'yellow',
  active: 'green',
  disabled: 'red',
  revoked: 'red',
  ok: 'green',
  warning: 'yellow',
};

export function badge(status: string | null | undefined): Html {
  const word = status ?? '–';
  const colour = BADGES[word.toLowerCase()] ?? 'grey';
  return html`<span class="badge ${colour}">${word.replaceAll('_', ' ')}</span>`;
}

export function when(d: Date | string | null | undefined): Html {
  if (!d) return html`<span class="muted">–</span>`;
  const iso = typeof d === 'string' ? d : d.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

export function csrfField(csrfToken: string): Html {
  return html`<input type="hidden" name="_csrf" value="${csrfToken}">`;
}

export function bell(count: number | null): Html {
  const text =
    count === null
      ? html``
      : html` <span class="count${count === 0 ? ' zero' : ''}">${count}</span><span class="sr-only"> unread</span>`;
  // the page renders the bell without its count (cheap pages) and htmx loads it at once; the
  // polled replacement must not trigger on load again, or it would reload itself in a loop
  const trigger = count === null ? 'load, every 10s' : 'every 10s';
  return html`<a href="/admin/notifications" class="bell" id="bell" hx-get="/admin/notifications/bell" hx-trigger="${trigger}" hx-swap="outerHTML">Notifications${text}</a>`;
}

export function layout(p: PageContext, title: string, body: Html): string {
  // grouped under their section's heading, each group a list the heading labels
  const nav = navigationSections(p.actor.grant).map(({ section, items }) => {
    const id = `nav-${section.toLowerCase()}`;
    return html`<li><span class="nav-section" id="${id}">${section}</span><ul aria-labelledby="${id}">${items.map(
      (item) => {
        const current = p.path === item.href || p.path.startsWith(`${item.href}/`);
        return html`<li><a href="${item.href}"${current ? html` aria-current="page"` : ''}>${item.label}</a></li>`;
      },
    )}</ul></li>`;
  });
  // the bell is the way to the notifications page (they concern bookings)
  const showBell = allows(p.actor.grant, 'view_booking');
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false}'>
<title>${title} · itinera console</title><link rel="stylesheet" href="/admin/assets/console.css?v=${ASSET_VERSION}">
<script src="/admin/assets/htmx.min.js?v=${ASSET_VERSION}" defer></script></head>
<body hx-headers='${JSON.stringify({ 'x-csrf-token': p.csrfToken })}'>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/admin">itinera</a>
<div class="me">${showBell ? bell(null) : ''}<span>${p.actor.name}</span><a href="/admin/sessions">Your sessions</a>
<form method="post" action="/admin/logout">${csrfField(p.csrfToken)}<button type="submit">Sign out</button></form></div></header>
<div class="shell"><nav aria-label="Console" class="side"><ul class="sections">${nav}</ul></nav>
<main id="main">${body}</main></div></body></html>`.text;
}

export function loginPage(opts: { token: string; email?: string; error?: string; next?: string }): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in · itinera console</title><link rel="stylesheet" href="/admin/assets/console.css?v=${ASSET_VERSION}"></head>
<body><main id="main" class="login"><h1>itinera console</h1>
<div class="card">${opts.error ? html`<div class="alert error" role="alert">${opts.error}</div>` : ''}
<form method="post" action="/admin/login">
<input type="hidden" name="_csrf" value="${opts.token}">${opts.next ? html`<input type="hidden" name="next" value="${opts.next}">` : ''}
<div class="field"><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${opts.email ?? ''}"></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit">Sign in</button></form></div></main></body></html>`.text;
}

/** An error page: inside the layout when signed in, bare otherwise. */
export function errorPage(p: PageContext | null, status: number, title: string, message: string): string {
  const body = html`<h1>${title}</h1><div class="alert error" role="alert">${message}</div>
<p><a href="/admin">Back to the console</a></p>`;
  if (p) return layout(p, title, body);
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · itinera console</title>
<link rel="stylesheet" href="/admin/assets/console.css?v=${ASSET_VERSION}"></head><body><main id="main">${body}
<p class="muted">Status ${status}</p></main></body></html>`.text;
}

/** A confirmation step for an action: what will happen, then the button that does it. */
export function confirmPage(
  p: PageContext,
  opts: { title: string; message: Html | string; action: string; button: string; back: string },
): string {
  return layout(
    p,
    opts.title,
    html`<h1>${opts.title}</h1><div class="card"><p>${opts.message}</p>
<form method="post" action="${opts.action}" class="actions">${csrfField(p.csrfToken)}
<button type="submit">${opts.button}</button><a class="button secondary" href="${opts.back}">Cancel</a></form></div>`,
  );
}

/** The sections of a console area as tabs; the one holding the current page is marked. */
export function sectionTabs(
  p: PageContext,
  label: string,
  items: readonly (readonly [href: string, text: string])[],
): Html {
  return html`<nav class="tabs" aria-label="${label}">${items.map(
    ([href, text]) =>
      html`<a href="${href}"${p.path === href || p.path.startsWith(`${href}/`) ? html` aria-current="page"` : ''}>${text}</a>`,
  )}</nav>`;
}

export function notice(text: string | undefined): Html {
  return text ? html`<div class="alert ok" role="status">${text}</div>` : html``;
}

export function pager(opts: { page: number; pages: number; href: (page: number) => string; total: number }): Html {
  return html`<nav class="pager" aria-label="Pages">
${opts.page > 1 ? html`<a href="${opts.href(opts.page - 1)}" rel="prev">Previous page</a>` : ''}
<span>Page ${opts.page} of ${opts.pages} · ${opts.total} in all</span>
${opts.page < opts.pages ? html`<a href="${opts.href(opts.page + 1)}" rel="next">Next page</a>` : ''}</nav>`;
}
