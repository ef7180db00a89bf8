import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/support/app.js';
import { createTestDatabase } from '../../test/support/db.js';
import { randomClientIp, redisUnavailable, TEST_REDIS_URL } from '../../test/support/redis.js';
import { type App, buildApp } from '../app.js';
import type { Database } from '../db/database.js';
import { fixedClock } from './clock.js';
import { MemoryRateLimitStore, RedisRateLimitStore, rateLimit } from './rate-limit.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** the real app plus one route limited to 3 requests per 60 s (in-process store unless env names a Redis) */
async function limitedApp(env: Record<string, string> = {}, clock = fixedClock('2026-06-15T10:00:00Z')) {
  const app: App = await buildApp({ config: testConfig({ REDIS_URL: '', ...env }), database, clock });
  app.get('/limited', { onRequest: rateLimit({ name: 'test', max: 3, windowSeconds: 60 }) }, async (req) => ({
    ip: req.ip,
  }));
  await app.ready();
  return { app, clock };
}

const hit = (app: App, remoteAddress: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: '/limited', remoteAddress, headers });

describe('rate limit with the in-memory store', () => {
  it('answers 429 with Retry-After in the error envelope after max requests, and resets after the window', async () => {
    const { app, clock } = await limitedApp();
    try {
      expect(app.ctx.rateLimits.kind).toBe('memory');
      for (let i = 1; i <= 3; i++) {
        const res = await hit(app, '203.0.113.10');
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-ratelimit-remaining']).toBe(String(3 - i));
      }
      clock.advance(15_000);
      const refused = await hit(app, '203.0.113.10');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('45');
      expect(refused.json()).toEqual({
        success: false,
        error: 'too_many_requests',
        message: 'Too many requests. Please try again in 45 seconds.',
      });
      // another client keeps its own quota
      expect((await hit(app, '203.0.113.11')).statusCode).toBe(200);
      clock.advance(45_000);
      expect((await hit(app, '203.0.113.10')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('does not let an untrusted peer dodge the limit with a forged X-Forwarded-For', async () => {
    const { app } = await limitedApp();
    try {
      for (let i = 0; i < 3; i++) {
        const res = await hit(app, '203.0.113.20', { 'x-forwarded-for': `10.0.0.${i}` });
        expect(res.json()).toEqual({ ip: '203.0.113.20' });
      }
      const res = await hit(app, '203.0.113.20', { 'x-forwarded-for': '10.0.0.99' });
      expect(res.statusCode).toBe(429);
    } finally {
      await app.close();
    }
  });

  it("honours a trusted proxy's X-Forwarded-For: each forwarded client has its own quota", async () => {
    const { app } = await limitedApp({ TRUSTED_PROXIES: '10.1.0.0/16' });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await hit(app, '10.1.2.3', { 'x-forwarded-for': '198.51.100.1' });
        expect(res.json()).toEqual({ ip: '198.51.100.1' });
      }
      expect((await hit(app, '10.1.2.3', { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(429);
      // a client-supplied address left of the real one is not trusted either
      expect((await hit(app, '10.1.2.3', { 'x-forwarded-for': '1.2.3.4, 198.51.100.1' })).statusCode).toBe(429);
      const other = await hit(app, '10.1.2.3', { 'x-forwarded-for': '198.51.100.2' });
      expect(other.statusCode).toBe(200);
      expect(other.json()).toEqual({ ip: '198.51.100.2' });
    } finally {
      await app.close();
    }
  });

  it('keeps separate counters per limit name', async () => {
    const store = new MemoryRateLimitStore(fixedClock('2026-06-15T10:00:00Z'));
    expect(await store.hit('a:1.1.1.1', 60_000)).toEqual({ count: 1, resetMs: 60_000 });
    expect(await store.hit('a:1.1.1.1', 60_000)).toEqual({ count: 2, resetMs: 60_000 });
    expect(await store.hit('b:1.1.1.1', 60_000)).toEqual({ count: 1, resetMs: 60_000 });
    await store.close();
  });
});

const noRedis = await redisUnavailable();
if (noRedis) console.warn(`[rate-limit.test] skipping Redis store tests: ${noRedis}`);

describe.skipIf(noRedis !== null)('rate limit with the Redis store', () => {
  it('counts atomically and starts again after the window', async () => {
    const store = new RedisRateLimitStore(TEST_REDIS_URL, 'itinera-test:rate-limit:');
    try {
      const key = `unit:${randomClientIp()}`;
      const hits = await Promise.all(Array.from({ length: 5 }, () => store.hit(key, 1_000)));
      expect(hits.map((h) => h.count).sort()).toEqual([1, 2, 3, 4, 5]);
      for (const h of hits) expect(h.resetMs).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 1_100));
      expect((await store.hit(key, 1_000)).count).toBe(1);
    } finally {
      await store.close();
    }
  });

  it("waits for Redis as long as REDIS_COMMAND_TIMEOUT_MS says, not a shorter limiter's own deadline", async () => {
    const store = new RedisRateLimitStore(TEST_REDIS_URL, 'itinera-test:rate-limit:', { commandMs: 5_000 });
    try {
      const options = (store as unknown as { redis: { options: { commandTimeout?: number } } }).redis.options;
      expect(options.commandTimeout).toBe(5_000);
    } finally {
      await store.close();
    }
  });

  it('holds the limit across two app instances sharing Redis', async () => {
    // one deployment: one Redis and one key prefix
    const shared = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `itinera-test:${randomClientIp()}:` };
    const a = await limitedApp(shared);
    const b = await limitedApp(shared);
    try {
      expect(a.app.ctx.rateLimits.kind).toBe('redis');
      const ip = randomClientIp();
      expect((await hit(a.app, ip)).statusCode).toBe(200);
      expect((await hit(b.app, ip)).statusCode).toBe(200);
      expect((await hit(a.app, ip)).statusCode).toBe(200);
      const refused = await hit(b.app, ip);
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.json()).toMatchObject({ success: false, error: 'too_many_requests' });
      expect((await hit(a.app, ip)).statusCode).toBe(429);
      expect((await hit(a.app, randomClientIp())).statusCode).toBe(200);
    } finally {
      await a.app.close();
      await b.app.close();
    }
  });
});

describe('rate limit store failure', () => {
  it('lets requests through when Redis cannot be reached', async () => {
    const { app } = await limitedApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      for (let i = 0; i < 5; i++) expect((await hit(app, '203.0.113.30')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
