// ActiveCampaign's 5 requests per second per account, against the fake that answers 429 over it:
// two workers (two clients) share the account's pace in process, and two processes share it in
// Redis; no second holds more than 5 of our calls and none is refused.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeActiveCampaign } from '../../../test/fakes/activecampaign.js';
import { redisUnavailable, TEST_REDIS_URL } from '../../../test/support/redis.js';
import { MemoryRateLimitStore, type RateLimitStore, RedisRateLimitStore } from '../../platform/rate-limit.js';
import { ActiveCampaignClient } from './client.js';
import { accountPace } from './pacing.js';

let ac: FakeActiveCampaign;
beforeAll(async () => {
  ac = await FakeActiveCampaign.start();
});
afterAll(() => ac.close());
beforeEach(() => {
  ac.reset();
  ac.perSecondLimit = 5;
});

/** the most arrivals within any 1 s window */
function busiestSecond(arrivals: number[]): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  return Math.max(...sorted.map((t, i) => sorted.filter((u, j) => j >= i && u < t + 1000).length));
}

/** 12 look-ups, 6 from each of two workers at once, each worker pacing through its own store */
async function burst(stores: [RateLimitStore, RateLimitStore], account: string) {
  const workers = stores.map(
    (store) => new ActiveCampaignClient({ baseUrl: ac.url, token: ac.token, pace: accountPace(account, store) }),
  );
  await Promise.all(
    workers.flatMap((w, k) => Array.from({ length: 6 }, (_, i) => w.findContactByEmail(`p${k}-${i}@viajes.test`))),
  );
}

describe('ActiveCampaign pacing', () => {
  it('the fake refuses a sixth request within a second, as ActiveCampaign does', async () => {
    const unpaced = new ActiveCampaignClient({ baseUrl: ac.url, token: ac.token });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => unpaced.findContactByEmail(`x${i}@viajes.test`)),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(3);
    expect(ac.throttled).toBe(3);
  });

  it('keeps two workers of one process at 5 requests a second on one account, none refused', async () => {
    const store = new MemoryRateLimitStore();
    await burst([store, store], ac.url);
    expect(ac.arrivals).toHaveLength(12);
    expect(ac.throttled).toBe(0);
    expect(busiestSecond(ac.arrivals)).toBeLessThanOrEqual(5);
  });
});

const noRedis = await redisUnavailable();
if (noRedis) console.warn(`[pacing.test] skipping the Redis pacing test: ${noRedis}`);

describe.skipIf(noRedis !== null)('ActiveCampaign pacing in Redis', () => {
  it('keeps two processes (two Redis connections) at 5 requests a second on one account', async () => {
    const a = new RedisRateLimitStore(TEST_REDIS_URL);
    const b = new RedisRateLimitStore(TEST_REDIS_URL);
    try {
      // an account name of its own: test runs sharing one Redis never share slots
      await burst([a, b], `${ac.url}/run-${process.pid}-${Date.now()}`);
      expect(ac.throttled).toBe(0);
      expect(busiestSecond(ac.arrivals)).toBeLessThanOrEqual(5);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
