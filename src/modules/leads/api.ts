// What other modules use of this module's data: lead ids in pages, for the CRM's backfill.
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).
export { leadIdsAfter } from './repository.js';
