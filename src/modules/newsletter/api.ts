// What other modules use of this module's data: the subscribers, for their mirrors (the CRM, the
// marketing sync), and the shape a mirror gives the newsletter.
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).

export type { MirrorState, NewsletterMirror } from './mirrors.js';
export {
  findSubscriber,
  type Subscriber,
  SubscriberRepository,
  setCrmPersonId,
  subscriberIdsAfter,
  subscribersAfter,
} from './repository.js';
