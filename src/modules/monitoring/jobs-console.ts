// The console's jobs page (what Horizon shows): job counts per queue and the failed jobs of each
// queue with a payload summary, the error and the tries; Retry (a new job with the same payload and
// a fresh set of tries) and Delete, each written to the audit log.
import type { FastifyInstance } from 'fastify';
import { guard, pageOf, sendPage } from '../../console/http.js';
import { allows, assertAllowed } from '../../console/permissions.js';
import { csrfField, layout, notice, type PageContext, when } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { html } from '../../platform/html.js';
import { type FailedJob, PgBossQueue } from '../../platform/queue-pgboss.js';
import { type AdminActor, audit } from '../admin/service.js';

function pgBoss(ctx: AppContext): PgBossQueue {
  if (!(ctx.queue instanceof PgBossQueue))
    throw new AppError(503, 'queue_unavailable', 'The job queue is not pg-boss.');
  return ctx.queue;
}

/** How many failed jobs wait in every queue, up to `cap` + 1 (one query); 0 without pg-boss. */
export async function failedJobCount(ctx: AppContext, cap: number): Promise<number> {
  if (!(ctx.queue instanceof PgBossQueue)) return 0;
  return ctx.queue.failedCount([...new Set(ctx.queue.queueNames())], cap);
}

/** Retry or delete a failed job as an admin: the permission again, the queue, the audit row. */
export async function actOnFailedJob(
  ctx: AppContext,
  actor: AdminActor,
  action: 'retry' | 'delete',
  queue: string,
  id: string,
): Promise<boolean> {
  assertAllowed(actor.grant, action === 'retry' ? 'retry_job' : 'delete_job');
  const q = pgBoss(ctx);
  const job = await q.failedJob(queue, id);
  if (!job) throw new AppError(404, 'job_not_found', 'No such failed job (already retried or deleted?).');
  const ok = action === 'retry' ? await q.retryFailedJob(queue, id) : await q.deleteFailedJob(queue, id);
  await audit(ctx, actor, {
    action: `job.${action}`,
    resourceType: 'job',
    resourceId: id,
    details: { queue, job: job.jobClass },
  });
  return ok;
}

/** A short, readable summary of a job's payload (ids, not copies of data). */
export function payloadSummary(payload: unknown): string {
  if (payload === null || typeof payload !== 'object') return JSON.stringify(payload ?? null);
  const text = Object.entries(payload as Record<string, unknown>)
    .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
    .join(' ');
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function jobsPage(
  p: PageContext,
  counts: { queue: string; waiting: number; active: number; completed: number; failed: number }[],
  failed: FailedJob[],
  message?: string,
): string {
  const canRetry = allows(p.actor.grant, 'retry_job');
  const canDelete = allows(p.actor.grant, 'delete_job');
  const action = (j: FailedJob, kind: 'retry' | 'delete', label: string, cls = '') =>
    html`<form method="post" action="/admin/jobs/${j.queue}/${j.id}/${kind}">${csrfField(p.csrfToken)}<button type="submit" class="small ${cls}">${label}</button></form>`;
  const rows = failed.length
    ? failed.map(
        (j) => html`<tr><td>${j.queue}</td><td>${j.jobClass}</td><td><code>${payloadSummary(j.payload)}</code></td>
<td class="error-text">${j.error ?? ''}</td><td class="n">${j.tries}</td><td>${when(j.failedOn)}</td>
<td class="actions">${canRetry ? action(j, 'retry', 'Retry') : ''}${canDelete ? action(j, 'delete', 'Delete', 'danger') : ''}</td></tr>`,
      )
    : html`<tr><td colspan="7" class="muted">No failed job.</td></tr>`;
  return layout(
    p,
    'Jobs',
    html`<h1>Jobs</h1>${notice(message)}
<div class="card table-wrap"><table><caption>Jobs per queue</caption>
<thead><tr><th scope="col">Queue</th><th scope="col" class="n">Waiting</th><th scope="col" class="n">Running</th><th scope="col" class="n">Completed</th><th scope="col" class="n">Failed</th></tr></thead>
<tbody>${counts.map((c) => html`<tr><td>${c.queue}</td><td class="n">${c.waiting}</td><td class="n">${c.active}</td><td class="n">${c.completed}</td><td class="n">${c.failed}</td></tr>`)}</tbody></table></div>
<h2>Failed jobs</h2>
<div class="card table-wrap"><table><caption>Failed jobs, latest first (kept a week, then archived)</caption>
<thead><tr><th scope="col">Queue</th><th scope="col">Job</th><th scope="col">Payload</th><th scope="col">Error</th><th scope="col" class="n">Tries</th><th scope="col">Failed</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody>${rows}</tbody></table></div>`,
  );
}

const DONE: Record<string, string> = {
  retry: 'Job sent again with a fresh set of tries.',
  delete: 'Failed job deleted.',
};

export async function jobConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const view = { schema: { hide: true }, preHandler: guard(ctx, 'view_job') };
  app.get('/admin/jobs', view, async (request, reply) => {
    const q = pgBoss(ctx);
    const names = [...new Set(q.queueNames())].sort();
    const counts = await Promise.all(names.map(async (queue) => ({ queue, ...(await q.counts(queue)) })));
    const failed = (await Promise.all(names.map((queue) => q.failedJobs(queue, 50))))
      .flat()
      .sort((a, b) => (b.failedOn?.getTime() ?? 0) - (a.failedOn?.getTime() ?? 0))
      .slice(0, 200);
    const done = DONE[(request.query as { done?: string }).done ?? ''];
    return sendPage(reply, jobsPage(pageOf(request), counts, failed, done));
  });

  for (const action of ['retry', 'delete'] as const) {
    const opts = { schema: { hide: true }, preHandler: guard(ctx, action === 'retry' ? 'retry_job' : 'delete_job') };
    app.post(`/admin/jobs/:queue/:id/${action}`, opts, async (request, reply) => {
      const { queue, id } = request.params as { queue: string; id: string };
      if (!pgBoss(ctx).queueNames().includes(queue)) throw new AppError(404, 'job_not_found', 'No such queue.');
      await actOnFailedJob(ctx, pageOf(request).actor, action, queue, id);
      return reply.redirect(`/admin/jobs?done=${action}`, 303);
    });
  }
}
