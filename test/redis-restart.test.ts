// Issue 26 item 2: checkout sessions live in Redis, so a Redis restart must not end every live
// checkout. compose.yaml runs Redis with an append-only file on a volume; this test starts a
// redis-server with compose.yaml's own command line (its data directory a temporary one), starts a
// checkout through the app, restarts Redis (SIGTERM, as `docker compose restart` does) and finds
// the checkout still there. Skipped, with the reason printed, where no redis-server is installed.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '../src/platform/paths.js';
import { createTestApp, type TestApp } from './support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from './support/checkout-fixture.js';
import { CookieJar } from './support/checkout-jar.js';
import { faultTally } from './support/fault-tally.js';
import { redisUnavailable } from './support/redis.js';
import { freePort } from './support/server-process.js';

function redisServerMissing(): string | null {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `no redis-server to start (${(err as Error).message.split('\n')[0]})`;
  }
}
const tally = faultTally('redis restart');
const missing = redisServerMissing();
if (missing) console.log(`skipping the Redis restart test: ${missing}`);

/** the redis service's command in compose.yaml, e.g. ["redis-server", "--appendonly", "yes", ...] */
function composeRedisCommand(): string[] {
  const compose = readFileSync(projectPath('compose.yaml'), 'utf8');
  const service = compose.slice(compose.indexOf('\n  redis:\n'));
  const line = /\n {4}command: (\[.*\])\n/.exec(service);
  if (!line) throw new Error('compose.yaml: no command for the redis service');
  return JSON.parse(line[1]!) as string[];
}

describe.skipIf(missing !== null)('a Redis restart (compose.yaml persistence)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'itinera-redis-'));
  let port: number;
  let redis: ChildProcess | undefined;
  let t: TestApp;
  let c: CheckoutCatalog;

  async function startRedis(): Promise<void> {
    const [bin, ...args] = composeRedisCommand();
    redis = spawn(bin!, [...args, '--port', String(port), '--bind', '127.0.0.1', '--dir', dir], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while ((await redisUnavailable(`redis://127.0.0.1:${port}`)) !== null) {
      if (Date.now() > deadline) throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function stopRedis(): Promise<void> {
    const child = redis;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }

  beforeAll(async () => {
    port = await freePort();
    await startRedis();
    t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    c = await seedCheckoutCatalog(t.database);
  });
  afterAll(async () => {
    await t?.close();
    await stopRedis();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs Redis with an append-only file', () => {
    const args = composeRedisCommand();
    expect(args[args.indexOf('--appendonly') + 1]).toBe('yes');
  });

  it('keeps a live checkout across a restart of Redis', async () => {
    const visitor = new CookieJar(() => t.app, '198.51.100.77');
    const started = await visitor.call('POST', `/api/es/es/checkout/${c.offers.active}`, {});
    expect(started.statusCode).toBe(201);
    const before = await visitor.call('GET', '/api/es/es/checkout');
    expect(before.statusCode).toBe(200);

    await stopRedis();
    await startRedis();
    tally.faults += 1;
    tally.probes += 1;

    // the app reconnects on its own; the first command may still meet the old connection
    let after = await visitor.call('GET', '/api/es/es/checkout');
    for (let i = 0; i < 20 && after.statusCode === 503; i++) {
      await new Promise((r) => setTimeout(r, 250));
      after = await visitor.call('GET', '/api/es/es/checkout');
    }
    expect(after.statusCode).toBe(200);
    expect(after.json().data).toEqual(before.json().data);
  }, 60_000);
});
