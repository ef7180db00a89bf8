// Newsletter use cases: subscribe (store once by email, mirror downstream through queued jobs).
import type { AppContext } from '../../context.js';
import { inTransaction, type Transaction, withSavepoint } from '../../db/transaction.js';
import { validationError } from '../../platform/errors.js';
import type { MailDomainCheck } from './mail-domain.js';
import { type NewsletterMirror, newsletterMirrors } from './mirrors.js';
import { SubscriberRepository } from './repository.js';
import { mailDomain, messages, parseSubscribe } from './rules.js';

export interface SubscribeResult {
  created: boolean;
  message: string;
}

export class NewsletterService {
  readonly subscribers: SubscriberRepository;
  private mirrorList: NewsletterMirror[] | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly mailDomains: MailDomainCheck,
  ) {
    this.subscribers = new SubscriberRepository(ctx.database.db);
  }

  private get mirrors(): NewsletterMirror[] {
    // the CRM first, then marketing, as before
    this.mirrorList ??= [newsletterMirrors(this.ctx).crm, newsletterMirrors(this.ctx).marketing];
    return this.mirrorList;
  }

  /**
   * First submit: stores the row and queues every mirror. Repeat: changes nothing, unless it
   * brings a phone and the stored one is empty; then the phone is filled (atomically) and the
   * mirrors are queued in phone-only mode. Consent data always stays that of the first submit.
   */
  async subscribe(body: unknown, ip: string | null): Promise<SubscribeResult> {
    const parsed = parseSubscribe(body);
    if ('errors' in parsed) throw validationError(parsed.errors);
    const input = parsed.input;

    const domain = mailDomain(input.email);
    const verdict = await this.mailDomains.check(domain);
    if (verdict === 'refuses') throw validationError({ email: [messages.emailNoMail] });
    if (verdict === 'unknown') {
      // a resolver outage must not stop signups: accepted, and said in the log
      this.ctx.log.warn({ domain }, 'newsletter: mail DNS check inconclusive (time-out or resolver error); accepted');
    }

    const now = this.ctx.clock.now();
    return inTransaction(this.ctx.database, async (tx) => {
      const id = await this.subscribers.insertIfAbsent(tx, {
        email: input.email,
        name: input.name,
        phone: input.phone,
        market: input.market,
        consentGivenAt: now,
        privacyPolicyVersion: this.ctx.config.newsletter.privacyPolicyVersion,
        consentIp: ip,
      });
      if (id !== null) {
        await this.dispatchMirrors(id, false, tx);
        return { created: true, message: messages.created };
      }
      if (input.phone) {
        const filled = await this.subscribers.fillPhoneIfEmpty(tx, input.email, input.phone, now);
        if (filled !== null) await this.dispatchMirrors(filled, true, tx);
      }
      return { created: false, message: messages.existing };
    });
  }

  /**
   * Each mirror is dispatched on its own; a failure is logged and swallowed, so the stored row is
   * never lost. Inside a transaction, each dispatch has its own savepoint.
   */
  async dispatchMirrors(subscriberId: number, phoneOnly: boolean, tx?: Transaction): Promise<void> {
    for (const [i, m] of this.mirrors.entries()) {
      const payload = { subscriberId, phoneOnly };
      const send = () => this.ctx.queue.dispatch(m.job, payload, { uniqueKey: m.uniqueKey(payload), transaction: tx });
      try {
        await (tx ? withSavepoint(tx, `mirror_${i}`, send) : send());
      } catch (err) {
        this.ctx.log.error(
          { err, subscriberId, jobClass: m.job.name, phoneOnly },
          'newsletter: could not queue mirror job',
        );
      }
    }
  }
}
