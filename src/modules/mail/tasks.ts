// Scheduled tasks of the mail outbox: delivery every minute, and the listing on demand.
import type { AppContext } from '../../context.js';
import type { Task } from '../../platform/tasks.js';
import { deliverOutbox, outboxList } from './service.js';

export function tasks(_ctx: AppContext): Task[] {
  return [
    {
      name: 'mail.deliver',
      describe: 'send the due customer e-mails of the outbox over SMTP_URL (failed sends are tried again later)',
      cron: '* * * * *',
      timeoutSeconds: 300,
      async run(ctx) {
        const r = await deliverOutbox(ctx);
        if (!r.smtp) return { ok: true, message: 'SMTP_URL is not set: mails stay in the outbox (mail:outbox)' };
        return { ok: true, message: `${r.sent} sent, ${r.retrying} to retry, ${r.failed} failed` };
      },
    },
    {
      name: 'mail:outbox',
      describe: 'list the customer e-mails of the outbox, latest first (--status=pending|sent|failed --limit=N)',
      async run(ctx, run) {
        const status = typeof run.options.status === 'string' ? run.options.status : undefined;
        const limit = typeof run.options.limit === 'string' ? Number(run.options.limit) : 50;
        if (status && !['pending', 'sent', 'failed'].includes(status)) {
          return { ok: false, message: `--status must be pending, sent or failed, got ${status}` };
        }
        if (!Number.isInteger(limit) || limit < 1) return { ok: false, message: '--limit must be a whole number' };
        const mails = await outboxList(ctx, { status, limit });
        for (const m of mails) {
          run.out(
            `#${m.id} ${m.status.padEnd(7)} ${m.created_at} ${m.kind} ${m.language} ${m.to} "${m.subject}"` +
              (m.last_error ? ` (tries ${m.attempts}: ${m.last_error})` : ''),
          );
        }
        return { ok: true, message: `${mails.length} mail(s)` };
      },
    },
  ];
}
