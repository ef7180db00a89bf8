// What other modules use of this module's data: the per-leg flight-booking records and attempts, for the bookings module's flight runs and view.
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).
export { flightBookingsOf, legAttempt, legAttemptsOf, resetLegAttempts, saveRebookSearch } from './repository.js';
