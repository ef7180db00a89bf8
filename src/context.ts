// What every module gets: configuration, the database, the clock, a logger, the in-process
// event bus and the market registry. Built once per process (or per test) in app.ts.
import type { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
// layer exception: every module resolves its /{market}/{lang} scope through the one registry the
// context carries; a type import only, and markets/service.ts needs nothing from here
import type { MarketService } from './modules/markets/service.js';
import type { Clock } from './platform/clock.js';
import type { Queue } from './platform/queue.js';
import type { RateLimitStore } from './platform/rate-limit.js';

/**
 * In-process events. 'catalog:changed' after an import (caches drop what they hold);
 * 'offers:changed' after a booking consumed allotment or a flight search re-priced an offer;
 * 'deployment:completed' after a deployment is recorded.
 */
export type AppEvents = EventEmitter;

export interface AppContext {
  config: Config;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  events: AppEvents;
  markets: MarketService;
  /** per-IP request counters shared by every rate-limited route (memory, or Redis when configured) */
  rateLimits: RateLimitStore;
  queue: Queue;
}
