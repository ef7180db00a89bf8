// Admin notifications other than the health checks' (a CRM sync that ended Failed, exchange rates
// gone stale): one per key at most every `intervalMs` across all processes (the throttle
// row in ops_notification_throttles), stored for the console's notification list and e-mailed over
// SMTP_URL to HEALTH_NOTIFY_EMAIL, or written to the log (warn) when no channel is set. Shared counters for /metrics live here too (ops_counters).
import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { Clock } from '../../platform/clock.js';
import { notifyAdmins as notifyConsole } from '../notifications/service.js';
import { addToCounter, claimThrottle, countersNamed, releaseThrottle } from './repository.js';

export interface AlertDeps {
  config: Pick<Config, 'health' | 'appEnv'>;
  database: Database;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  clock?: Clock;
}

export interface AdminAlert {
  /** throttle key, e.g. 'crm:sync-failed' */
  key: string;
  subject: string;
  text: string;
  /** at most one message per key in this time (default 60 minutes) */
  intervalMs?: number;
}

export type AlertOutcome = 'sent' | 'logged' | 'throttled' | 'error';

export async function notifyAdmins(deps: AlertDeps, alert: AdminAlert): Promise<AlertOutcome> {
  const now = deps.clock?.now() ?? new Date();
  const interval = alert.intervalMs ?? 60 * 60 * 1000;
  const subject = `[itinera ${deps.config.appEnv}] ${alert.subject}`;
  if (!(await claimThrottle(deps.database.db, alert.key, now, new Date(now.getTime() - interval)))) {
    return 'throttled';
  }
  // the console's notification list shows it too
  await notifyConsole(deps.database.db, {
    type: alert.key,
    bookingId: null,
    title: alert.subject,
    message: alert.text,
  }).catch((err: unknown) => deps.log.warn({ err }, 'admin notification not stored for the console'));
  const { smtpUrl, notifyEmail, mailFrom } = deps.config.health;
  if (!smtpUrl || !notifyEmail) {
    // warn, not error: what the alert is about was already logged at error where it happened
    deps.log.warn({ alert: { subject, text: alert.text } }, 'admin notification (no SMTP configured)');
    return 'logged';
  }
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 10_000,
  });
  try {
    await transport.sendMail({ from: mailFrom, to: notifyEmail, subject, text: alert.text });
    deps.log.warn({ subject, to: notifyEmail }, 'admin notification sent');
    return 'sent';
  } catch (err) {
    deps.log.error({ err, subject }, 'admin notification could not be sent');
    await releaseThrottle(deps.database.db, alert.key, now).catch(() => {});
    return 'error';
  } finally {
    transport.close();
  }
}

/** Adds `by` to a shared counter (e.g. crm_sync_failed_total with labels {model: 'lead'}). */
export function countEvent(
  deps: Pick<AlertDeps, 'database'>,
  name: string,
  labels: Record<string, string> = {},
  by = 1,
): Promise<void> {
  const sorted = Object.fromEntries(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
  return addToCounter(deps.database.db, name, JSON.stringify(sorted), by);
}

/** The series of a shared counter, for /metrics. */
export async function sharedCounter(
  deps: Pick<AlertDeps, 'database'>,
  name: string,
): Promise<Array<{ labels: Record<string, string>; value: number }>> {
  const rows = await countersNamed(deps.database.db, name);
  return rows.map((r) => ({ labels: r.labels ? JSON.parse(r.labels) : {}, value: Number(r.value) }));
}
