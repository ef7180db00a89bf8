// What other modules use of this module's data: a booking's balance row (the cancellation).
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).
export { findBalance } from './repository.js';
