// The console's subscribers page (permission view_subscriber): newsletter subscribers, newest
// first, searchable, with their consent and the state of the CRM and marketing mirrors.
import type { FastifyInstance } from 'fastify';
import { guard, pageOf, sendPage } from '../../console/http.js';
import { allows } from '../../console/permissions.js';
import { badge, layout, type PageContext, pager, when } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { html } from '../../platform/html.js';
import { type MirrorState, newsletterMirrors } from './mirrors.js';
import { findSubscriber, type Subscriber, subscriberPage } from './repository.js';

const PER_PAGE = 25;

interface Row {
  s: Subscriber;
  crm?: MirrorState;
  marketing?: MirrorState;
}

function subscribersPage(p: PageContext, rows: Row[], q: string, page: number, total: number): string {
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const href = (n: number) => `/admin/subscribers?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`;
  const state = (status: string | undefined, error: string | null | undefined, remoteId: number | null) =>
    html`${badge(status ?? (remoteId ? 'Synced' : 'none'))}${remoteId ? html` <span class="muted">#${remoteId}</span>` : ''}${
      error ? html`<br><span class="error-text">${error}</span>` : ''
    }`;
  const body = rows.length
    ? rows.map(
        ({
          s,
          crm,
          marketing,
        }) => html`<tr><td>${s.email}</td><td>${s.name ?? ''}</td><td>${s.phone ?? ''}</td><td>${s.market ?? ''}</td>
<td>${when(s.consentGivenAt)}<br><span class="muted">policy ${s.privacyPolicyVersion}</span></td>
<td>${state(crm?.status, crm?.lastError, s.crmPersonId)}</td><td>${state(marketing?.status, marketing?.lastError, s.marketingContactId)}</td>
<td>${when(s.createdAt)}</td></tr>`,
      )
    : html`<tr><td colspan="8" class="muted">No subscriber matches.</td></tr>`;
  return layout(
    p,
    'Subscribers',
    html`<h1>Newsletter subscribers</h1>
<form method="get" action="/admin/subscribers" class="card filters" role="search" aria-label="Find subscribers">
<div><label for="q">Search</label><input id="q" name="q" type="search" value="${q}" placeholder="E-mail or name"></div>
<div><button type="submit">Search</button></div></form>
${allows(p.actor.grant, 'export_subscriber') ? html`<p><a class="button secondary" href="/admin/subscribers/export.csv">Export CSV</a> <span class="muted">every subscriber, as a CSV file</span></p>` : ''}
<div class="card table-wrap"><table><caption>Subscribers, newest first, with their CRM (Pipedrive) and marketing (ActiveCampaign) sync</caption>
<thead><tr><th scope="col">E-mail</th><th scope="col">Name</th><th scope="col">Phone</th><th scope="col">Market</th><th scope="col">Consent</th><th scope="col">CRM</th><th scope="col">Marketing</th><th scope="col">Subscribed</th></tr></thead>
<tbody>${body}</tbody></table>${pager({ page, pages, href, total })}</div>`,
  );
}

export async function subscriberConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const view = { schema: { hide: true }, preHandler: guard(ctx, 'view_subscriber') };
  app.get('/admin/subscribers', view, async (request, reply) => {
    const query = request.query as { q?: string; page?: string; id?: string };
    const q = (query.q ?? '').trim().slice(0, 100);
    const page = Math.max(1, Math.min(10_000, Number.parseInt(query.page ?? '1', 10) || 1));
    // ?id=N (links from the sync monitor) shows that one subscriber
    const one = query.id && /^\d{1,9}$/.test(query.id) ? await findSubscriber(ctx.database.db, Number(query.id)) : null;
    const data = one
      ? { rows: [one], total: 1 }
      : await subscriberPage(ctx.database.db, page, PER_PAGE, q || undefined);
    const ids = data.rows.map((s) => s.id);
    const mirrors = newsletterMirrors(ctx);
    const [crm, marketing] = await Promise.all([
      mirrors.crm.states(ctx.database.db, ids),
      mirrors.marketing.states(ctx.database.db, ids),
    ]);
    const rows = data.rows.map((s) => ({ s, crm: crm.get(s.id), marketing: marketing.get(s.id) }));
    return sendPage(reply, subscribersPage(pageOf(request), rows, q, page, data.total));
  });
}
