// The marketing mirror of newsletter subscribers (ActiveCampaign). Initial delivery: upsert the
// contact with the consent fields, subscribe it to the list, tag it with the market, then store
// marketing_contact_id, then fill an empty phone. Phone-only delivery: fill an empty phone on the
// existing contact, nothing else. Unconfigured: skipped without failure.
import type { AppContext } from '../../context.js';
import { type JobDefinition, type JobOutcome, outcome } from '../../platform/queue.js';
import { type NewsletterMirror, type Subscriber, SubscriberRepository } from '../newsletter/api.js';
import { type MirrorPayload, splitName } from '../newsletter/rules.js';
import { ActiveCampaignClient, MarketingApiError } from './client.js';
import { accountPace } from './pacing.js';
import { RemoteIdCache } from './repository.js';
import { recordingOutcomes, syncStatesFor } from './sync-state.js';

/**
 * What the job needs of the process (an AppContext fits; so does a CLI's context). `rateLimits`:
 * where the account's pace is shared (Redis across processes); without it, the process's own.
 */
export type MarketingDeps = Pick<AppContext, 'config' | 'database' | 'log' | 'clock'> &
  Partial<Pick<AppContext, 'rateLimits'>>;

export const MARKETING_QUEUE = 'marketing-sync';
export const MARKETING_JOB = 'marketing.subscriber-sync';

/** Titles of the consent custom fields, and their ActiveCampaign types. */
export const CONSENT_FIELDS = [
  { title: 'Consent Given At', type: 'date' },
  { title: 'Privacy Policy Version', type: 'text' },
  { title: 'Consent IP', type: 'text' },
] as const;

const CACHE_DAYS = 7;

export function marketingConfigured(config: AppContext['config']): boolean {
  const m = config.marketing;
  return Boolean(m.apiUrl && m.apiToken && m.listId);
}

export function marketingSyncJob(deps: MarketingDeps, opts: { timeoutMs?: number } = {}): JobDefinition<MirrorPayload> {
  const subscribers = new SubscriberRepository(deps.database.db);
  return recordingOutcomes(deps, {
    name: MARKETING_JOB,
    queue: MARKETING_QUEUE,
    tries: 3,
    timeoutSeconds: 120,
    backoffSeconds: [30, 60, 180],
    async handler(payload, job) {
      const log = deps.log.child({ jobClass: MARKETING_JOB, subscriberId: payload.subscriberId, jobId: job.id });
      const m = deps.config.marketing;
      if (!marketingConfigured(deps.config)) {
        log.info('marketing sync skipped: MARKETING_API_URL, MARKETING_API_TOKEN or MARKETING_LIST_ID unset');
        return outcome.ignore('marketing not configured');
      }
      const sub = await subscribers.find(payload.subscriberId);
      if (!sub) {
        log.info('marketing sync skipped: subscriber deleted');
        return outcome.ignore('subscriber deleted');
      }
      const client = new ActiveCampaignClient({
        baseUrl: m.apiUrl,
        token: m.apiToken,
        timeoutMs: opts.timeoutMs,
        signal: job.signal,
        pace: accountPace(m.apiUrl, deps.rateLimits),
      });
      const sync = new SubscriberSync(deps, client, subscribers, new RemoteIdCache(deps.database.db, m.apiUrl));
      try {
        return payload.phoneOnly ? await sync.phoneOnly(sub) : await sync.initial(sub, m.listId);
      } catch (err) {
        if (!(err instanceof MarketingApiError)) throw err;
        return failureOutcome(err, (message) =>
          log.error({ status: err.status, error: message }, 'marketing sync failed'),
        );
      }
    },
    async onExhausted(payload, _job, error) {
      deps.log.error(
        { jobClass: MARKETING_JOB, subscriberId: payload.subscriberId, phoneOnly: payload.phoneOnly, error },
        'marketing sync: retries exhausted',
      );
    },
  });
}

/** Every job class of the marketing module. */
/** The marketing entry of the newsletter's mirrors (no unique window: the job is an idempotent upsert). */
export function marketingMirror(deps: MarketingDeps): NewsletterMirror {
  return { job: marketingSyncJob(deps), uniqueKey: () => undefined, states: syncStatesFor };
}

export function jobs(deps: MarketingDeps): JobDefinition<any>[] {
  return [marketingSyncJob(deps)];
}

/** 429: release for Retry-After (at least 1 s; 10 s without the header); permanent: report and fail. */
export function failureOutcome(err: MarketingApiError, report: (message: string) => void): JobOutcome {
  switch (err.kind) {
    case 'rate_limited':
      return outcome.release(err.retryAfterSeconds == null ? 10 : Math.max(1, err.retryAfterSeconds), err.message);
    case 'transient':
      return outcome.retry(err.message);
    case 'permanent':
      report(err.message);
      return outcome.fail(err.message);
  }
}

/**
 * Resolutions of tag and field ids running in this process, by account and name. Jobs run side by
 * side: without this, each that missed the cache created the same field or tag again (duplicate
 * "Consent IP" fields in the account, contacts split between them).
 */
const resolving = new Map<string, Promise<unknown>>();

/** Runs `resolve` unless one with the same key is running; then shares its result. */
function once<T>(key: string, resolve: () => Promise<T>): Promise<T> {
  const running = resolving.get(key) as Promise<T> | undefined;
  if (running) return running;
  const p = resolve().finally(() => resolving.delete(key));
  resolving.set(key, p);
  return p;
}

class SubscriberSync {
  constructor(
    private readonly deps: MarketingDeps,
    private readonly client: ActiveCampaignClient,
    private readonly subscribers: SubscriberRepository,
    private readonly ids: RemoteIdCache,
  ) {}

  async initial(sub: Subscriber, listId: string): Promise<JobOutcome> {
    const { firstName, lastName } = splitName(sub.name);
    const values = [sub.consentGivenAt.toISOString().slice(0, 10), sub.privacyPolicyVersion, sub.consentIp ?? ''];
    const contactId = await this.withFreshIds(
      /\bfield\b/i,
      () => this.consentFieldIds(),
      (fields) =>
        this.client.syncContact({
          email: sub.email,
          firstName,
          lastName,
          fieldValues: CONSENT_FIELDS.map((f, i) => ({ field: fields[f.title], value: values[i] })),
        }),
      (fields) => Promise.all(CONSENT_FIELDS.map((f) => this.ids.drop('field', f.title, fields[f.title]))),
    );
    await this.client.subscribeToList(contactId, listId);
    // no market, no tag: a default market is never invented
    const market = sub.market;
    if (market) {
      await this.withFreshIds(
        /\btag\b/i,
        () => this.tagId(market),
        (tag) => this.client.tagContact(contactId, tag),
        (tag) => this.ids.drop('tag', market, tag),
      );
    }
    await this.subscribers.setMarketingContactId(sub.id, contactId, this.deps.clock.now());
    if (sub.phone) await this.fillEmptyPhone(contactId, sub.phone);
    return outcome.done();
  }

  /**
   * Uses cached ids; when the account answers 404 naming the tag or field (a marketer deleted it),
   * drops them from the cache and looks them up again at once, instead of failing for 7 days.
   * A 404 about something else (the contact) stays a failure.
   */
  private async withFreshIds<I, T>(
    about: RegExp,
    resolve: () => Promise<I>,
    use: (ids: I) => Promise<T>,
    drop: (ids: I) => Promise<unknown>,
  ): Promise<T> {
    const ids = await resolve();
    try {
      return await use(ids);
    } catch (err) {
      if (!(err instanceof MarketingApiError) || err.status !== 404 || !about.test(err.message)) throw err;
      this.deps.log.warn(
        { error: err.message },
        'marketing sync: a cached tag or field id is gone; looking it up again',
      );
      await drop(ids);
      return use(await resolve());
    }
  }

  /** Fills an empty phone on the existing contact; never creates, tags, lists or touches consent. */
  async phoneOnly(sub: Subscriber): Promise<JobOutcome> {
    if (!sub.phone) return outcome.ignore('subscriber has no phone');
    const contactId = sub.marketingContactId ?? (await this.client.findContactByEmail(sub.email))?.id;
    // no contact yet: the pending initial delivery reads the phone from the row
    if (!contactId) return outcome.ignore('no marketing contact for this email yet');
    await this.fillEmptyPhone(contactId, sub.phone);
    return outcome.done();
  }

  private async fillEmptyPhone(contactId: number, phone: string): Promise<void> {
    const contact = await this.client.getContact(contactId);
    if (!contact) throw new MarketingApiError('permanent', `contact ${contactId} not found`, 404);
    if (contact.phone.trim() === '') await this.client.updatePhone(contactId, phone);
  }

  private freshAfter(): Date {
    return new Date(this.deps.clock.now().getTime() - CACHE_DAYS * 86_400_000);
  }

  private async tagId(name: string): Promise<string> {
    const cached = await this.ids.get('tag', name, this.freshAfter());
    if (cached) return cached;
    return once(`${this.ids.account}|tag|${name}`, async () => {
      // a resolution that finished while we read the cache has stored it
      const stored = await this.ids.get('tag', name, this.freshAfter());
      if (stored) return stored;
      const id = (await this.client.findTag(name)) ?? (await this.client.createTag(name));
      await this.ids.put('tag', name, id, this.deps.clock.now());
      return id;
    });
  }

  /** title -> field id, from the cache, else the first 100 fields, else created. */
  private async consentFieldIds(): Promise<Record<string, string>> {
    const cached = await this.cachedFieldIds();
    if (!cached.missing.length) return cached.ids;
    return once(`${this.ids.account}|field`, async () => {
      const { ids, missing } = await this.cachedFieldIds();
      if (!missing.length) return ids;
      const remote = await this.client.listFields();
      for (const f of missing) {
        const id = remote.find((r) => r.title === f.title)?.id ?? (await this.client.createField(f.title, f.type));
        await this.ids.put('field', f.title, id, this.deps.clock.now());
        ids[f.title] = id;
      }
      return ids;
    });
  }

  private async cachedFieldIds() {
    const ids: Record<string, string> = {};
    const missing: Array<(typeof CONSENT_FIELDS)[number]> = [];
    for (const f of CONSENT_FIELDS) {
      const cached = await this.ids.get('field', f.title, this.freshAfter());
      if (cached) ids[f.title] = cached;
      else missing.push(f);
    }
    return { ids, missing };
  }
}
