// The process life cycle around the app: the embedded data directory's lock, waiting for the
// database and Redis at boot, one-line boot failures with sysexits codes, and the graceful stop.
// Exit codes (docs/operations.md): 78 configuration, 69 a required service unreachable,
// 75 the embedded data directory is in use by another process, 1 anything else.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ConfigError } from '../config.js';

export const EXIT_CONFIG = 78;
export const EXIT_UNAVAILABLE = 69;
export const EXIT_LOCKED = 75;

/** A boot failure already worded for the operator: one line, its exit code. */
export class BootError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'BootError';
  }
}

// ---------------------------------------------------------------------------------------------
// The embedded data directory's lock

export const LOCK_FILE = 'itinera.lock';

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}

/**
 * Takes the data directory for this process. On Linux first an abstract Unix socket named after
 * the directory: the kernel lets one process bind it and frees it when that process dies (kill -9
 * included), and it answers the owner's pid. Then (every platform) `<dir>/itinera.lock` created
 * exclusively with our pid; one whose process is gone is taken over. Throws a BootError naming the
 * owner's pid when another live process holds either. Returns the release function.
 */
export async function lockDataDir(dir: string): Promise<() => void> {
  mkdirSync(dir, { recursive: true });
  const socket = process.platform === 'linux' ? await bindLockSocket(realpathSync(dir)) : undefined;
  try {
    const releaseFile = lockFile(dir);
    return () => {
      releaseFile();
      socket?.close();
    };
  } catch (err) {
    socket?.close();
    throw err;
  }
}

function inUse(dir: string, owner: number | string): BootError {
  return new BootError(
    `the embedded database ${dir} is in use by process ${owner}; stop that process first, or give this one another PGLITE_DIR (or a DATABASE_URL)`,
    EXIT_LOCKED,
  );
}

async function bindLockSocket(dir: string): Promise<Server> {
  const name = `\0itinera-pglite-${createHash('sha256').update(dir).digest('hex').slice(0, 40)}`;
  const server = createServer((sock) => sock.end(`${process.pid}\n`));
  const bound = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    server.once('error', resolve);
    server.listen(name, () => resolve(null));
  });
  if (!bound) {
    server.unref();
    return server;
  }
  if (bound.code !== 'EADDRINUSE') throw bound;
  // the owner writes its pid into the lock file just after binding; its event loop may be busy
  // opening the database, so the file is read first and the socket asked only without one
  for (let i = 0; i < 20; i++) {
    const pid = readOwner(join(dir, LOCK_FILE));
    if (pid !== null && alive(pid)) throw inUse(dir, pid);
    await new Promise((r) => setTimeout(r, 100));
  }
  const owner = await new Promise<string>((resolve) => {
    const c = createConnection(name);
    let text = '';
    c.setTimeout(2_000, () => c.destroy());
    c.on('data', (d) => {
      text += d;
    });
    c.on('close', () => resolve(text.trim() || 'unknown'));
    c.on('error', () => {});
  });
  throw inUse(dir, owner);
}

function lockFile(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => releaseLock(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = readOwner(path);
    if (owner === null) continue; // released or being written just now: try again
    if (alive(owner)) throw inUse(dir, owner);
    // stale: move it aside atomically; of two processes taking over, one rename wins, the other
    // finds the file gone and competes again on the exclusive create
    try {
      renameSync(path, `${path}.stale-${process.pid}`);
      rmSync(`${path}.stale-${process.pid}`, { force: true });
    } catch {}
  }
  throw new BootError(`could not take the lock ${path}; remove it if no itinera process runs`, EXIT_LOCKED);
}

function readOwner(path: string): number | null {
  try {
    const text = readFileSync(path, 'utf8').trim();
    return text === '' ? null : Number(text);
  } catch {
    return null;
  }
}

function releaseLock(path: string): void {
  // only our own lock: a process that lost it (taken over as stale) must not remove another's
  if (readOwner(path) !== process.pid) return;
  rmSync(path, { force: true });
}

// ---------------------------------------------------------------------------------------------
// Waiting for the services at boot

const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// PostgreSQL starting up, shutting down, or out of connection slots: it will take us soon
const TRANSIENT_SQLSTATE = new Set(['57P03', '57P01', '53300']);

function where(url: string): { host: string; port: string; database: string; user: string } {
  const u = new URL(url);
  return {
    host: u.hostname || 'localhost',
    port: u.port || '5432',
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || 'postgres',
    user: decodeURIComponent(u.username) || 'postgres',
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Connects once to DATABASE_URL, trying again every second while the server is unreachable or
 * starting, for up to `retrySeconds`. A missing database or refused login is a configuration
 * error at once (retrying cannot fix it). Failures are BootErrors worded for the operator.
 */
export async function waitForPostgres(
  url: string,
  retrySeconds: number,
  onRetry: (reason: string) => void = () => {},
): Promise<void> {
  const w = where(url);
  const deadline = Date.now() + retrySeconds * 1000;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (err) {
      const e = err as NodeJS.ErrnoException & { code?: string };
      if (e.code === '3D000') {
        throw new BootError(
          `database "${w.database}" does not exist on ${w.host}:${w.port}: create it with \`createdb -h ${w.host} -p ${w.port} -U ${w.user} ${w.database}\` or fix DATABASE_URL`,
          EXIT_CONFIG,
        );
      }
      if (e.code === '28P01' || e.code === '28000') {
        throw new BootError(
          `PostgreSQL at ${w.host}:${w.port} refused the login of "${w.user}": fix the user or password in DATABASE_URL`,
          EXIT_CONFIG,
        );
      }
      const transient =
        TRANSIENT.has(e.code ?? '') || TRANSIENT_SQLSTATE.has(e.code ?? '') || /timeout/i.test(e.message);
      if (e.code === 'ENOTFOUND' || !transient || Date.now() >= deadline) {
        throw new BootError(
          `PostgreSQL at ${w.host}:${w.port} is unreachable (${e.code ?? e.message}) after ${retrySeconds} s: start it or fix DATABASE_URL`,
          e.code === 'ENOTFOUND' ? EXIT_CONFIG : EXIT_UNAVAILABLE,
        );
      }
      onRetry(e.code ?? e.message);
      await sleep(1_000);
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/** Pings REDIS_URL, trying again every second for up to `retrySeconds`; a BootError naming REDIS_URL after. */
export async function waitForRedis(
  url: string,
  retrySeconds: number,
  timeoutMs: number,
  onRetry: (reason: string) => void = () => {},
): Promise<void> {
  const u = new URL(url);
  const deadline = Date.now() + retrySeconds * 1000;
  for (;;) {
    const redis = new Redis(url, {
      lazyConnect: true,
      connectTimeout: timeoutMs,
      commandTimeout: timeoutMs,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    let cause = '';
    redis.on('error', (err: NodeJS.ErrnoException) => {
      cause = err.code ?? err.message;
    });
    try {
      await redis.connect();
      await redis.ping();
      return;
    } catch (err) {
      const reason = cause || (err as Error).message;
      if (Date.now() >= deadline) {
        throw new BootError(
          `Redis at ${u.hostname}:${u.port || '6379'} is unreachable (${reason}) after ${retrySeconds} s: start it, fix REDIS_URL, or unset it to keep sessions and rate limits in this process`,
          EXIT_UNAVAILABLE,
        );
      }
      onRetry(reason);
      await sleep(1_000);
    } finally {
      redis.disconnect();
    }
  }
}

/**
 * Fails fast when serve's port is taken, before the database and the app are opened (the real
 * listen comes last; this only moves the failure to the start of the boot). EADDRINUSE or EACCES.
 */
export async function assertPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => resolve());
  });
  await new Promise((r) => probe.close(r));
}

// ---------------------------------------------------------------------------------------------
// Boot failures

/** One line and an exit code for anything that stopped the boot; never a stack trace. */
export function describeBootFailure(err: unknown, opts: { port?: number; host?: string } = {}): BootError {
  if (err instanceof BootError) return err;
  if (err instanceof ConfigError) return new BootError(`configuration error: ${err.message}`, EXIT_CONFIG);
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE') {
    return new BootError(
      `port ${opts.port} on ${opts.host} is already in use by another process: stop it, or set PORT (or HOST) to a free one`,
      EXIT_CONFIG,
    );
  }
  if (e?.code === 'EACCES' && opts.port !== undefined && opts.port < 1024) {
    return new BootError(`port ${opts.port} needs root: set PORT to 1024 or higher`, EXIT_CONFIG);
  }
  const message = err instanceof Error ? err.message : String(err);
  return new BootError(`boot failed: ${message.split('\n')[0]}${e?.code ? ` (${e.code})` : ''}`, 1);
}

// ---------------------------------------------------------------------------------------------
// Graceful stop

/**
 * Stops on SIGTERM or SIGINT: `stop` closes the server (no new connections, in-flight requests
 * answered) and the queue (running jobs finish), and must settle within the grace period; when it
 * does not, the process exits 1 anyway, so a process manager's own kill never has to.
 */
export function stopOnSignals(
  graceSeconds: number,
  stop: (signal: string) => Promise<void>,
  log: { info(o: object, m: string): void; error(o: object, m: string): void },
): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, graceSeconds }, 'shutting down: draining requests and jobs');
    const force = setTimeout(() => {
      log.error({ graceSeconds }, 'grace period over with work still running; exiting');
      process.exit(1);
    }, graceSeconds * 1000);
    force.unref();
    stop(signal).then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => onSignal('SIGINT'));
  process.once('SIGTERM', () => onSignal('SIGTERM'));
}
