// The orchestration probes: /livez answers while the process does; /readyz counts the database and
// its migrations only, never disk use, log level, NODE_ENV or Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, PRODUCTION_ENV, type TestApp } from '../../../test/support/app.js';

const APP_KEY = 'k'.repeat(40);

let t: TestApp;
beforeAll(async () => {
  // without Redis, whatever the suite's pass: the report of an unconfigured Redis is part of the answer
  t = await createTestApp({ env: { REDIS_URL: '' } });
});
afterAll(() => t.close());

const get = (url: string, app = t.app) => app.inject({ method: 'GET', url });

describe('GET /livez', () => {
  it('answers 200 without touching the database', async () => {
    const original = t.app.health.probes.database;
    t.app.health.probes.database = async () => {
      throw Object.assign(new Error('down'), { code: 'ECONNREFUSED' });
    };
    try {
      const res = await get('/livez');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
      expect(res.headers['cache-control']).toBe('no-store');
    } finally {
      t.app.health.probes.database = original;
    }
  });
});

describe('GET /readyz', () => {
  it('answers 200 when the database answers and the migrations are current', async () => {
    const res = await get('/readyz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ready',
      checks: {
        database: { ok: true, required: true },
        migrations: { ok: true, required: true },
        redis: { ok: true, required: false, message: 'not configured (rate limits per process)' },
      },
    });
  });

  it('answers 503 when the database does not', async () => {
    const original = t.app.health.probes.database;
    t.app.health.probes.database = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    };
    try {
      const res = await get('/readyz');
      expect(res.statusCode).toBe(503);
      expect(res.json().status).toBe('not_ready');
      expect(res.json().checks.database).toEqual({ ok: false, required: true, message: 'failed (ECONNREFUSED)' });
    } finally {
      t.app.health.probes.database = original;
    }
  });

  it('answers 503 while a migration is pending, naming it', async () => {
    const fresh = await createTestApp({ database: t.database });
    await t.database.query("DELETE FROM schema_migrations WHERE name = '0590_tasks.sql'");
    try {
      const res = await get('/readyz', fresh.app);
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.migrations).toEqual({
        ok: false,
        required: true,
        message: '1 migration(s) pending (run migrate): 0590_tasks.sql',
      });
    } finally {
      await t.database.query("INSERT INTO schema_migrations (name) VALUES ('0590_tasks.sql')");
      await fresh.close();
    }
  });

  it('stays 200 in production with debug logging, a full disk and Redis away', async () => {
    const p = await createTestApp({
      database: t.database,
      env: { ...PRODUCTION_ENV, APP_KEY, REDIS_URL: 'redis://127.0.0.1:9' },
    });
    try {
      p.app.ctx.config.logLevel = 'debug';
      p.app.health.probes.diskUsage = async () => 97;
      expect((await get('/health', p.app)).statusCode).toBe(503); // the spec's health run fails...
      const res = await get('/readyz', p.app); // ...while the node keeps serving
      expect(res.statusCode).toBe(200);
      expect(res.json().checks.redis).toMatchObject({ ok: false, required: false });
      await p.app.health.settled();
    } finally {
      await p.close();
    }
  });
});
