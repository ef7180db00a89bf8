// Aggregates the console reads often and that change slowly (the reports, the home's past days)
// are kept in this process for a short time, per app context and key: a page of figures costs
// one aggregate per key and minute, not one per request. Concurrent misses share one load.
import type { AppContext } from '../../context.js';

interface Entry {
  at: number;
  value: Promise<unknown>;
}

const stores = new WeakMap<AppContext, Map<string, Entry>>();
const MAX_KEYS = 200;

/** `load()`'s result for `key`, computed at most once per `ttlMs`; with the time it was computed. */
export async function remembered<T>(
  ctx: AppContext,
  key: string,
  ttlMs: number,
  load: () => Promise<T>,
): Promise<{ value: T; at: Date }> {
  let store = stores.get(ctx);
  if (!store) {
    store = new Map();
    stores.set(ctx, store);
  }
  const now = ctx.clock.now().getTime();
  let entry = store.get(key);
  if (!entry || now - entry.at >= ttlMs) {
    entry = { at: now, value: load() };
    store.delete(key);
    store.set(key, entry);
    // the oldest keys go first (a Map iterates in insertion order)
    while (store.size > MAX_KEYS) store.delete(store.keys().next().value!);
    const mine = entry;
    entry.value.catch(() => {
      if (store.get(key) === mine) store.delete(key);
    });
  }
  return { value: (await entry.value) as T, at: new Date(entry.at) };
}
