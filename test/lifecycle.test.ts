// The process life cycle, on real processes of the built bundle (as `npm start` runs it): signals
// through npm, the graceful drain, the embedded database's lock, boot failures in one line with
// their exit codes, and the slow-client time-outs. Every wait is bounded; no step races a
// sub-second deadline.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../src/platform/paths.js';
import { freePort, type ServerProcess, startServer } from './support/server-process.js';

const started: ServerProcess[] = [];
const dirs: string[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function start(env: Record<string, string>, opts?: Parameters<typeof startServer>[1]) {
  const s = await startServer(env, opts);
  started.push(s);
  return s;
}

/** A fresh embedded data directory holding the test run's migrated template (no initdb, no migrations to wait for). */
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'itinera-life-'));
  dirs.push(dir);
  const data = join(dir, 'pglite');
  mkdirSync(data);
  execFileSync('tar', ['-xf', inject('pgliteDump'), '-C', data], { stdio: 'ignore' });
  return data;
}

// these start embedded-database servers, whatever the pass: run once, in the PGlite pass
const embeddedPass = !process.env.DATABASE_URL;

/** A raw HTTP connection to the server, for writing a request piece by piece. */
async function connect(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = createConnection(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let data = '';
  socket.on('data', (d) => {
    data += d;
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  return { socket, received: () => data, closed };
}

const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => true), sleep(ms).then(() => false)]);

beforeAll(() => {
  // the other tests of the start script rebuild too; one build per file keeps each file standalone
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot });
}, 60_000);

afterAll(async () => {
  for (const s of started) await s.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.runIf(embeddedPass)('signals and the graceful stop', () => {
  it('SIGTERM to the `npm start` process stops the server, answering the request in flight first', async () => {
    const s = await start({ PGLITE_DIR: dataDir() }, { command: 'npm' });
    expect(await s.healthy(90_000), s.stderr()).toBe(true);

    // a lead whose body has not all arrived yet is in flight when the signal comes
    const body = JSON.stringify({
      name: 'Ana Ruiz',
      email: 'ana@example.com',
      phone: '+34600111222',
      region: 'Madrid',
      destinations: ['Japan'],
      privacy_policy_accepted: true,
    });
    const conn = await connect(s.port);
    conn.socket.write(
      `POST /api/leads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await sleep(1_000);
    process.kill(s.child.pid!, 'SIGTERM'); // npm's own pid, as a process manager signals it
    await sleep(1_000);
    // no new connections once stopping
    expect(
      await fetch(`${s.base}/health`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');
    conn.socket.end(body.slice(10));
    expect(await within(conn.closed, 10_000)).toBe(true);
    expect(conn.received()).toMatch(/^HTTP\/1\.1 (201|422) /);

    expect(await s.exited(20_000)).toBe(0);
    // nothing of the tree keeps running: the node process (npm's child) is gone with it
    expect(() => process.kill(-s.child.pid!, 0)).toThrow();
  }, 120_000);
});

describe.runIf(embeddedPass)('the embedded database lock', () => {
  it('of two servers started together on one data directory, one serves and the other exits at once naming it', async () => {
    const dir = dataDir();
    const [a, b] = await Promise.all([start({ PGLITE_DIR: dir }), start({ PGLITE_DIR: dir })]);
    const first = await Promise.race([a.exited(60_000).then(() => a), b.exited(60_000).then(() => b)]);
    const [loser, winner] = first === a ? [a, b] : [b, a];
    expect(await loser.exited(1)).toBe(75);
    const line = loser.stderr().trim();
    expect(line).toBe(
      `itinera: the embedded database ${dir} is in use by process ${winner.child.pid}; stop that process first, or give this one another PGLITE_DIR (or a DATABASE_URL)`,
    );
    expect(await winner.healthy(90_000), winner.stderr()).toBe(true);

    winner.child.kill('SIGTERM');
    expect(await winner.exited(30_000)).toBe(0);
    expect(existsSync(join(dir, 'itinera.lock'))).toBe(false);
  }, 150_000);

  it('takes over the lock of a process killed with SIGKILL; closes connections of slow clients', async () => {
    const dir = dataDir();
    const a = await start({ PGLITE_DIR: dir });
    expect(await a.healthy(90_000), a.stderr()).toBe(true);
    a.child.kill('SIGKILL');
    await a.exited(10_000);
    expect(existsSync(join(dir, 'itinera.lock'))).toBe(true); // left behind by the killed process
    // (slow clients are tried on this server, to save a boot: its time-outs are set low)
    const b = await start({ PGLITE_DIR: dir, HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '3000' });
    expect(await b.healthy(90_000), b.stderr()).toBe(true);

    // slowloris: headers, or a body, that do not arrive within the time-outs close the connection
    const headers = await connect(b.port);
    headers.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    const body = await connect(b.port);
    body.socket.write(
      'POST /api/leads HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
    );
    // a generous bound over the 2 s and 3 s limits (Node checks every second)
    expect(await within(headers.closed, 10_000)).toBe(true);
    expect(await within(body.closed, 10_000)).toBe(true);
    expect(headers.received()).toMatch(/^(HTTP\/1\.1 408 |$)/);
    expect(body.received()).toMatch(/^(HTTP\/1\.1 408 |$)/);
  }, 150_000);
});

describe('boot failures: one line naming the cause and the fix', () => {
  const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

  it.runIf(embeddedPass)(
    'an unreachable PostgreSQL is tried for DATABASE_BOOT_RETRY_SECONDS, then exit 69 naming DATABASE_URL',
    async () => {
      const port = await freePort();
      const t0 = Date.now();
      const s = await start({
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/itinera`,
        DATABASE_BOOT_RETRY_SECONDS: '2',
      });
      expect(await s.exited(30_000)).toBe(69);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(2_000);
      expect(s.stderr()).toContain(
        `itinera: PostgreSQL at 127.0.0.1:${port} is unreachable (ECONNREFUSED) after 2 s: start it or fix DATABASE_URL`,
      );
      noStack(s.stderr());
    },
    60_000,
  );

  it.runIf(process.env.DATABASE_URL)(
    'a missing PostgreSQL database: exit 78 offering the createdb command',
    async () => {
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = '/itinera_missing_db';
      const s = await start({ DATABASE_URL: url.toString() });
      expect(await s.exited(30_000)).toBe(78);
      expect(s.stderr().trim()).toBe(
        `itinera: database "itinera_missing_db" does not exist on ${url.hostname}:${url.port || '5432'}: create it with \`createdb -h ${url.hostname} -p ${url.port || '5432'} -U ${decodeURIComponent(url.username) || 'postgres'} itinera_missing_db\` or fix DATABASE_URL`,
      );
    },
    60_000,
  );

  it.runIf(embeddedPass)(
    'an unreachable Redis: exit 69 naming REDIS_URL',
    async () => {
      const port = await freePort();
      const s = await start({
        PGLITE_DIR: 'memory',
        REDIS_URL: `redis://127.0.0.1:${port}`,
        DATABASE_BOOT_RETRY_SECONDS: '1',
      });
      expect(await s.exited(30_000)).toBe(69);
      expect(s.stderr()).toContain(`itinera: Redis at 127.0.0.1:${port} is unreachable (ECONNREFUSED) after 1 s:`);
      expect(s.stderr()).toContain('REDIS_URL');
      noStack(s.stderr());
    },
    60_000,
  );

  it.runIf(embeddedPass)(
    'a port in use: exit 78 naming PORT',
    async () => {
      const taken = createServer();
      const port = await freePort();
      await new Promise<void>((r) => taken.listen(port, '127.0.0.1', () => r()));
      try {
        const s = await start({ PGLITE_DIR: 'memory' }, { port });
        expect(await s.exited(60_000)).toBe(78);
        expect(s.stderr().trim().split('\n').at(-1)).toBe(
          `itinera: port ${port} on 127.0.0.1 is already in use by another process: stop it, or set PORT (or HOST) to a free one`,
        );
        noStack(s.stderr());
      } finally {
        taken.close();
      }
    },
    90_000,
  );

  it.runIf(embeddedPass)(
    'NODE_ENV=production without APP_ENV: exit 78 before touching anything',
    async () => {
      const s = await start({ NODE_ENV: 'production', APP_ENV: '', PGLITE_DIR: 'memory' });
      expect(await s.exited(30_000)).toBe(78);
      expect(s.stderr().trim()).toBe(
        'itinera: configuration error: NODE_ENV is production but APP_ENV is not set: set APP_ENV=production (or staging) to run in production',
      );
    },
    60_000,
  );
});
