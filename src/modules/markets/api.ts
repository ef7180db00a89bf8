// What other modules use of this module's data: a market's default language (finalization's e-mails).
// They import this file (or service.ts), never repository.ts (scripts/import-graph.mjs checks it).
export { marketDefaultLanguage } from './repository.js';
