// The newsletter subscriber's CRM mirror job (spec 3, "Sales CRM mirror job"). One job class in
// two modes: the initial delivery, and phone-only, which only fills an empty CRM phone.
import type { DispatchOptions, JobDefinition, JobOutcome, Queue } from '../../platform/queue.js';
import { outcome } from '../../platform/queue.js';
import { findSubscriber, type NewsletterMirror, type Subscriber, setCrmPersonId } from '../newsletter/api.js';
import { CONSENT_FIELDS, type CrmPerson } from './pipedrive.js';
import { recordsFor } from './repository.js';
import { consentDate } from './rules.js';
import {
  applyEvent,
  type CrmDeps,
  crmConfigured,
  currentRecord,
  failureOutcome,
  markExhausted,
  pipedriveFor,
  syncRecordFor,
  withPersonLock,
} from './service.js';

export interface NewsletterCrmPayload {
  subscriberId: number;
  /** only fill an empty CRM phone; never create a person */
  phoneOnly: boolean;
}

export const NEWSLETTER_CRM_JOB = 'newsletter.crm-sync';

/** The contract's settings of every job on the CRM queue: 3 tries, 120 s, 30/60/180 s, unique 600 s. */
export function crmSyncJobSettings(deps: CrmDeps) {
  return {
    queue: deps.config.queue.crmSyncQueue,
    tries: 3,
    timeoutSeconds: 120,
    backoffSeconds: [30, 60, 180],
    uniqueSeconds: 600,
  };
}

export function newsletterCrmSyncJob(deps: CrmDeps): JobDefinition<NewsletterCrmPayload> {
  return {
    name: NEWSLETTER_CRM_JOB,
    ...crmSyncJobSettings(deps),
    handler: (payload, job) => syncSubscriber(deps, payload, job.signal),
    onExhausted: (payload, _job, error) => markExhausted(deps, 'newsletter_subscriber', payload.subscriberId, error),
  };
}

/** Phone-only jobs have their own key so a pending initial job does not swallow them. */
export function newsletterCrmDispatchOptions(payload: NewsletterCrmPayload): DispatchOptions {
  return {
    uniqueKey: payload.phoneOnly
      ? `newsletter-crm-phone:${payload.subscriberId}`
      : `newsletter-crm:${payload.subscriberId}`,
  };
}

/**
 * The CRM entry for the newsletter's mirror list (src/modules/newsletter/mirrors.ts):
 * `newsletterCrmMirror(ctx)` beside the marketing one.
 */
export function newsletterCrmMirror(deps: CrmDeps): NewsletterMirror {
  return {
    job: newsletterCrmSyncJob(deps),
    uniqueKey: (p) => newsletterCrmDispatchOptions(p).uniqueKey,
    states: (db, ids) => recordsFor(db, 'newsletter_subscriber', ids),
  };
}

export function dispatchNewsletterCrmSync(
  queue: Queue,
  deps: CrmDeps,
  payload: NewsletterCrmPayload,
): Promise<string | null> {
  return queue.dispatch(newsletterCrmSyncJob(deps), payload, newsletterCrmDispatchOptions(payload));
}

/** The three consent fields, only ever written on a person we create. */
export function consentValues(c: {
  consentGivenAt: Date;
  privacyPolicyVersion: string;
  consentIp: string | null;
}): Record<string, string> {
  const values: Record<string, string> = {
    [CONSENT_FIELDS.consentGivenAt.name]: consentDate(c.consentGivenAt),
    [CONSENT_FIELDS.privacyPolicyVersion.name]: c.privacyPolicyVersion,
  };
  if (c.consentIp) values[CONSENT_FIELDS.consentIp.name] = c.consentIp;
  return values;
}

export async function syncSubscriber(
  deps: CrmDeps,
  payload: NewsletterCrmPayload,
  signal?: AbortSignal,
): Promise<JobOutcome> {
  const { log } = deps;
  const db = deps.database.db;
  const now = () => (deps.clock?.now() ?? new Date()) as Date;
  const ctx = { subscriberId: payload.subscriberId, phoneOnly: payload.phoneOnly };

  const sub = await findSubscriber(db, payload.subscriberId);
  if (!sub) {
    log.info(ctx, 'CRM sync: subscriber deleted, nothing to do');
    return outcome.ignore('subscriber deleted');
  }
  if (!crmConfigured(deps.config)) {
    log.info(ctx, 'CRM sync: CRM token blank, skipped');
    return outcome.ignore('CRM token blank');
  }
  let record = await syncRecordFor(deps, 'newsletter_subscriber', sub.id);
  if (record.status === 'Ignored') return outcome.ignore('sync record is Ignored');

  const linkedId = record.remoteId ? Number(record.remoteId) : sub.crmPersonId;
  if (linkedId && !sub.phone) {
    if (sub.crmPersonId !== linkedId) await setCrmPersonId(db, sub.id, linkedId, now());
    await applyEvent(deps, record, { type: 'delivered', remoteId: String(linkedId) });
    return outcome.done();
  }

  const client = pipedriveFor(deps, signal);
  try {
    // one person per e-mail: a lead or client mirror of the same e-mail waits its turn
    return await withPersonLock(deps, sub.email, signal, async () => {
      let person: CrmPerson | null;
      if (linkedId) {
        person = await client.getPerson(linkedId);
      } else {
        person = await client.findPersonByEmail(sub.email);
        if (person) {
          // saved before the phone step, so a retry after a failure there does not look again
          await setCrmPersonId(db, sub.id, person.id, now());
          record = (await applyEvent(deps, record, { type: 'linked', remoteId: String(person.id) })) ?? record;
        }
      }

      if (!person) {
        if (payload.phoneOnly) {
          log.info(ctx, 'CRM sync: phone-only delivery found no CRM person; it never creates one');
          return outcome.ignore('no CRM person for a phone-only delivery');
        }
        const created = await client.createPerson(newPerson(sub), Object.values(CONSENT_FIELDS));
        await setCrmPersonId(db, sub.id, created.id, now());
        await applyEvent(deps, record, { type: 'delivered', remoteId: String(created.id) });
        log.info({ ...ctx, personId: created.id }, 'CRM sync: person created');
        return outcome.done();
      }

      if (sub.phone && person.phones.length === 0) {
        await client.setPersonPhone(person.id, sub.phone);
        log.info({ ...ctx, personId: person.id }, 'CRM sync: empty CRM phone filled');
      }
      await applyEvent(deps, record, { type: 'delivered', remoteId: String(person.id) });
      return outcome.done();
    });
  } catch (err) {
    record = await currentRecord(deps, record);
    return failureOutcome(deps, record, err);
  }
}

function newPerson(sub: Subscriber) {
  return {
    name: sub.name?.trim() || sub.email,
    email: sub.email,
    phone: sub.phone,
    custom: consentValues(sub),
  };
}

/** The CRM module's jobs, for src/jobs.ts (the newsletter module dispatches them). */
export function jobs(deps: CrmDeps): JobDefinition<any>[] {
  return [newsletterCrmSyncJob(deps)];
}
