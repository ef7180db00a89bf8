import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, PRODUCTION_ENV, type TestApp } from '../../../test/support/app.js';
import { randomClientIp, redisUnavailable, TEST_REDIS_URL } from '../../../test/support/redis.js';
import { connectPostgres } from '../../db/database.js';
import { healthCheckResults, opsNotificationThrottles } from '../../db/schema/index.js';
import { allTasks, runTask } from '../../tasks.js';
import { HealthMonitor } from './health.js';
import { PRUNE_HEALTH_HISTORY_CRON, pruneHealthHistoryJob } from './jobs.js';
import { alertChannelWarning } from './rules.js';
import { healthHistory, pruneHealthHistory } from './service.js';

const APP_KEY = 'k'.repeat(40);
/** these tests change a probe and call /health again at the same instant: every call runs the checks */
const FRESH = { HEALTH_MAX_AGE_SECONDS: '0' };

let t: TestApp;
beforeAll(async () => {
  // the Cache check's memory driver; the Redis driver is tried below
  t = await createTestApp({ env: { ...FRESH, REDIS_URL: '' } });
});
afterAll(() => t.close());
beforeEach(async () => {
  t.app.health.probes.diskUsage = async () => 42;
  await t.database.db.delete(healthCheckResults);
  await t.database.db.delete(opsNotificationThrottles);
});

const health = (app = t.app, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'GET', url: '/health', remoteAddress });

describe('GET /health', () => {
  it('answers 200 with Database, Cache and UsedDiskSpace outside production and staging', async () => {
    const res = await health();
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({
      finishedAt: '2026-06-15T10:00:00.000Z',
      checkResults: [
        { name: 'Database', status: 'ok' },
        { name: 'Cache', status: 'ok', meta: { driver: 'memory' } },
        { name: 'UsedDiskSpace', status: 'ok', meta: { disk_space_used_percentage: 42 } },
      ],
    });
  });

  it('reads the real used disk space of HEALTH_DISK_PATH', async () => {
    const real = await createTestApp({ database: t.database, env: { HEALTH_DISK_PATH: '/' } });
    try {
      const disk = (await health(real.app))
        .json()
        .checkResults.find((r: { name: string }) => r.name === 'UsedDiskSpace');
      const percent = disk.meta.disk_space_used_percentage;
      expect(typeof percent).toBe('number');
      expect(percent).toBeGreaterThan(0);
      expect(percent).toBeLessThanOrEqual(100);
    } finally {
      await real.close();
    }
  });

  it('warns above 70 % used disk (still 200) and fails above 90 % (503)', async () => {
    const cases: Array<[number, string, number]> = [
      [70, 'ok', 200],
      [70.1, 'warning', 200],
      [90, 'warning', 200],
      [90.1, 'failed', 503],
    ];
    for (const [percent, status, code] of cases) {
      t.app.health.probes.diskUsage = async () => percent;
      const res = await health();
      expect(res.statusCode, String(percent)).toBe(code);
      const disk = res.json().checkResults[2];
      expect(disk).toEqual({
        name: 'UsedDiskSpace',
        status,
        meta: { disk_space_used_percentage: percent },
        ...(status === 'ok' ? {} : { message: `The disk is almost full (${percent}% used).` }),
      });
    }
  });

  it('fails the Database check when the database refuses, and never hangs on one that does not answer', async () => {
    const probes = t.app.health.probes;
    const original = probes.database;
    try {
      probes.database = async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
      };
      let res = await health();
      expect(res.statusCode).toBe(503);
      expect(res.json().checkResults[0]).toEqual({
        name: 'Database',
        status: 'failed',
        message: 'Could not connect to the database: ECONNREFUSED.',
      });

      probes.database = () => new Promise(() => {});
      t.app.health.checkTimeoutMs = 300;
      const started = Date.now();
      res = await health();
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(res.statusCode).toBe(503);
      expect(res.json().checkResults[0]).toEqual({
        name: 'Database',
        status: 'failed',
        message: 'Could not connect to the database: Database timed out after 300 ms.',
      });
    } finally {
      probes.database = original;
      t.app.health.checkTimeoutMs = 2_000;
      await t.app.health.settled();
    }
  });

  it('answers quickly with 503 when the real database server is down', async () => {
    const down = connectPostgres('postgres://postgres@127.0.0.1:1/none', 1);
    const broken = await createTestApp({ database: down });
    try {
      const res = await health(broken.app);
      expect(res.statusCode).toBe(503);
      expect(res.json().checkResults[0]).toMatchObject({ name: 'Database', status: 'failed' });
      await broken.app.health.settled();
    } finally {
      await broken.close();
      await down.close();
    }
  });

  it('stores every run and keeps one day of history; pruneHealthHistory deletes older results', async () => {
    await health();
    t.clock.advance(60 * 60 * 1000);
    t.app.health.probes.diskUsage = async () => 80;
    await health();
    let history = await healthHistory(t.app.ctx);
    expect(history).toHaveLength(2);
    expect(history[0]!.finishedAt.toISOString()).toBe('2026-06-15T11:00:00.000Z');
    expect(history[0]!.checkResults.map((r) => [r.name, r.status])).toEqual([
      ['Database', 'ok'],
      ['Cache', 'ok'],
      ['UsedDiskSpace', 'warning'],
    ]);
    expect(history[0]!.checkResults[2]!.meta).toEqual({ disk_space_used_percentage: 80 });

    t.clock.advance(23.5 * 60 * 60 * 1000); // the first run is now 24.5 h old, the second 23.5 h
    expect(await pruneHealthHistory(t.app.ctx)).toBe(3);
    history = await healthHistory(t.app.ctx);
    expect(history).toHaveLength(1);
    expect(history[0]!.finishedAt.toISOString()).toBe('2026-06-15T11:00:00.000Z');
    expect(await t.database.db.select().from(healthCheckResults)).toHaveLength(3);
  });

  it('exports the pruning as a daily job definition', async () => {
    await health();
    t.clock.advance(25 * 60 * 60 * 1000);
    const job = pruneHealthHistoryJob(t.app.ctx);
    expect(PRUNE_HEALTH_HISTORY_CRON).toBe('0 3 * * *');
    expect(job).toMatchObject({ name: 'ops.prune-health-history', queue: 'ops-maintenance', tries: 3 });
    const outcome = await job.handler(
      {},
      { id: 'j1', name: job.name, queue: job.queue, attempt: 1, signal: new AbortController().signal },
    );
    expect(outcome).toEqual({ kind: 'done' });
    expect(await t.database.db.select().from(healthCheckResults)).toHaveLength(0);
  });
});

describe('GET /health in production and staging', () => {
  const prod = { ...PRODUCTION_ENV, APP_KEY, NODE_ENV: 'production', HEALTH_EXPECTED_ENV: 'production', REDIS_URL: '' };

  it('adds OptimizedApp, DebugMode and Environment, all ok when configured for production', async () => {
    const p = await createTestApp({ database: t.database, env: prod });
    try {
      p.app.health.probes.diskUsage = async () => 10;
      const res = await health(p.app);
      expect(res.statusCode).toBe(200);
      expect(res.json().checkResults).toEqual([
        { name: 'Database', status: 'ok' },
        { name: 'Cache', status: 'ok', meta: { driver: 'memory' } },
        { name: 'UsedDiskSpace', status: 'ok', meta: { disk_space_used_percentage: 10 } },
        { name: 'OptimizedApp', status: 'ok', meta: { node_env: 'production' } },
        { name: 'DebugMode', status: 'ok', meta: { log_level: 'silent' } },
        { name: 'Environment', status: 'ok', meta: { expected: 'production', actual: 'production' } },
      ]);
    } finally {
      await p.close();
    }
  });

  // NODE_ENV follows APP_ENV (config.ts refuses a contradicting one), so OptimizedApp holds on any booted node
  it('fails Environment on a mismatch (503); OptimizedApp holds since NODE_ENV follows APP_ENV', async () => {
    const s = await createTestApp({
      database: t.database,
      env: { ...PRODUCTION_ENV, APP_ENV: 'staging', APP_KEY, HEALTH_EXPECTED_ENV: 'production' },
    });
    try {
      s.app.health.probes.diskUsage = async () => 10;
      const res = await health(s.app);
      expect(res.statusCode).toBe(503);
      const byName = Object.fromEntries(res.json().checkResults.map((r: { name: string }) => [r.name, r]));
      expect(byName.OptimizedApp).toEqual({ name: 'OptimizedApp', status: 'ok', meta: { node_env: 'production' } });
      expect(byName.Environment).toEqual({
        name: 'Environment',
        status: 'failed',
        message: 'The environment was expected to be `production`, but actually was `staging`.',
        meta: { expected: 'production', actual: 'staging' },
      });
      await s.app.health.settled();
    } finally {
      await s.close();
    }
  });

  it('passes Environment when no expectation is configured', async () => {
    const s = await createTestApp({
      database: t.database,
      env: { ...PRODUCTION_ENV, APP_ENV: 'staging', APP_KEY, NODE_ENV: 'production' },
    });
    try {
      s.app.health.probes.diskUsage = async () => 10;
      const res = await health(s.app);
      expect(res.statusCode).toBe(200);
      expect(res.json().checkResults.at(-1)).toEqual({
        name: 'Environment',
        status: 'ok',
        meta: { actual: 'staging' },
      });
    } finally {
      await s.close();
    }
  });

  it('answers 200 in production with debug logging (a warning only)', async () => {
    const p = await createTestApp({ database: t.database, env: { ...PRODUCTION_ENV, APP_KEY, REDIS_URL: '' } });
    try {
      p.app.health.probes.diskUsage = async () => 10;
      p.app.ctx.config.logLevel = 'debug';
      const res = await health(p.app);
      expect(res.statusCode).toBe(200);
      const statuses = Object.fromEntries(
        res.json().checkResults.map((r: { name: string; status: string }) => [r.name, r.status]),
      );
      expect(statuses).toEqual({
        Database: 'ok',
        Cache: 'ok',
        UsedDiskSpace: 'ok',
        // NODE_ENV follows APP_ENV, so a production node always runs optimized
        OptimizedApp: 'ok',
        DebugMode: 'warning',
        Environment: 'ok',
      });
    } finally {
      await p.close();
    }
  });

  it('warns on DebugMode when the log level is debug or trace', async () => {
    for (const logLevel of ['debug', 'trace']) {
      // the app's own logger stays silent; the monitor sees the configured level
      const ctx = { ...t.app.ctx, config: { ...t.app.ctx.config, appEnv: 'production' as const, logLevel } };
      const monitor = new HealthMonitor(ctx, { probes: { diskUsage: async () => 10 } });
      try {
        const report = await monitor.run();
        expect(report.checkResults.find((r) => r.name === 'DebugMode')).toEqual({
          name: 'DebugMode',
          status: 'warning',
          message: `The debug mode was expected to be off, but LOG_LEVEL is \`${logLevel}\`.`,
          meta: { log_level: logLevel },
        });
      } finally {
        await monitor.close();
      }
    }
  });
});

const noRedis = await redisUnavailable();
if (noRedis) console.warn(`[health.test] skipping the Redis cache check: ${noRedis}`);

describe.skipIf(noRedis !== null)('GET /health with REDIS_URL', () => {
  it('pings Redis for the Cache check', async () => {
    const r = await createTestApp({ database: t.database, env: { REDIS_URL: TEST_REDIS_URL } });
    try {
      r.app.health.probes.diskUsage = async () => 10;
      const res = await health(r.app);
      expect(res.statusCode).toBe(200);
      expect(res.json().checkResults[1]).toEqual({ name: 'Cache', status: 'ok', meta: { driver: 'redis' } });
    } finally {
      await r.close();
    }
  });
});

describe('GET /health with an unreachable Redis', () => {
  it('fails the Cache check (503)', async () => {
    const r = await createTestApp({ database: t.database, env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      r.app.health.probes.diskUsage = async () => 10;
      const res = await health(r.app);
      expect(res.statusCode).toBe(503);
      expect(res.json().checkResults[1]).toEqual({
        name: 'Cache',
        status: 'failed',
        message: 'Could not reach the cache: ECONNREFUSED.',
        meta: { driver: 'redis' },
      });
      // while ioredis waits to reconnect, the check fails at once instead of queueing the PING
      const again = (await health(r.app)).json().checkResults[1];
      expect(again.message).toMatch(/^Could not reach the cache: (ECONNREFUSED|NOT_CONNECTED)\.$/);
      await r.app.health.settled();
    } finally {
      await r.close();
    }
  });
});

describe('GET /health answers from the latest run', () => {
  it('runs and stores the checks at most once per HEALTH_MAX_AGE_SECONDS, however often it is called', async () => {
    const s = await createTestApp({ database: t.database });
    try {
      s.app.health.probes.diskUsage = async () => 42;
      const answers = await Promise.all(Array.from({ length: 10 }, () => health(s.app)));
      for (let i = 0; i < 10; i++) answers.push(await health(s.app));
      expect(answers.map((a) => a.statusCode)).toEqual(new Array(20).fill(200));
      expect(new Set(answers.map((a) => a.json().finishedAt))).toEqual(new Set(['2026-06-15T10:00:00.000Z']));
      // one run of three checks stored, not 20 * 3 rows
      expect(await t.database.db.$count(healthCheckResults)).toBe(3);

      s.clock.advance(59_000);
      await health(s.app);
      expect(await t.database.db.$count(healthCheckResults)).toBe(3);
      s.clock.advance(1_000);
      const fresh = await health(s.app);
      expect(fresh.json().finishedAt).toBe('2026-06-15T10:01:00.000Z');
      expect(await t.database.db.$count(healthCheckResults)).toBe(6);
    } finally {
      await s.close();
    }
  });

  it('answers from the scheduled run of the same process', async () => {
    const s = await createTestApp({ database: t.database });
    try {
      s.app.health.probes.diskUsage = async () => 95;
      const task = allTasks(s.app.ctx).find((k) => k.name === 'ops.health-check')!;
      expect(task.cron).toBe('* * * * *');
      const result = await runTask(s.app.ctx, task, {
        asOf: s.clock.now(),
        trigger: 'schedule',
        options: {},
        out: () => {},
      });
      // (a loaded machine may also miss the Database check's 2 s deadline: that one is not the point here)
      expect(result.ok).toBe(true);
      expect(result.message).toMatch(/^3 checks; failed: (Database, )?UsedDiskSpace$/);
      s.app.health.probes.diskUsage = async () => 10; // not asked again within the interval
      const res = await health(s.app);
      expect(res.statusCode).toBe(503);
      expect(await t.database.db.$count(healthCheckResults)).toBe(3);
    } finally {
      await s.close();
    }
  });

  it('limits /health to 120 requests a minute per IP (429 with Retry-After)', async () => {
    const s = await createTestApp({ database: t.database });
    try {
      s.app.health.probes.diskUsage = async () => 42;
      const ip = randomClientIp();
      for (let i = 0; i < 120; i++) expect((await health(s.app, ip)).statusCode).toBe(200);
      const refused = await health(s.app, ip);
      expect(refused.statusCode).toBe(429);
      // the window's rest: 60 s in process, the key's real time-to-live with Redis (less on a loaded machine)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(55);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.json()).toMatchObject({ success: false, error: 'too_many_requests' });
      expect((await health(s.app, randomClientIp())).statusCode).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('alert channel warning at boot', () => {
  it('warns in production and staging without SMTP_URL and HEALTH_NOTIFY_EMAIL, not elsewhere', () => {
    const none = { smtpUrl: undefined, notifyEmail: '' };
    expect(alertChannelWarning({ appEnv: 'production', health: none })).toBe(
      'no health alert channel: set SMTP_URL and HEALTH_NOTIFY_EMAIL, or failed health checks only reach the log',
    );
    expect(alertChannelWarning({ appEnv: 'staging', health: { smtpUrl: 'smtp://x', notifyEmail: '' } })).toBe(
      'no health alert channel: set HEALTH_NOTIFY_EMAIL, or failed health checks only reach the log',
    );
    const both = { smtpUrl: 'smtp://x', notifyEmail: 'ops@example.test' };
    expect(alertChannelWarning({ appEnv: 'production', health: both })).toBeUndefined();
    expect(alertChannelWarning({ appEnv: 'development', health: none })).toBeUndefined();
  });
});
