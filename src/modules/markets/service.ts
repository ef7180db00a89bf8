// Markets are a handful of rows read on every request: kept in memory and reloaded when the
// catalog changes (invalidate) or after a short time, so an import run by another process shows.
import type { Database } from '../../db/database.js';
import { loadMarkets, type Market } from './repository.js';
import { type MarketScope, resolveMarketCode, resolveScope } from './rules.js';

const RELOAD_MS = 30_000;

export class MarketService {
  private cache?: { at: number; byCode: Map<string, Market> };
  private loading?: Promise<Map<string, Market>>;

  // the database alone, not the AppContext: the context holds this service (no import circle)
  constructor(private readonly database: Database) {}

  async all(): Promise<Map<string, Market>> {
    const now = Date.now();
    if (this.cache && now - this.cache.at < RELOAD_MS) return this.cache.byCode;
    this.loading ??= loadMarkets(this.database.db)
      .then((list) => {
        const byCode = new Map(list.map((m) => [m.code, m]));
        this.cache = { at: Date.now(), byCode };
        return byCode;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  invalidate(): void {
    this.cache = undefined;
  }

  async market(segment: string): Promise<Market> {
    return resolveMarketCode(segment, await this.all());
  }

  /** `opts.inactive`: also a market that is not active yet (only behind a valid preview signature). */
  async scope(marketSegment: string, langSegment: string, opts: { inactive?: boolean } = {}): Promise<MarketScope> {
    return resolveScope(marketSegment, langSegment, await this.all(), opts);
  }
}
