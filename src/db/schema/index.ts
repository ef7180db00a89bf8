export * from './catalog.js';
export * from './checkout.js';
export * from './content.js';
export * from './crm.js';
export * from './flights.js';
export * from './marketing.js';
export * from './newsletter.js';
export * from './ops.js';
