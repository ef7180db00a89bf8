// The downstream systems a subscriber is mirrored to: one queued job each, dispatched
// independently on a first subscription and, in phone-only mode, when a phone is added later.
// The mirrors are the CRM's and the marketing module's (they read the subscribers, so the
// newsletter does not import them): app.ts gives them to the newsletter with useNewsletterMirrors.
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import type { JobDefinition } from '../../platform/queue.js';
import type { MirrorPayload } from './rules.js';

/** A subscriber's state in a mirror, as the subscribers console shows it. */
export interface MirrorState {
  status: string;
  lastError: string | null;
}

export interface NewsletterMirror {
  job: JobDefinition<MirrorPayload>;
  /** the dispatch's unique key (within the job's uniqueSeconds), or undefined for none */
  uniqueKey(payload: MirrorPayload): string | undefined;
  /** each subscriber's latest sync state, by subscriber id (absent: never synced) */
  states(db: DbOrTx, subscriberIds: number[]): Promise<Map<number, MirrorState>>;
}

/** The CRM (Pipedrive) and the marketing (ActiveCampaign) mirrors, queued in that order. */
export interface NewsletterMirrors {
  crm: NewsletterMirror;
  marketing: NewsletterMirror;
}

const builders = new WeakMap<AppContext, (ctx: AppContext) => NewsletterMirrors>();
const built = new WeakMap<AppContext, NewsletterMirrors>();

/** Called once per app by app.ts; the mirrors are built at their first use. */
export function useNewsletterMirrors(ctx: AppContext, build: (ctx: AppContext) => NewsletterMirrors): void {
  builders.set(ctx, build);
  built.delete(ctx);
}

export function newsletterMirrors(ctx: AppContext): NewsletterMirrors {
  let mirrors = built.get(ctx);
  if (!mirrors) {
    const build = builders.get(ctx);
    if (!build) throw new Error('the newsletter has no mirrors: app.ts calls useNewsletterMirrors(ctx, ...)');
    mirrors = build(ctx);
    built.set(ctx, mirrors);
  }
  return mirrors;
}
