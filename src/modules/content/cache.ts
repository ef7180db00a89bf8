// Rendered content responses, kept in memory per key (locale + resource). Entries expire after a
// short time, so an import run by another process shows, and all are dropped on 'catalog:changed'.
import type { Clock } from '../../platform/clock.js';
import { PreparedBody } from '../../platform/prepared-body.js';

export class ResponseCache {
  private entries = new Map<string, { body: PreparedBody; at: number }>();
  /** bumped by clear(): a body rendered before a clear is not stored after it */
  private generation = 0;

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  async get(key: string, render: () => Promise<string>): Promise<PreparedBody> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.body;
    const generation = this.generation;
    const body = new PreparedBody(await render());
    if (generation === this.generation) this.entries.set(key, { body, at: now });
    return body;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
