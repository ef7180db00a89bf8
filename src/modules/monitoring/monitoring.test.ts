import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type SignedIn, signIn } from '../../../test/support/admin.js';
import { TEST_NOW, testConfig } from '../../../test/support/app.js';
import { createTestDatabase } from '../../../test/support/db.js';
import { type App, buildApp } from '../../app.js';
import type { Database } from '../../db/database.js';
import { deployments, healthCheckResults, pulseRequestAggregates, telescopeRequests } from '../../db/schema/index.js';
import { scheduleJobs } from '../../jobs.js';
import { fixedClock } from '../../platform/clock.js';
import { prunePulseJob, pruneTelescopeJob } from './jobs.js';

const TOKEN = 'ci-deploy-token-0123456789';
const DAY = 24 * 60 * 60 * 1000;

let database: Database;
let app: App;
const clock = fixedClock(TEST_NOW);

/** the real app plus two routes of our own: a fast one and one that fails with a secret in its message */
async function monitoredApp(env: Record<string, string> = {}): Promise<App> {
  const a = await buildApp({ config: testConfig({ DEPLOYMENT_TOKEN: TOKEN, ...env }), database, clock });
  a.get('/test/ok/:id', async () => ({ ok: true }));
  a.get('/test/boom', async () => {
    throw new Error('connect failed for postgres://app:s3cr3t-pass@db.internal:5432/itinera');
  });
  await a.ready();
  a.health.probes.diskUsage = async () => 12;
  return a;
}

let admin: SignedIn;
beforeAll(async () => {
  database = await createTestDatabase();
  app = await monitoredApp();
  admin = await signIn(app, { permissions: ['view_dashboard'] });
});

/** a monitoring page as a signed-in admin (a fresh session: tests move the clock past the idle time-out) */
async function dash(url: string) {
  const { cookie } = await admin.again();
  return app.inject({ url, headers: { cookie } });
}
afterAll(async () => {
  await app.close();
  await database.close();
});
beforeEach(async () => {
  clock.set(TEST_NOW);
  await app.requestRecorder.flush();
  await database.db.delete(pulseRequestAggregates);
  await database.db.delete(telescopeRequests);
  await database.db.delete(deployments);
  await database.db.delete(healthCheckResults);
});

let ip = 0;
function recordDeployment(environment: string, version: string) {
  ip += 1;
  return app.inject({
    method: 'POST',
    url: '/api/deployments',
    headers: { authorization: `Bearer ${TOKEN}` },
    remoteAddress: `198.51.100.${ip % 250}`,
    payload: { environment, version, commit: 'a1b2c3d', build_date: '2026-06-15' },
  });
}

describe('request recording', () => {
  it('aggregates in memory (no row per request) and writes per-minute aggregates on flush', async () => {
    for (let i = 0; i < 3; i++) expect((await app.inject(`/test/ok/${i}`)).statusCode).toBe(200);
    expect((await app.inject('/no/such/route')).statusCode).toBe(404);
    // nothing written yet: the hot path only touched memory
    expect(await database.db.select().from(pulseRequestAggregates)).toHaveLength(0);
    expect(await database.db.select().from(telescopeRequests)).toHaveLength(0);

    await app.requestRecorder.flush();
    const rows = await database.db.select().from(pulseRequestAggregates);
    const ok = rows.find((r) => r.route === '/test/ok/:id');
    expect(ok).toMatchObject({ method: 'GET', status: 200, count: 3, minute: new Date('2026-06-15T10:00:00Z') });
    expect(ok!.durationBuckets.reduce((a, b) => a + b, 0)).toBe(3);
    expect(ok!.durationMaxMs).toBeGreaterThan(0);
    expect(rows.find((r) => r.route === '(unmatched)')).toMatchObject({ status: 404, count: 1 });
    expect(await database.db.select().from(telescopeRequests)).toHaveLength(4);
  });

  it('keeps the monitoring pages themselves out of the aggregates and the request log', async () => {
    await dash('/pulse');
    await dash('/telescope');
    await app.requestRecorder.flush();
    expect(await database.db.select().from(pulseRequestAggregates)).toHaveLength(0);
    expect(await database.db.select().from(telescopeRequests)).toHaveLength(0);
  });

  it('never stores bodies, cookies, credentials or query strings; 5xx messages are masked', async () => {
    await app.inject({
      method: 'POST',
      url: '/api/deployments?signature=query-secret-123',
      headers: {
        authorization: 'Bearer header-secret-abc',
        cookie: 'session=cookie-secret-def',
        'x-api-token': 'token-secret-ghi',
        'user-agent': 'probe/1.0',
        'x-request-id': 'req-secret-test',
      },
      remoteAddress: '198.51.100.77',
      payload: { environment: 'body-secret-jkl', version: '1', commit: 'x', build_date: '2026-06-15' },
    });
    const boom = await app.inject({ url: '/test/boom', headers: { 'x-request-id': 'req-boom' } });
    expect(boom.statusCode).toBe(500);
    await app.requestRecorder.flush();
    const rows = await database.db.select().from(telescopeRequests);
    const stored = JSON.stringify(rows);
    for (const secret of ['header-secret', 'cookie-secret', 'token-secret', 'body-secret', 'query-secret', 's3cr3t']) {
      expect(stored).not.toContain(secret);
    }
    const post = rows.find((r) => r.requestId === 'req-secret-test')!;
    expect(post).toMatchObject({ method: 'POST', path: '/api/deployments', route: '/api/deployments', status: 401 });
    expect(post.headers['user-agent']).toBe('probe/1.0');
    expect(Object.keys(post.headers)).not.toContain('authorization');
    expect(Object.keys(post.headers)).not.toContain('cookie');
    const failed = rows.find((r) => r.requestId === 'req-boom')!;
    expect(failed).toMatchObject({ status: 500, errorName: 'Error' });
    expect(failed.errorMessage).toBe('connect failed for postgres://***@db.internal:5432/itinera');
  });

  it('keeps copies, not the request objects, until the flush (a kept object made V8 pretenure them all)', async () => {
    const headers: Record<string, string> = { 'user-agent': 'first' };
    app.requestRecorder.record({
      requestId: 'copy-1',
      method: 'GET',
      url: '/test/ok/copy',
      route: '/test/ok/:id',
      status: 200,
      durationMs: 1,
      headers,
    });
    headers['user-agent'] = 'changed after the response';
    await app.requestRecorder.flush();
    const [row] = await database.db.select().from(telescopeRequests).where(eq(telescopeRequests.requestId, 'copy-1'));
    expect(row?.headers).toEqual({ 'user-agent': 'first' });
  });

  it('writes a batch field for field: unmatched routes, 5xx errors, NUL characters left out', async () => {
    const recorder = app.requestRecorder;
    recorder.record({
      requestId: 'b-1',
      method: 'GET',
      url: '/nowhere?x=1',
      route: null,
      status: 404,
      durationMs: 0.4567,
      headers: { accept: '*/*' },
    });
    const error = { name: 'TypeError', message: 'bad \u0000 byte' };
    recorder.record({
      requestId: 'b-2',
      method: 'POST',
      url: '/test/ok/2',
      route: '/test/ok/:id',
      status: 503,
      durationMs: 12,
      headers: {},
      error,
    });
    await recorder.flush();
    const rows = await database.db.select().from(telescopeRequests).orderBy(telescopeRequests.requestId);
    expect(rows.map(({ id: _, ...r }) => r)).toEqual([
      {
        requestId: 'b-1',
        method: 'GET',
        path: '/nowhere',
        route: null,
        status: 404,
        durationMs: 0.46,
        headers: { accept: '*/*' },
        errorName: null,
        errorMessage: null,
        recordedAt: new Date(TEST_NOW),
      },
      {
        requestId: 'b-2',
        method: 'POST',
        path: '/test/ok/2',
        route: '/test/ok/:id',
        status: 503,
        durationMs: 12,
        headers: {},
        errorName: 'TypeError',
        errorMessage: 'bad  byte',
        recordedAt: new Date(TEST_NOW),
      },
    ]);
  });

  it('writes what is buffered when the app closes', async () => {
    const other = await monitoredApp();
    await other.inject('/test/ok/closing');
    await other.close();
    const rows = await database.db.select().from(telescopeRequests);
    expect(rows.map((r) => r.path)).toEqual(['/test/ok/closing']);
  });
});

describe('GET /pulse', () => {
  it('shows throughput and percentiles per route, slow requests and the deployments card with badge colours', async () => {
    for (let i = 0; i < 4; i++) await app.inject(`/test/ok/${i}`);
    await app.inject('/test/boom');
    expect((await recordDeployment('production', '2.4.1')).statusCode).toBe(201);
    expect((await recordDeployment('staging', '2.5.0-rc1')).statusCode).toBe(201);
    expect((await recordDeployment('qa', '2.5.0-rc2')).statusCode).toBe(201);
    await app.requestRecorder.flush();

    const res = await dash('/pulse');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const page = res.body;
    expect(page).toContain('<code>/test/ok/:id</code>');
    expect(page).toMatch(/<td>GET<\/td><td><code>\/test\/ok\/:id<\/code><\/td><td class="n">4<\/td>/);
    expect(page).toContain('<code>/test/boom</code>');
    expect(page).toContain('p95');
    expect(page).toContain('<span class="badge green">production</span>');
    expect(page).toContain('<span class="badge yellow">staging</span>');
    expect(page).toContain('<span class="badge blue">qa</span>');
    expect(page).toContain('hx-get="/pulse/deployments" hx-trigger="every 5s"');
    expect(page).not.toContain('<script>');
    // the newest deployment first
    expect(page.indexOf('2.5.0-rc2')).toBeLessThan(page.indexOf('2.4.1'));

    const week = await dash('/pulse?period=7d');
    expect(week.statusCode).toBe(200);
    expect((await dash('/pulse?period=1y')).statusCode).toBe(400);
  });

  it('lists requests at or above 1000 ms as slow', async () => {
    await database.db.insert(telescopeRequests).values({
      requestId: 'slow-one',
      method: 'GET',
      path: '/api/es/es/products',
      route: '/api/:market/:lang/products',
      status: 200,
      durationMs: 1534.5,
      headers: {},
      recordedAt: new Date(clock.now().getTime() - 60_000),
    });
    const page = (await dash('/pulse')).body;
    expect(page).toContain('1534.5 ms');
    expect(page).toContain('href="/telescope/requests/slow-one"');
  });

  it('GET /pulse/deployments.json: the last 20 deployments, and a version that changes on deployment:completed', async () => {
    const before = (await dash('/pulse/deployments.json')).json();
    expect(before.deployments).toEqual([]);
    for (let i = 0; i < 21; i++) await recordDeployment(i === 20 ? 'production' : 'staging', `1.0.${i}`);
    const res = await dash('/pulse/deployments.json');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.version).not.toBe(before.version);
    expect(body.deployments).toHaveLength(20);
    expect(body.deployments[0]).toEqual({
      id: expect.any(Number),
      environment: 'production',
      badge: 'green',
      version: '1.0.20',
      commit: 'a1b2c3d',
      build_date: '2026-06-15',
      build_id: null,
      recorded_at: '2026-06-15T10:00:00.000Z',
    });
    expect(body.deployments[1].badge).toBe('yellow');
    // a deployment recorded in this process bumps the version even when the list looks the same
    app.ctx.events.emit('deployment:completed', {});
    expect((await dash('/pulse/deployments.json')).json().version).not.toBe(body.version);
  });
});

describe('GET /health-dashboard', () => {
  it('shows the latest stored run and the last day of history, as HTML and JSON', async () => {
    const empty = await dash('/health-dashboard');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('No health run stored in the last day');
    expect((await dash('/health-dashboard.json')).json()).toEqual({ latest: null, history: [] });

    expect((await app.inject('/health')).statusCode).toBe(200);
    clock.advance(60_000);
    app.health.probes.diskUsage = async () => 75;
    await app.inject('/health');
    app.health.probes.diskUsage = async () => 12;

    const json = (await dash('/health-dashboard.json')).json();
    expect(json.history).toHaveLength(2);
    expect(json.latest).toEqual(json.history[0]);
    expect(json.latest.finishedAt).toBe('2026-06-15T10:01:00.000Z');
    expect(json.latest.checkResults.map((c: { name: string }) => c.name)).toEqual([
      'Database',
      'Cache',
      'UsedDiskSpace',
    ]);
    expect(json.latest.checkResults[2]).toEqual({
      name: 'UsedDiskSpace',
      status: 'warning',
      message: 'The disk is almost full (75% used).',
      meta: { disk_space_used_percentage: 75 },
    });
    expect(json.history[1].checkResults[0]).toEqual({ name: 'Database', status: 'ok' });

    const page = await dash('/health-dashboard');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('UsedDiskSpace');
    expect(page.body).toContain('<span class="badge yellow">warning</span>');
    expect(page.body).toContain('2 runs');

    // older than a day: out of the history
    clock.advance(DAY + 1);
    expect((await dash('/health-dashboard.json')).json().history).toHaveLength(0);
    // ?fresh=1 runs the checks first
    const fresh = await dash('/health-dashboard?fresh=1');
    expect(fresh.body).toContain('Finished at 2026-06-16T10:01:00.001Z');
  });
});

describe('GET /telescope', () => {
  it('lists recent requests and 5xx errors, with a detail view per request id', async () => {
    await app.inject({ url: '/test/ok/7?q=1', headers: { 'x-request-id': 'req-ok-7', 'user-agent': 'ua/2' } });
    await app.inject({ url: '/test/boom', headers: { 'x-request-id': 'req-boom-1' } });
    await app.requestRecorder.flush();

    const page = await dash('/telescope');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<code>/test/ok/7</code>');
    expect(page.body).toContain('href="/telescope/requests/req-ok-7"');
    expect(page.body).toContain('connect failed for postgres://***@db.internal:5432/itinera');
    expect(page.body).not.toContain('s3cr3t');
    expect(page.body).not.toContain('    at ');

    const detail = await dash('/telescope/requests/req-ok-7');
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('<code>/test/ok/:id</code>');
    expect(detail.body).toContain('<code>user-agent</code></td><td><code>ua/2</code>');
    expect((await dash('/telescope/requests/unknown-id')).statusCode).toBe(404);
  });

  it('escapes what it shows', async () => {
    await app.inject({ url: '/%3Cscript%3Ealert(1)%3C/script%3E', headers: { 'x-request-id': 'req-xss' } });
    await app.requestRecorder.flush();
    const page = (await dash('/telescope')).body;
    expect(page).not.toContain('<script>alert');
    expect(page).toContain('/%3Cscript%3Ealert(1)%3C/script%3E');
  });
});

describe('GET /metrics', () => {
  it('answers Prometheus text with default metrics and the request duration histogram; hidden from OpenAPI', async () => {
    await app.inject('/test/ok/1');
    const res = await app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/test\/ok\/:id",status_code="200"\} \d+/,
    );
    expect(res.body).toContain('process_cpu_user_seconds_total');
    const openapi = (await app.inject('/openapi.json')).json();
    expect(Object.keys(openapi.paths)).not.toContain('/metrics');
    expect(Object.keys(openapi.paths)).toContain('/pulse/deployments.json');
  });
});

describe('pruning', () => {
  it('deletes pulse aggregates older than 7 days and request log entries older than 14 days', async () => {
    const at = (days: number) => new Date(new Date(TEST_NOW).getTime() - days * DAY);
    for (const days of [8, 6]) {
      clock.set(at(days));
      await app.inject(`/test/ok/${days}`);
    }
    for (const days of [15, 13]) {
      clock.set(at(days));
      await app.inject(`/test/ok/${days}`);
    }
    await app.requestRecorder.flush();
    clock.set(TEST_NOW);
    expect(await database.db.select().from(pulseRequestAggregates)).toHaveLength(4);

    const info = { id: 'j1', name: 'x', queue: 'x', attempt: 1, signal: new AbortController().signal };
    expect(await prunePulseJob(app.ctx).handler({}, info)).toEqual({ kind: 'done' });
    const minutes = (await database.db.select().from(pulseRequestAggregates)).map((r) => r.minute.getTime()).sort();
    expect(minutes).toEqual([at(6).getTime()]);

    expect(await pruneTelescopeJob(app.ctx).handler({}, info)).toEqual({ kind: 'done' });
    const paths = (await database.db.select().from(telescopeRequests)).map((r) => r.path).sort();
    expect(paths).toEqual(['/test/ok/13', '/test/ok/6', '/test/ok/8']);
  });

  it('schedules each prune job on its own queue', async () => {
    await scheduleJobs(app.ctx);
    const { rows } = await database.query<{ name: string; cron: string }>(
      `SELECT name, cron FROM pgboss.schedule WHERE name LIKE 'monitoring-%' ORDER BY name`,
    );
    expect(rows).toEqual([
      { name: 'monitoring-prune-pulse', cron: '10 3 * * *' },
      { name: 'monitoring-prune-telescope', cron: '20 3 * * *' },
    ]);
  });
});

describe('authentication', () => {
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const production = {
    APP_ENV: 'production',
    APP_KEY: 'k'.repeat(40),
    DASHBOARD_USER: 'ops',
    DASHBOARD_PASSWORD: 'correct horse battery',
  };

  it('/metrics: 401 with a Basic challenge without or with wrong credentials; 200 with the right ones', async () => {
    const prod = await monitoredApp(production);
    try {
      const url = '/metrics';
      const none = await prod.inject(url);
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Basic realm="itinera monitoring", charset="UTF-8"');
      expect(none.json()).toEqual({ success: false, error: 'unauthorized', message: expect.any(String) });
      expect((await prod.inject({ url, headers: { authorization: basic('ops', 'wrong') } })).statusCode).toBe(401);
      const wrongUser = await prod.inject({ url, headers: { authorization: basic('root', 'correct horse battery') } });
      expect(wrongUser.statusCode).toBe(401);
      const ok = await prod.inject({ url, headers: { authorization: basic('ops', 'correct horse battery') } });
      expect(ok.statusCode).toBe(200);
      // HTTP Basic opens no dashboard page: those need a console session
      const page = await prod.inject({
        url: '/pulse',
        headers: { authorization: basic('ops', 'correct horse battery') },
      });
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toBe('/admin/login?next=%2Fpulse');
    } finally {
      await prod.close();
    }
  });

  it('/metrics: 503 naming the settings when the login is not configured', async () => {
    const staging = await monitoredApp({
      ...production,
      APP_ENV: 'staging',
      DASHBOARD_USER: '',
      DASHBOARD_PASSWORD: '',
    });
    try {
      const res = await staging.inject({ url: '/metrics', headers: { authorization: basic('ops', 'anything') } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ success: false, error: 'dashboard_login_not_configured' });
      expect(res.json().message).toContain('DASHBOARD_USER');
    } finally {
      await staging.close();
    }
  });

  it('the pages need a console session in every environment; /metrics is open in development and test', async () => {
    for (const url of ['/health-dashboard', '/pulse', '/telescope']) {
      expect((await app.inject(url)).statusCode, url).toBe(303);
    }
    for (const url of ['/health-dashboard.json', '/pulse/deployments.json']) {
      expect((await app.inject(url)).statusCode, url).toBe(401);
    }
    expect((await dash('/pulse')).statusCode).toBe(200);
    expect((await app.inject('/metrics')).statusCode).toBe(200);
  });
});
