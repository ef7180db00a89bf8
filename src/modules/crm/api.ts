// What other modules use of this module's data: a record's CRM sync records, for the subscribers console.
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).
export { recordsFor, type SyncRecord } from './repository.js';
