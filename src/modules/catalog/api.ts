// What other modules use of this module's data: the catalog reads finalization and the payment page need.
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).
export { airportNames, productHeroImage } from './repository.js';
