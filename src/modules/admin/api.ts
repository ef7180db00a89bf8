// What other modules use of this module's data: writing an audit row from inside their own
// transaction (a cancellation, a refund), where audit() in service.ts opens none.
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).
export { insertAudit } from './repository.js';
