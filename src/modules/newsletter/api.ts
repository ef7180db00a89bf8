// What other modules use of this module's data: the subscribers, for their mirrors (the CRM, the marketing sync).
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).
export {
  findSubscriber,
  type Subscriber,
  SubscriberRepository,
  setCrmPersonId,
  subscriberIdsAfter,
  subscribersAfter,
} from './repository.js';
