// Console pages of the leads module (spec 3: view_lead / delete_lead, read-only, bulk delete): the
// list with search and row selection, one lead, and "Delete selected" with a confirmation step.
// The delete calls the same deleteLeads use case as the API and writes the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fields, guard, pageOf, sendPage } from '../../console/http.js';
import { actionsFor, allows, assertAllowed } from '../../console/permissions.js';
import { csrfField, layout, notice, type PageContext, pager, when } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { type Html, html } from '../../platform/html.js';
import { type AdminActor, audit } from '../admin/service.js';
import type { Lead } from './repository.js';
import { deleteLeads, leadById, leadPage } from './service.js';

const PER_PAGE = 25;

/** Bulk delete as an admin: the permission again, the one use case, the audit row. */
export async function deleteLeadsAsAdmin(ctx: AppContext, actor: AdminActor, ids: number[]): Promise<number> {
  assertAllowed(actor.grant, 'delete_lead');
  const deleted = await deleteLeads(ctx, ids);
  await audit(ctx, actor, {
    action: 'lead.delete',
    resourceType: 'lead',
    resourceId: ids.join(','),
    details: { deleted },
  });
  return deleted;
}

function leadIds(body: unknown): number[] {
  const ids = fields(body, 'ids')
    .filter((v) => /^\d{1,9}$/.test(v))
    .map(Number);
  if (ids.length === 0) throw new AppError(422, 'nothing_selected', 'Select at least one lead.');
  return [...new Set(ids)].slice(0, 500);
}

function destinations(l: Lead): string {
  return (l.destinations ?? []).map((d) => d.label).join(', ');
}

function leadsPage(
  p: PageContext,
  data: { rows: Lead[]; total: number },
  q: string,
  page: number,
  canDelete: boolean,
  done?: string,
): string {
  const pages = Math.max(1, Math.ceil(data.total / PER_PAGE));
  const href = (n: number) => `/admin/leads?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`;
  const rows = data.rows.length
    ? data.rows.map(
        (l) => html`<tr>${
          canDelete
            ? html`<td><input type="checkbox" name="ids" value="${l.id}" form="bulk" id="lead-${l.id}" aria-label="Select lead ${l.name}"></td>`
            : ''
        }<td><a href="/admin/leads/${l.id}">${l.name}</a></td><td>${l.email}</td><td>${l.phone ?? ''}</td>
<td>${destinations(l)}</td><td>${when(l.createdAt)}</td></tr>`,
      )
    : html`<tr><td colspan="${canDelete ? 6 : 5}" class="muted">No lead matches.</td></tr>`;
  return layout(
    p,
    'Leads',
    html`<h1>Leads</h1>${notice(done)}
<form method="get" action="/admin/leads" class="card filters" role="search" aria-label="Find leads">
<div><label for="q">Search</label><input id="q" name="q" type="search" value="${q}" placeholder="Name, e-mail or phone"></div>
<div><button type="submit">Search</button></div></form>
${allows(p.actor.grant, 'export_lead') ? html`<p><a class="button secondary" href="/admin/leads/export.csv">Export CSV</a> <span class="muted">every lead, as a CSV file</span></p>` : ''}
${canDelete ? html`<form id="bulk" method="post" action="/admin/leads/delete/confirm">${csrfField(p.csrfToken)}</form>` : ''}
<div class="card table-wrap"><table><caption>Leads, newest first</caption>
<thead><tr>${canDelete ? html`<th scope="col"><span class="sr-only">Select</span></th>` : ''}<th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Phone</th><th scope="col">Destinations</th><th scope="col">Received</th></tr></thead>
<tbody>${rows}</tbody></table>
${canDelete ? html`<div class="actions"><button type="submit" form="bulk" class="danger">Delete selected</button></div>` : ''}
${pager({ page, pages, href, total: data.total })}</div>`,
  );
}

function leadPageView(p: PageContext, l: Lead, canDelete: boolean): string {
  const row = (label: string, value: Html | string | null) =>
    html`<tr><th scope="row">${label}</th><td>${value ?? ''}</td></tr>`;
  return layout(
    p,
    `Lead ${l.name}`,
    html`<h1>Lead: ${l.name}</h1><p><a href="/admin/leads">All leads</a></p>
<div class="card"><table><caption>Lead details</caption><tbody>
${row('E-mail', l.email)}${row('Phone', l.phone)}${row('Region', l.region)}${row('Destinations', destinations(l))}
${row('Preferred call time', l.preferredCallTime)}${row('Source', l.source)}${row('Received', when(l.createdAt))}
${row('Consent given', when(l.consentGivenAt))}${row('Privacy policy version', l.privacyPolicyVersion)}
${row('CRM person', l.crmPersonId === null ? null : String(l.crmPersonId))}</tbody></table>
${
  canDelete
    ? html`<form method="post" action="/admin/leads/delete/confirm" class="actions">${csrfField(p.csrfToken)}
<input type="hidden" name="ids" value="${l.id}"><button type="submit" class="danger">Delete lead</button></form>`
    : ''
}</div>`,
  );
}

export async function leadConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const view = { schema: { hide: true }, preHandler: guard(ctx, 'view_lead') };
  const remove = { schema: { hide: true }, preHandler: guard(ctx, 'delete_lead') };

  app.get('/admin/leads', view, async (request, reply) => {
    const query = request.query as { q?: string; page?: string; done?: string };
    const q = (query.q ?? '').trim().slice(0, 100);
    const page = Math.max(1, Math.min(10_000, Number.parseInt(query.page ?? '1', 10) || 1));
    const p = pageOf(request);
    const data = await leadPage(ctx, page, PER_PAGE, q || undefined);
    const done = query.done && /^\d{1,4}$/.test(query.done) ? `Deleted ${query.done} lead(s).` : undefined;
    return sendPage(reply, leadsPage(p, data, q, page, actionsFor(p.actor.grant, 'lead').bulkDelete, done));
  });

  app.get('/admin/leads/:id', view, async (request, reply) => {
    const raw = (request.params as { id: string }).id;
    const lead = /^\d{1,9}$/.test(raw) ? await leadById(ctx, Number(raw)) : null;
    if (!lead) throw new AppError(404, 'lead_not_found', 'No such lead.');
    const p = pageOf(request);
    return sendPage(reply, leadPageView(p, lead, actionsFor(p.actor.grant, 'lead').delete));
  });

  // the confirmation step: what will be deleted, then the button that deletes
  app.post('/admin/leads/delete/confirm', remove, async (request: FastifyRequest, reply) => {
    const ids = leadIds(request.body);
    const p = pageOf(request);
    const names = await Promise.all(ids.slice(0, 20).map((id) => leadById(ctx, id)));
    const listed = names.filter((l): l is Lead => l !== null).map((l) => html`<li>${l.name} (${l.email})</li>`);
    return sendPage(
      reply,
      layout(
        p,
        'Delete leads',
        html`<h1>Delete ${ids.length} lead(s)?</h1><div class="card"><p>This deletes the selected leads and their CRM sync records. It cannot be undone.</p>
<ul>${listed}</ul>${ids.length > 20 ? html`<p class="muted">and ${ids.length - 20} more</p>` : ''}
<form method="post" action="/admin/leads/delete" class="actions">${csrfField(p.csrfToken)}
${ids.map((id) => html`<input type="hidden" name="ids" value="${id}">`)}
<button type="submit" class="danger">Delete</button><a class="button secondary" href="/admin/leads">Cancel</a></form></div>`,
      ),
    );
  });

  app.post('/admin/leads/delete', remove, async (request, reply) => {
    const deleted = await deleteLeadsAsAdmin(ctx, pageOf(request).actor, leadIds(request.body));
    return reply.redirect(`/admin/leads?done=${deleted}`, 303);
  });
}
