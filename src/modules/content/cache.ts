// Rendered content responses, kept in memory per key (locale + resource). Entries expire after a
// short time, so an import run by another process shows, and all are dropped on 'catalog:changed'.
import type { Clock } from '../../platform/clock.js';
import { entityTag } from './rules.js';

export interface CachedResponse {
  body: string;
  etag: string;
}

export class ResponseCache {
  private entries = new Map<string, CachedResponse & { at: number }>();
  /** bumped by clear(): a body rendered before a clear is not stored after it */
  private generation = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  async get(key: string, render: () => Promise<string>): Promise<CachedResponse> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit;
    const generation = this.generation;
    const body = await render();
    const entry = { body, etag: entityTag(body), at: now };
    if (generation === this.generation) this.entries.set(key, entry);
    return entry;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
