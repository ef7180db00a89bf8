// What other modules use of this module's data: the clients (the booking contact) and the funnel's step visits, for the booking view, finalization, the balance and the CRM.
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).
export { clientIdsByEmail, findClient, stepVisitsOf, upsertClient } from './repository.js';
