// Customer e-mails through a transactional outbox. `queueMail` writes the rendered mail in the
// caller's transaction (so it exists exactly when the event does); `deliverOutbox` sends what is
// due over SMTP_URL and marks each row sent, or tries it again later. Without SMTP_URL mails stay
// in the outbox, listed by `outboxList` (npm run task -- mail:outbox, the admin console).
import nodemailer from 'nodemailer';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { escapeHtml } from '../../platform/html.js';
import { claimDueMails, insertMail, listMails, markAttemptFailed, markSent } from './repository.js';
import { MAIL_LEASE_SECONDS, nextMailAttempt } from './rules.js';
import { renderSupplierMail, type SupplierMailFacts, type SupplierMailKind } from './supplier-templates.js';
import { type MailFacts, type MailKind, renderMail } from './templates.js';

export interface OutgoingMail {
  /** what the mail is about; a second mail with the same key is not written (e.g. booking-confirmation:42) */
  key: string;
  kind: MailKind;
  bookingId: number | null;
  to: string;
  facts: MailFacts;
  /** when the event happened (the clock's now): the mail is due from then */
  at: Date;
}

/** Renders the mail in its language and writes it to the outbox in `tx`; false when its key exists. */
export async function queueMail(tx: DbOrTx, mail: OutgoingMail): Promise<boolean> {
  return writeMail(tx, mail, mail.facts.language, renderMail(mail.kind, mail.facts));
}

/** A supplier e-mail (in English) written to the outbox in `tx`; false when its key exists. */
export async function queueSupplierMail(
  tx: DbOrTx,
  mail: { key: string; kind: SupplierMailKind; bookingId: number; to: string; facts: SupplierMailFacts; at: Date },
): Promise<boolean> {
  return writeMail(tx, mail, 'en', renderSupplierMail(mail.kind, mail.facts));
}

function writeMail(
  tx: DbOrTx,
  mail: { key: string; kind: string; bookingId: number | null; to: string; at: Date },
  language: string,
  rendered: { subject: string; text: string; html: string },
): Promise<boolean> {
  return insertMail(tx, {
    key: mail.key,
    kind: mail.kind,
    bookingId: mail.bookingId,
    toAddress: mail.to,
    language,
    subject: rendered.subject,
    textBody: rendered.text,
    htmlBody: rendered.html,
    nextAttemptAt: mail.at,
    createdAt: mail.at,
  });
}

/**
 * A plain-text notice to a console operator (not a customer: no booking, English), through the
 * same outbox and delivery as the customer mails.
 */
export async function queueOperatorNotice(
  tx: DbOrTx,
  notice: { key: string; kind: string; to: string; subject: string; text: string; at: Date },
): Promise<boolean> {
  const escaped = escapeHtml(notice.text).replace(/\n/g, '<br>');
  return insertMail(tx, {
    key: notice.key,
    kind: notice.kind,
    bookingId: null,
    toAddress: notice.to,
    language: 'en',
    subject: notice.subject,
    textBody: notice.text,
    htmlBody: `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body><p>${escaped}</p></body></html>`,
    nextAttemptAt: notice.at,
    createdAt: notice.at,
  });
}

export interface DeliveryReport {
  sent: number;
  retrying: number;
  failed: number;
  /** false: no SMTP_URL, nothing was sent */
  smtp: boolean;
}

/** Sends the due mails of the outbox, one SMTP connection per run. */
export async function deliverOutbox(
  ctx: Pick<AppContext, 'config' | 'database' | 'clock' | 'log'>,
  opts: { limit?: number; signal?: AbortSignal } = {},
): Promise<DeliveryReport> {
  const report: DeliveryReport = { sent: 0, retrying: 0, failed: 0, smtp: Boolean(ctx.config.mail.smtpUrl) };
  if (!ctx.config.mail.smtpUrl) return report;
  const db = ctx.database.db;
  const now = ctx.clock.now();
  const claimed = await claimDueMails(db, now, new Date(now.getTime() + MAIL_LEASE_SECONDS * 1000), opts.limit ?? 50);
  if (!claimed.length) return report;
  const transport = nodemailer.createTransport({
    url: ctx.config.mail.smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const host = new URL(ctx.config.appUrl).hostname || 'itinera';
  try {
    for (const mail of claimed) {
      if (opts.signal?.aborted) break;
      try {
        await transport.sendMail({
          from: ctx.config.mail.from,
          to: mail.toAddress,
          subject: mail.subject,
          text: mail.textBody,
          html: mail.htmlBody,
          // one id per outbox row: a receiver can drop the copy of a mail re-sent after a crash
          messageId: `<outbox-${mail.id}@${host}>`,
        });
        await markSent(db, mail.id, ctx.clock.now());
        report.sent++;
      } catch (err) {
        const next = nextMailAttempt(ctx.clock.now(), mail.attempts + 1);
        const message = err instanceof Error ? err.message : String(err);
        await markAttemptFailed(db, mail.id, message, next);
        if (next) report.retrying++;
        else report.failed++;
        ctx.log[next ? 'warn' : 'error']({ err: message, mail: mail.id, key: mail.key }, 'mail not delivered');
      }
    }
  } finally {
    transport.close();
  }
  return report;
}

/** The outbox, latest first: what the console and `mail:outbox` show. */
export async function outboxList(
  ctx: Pick<AppContext, 'database'>,
  opts: { status?: string; bookingId?: number; limit?: number } = {},
) {
  const rows = await listMails(ctx.database.db, { ...opts, limit: Math.min(opts.limit ?? 50, 500) });
  return rows.map((r) => ({
    id: r.id,
    key: r.key,
    kind: r.kind,
    booking_id: r.bookingId,
    to: r.toAddress,
    language: r.language,
    subject: r.subject,
    status: r.status,
    attempts: r.attempts,
    next_attempt_at: r.status === 'pending' ? r.nextAttemptAt.toISOString() : null,
    last_error: r.lastError,
    sent_at: r.sentAt ? r.sentAt.toISOString() : null,
    created_at: r.createdAt.toISOString(),
    text: r.textBody,
    html: r.htmlBody,
  }));
}
