// What other modules use of this module's data: the booking's payment rows, for the balance, finalization and the booking view.
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).
export {
  findPayment,
  insertPayment,
  lockPayment,
  markFinalized,
  paymentsOf,
  releaseHold,
  setStatus,
} from './repository.js';
