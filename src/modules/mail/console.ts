// The console's outbox page (permission view_mail): the customer e-mails, latest first, with their
// state (pending, sent, failed), attempts and last error; filter by state; one mail's text.
import type { FastifyInstance } from 'fastify';
import { guard, pageOf, sendPage } from '../../console/http.js';
import { badge, layout, when } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { html } from '../../platform/html.js';
import { outboxList } from './service.js';

const STATES = ['pending', 'sent', 'failed'] as const;

export async function mailConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const view = { schema: { hide: true }, preHandler: guard(ctx, 'view_mail') };

  app.get('/admin/outbox', view, async (request, reply) => {
    const q = (request.query as { status?: string }).status;
    const status = (STATES as readonly string[]).includes(q ?? '') ? q : undefined;
    const mails = await outboxList(ctx, { status, limit: 200 });
    const tab = (value: string | undefined, label: string) =>
      html`<a href="/admin/outbox${value ? `?status=${value}` : ''}"${value === status ? html` aria-current="page"` : ''}>${label}</a>`;
    const rows = mails.length
      ? mails.map(
          (
            m,
          ) => html`<tr><td><a href="/admin/outbox/${m.id}">${m.subject}</a></td><td>${m.to}</td><td>${m.kind.replaceAll('_', ' ')}</td>
<td>${m.language}</td><td>${badge(m.status)}</td><td class="n">${m.attempts}</td><td class="error-text">${m.last_error ?? ''}</td>
<td>${when(m.sent_at ?? m.created_at)}</td></tr>`,
        )
      : html`<tr><td colspan="8" class="muted">No e-mail in this state.</td></tr>`;
    return sendPage(
      reply,
      layout(
        pageOf(request),
        'Outbox',
        html`<h1>E-mail outbox</h1>
<p class="muted">${ctx.config.mail.smtpUrl ? 'Delivered over SMTP by the mail.deliver task every minute.' : 'SMTP_URL is not set: e-mails stay here until it is.'}</p>
<nav class="tabs" aria-label="State">${tab(undefined, 'All')}${STATES.map((s) => tab(s, s[0]!.toUpperCase() + s.slice(1)))}</nav>
<div class="card table-wrap"><table><caption>Customer e-mails, latest first</caption>
<thead><tr><th scope="col">Subject</th><th scope="col">To</th><th scope="col">Kind</th><th scope="col">Language</th><th scope="col">State</th><th scope="col" class="n">Attempts</th><th scope="col">Last error</th><th scope="col">When</th></tr></thead>
<tbody>${rows}</tbody></table></div>`,
      ),
    );
  });

  app.get('/admin/outbox/:id', view, async (request, reply) => {
    const raw = (request.params as { id: string }).id;
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    const mail = (await outboxList(ctx, { limit: 500 })).find((m) => m.id === id);
    if (!mail) throw new AppError(404, 'mail_not_found', 'No such e-mail.');
    return sendPage(
      reply,
      layout(
        pageOf(request),
        mail.subject,
        html`<h1>${mail.subject}</h1><p><a href="/admin/outbox">Outbox</a></p>
<div class="card"><p>To ${mail.to} · ${mail.language} · ${badge(mail.status)} · ${mail.attempts} attempt(s)</p>
<pre class="mail-text">${mail.text}</pre></div>`,
      ),
    );
  });
}
