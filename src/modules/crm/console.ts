// The console's sync monitor (spec 3): CRM sync records by model and status with their error,
// attempts and last change; Retry (Failed -> Pending) and Reactivate (Ignored -> Pending) per row
// and for the selected rows; "Dispatch pending" (what `crm:retry-failed --status=pending` does);
// and the marketing mirror's failures. Every action calls the CRM service and writes the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { field, fields, guard, pageOf, sendPage } from '../../console/http.js';
import { allows, assertAllowed } from '../../console/permissions.js';
import { badge, csrfField, layout, notice, type PageContext, when } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import type { CrmSyncStatus } from '../../db/schema/crm.js';
import { AppError } from '../../platform/errors.js';
import { html } from '../../platform/html.js';
import { type AdminActor, audit } from '../admin/service.js';
import { latestSyncStates, type MarketingSyncState } from '../marketing/sync-state.js';
import { dispatchRecords, type SyncModel } from './monitor.js';
import { countByStatus, latestRecords, type SyncRecord } from './repository.js';
import { CRM_SYNC_STATUSES } from './rules.js';
import { crmConfigured, reactivateSyncRecord, retrySyncRecord } from './service.js';

const MODELS: Record<SyncModel, string> = { newsletter_subscriber: 'Newsletter subscribers', lead: 'Leads' };
const LIMIT = 200;
type Action = 'retry' | 'reactivate';

/** Retry or Reactivate records as an admin: the permission again, the CRM service, the audit row. */
export async function moveSyncRecords(
  ctx: AppContext,
  actor: AdminActor,
  action: Action,
  ids: number[],
): Promise<{ moved: number; refused: string[] }> {
  assertAllowed(actor.grant, 'retry_sync_record');
  let moved = 0;
  const refused: string[] = [];
  for (const id of ids) {
    try {
      await (action === 'retry' ? retrySyncRecord : reactivateSyncRecord)(ctx, id);
      moved++;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      refused.push(`#${id}: ${err.message}`);
    }
  }
  await audit(ctx, actor, {
    action: `sync_record.${action}`,
    resourceType: 'crm_sync_record',
    resourceId: ids.join(','),
    details: { moved, refused: refused.length },
  });
  return { moved, refused };
}

/** "Dispatch pending" as an admin: the CRM job for every Pending record of the model. */
export async function dispatchPendingAsAdmin(ctx: AppContext, actor: AdminActor, model: SyncModel) {
  assertAllowed(actor.grant, 'retry_sync_record');
  if (!crmConfigured(ctx.config)) {
    throw new AppError(
      409,
      'crm_not_configured',
      'CRM_API_TOKEN is not set: the CRM mirror is off, nothing dispatched.',
    );
  }
  const result = await dispatchRecords(ctx, ctx.queue, model, ['Pending']);
  await audit(ctx, actor, {
    action: 'sync_record.dispatch_pending',
    resourceType: 'crm_sync_record',
    details: { model, ...result },
  });
  return result;
}

function modelOf(v: string | undefined): SyncModel {
  return v === 'lead' ? 'lead' : 'newsletter_subscriber';
}

function statusOf(v: string | undefined): CrmSyncStatus | 'all' {
  return (CRM_SYNC_STATUSES as string[]).includes(v ?? '') ? (v as CrmSyncStatus) : v === 'all' ? 'all' : 'Failed';
}

function recordLink(model: SyncModel, r: SyncRecord) {
  return model === 'lead'
    ? html`<a href="/admin/leads/${r.modelId}">lead ${r.modelId}</a>`
    : html`<a href="/admin/subscribers?id=${r.modelId}">subscriber ${r.modelId}</a>`;
}

function monitorPage(
  p: PageContext,
  view: {
    model: SyncModel;
    status: CrmSyncStatus | 'all';
    counts: Record<string, number>;
    rows: SyncRecord[];
    marketing: MarketingSyncState[];
    message?: string;
  },
): string {
  const canAct = allows(p.actor.grant, 'retry_sync_record');
  const tab = (model: SyncModel, status: string, label: string, current: boolean) =>
    html`<a href="/admin/sync?model=${model}&amp;status=${status}"${current ? html` aria-current="page"` : ''}>${label}</a>`;
  const rowAction = (r: SyncRecord) => {
    if (!canAct) return '';
    const action = r.status === 'Failed' ? 'retry' : r.status === 'Ignored' ? 'reactivate' : null;
    if (!action) return '';
    return html`<form method="post" action="/admin/sync/${r.id}/${action}">${csrfField(p.csrfToken)}
<input type="hidden" name="back" value="${view.model}|${view.status}"><button type="submit" class="small">${action === 'retry' ? 'Retry' : 'Reactivate'}</button></form>`;
  };
  const rows = view.rows.length
    ? view.rows.map(
        (
          r,
        ) => html`<tr>${canAct ? html`<td><input type="checkbox" name="ids" value="${r.id}" form="bulk" aria-label="Select record ${r.id}"></td>` : ''}
<td>#${r.id}</td><td>${recordLink(view.model, r)}</td><td>${badge(r.status)}</td><td class="n">${r.attempts}</td>
<td class="error-text">${r.lastError ?? ''}</td><td>${when(r.updatedAt)}</td><td>${rowAction(r)}</td></tr>`,
      )
    : html`<tr><td colspan="${canAct ? 8 : 7}" class="muted">No record in this state.</td></tr>`;
  const marketing = view.marketing.length
    ? view.marketing.map(
        (m) => html`<tr><td><a href="/admin/subscribers?id=${m.subscriberId}">subscriber ${m.subscriberId}</a></td>
<td>${badge(m.status)}</td><td class="n">${m.attempts}</td><td class="error-text">${m.lastError ?? ''}</td><td>${when(m.updatedAt)}</td></tr>`,
      )
    : html`<tr><td colspan="5" class="muted">No marketing sync is failing.</td></tr>`;
  return layout(
    p,
    'Sync monitor',
    html`<h1>Sync monitor</h1>${notice(view.message)}
<nav class="tabs" aria-label="Model">${(Object.keys(MODELS) as SyncModel[]).map((m) => tab(m, view.status, MODELS[m], m === view.model))}</nav>
<nav class="tabs" aria-label="Status">${[...CRM_SYNC_STATUSES, 'all'].map((s) =>
      tab(
        view.model,
        s,
        `${s === 'all' ? 'All' : s} (${s === 'all' ? Object.values(view.counts).reduce((a, b) => a + b, 0) : (view.counts[s] ?? 0)})`,
        s === view.status,
      ),
    )}</nav>
${
  canAct
    ? html`<form id="bulk" method="post" action="/admin/sync/bulk">${csrfField(p.csrfToken)}<input type="hidden" name="back" value="${view.model}|${view.status}"></form>
<div class="actions"><button type="submit" form="bulk" name="action" value="retry">Retry selected</button>
<button type="submit" form="bulk" name="action" value="reactivate" class="secondary">Reactivate selected</button>
<form method="post" action="/admin/sync/dispatch">${csrfField(p.csrfToken)}<input type="hidden" name="model" value="${view.model}">
<button type="submit" class="secondary">Dispatch pending</button></form></div>`
    : ''
}
<div class="card table-wrap"><table><caption>CRM sync records: ${MODELS[view.model]}, ${view.status === 'all' ? 'all states' : view.status}, latest change first</caption>
<thead><tr>${canAct ? html`<th scope="col"><span class="sr-only">Select</span></th>` : ''}<th scope="col">Record</th><th scope="col">Row</th><th scope="col">Status</th><th scope="col" class="n">Attempts</th><th scope="col">Last error</th><th scope="col">Last change</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>
<h2 id="marketing">Marketing mirror (ActiveCampaign)</h2>
<div class="card table-wrap"><table><caption>Subscribers whose marketing sync failed or is being retried</caption>
<thead><tr><th scope="col">Subscriber</th><th scope="col">Status</th><th scope="col" class="n">Attempts</th><th scope="col">Last error</th><th scope="col">Last change</th></tr></thead>
<tbody>${marketing}</tbody></table></div>`,
  );
}

/** The notice after an action, from counts in the query (never text from the URL). */
function messageOf(query: Record<string, string | undefined>): string | undefined {
  const n = (k: string) => (/^\d{1,6}$/.test(query[k] ?? '') ? Number(query[k]) : 0);
  if (query.done === 'moved') {
    const refused = n('refused');
    return `${n('n')} record(s) Pending again.${refused ? ` ${refused} refused: Retry takes Failed records, Reactivate Ignored ones.` : ''}`;
  }
  if (query.done === 'dispatched') return `${n('n')} dispatched, ${n('already')} already queued.`;
  return undefined;
}

export async function syncConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const view = { schema: { hide: true }, preHandler: guard(ctx, 'view_sync_record') };
  const act = { schema: { hide: true }, preHandler: guard(ctx, 'retry_sync_record') };
  const back = (request: FastifyRequest, moved: number, refused: number) => {
    const [model, status] = field(request.body, 'back').split('|');
    const q = new URLSearchParams({
      model: modelOf(model),
      status: statusOf(status),
      done: 'moved',
      n: String(moved),
      refused: String(refused),
    });
    return `/admin/sync?${q}`;
  };

  app.get('/admin/sync', view, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const model = modelOf(query.model);
    const status = statusOf(query.status);
    const statuses = status === 'all' ? CRM_SYNC_STATUSES : [status];
    const [counts, rows, failed, pending] = await Promise.all([
      countByStatus(ctx.database.db, model),
      latestRecords(ctx.database.db, model, statuses, LIMIT),
      latestSyncStates(ctx.database.db, 'Failed', 50),
      latestSyncStates(ctx.database.db, 'Pending', 50),
    ]);
    const message = messageOf(query);
    return sendPage(
      reply,
      monitorPage(pageOf(request), { model, status, counts, rows, marketing: [...failed, ...pending], message }),
    );
  });

  for (const action of ['retry', 'reactivate'] as const) {
    app.post(`/admin/sync/:id/${action}`, act, async (request, reply) => {
      const raw = (request.params as { id: string }).id;
      if (!/^\d{1,9}$/.test(raw)) throw new AppError(404, 'not_found', 'No such record.');
      const { moved, refused } = await moveSyncRecords(ctx, pageOf(request).actor, action, [Number(raw)]);
      return reply.redirect(back(request, moved, refused.length), 303);
    });
  }

  app.post('/admin/sync/bulk', act, async (request, reply) => {
    const action = field(request.body, 'action') === 'reactivate' ? 'reactivate' : 'retry';
    const ids = [
      ...new Set(
        fields(request.body, 'ids')
          .filter((v) => /^\d{1,9}$/.test(v))
          .map(Number),
      ),
    ].slice(0, 500);
    if (!ids.length) throw new AppError(422, 'nothing_selected', 'Select at least one record.');
    const { moved, refused } = await moveSyncRecords(ctx, pageOf(request).actor, action, ids);
    return reply.redirect(back(request, moved, refused.length), 303);
  });

  app.post('/admin/sync/dispatch', act, async (request, reply) => {
    const model = modelOf(field(request.body, 'model'));
    const { queued, already } = await dispatchPendingAsAdmin(ctx, pageOf(request).actor, model);
    const q = new URLSearchParams({
      model,
      status: 'Pending',
      done: 'dispatched',
      n: String(queued),
      already: String(already),
    });
    return reply.redirect(`/admin/sync?${q}`, 303);
  });
}
