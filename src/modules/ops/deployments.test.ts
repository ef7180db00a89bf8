import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { randomClientIp, redisUnavailable, TEST_REDIS_URL } from '../../../test/support/redis.js';
import { deployments } from '../../db/schema/index.js';
import type { DeploymentRecord } from './repository.js';
import { recentDeployments } from './service.js';

const TOKEN = 'ci-deploy-token-0123456789';
const valid = {
  environment: 'production',
  version: '2.4.1',
  commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
  build_date: '2026-06-15',
};

let t: TestApp;
let events: DeploymentRecord[];
beforeAll(async () => {
  // the in-process limiter (its windows follow the test clock); the Redis one is tried below
  t = await createTestApp({ env: { DEPLOYMENT_TOKEN: TOKEN, REDIS_URL: '' } });
  t.app.ctx.events.on('deployment:completed', (r: DeploymentRecord) => events.push(r));
});
afterAll(() => t.close());
beforeEach(async () => {
  events = [];
  await t.database.db.delete(deployments);
});

let n = 0;
/** every call from a new client address unless one is given, so the 10/min limit stays out of the way */
function post(body: unknown, opts: { auth?: string | null; ip?: string; app?: TestApp['app'] } = {}) {
  const headers: Record<string, string> = {};
  const auth = opts.auth === undefined ? `Bearer ${TOKEN}` : opts.auth;
  if (auth !== null) headers.authorization = auth;
  n += 1;
  return (opts.app ?? t.app).inject({
    method: 'POST',
    url: '/api/deployments',
    headers,
    payload: body as object,
    remoteAddress: opts.ip ?? `203.0.113.${n % 250}`,
  });
}

describe('POST /api/deployments', () => {
  it('records a deployment: 201 {status:"recorded"}, stored trimmed, deployment:completed emitted', async () => {
    const res = await post({ ...valid, version: ' 2.4.1 ', build_id: 'run-77' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ status: 'recorded' });
    const rows = await t.database.db.select().from(deployments);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      environment: 'production',
      version: '2.4.1',
      commit: valid.commit,
      buildDate: '2026-06-15',
      buildId: 'run-77',
    });
    expect(rows[0]!.recordedAt.toISOString()).toBe('2026-06-15T10:00:00.000Z');
    expect(events).toEqual([
      {
        id: rows[0]!.id,
        environment: 'production',
        version: '2.4.1',
        commit: valid.commit,
        buildDate: '2026-06-15',
        buildId: 'run-77',
        recordedAt: new Date('2026-06-15T10:00:00Z'),
      },
    ]);
  });

  it('accepts ISO 8601 date-times, abbreviated or non-hex commit ids and a missing, null or blank build_id', async () => {
    for (const body of [
      { ...valid, build_date: '2026-06-15T09:12:44Z' },
      { ...valid, build_date: '2026-06-15T09:12:44.123+02:00', commit: 'a1b2c3d' },
      { ...valid, build_date: '2026-06-15T09:12', commit: 'v2.4.1-hotfix', build_id: null },
      { ...valid, build_id: '   ' },
    ]) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(201);
    }
    const rows = await t.database.db.select().from(deployments);
    expect(rows.map((r) => r.buildId)).toEqual([null, null, null, null]);
  });

  it('answers 500 in the error envelope when no deployment token is configured', async () => {
    const other = await createTestApp({ database: t.database });
    try {
      const res = await post(valid, { app: other.app });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        success: false,
        error: 'deployment_token_not_configured',
        message: 'The deployment token is not configured on this server.',
      });
      expect(await t.database.db.select().from(deployments)).toHaveLength(0);
    } finally {
      await other.close();
    }
  });

  it('answers 401 {error:"Unauthorized"} for a missing, malformed or wrong token, before validating the body', async () => {
    for (const auth of [
      null,
      '',
      TOKEN,
      `Basic ${TOKEN}`,
      'Bearer ',
      'Bearer wrong-token',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
    ]) {
      for (const body of [valid, {}]) {
        const res = await post(body, { auth });
        expect(res.statusCode, String(auth)).toBe(401);
        expect(res.json()).toEqual({ error: 'Unauthorized' });
        expect(res.headers['www-authenticate']).toBe('Bearer');
      }
    }
    expect(await t.database.db.select().from(deployments)).toHaveLength(0);
    expect(events).toEqual([]);
  });

  it('takes the scheme case-insensitively', async () => {
    expect((await post(valid, { auth: `bearer ${TOKEN}` })).statusCode).toBe(201);
  });

  it('answers 422 validation_failed with per-field messages for each field rule', async () => {
    const cases: Array<[object, string, string]> = [
      [{ ...valid, environment: undefined }, 'environment', 'The environment field is required.'],
      [{ ...valid, environment: '  ' }, 'environment', 'The environment field is required.'],
      [
        { ...valid, environment: 'e'.repeat(51) },
        'environment',
        'The environment field must not be greater than 50 characters.',
      ],
      [{ ...valid, version: undefined }, 'version', 'The version field is required.'],
      [{ ...valid, version: 'v'.repeat(101) }, 'version', 'The version field must not be greater than 100 characters.'],
      [{ ...valid, commit: undefined }, 'commit', 'The commit field is required.'],
      [{ ...valid, commit: 'c'.repeat(41) }, 'commit', 'The commit field must not be greater than 40 characters.'],
      [{ ...valid, build_date: undefined }, 'build_date', 'The build_date field is required.'],
      [{ ...valid, build_date: 'yesterday' }, 'build_date', 'The build_date field must be a valid ISO 8601 date.'],
      [{ ...valid, build_date: '2026-02-30' }, 'build_date', 'The build_date field must be a valid ISO 8601 date.'],
      [
        { ...valid, build_date: '2026-06-15T25:00:00Z' },
        'build_date',
        'The build_date field must be a valid ISO 8601 date.',
      ],
      [{ ...valid, build_date: '15/06/2026' }, 'build_date', 'The build_date field must be a valid ISO 8601 date.'],
      [
        { ...valid, build_id: 'b'.repeat(51) },
        'build_id',
        'The build_id field must not be greater than 50 characters.',
      ],
      [{ ...valid, version: { major: 2 } }, 'version', 'The version field must be of type string.'],
      // taken as sent, not coerced to "2.4"
      [{ ...valid, version: 2.4 }, 'version', 'The version field must be of type string.'],
      [{ ...valid, build_id: 77 }, 'build_id', 'The build_id field must be of type string or null.'],
      // PostgreSQL stores no U+0000: a 422, not a 500
      [
        { ...valid, environment: 'prod\u0000' },
        'environment',
        'The environment field is invalid: it contains a NUL character.',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await post(body);
      expect(res.statusCode, `${field}: ${message}`).toBe(422);
      const json = res.json();
      expect(json).toMatchObject({ success: false, error: 'validation_failed', message });
      expect(json.errors[field]).toContain(message);
    }
    const res = await post({});
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['build_date', 'commit', 'environment', 'version']);
    expect(await t.database.db.select().from(deployments)).toHaveLength(0);
  });

  it('limits each client IP to 10 requests a minute, failed attempts included, with Retry-After', async () => {
    t.clock.advance(60_000);
    const ip = '198.51.100.23';
    for (let i = 0; i < 5; i++) expect((await post(valid, { ip })).statusCode).toBe(201);
    for (let i = 0; i < 5; i++) expect((await post(valid, { ip, auth: 'Bearer guess' })).statusCode).toBe(401);
    t.clock.advance(20_000);
    const refused = await post(valid, { ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.json()).toEqual({
      success: false,
      error: 'too_many_requests',
      message: 'Too many requests. Please try again in 40 seconds.',
    });
    expect((await t.database.db.select().from(deployments)).length).toBe(5);
    expect((await post(valid, { ip: '198.51.100.24' })).statusCode).toBe(201);
    t.clock.advance(40_000);
    expect((await post(valid, { ip })).statusCode).toBe(201);
  });

  it('keeps the last 20 deployments readable, newest first', async () => {
    for (let i = 1; i <= 22; i++) {
      t.clock.advance(60_000);
      expect((await post({ ...valid, version: `1.0.${i}` })).statusCode).toBe(201);
    }
    const recent = await recentDeployments(t.app.ctx);
    expect(recent).toHaveLength(20);
    expect(recent[0]!.version).toBe('1.0.22');
    expect(recent[19]!.version).toBe('1.0.3');
    expect(recent[0]!.recordedAt.getTime()).toBeGreaterThan(recent[1]!.recordedAt.getTime());
  });
});

const noRedis = await redisUnavailable();
if (noRedis) console.warn(`[deployments.test] skipping the shared Redis limit: ${noRedis}`);

describe.skipIf(noRedis !== null)('POST /api/deployments with REDIS_URL', () => {
  it('holds the 10/min limit across two app instances', async () => {
    // one deployment: one Redis, one key prefix
    const env = {
      DEPLOYMENT_TOKEN: TOKEN,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: `itinera-test:${randomClientIp()}:`,
    };
    const a = await createTestApp({ env, database: t.database });
    const b = await createTestApp({ env, database: t.database });
    try {
      const ip = randomClientIp();
      for (let i = 0; i < 10; i++) {
        expect((await post(valid, { ip, app: (i % 2 ? a : b).app })).statusCode).toBe(201);
      }
      expect((await post(valid, { ip, app: a.app })).statusCode).toBe(429);
      expect((await post(valid, { ip, app: b.app })).statusCode).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
