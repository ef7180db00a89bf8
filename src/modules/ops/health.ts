// The health run behind GET /health: each check under its own deadline, run side by side, the
// results stored for the history and, when one failed, an e-mail sent (throttled) in the background.
import { randomUUID } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type { AppContext } from '../../context.js';
import { DeadlineExceeded, withDeadline } from './deadline.js';
import { HealthNotifier } from './notifications.js';
import { insertHealthResults } from './repository.js';
import { type CheckResult, diskStatus, type HealthReport, usedPercent } from './rules.js';

/** What the checks measure outside our code; tests replace single probes. */
export interface HealthProbes {
  /** resolves when the database answers SELECT 1 */
  database(): Promise<void>;
  /** resolves with the cache backend after a successful round trip */
  cache(): Promise<'redis' | 'memory'>;
  /** used share of the file system holding `path`, in percent */
  diskUsage(path: string): Promise<number>;
}

export interface HealthMonitorOptions {
  probes?: Partial<HealthProbes>;
  /** deadline of each check (default 2 s) */
  checkTimeoutMs?: number;
}

/** storing the results must not hold the answer either */
const STORE_DEADLINE_MS = 2_000;

const monitors = new WeakMap<AppContext, HealthMonitor>();

/**
 * The process's one monitor: GET /health and the scheduled `ops.health-check` task share it, so
 * with in-process workers /health answers from the scheduled run.
 */
export function healthMonitorOf(ctx: AppContext): HealthMonitor {
  let monitor = monitors.get(ctx);
  if (!monitor) {
    monitor = new HealthMonitor(ctx);
    monitors.set(ctx, monitor);
  }
  return monitor;
}

export class HealthMonitor {
  readonly probes: HealthProbes;
  checkTimeoutMs: number;
  private last?: HealthReport;
  private running?: Promise<HealthReport>;
  private redis?: Redis;
  private redisError?: Error;
  private readonly notifier: HealthNotifier;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly ctx: AppContext,
    opts: HealthMonitorOptions = {},
  ) {
    this.checkTimeoutMs = opts.checkTimeoutMs ?? 2_000;
    this.notifier = new HealthNotifier(ctx);
    this.probes = {
      database: async () => {
        await ctx.database.db.execute(sql`SELECT 1`);
      },
      cache: async () => {
        const redis = this.redisClient();
        if (!redis) return 'memory';
        try {
          if (redis.status === 'wait') await redis.connect();
          else if (redis.status === 'reconnecting' || redis.status === 'close' || redis.status === 'end') {
            // between reconnect attempts: fail now rather than queue the PING
            throw new Error(`Redis connection is ${redis.status}`);
          }
          await redis.ping();
        } catch (err) {
          // ioredis reports the cause (ECONNREFUSED, ...) as an 'error' event, not on the command
          const code = (this.redisError as { code?: string } | undefined)?.code ?? 'NOT_CONNECTED';
          throw Object.assign(new Error(`Redis unreachable: ${(err as Error).message}`, { cause: err }), { code });
        }
        return 'redis';
      },
      diskUsage: async (path) => usedPercent(await statfs(path)),
      ...opts.probes,
    };
  }

  /**
   * The latest run of this process when it finished less than `maxAgeMs` ago, else a new run;
   * callers arriving during a run share it. So the checks run, and a run is stored, at most once
   * per interval and process however often /health is called.
   */
  async latest(maxAgeMs: number): Promise<HealthReport> {
    const last = this.last;
    if (last && this.ctx.clock.now().getTime() - last.finishedAt.getTime() < maxAgeMs) return last;
    if (!this.running) {
      this.running = this.run().finally(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  /** Runs every check, stores the results and starts the failure notification when needed. */
  async run(): Promise<HealthReport> {
    const checks: Array<[string, () => Promise<Omit<CheckResult, 'name'>>]> = [
      ['Database', () => this.database()],
      ['Cache', () => this.cache()],
      ['UsedDiskSpace', () => this.disk()],
    ];
    const { appEnv } = this.ctx.config;
    if (appEnv === 'production' || appEnv === 'staging') {
      checks.push(['OptimizedApp', async () => this.optimizedApp()]);
      checks.push(['DebugMode', async () => this.debugMode()]);
      checks.push(['Environment', async () => this.environment()]);
    }
    const checkResults = await Promise.all(checks.map(([name, check]) => this.guarded(name, check)));
    const report: HealthReport = { batch: randomUUID(), finishedAt: this.ctx.clock.now(), checkResults };
    this.last = report;
    await this.store(report);
    if (checkResults.some((r) => r.status === 'failed')) this.track(this.notifier.notifyFailure(report));
    return report;
  }

  /** resolves when notifications started by earlier runs have finished (tests, shutdown) */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    await this.settled();
    this.notifier.close();
    if (this.redis && this.redis.status !== 'end') this.redis.disconnect();
  }

  private async guarded(name: string, check: () => Promise<Omit<CheckResult, 'name'>>): Promise<CheckResult> {
    try {
      // the checks keep their own deadlines; this one only guards against a check that forgot
      return { name, ...(await withDeadline(check(), this.checkTimeoutMs + 250, name)) };
    } catch (err) {
      this.ctx.log.error({ err, check: name }, 'health check failed');
      const why = err instanceof DeadlineExceeded ? `no answer within ${this.checkTimeoutMs} ms` : 'an error occurred';
      return { name, status: 'failed', message: `The ${name} check could not complete: ${why}.` };
    }
  }

  private async database(): Promise<Omit<CheckResult, 'name'>> {
    try {
      await withDeadline(this.probes.database(), this.checkTimeoutMs, 'Database');
      return { status: 'ok' };
    } catch (err) {
      this.ctx.log.error({ err }, 'health: database unreachable');
      return { status: 'failed', message: `Could not connect to the database: ${reason(err)}.` };
    }
  }

  private async cache(): Promise<Omit<CheckResult, 'name'>> {
    try {
      const driver = await withDeadline(this.probes.cache(), this.checkTimeoutMs, 'Cache');
      return { status: 'ok', meta: { driver } };
    } catch (err) {
      this.ctx.log.error({ err }, 'health: cache unreachable');
      return { status: 'failed', message: `Could not reach the cache: ${reason(err)}.`, meta: { driver: 'redis' } };
    }
  }

  private async disk(): Promise<Omit<CheckResult, 'name'>> {
    let percent: number;
    try {
      percent = await withDeadline(
        this.probes.diskUsage(this.ctx.config.health.diskPath),
        this.checkTimeoutMs,
        'UsedDiskSpace',
      );
    } catch (err) {
      this.ctx.log.error({ err, path: this.ctx.config.health.diskPath }, 'health: disk usage unreadable');
      return { status: 'failed', message: `Could not read the used disk space: ${reason(err)}.` };
    }
    const status = diskStatus(percent);
    const meta = { disk_space_used_percentage: percent };
    if (status === 'ok') return { status, meta };
    return { status, message: `The disk is almost full (${percent}% used).`, meta };
  }

  private optimizedApp(): Omit<CheckResult, 'name'> {
    const nodeEnv = this.ctx.config.nodeEnv;
    if (nodeEnv === 'production') return { status: 'ok', meta: { node_env: nodeEnv } };
    // a warning, never a failure: a NODE_ENV slip must not take every node out of the load balancer
    return {
      status: 'warning',
      message: `The application is not running optimized: NODE_ENV is \`${nodeEnv}\`, expected \`production\`.`,
      meta: { node_env: nodeEnv },
    };
  }

  private debugMode(): Omit<CheckResult, 'name'> {
    const level = this.ctx.config.logLevel;
    if (level !== 'debug' && level !== 'trace') return { status: 'ok', meta: { log_level: level } };
    // a warning: turning on debug logging to diagnose an incident must not make /health answer 503
    return {
      status: 'warning',
      message: `The debug mode was expected to be off, but LOG_LEVEL is \`${level}\`.`,
      meta: { log_level: level },
    };
  }

  private environment(): Omit<CheckResult, 'name'> {
    const actual = this.ctx.config.appEnv;
    const expected = this.ctx.config.health.expectedEnv;
    if (!expected) return { status: 'ok', meta: { actual } };
    if (expected === actual) return { status: 'ok', meta: { expected, actual } };
    return {
      status: 'failed',
      message: `The environment was expected to be \`${expected}\`, but actually was \`${actual}\`.`,
      meta: { expected, actual },
    };
  }

  private async store(report: HealthReport): Promise<void> {
    const rows = report.checkResults.map((r) => ({
      batch: report.batch,
      name: r.name,
      status: r.status,
      message: r.message ?? null,
      meta: r.meta ?? null,
      finishedAt: report.finishedAt,
    }));
    try {
      await withDeadline(insertHealthResults(this.ctx.database.db, rows), STORE_DEADLINE_MS, 'storing health results');
    } catch (err) {
      this.ctx.log.error({ err }, 'health results could not be stored');
    }
  }

  private track(work: Promise<unknown>): void {
    const p = work.catch((err) => this.ctx.log.error({ err }, 'health notification failed'));
    this.pending.add(p);
    p.finally(() => this.pending.delete(p));
  }

  private redisClient(): Redis | undefined {
    const url = this.ctx.config.redisUrl;
    if (!url) return undefined;
    if (!this.redis) {
      this.redis = new Redis(url, {
        lazyConnect: true,
        connectTimeout: 1_000,
        commandTimeout: 1_000,
        maxRetriesPerRequest: 0,
      });
      this.redis.on('error', (err) => {
        this.redisError = err;
      });
      this.redis.on('ready', () => {
        this.redisError = undefined;
      });
    }
    return this.redis;
  }
}

/** a short public reason: the deadline, or the error code; details go to the log only */
function reason(err: unknown): string {
  if (err instanceof DeadlineExceeded) return err.message;
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^[\w.-]{1,40}$/.test(code) ? code : 'unexpected error (see the log)';
}
