// ActiveCampaign allows 5 requests per second per account, whatever the number of keys, workers
// or processes (https://developers.activecampaign.com/reference/rate-limits). Every call takes a
// slot of 250 ms first: one call per slot, so no second holds more than 5 calls from us. Slots are
// counted in the app's rate-limit store: Redis when REDIS_URL is set (every process shares the
// pace), in process memory otherwise (every worker of the process shares it).
import { MemoryRateLimitStore, type RateLimitStore } from '../../platform/rate-limit.js';

/** ActiveCampaign's documented limit, per account. */
export const REQUESTS_PER_SECOND = 5;
/** one call per slot: any 1 s window overlaps at most 5 slots of 250 ms */
export const SLOT_MS = 250;

const processStore = new MemoryRateLimitStore();

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * The pacing of one ActiveCampaign account (its API URL names it) in `store`; without a store,
 * the process's own.
 */
export function accountPace(account: string, store: RateLimitStore = processStore) {
  const name = `activecampaign:${account.replace(/\/+$/, '').toLowerCase()}`;
  return async (signal?: AbortSignal): Promise<void> => {
    for (;;) {
      const now = Date.now();
      const slot = Math.floor(now / SLOT_MS);
      const { count } = await store.hit(`${name}:${slot}`, SLOT_MS * 4);
      if (count === 1) return;
      await sleep((slot + 1) * SLOT_MS - now, signal);
    }
  };
}
