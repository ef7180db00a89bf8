// E-mail about failing health checks, at most one per 60 minutes across all processes: the last
// sending time lives in the database (ops_notification_throttles). Sent over SMTP (SMTP_URL) to
// HEALTH_NOTIFY_EMAIL; without either, the message is written to the log instead.
import nodemailer, { type Transporter } from 'nodemailer';
import type { AppContext } from '../../context.js';
import { withDeadline } from './deadline.js';
import { claimThrottle, releaseThrottle } from './repository.js';
import type { HealthReport } from './rules.js';

export const HEALTH_NOTIFICATION_KEY = 'health:failed';
export const HEALTH_NOTIFICATION_INTERVAL_MS = 60 * 60 * 1000;
const DB_DEADLINE_MS = 2_000;

export type NotifyOutcome = 'sent' | 'logged' | 'throttled' | 'error';

type Ctx = Pick<AppContext, 'config' | 'database' | 'clock' | 'log'>;

export class HealthNotifier {
  private readonly transport: Transporter;
  private readonly viaSmtp: boolean;
  /** used only when the database cannot be asked (it may be the very thing that failed) */
  private lastSentInProcess = Number.NEGATIVE_INFINITY;

  constructor(private readonly ctx: Ctx) {
    const { smtpUrl, notifyEmail } = ctx.config.health;
    this.viaSmtp = Boolean(smtpUrl && notifyEmail);
    this.transport = this.viaSmtp
      ? nodemailer.createTransport({
          url: smtpUrl,
          connectionTimeout: 5_000,
          greetingTimeout: 5_000,
          socketTimeout: 10_000,
        })
      : nodemailer.createTransport({ jsonTransport: true });
    if (smtpUrl && !notifyEmail) {
      ctx.log.warn('SMTP_URL is set but HEALTH_NOTIFY_EMAIL is not: health notifications go to the log');
    }
  }

  /** Sends (or logs) one message about the failing checks of `report`, unless one went out in the last hour. */
  async notifyFailure(report: HealthReport): Promise<NotifyOutcome> {
    const now = this.ctx.clock.now();
    const claim = await this.claim(now);
    if (claim === 'throttled') return 'throttled';
    const { subject, text } = composeMessage(report, this.ctx.config);
    try {
      const info = await this.transport.sendMail({
        from: this.ctx.config.health.mailFrom,
        to: this.ctx.config.health.notifyEmail || undefined,
        subject,
        text,
      });
      if (this.viaSmtp) {
        this.ctx.log.warn({ subject, to: this.ctx.config.health.notifyEmail }, 'health notification sent');
        return 'sent';
      }
      this.ctx.log.error({ mail: JSON.parse(String(info.message)) }, 'health notification (no SMTP configured)');
      return 'logged';
    } catch (err) {
      this.ctx.log.error({ err }, 'health notification could not be sent');
      if (claim === 'database') {
        await withDeadline(
          releaseThrottle(this.ctx.database.db, HEALTH_NOTIFICATION_KEY, now),
          DB_DEADLINE_MS,
          'releasing the notification throttle',
        ).catch(() => {});
      } else {
        this.lastSentInProcess = Number.NEGATIVE_INFINITY;
      }
      return 'error';
    }
  }

  private async claim(now: Date): Promise<'database' | 'process' | 'throttled'> {
    const notAfter = new Date(now.getTime() - HEALTH_NOTIFICATION_INTERVAL_MS);
    try {
      const won = await withDeadline(
        claimThrottle(this.ctx.database.db, HEALTH_NOTIFICATION_KEY, now, notAfter),
        DB_DEADLINE_MS,
        'claiming the notification throttle',
      );
      return won ? 'database' : 'throttled';
    } catch (err) {
      this.ctx.log.warn({ err }, 'notification throttle unavailable in the database; throttling in process');
      if (now.getTime() - this.lastSentInProcess < HEALTH_NOTIFICATION_INTERVAL_MS) return 'throttled';
      this.lastSentInProcess = now.getTime();
      return 'process';
    }
  }

  close(): void {
    this.transport.close();
  }
}

export function composeMessage(
  report: HealthReport,
  config: Pick<AppContext['config'], 'appEnv' | 'appUrl'>,
): { subject: string; text: string } {
  const failed = report.checkResults.filter((r) => r.status === 'failed').map((r) => r.name);
  const lines = report.checkResults.map((r) => `- ${r.name}: ${r.status}${r.message ? ` (${r.message})` : ''}`);
  return {
    subject: `[itinera ${config.appEnv}] Health checks failed: ${failed.join(', ')}`,
    text: [
      `Health checks of ${config.appUrl} (${config.appEnv}) finished at ${report.finishedAt.toISOString()}.`,
      '',
      ...lines,
      '',
      'Further failures within the next 60 minutes are not e-mailed.',
    ].join('\n'),
  };
}
