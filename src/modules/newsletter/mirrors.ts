// The downstream systems a subscriber is mirrored to: one queued job each, dispatched
// independently on a first subscription and, in phone-only mode, when a phone is added later.
import type { AppContext } from '../../context.js';
import type { JobDefinition } from '../../platform/queue.js';
import { newsletterCrmMirror } from '../crm/jobs.js';
import { marketingSyncJob } from '../marketing/jobs.js';
import type { MirrorPayload } from './rules.js';

export interface NewsletterMirror {
  job: JobDefinition<MirrorPayload>;
  /** the dispatch's unique key (within the job's uniqueSeconds), or undefined for none */
  uniqueKey(payload: MirrorPayload): string | undefined;
}

export function newsletterMirrors(ctx: AppContext): NewsletterMirror[] {
  return [
    // unique per subscriber for 600 s; the phone-only job has its own key
    newsletterCrmMirror(ctx),
    // no unique window in the contract; the job is an idempotent upsert
    { job: marketingSyncJob(ctx), uniqueKey: () => undefined },
  ];
}
