// Per-IP fixed-window rate limits on @fastify/rate-limit. One store per app (AppContext.rateLimits):
// in process memory by default (windows follow the injected clock), in Redis when REDIS_URL is set
// (the plugin's Redis store and its Lua script) so the limits hold across several server processes.
// The plugin is registered once (registerRateLimits, skipOnError: a store that does not answer lets
// the request through, logged and counted); routes apply a limit with one hook:
//   app.post('/api/x', { onRequest: rateLimit({ name: 'x', max: 5, windowSeconds: 60 }) }, handler)
// Our hook, not the plugin's route option: a route may carry two limits (per IP and per visitor), the
// plugin's route hook runs only the first one per request, and the answer keeps our error envelope.
// The client address is request.ip, which Fastify derives from X-Forwarded-For only when the peer
// is in TRUSTED_PROXIES (trustProxy in app.ts), so a forged header from anyone else is ignored.
import { createRequire } from 'node:module';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { Type } from 'typebox';
import type { Config } from '../config.js';
import { type Clock, systemClock } from './clock.js';
import { AppError } from './errors.js';

/** The refusal's body, for the response schemas (OpenAPI) of limited routes. */
export const TooManyRequestsBody = Type.Object({
  success: Type.Literal(false),
  error: Type.Literal('too_many_requests'),
  message: Type.String(),
});

export interface WindowHit {
  /** hits in the current window, this one included */
  count: number;
  /** milliseconds until the window ends and the count starts again */
  resetMs: number;
}

export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  /** Counts one hit for `key` in a window of `windowMs` that starts with the key's first hit. */
  hit(key: string, windowMs: number): Promise<WindowHit>;
  /** the current window of `key` without counting a hit (count 0 when none is open) */
  peek(key: string): Promise<WindowHit>;
  close(): Promise<void>;
}

/** In-process store; windows follow the injected clock so tests can move time. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory';
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private nextSweep = 0;

  constructor(private readonly clock: Clock = systemClock) {}

  async hit(key: string, windowMs: number): Promise<WindowHit> {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { count: w.count, resetMs: w.resetAt - now };
  }

  async peek(key: string): Promise<WindowHit> {
    const now = this.clock.now().getTime();
    const w = this.windows.get(key);
    return w && w.resetAt > now ? { count: w.count, resetMs: w.resetAt - now } : { count: 0, resetMs: 0 };
  }

  /** drops ended windows at most once a minute, so one-off callers do not pile up */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + 60_000;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

/** the plugin's Redis store: one Lua script per hit (INCR, PEXPIRE on the first) and one per read */
interface PluginRedisStore {
  incr(
    key: string,
    cb: (err: Error | null, res: { current: number; ttl: number } | null) => void,
    windowMs: number,
    max: number,
  ): void;
  read(key: string, cb: (err: Error | null, res: { current: number; ttl: number } | null) => void): void;
}
const PluginRedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  nameSpace: string,
) => PluginRedisStore;

/** Redis store: windows live in Redis (its clock), shared by every process using the same server. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis';
  private readonly redis: Redis;
  private readonly store: PluginRedisStore;

  constructor(
    redisUrl: string,
    prefix = 'itinera:rate-limit:',
    timeouts: { connectMs?: number; commandMs?: number } = {},
  ) {
    this.redis = new Redis(redisUrl, {
      lazyConnect: true,
      // a limiter must answer quickly; when Redis is away the hook lets the request through
      connectTimeout: timeouts.connectMs ?? 2_000,
      // REDIS_COMMAND_TIMEOUT_MS as configured (it was capped at 1 s, which a loaded machine with a
      // healthy Redis could exceed: the limit then failed open)
      commandTimeout: timeouts.commandMs ?? 2_000,
      maxRetriesPerRequest: 1,
    });
    // errors surface on the command; this only keeps ioredis from logging unhandled 'error' events
    this.redis.on('error', () => {});
    // keys as before the plugin: prefix + limit name + ':' + client, so windows carry over a deploy
    this.store = new PluginRedisStore(false, false, this.redis, prefix);
  }

  private assertConnected(): void {
    // while ioredis is between reconnect attempts, fail at once instead of queueing the request
    if (this.redis.status === 'reconnecting' || this.redis.status === 'close') {
      throw new Error(`Redis is not connected (${this.redis.status})`);
    }
  }

  private call(run: (cb: (err: Error | null, res: { current: number; ttl: number } | null) => void) => void) {
    this.assertConnected();
    return new Promise<WindowHit>((resolve, reject) =>
      run((err, res) =>
        err || !res
          ? reject(err ?? new Error('no answer'))
          : resolve({ count: Number(res.current), resetMs: Number(res.ttl) }),
      ),
    );
  }

  async hit(key: string, windowMs: number): Promise<WindowHit> {
    return this.call((cb) => this.store.incr(key, cb, windowMs, 0));
  }

  async peek(key: string): Promise<WindowHit> {
    const w = await this.call((cb) => this.store.read(key, cb));
    return w.count === 0 || w.resetMs <= 0 ? { count: 0, resetMs: 0 } : w;
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    if (this.redis.status === 'wait') return this.redis.disconnect(); // never connected (lazy)
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The app's store: Redis when configured, memory otherwise. */
export function createRateLimitStore(
  config: Pick<Config, 'redisUrl'> & { limits?: Config['limits']; redisKeyPrefix?: string },
  clock: Clock = systemClock,
): RateLimitStore {
  return config.redisUrl
    ? new RedisRateLimitStore(config.redisUrl, `${config.redisKeyPrefix ?? 'itinera:'}rate-limit:`, {
        connectMs: config.limits?.redisConnectTimeoutMs,
        commandMs: config.limits?.redisCommandTimeoutMs,
      })
    : new MemoryRateLimitStore(clock);
}

export interface RateLimitRule {
  /** names the limit; requests share a counter per name and client IP */
  name: string;
  max: number;
  windowSeconds: number;
  /**
   * what the counter is per, instead of the client IP (e.g. the visitor cookie); a request for
   * which it gives undefined is not counted by this rule
   */
  key?: (request: FastifyRequest) => string | undefined;
}

interface Logger {
  error(obj: object, msg: string): void;
}

// Requests let through because the store did not answer, per limit name, since the process
// started: the metric itinera_rate_limit_store_failures_total (GET /metrics) reads them.
const storeFailures = new Map<string, number>();

/** the fail-open count per limit name, for the metrics endpoint */
export function rateLimitStoreFailures(): ReadonlyMap<string, number> {
  return storeFailures;
}

/** Logs a store failure the limiter lets through (fail open) and counts it for the metric. */
export function storeFailed(log: Logger, err: unknown, limit: string, message: string): void {
  storeFailures.set(limit, (storeFailures.get(limit) ?? 0) + 1);
  log.error({ err, limit }, message);
}

type Check = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * Registers @fastify/rate-limit on the app (not on any route by itself) over the app's store:
 * skipOnError, so a store that does not answer lets requests through (logged, counted for
 * itinera_rate_limit_store_failures_total).
 */
export async function registerRateLimits(
  app: FastifyInstance,
  source: { rateLimits: RateLimitStore; log: Logger },
): Promise<void> {
  class AppStore {
    incr(key: string, cb: (err: Error | null, res?: { current: number; ttl: number }) => void, windowMs: number) {
      source.rateLimits.hit(key, windowMs).then(
        (w) => cb(null, { current: w.count, ttl: w.resetMs }),
        (err: Error) => {
          storeFailed(
            source.log,
            err,
            key.slice(0, key.indexOf(':')),
            'rate limit store unavailable; request let through',
          );
          cb(err);
        },
      );
    }
    child() {
      return this;
    }
  }
  await app.register(fastifyRateLimit, { global: false, skipOnError: true, store: AppStore });
}

/**
 * A Fastify hook (use as onRequest, so refused requests cost no parsing or validation) that
 * answers 429 `too_many_requests` with Retry-After once a client passes `max` requests in a
 * window. The counting is the plugin's (registerRateLimits); the answer is ours.
 */
export function rateLimit(rule: RateLimitRule): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const windowMs = rule.windowSeconds * 1000;
  const who = (request: FastifyRequest) => (rule.key ? rule.key(request) : request.ip);
  const checks = new WeakMap<FastifyInstance, Check>();
  return async (request, reply) => {
    let check = checks.get(request.server);
    if (!check) {
      check = request.server.createRateLimit({
        max: rule.max,
        timeWindow: windowMs,
        keyGenerator: (req) => `${rule.name}:${who(req)}`,
        // a request the rule has no key for is not counted by it
        allowList: (req) => who(req) === undefined,
      });
      checks.set(request.server, check);
    }
    const result = await check(request);
    if (result.isAllowed) return;
    reply.header('x-ratelimit-limit', String(rule.max));
    reply.header('x-ratelimit-remaining', String(result.remaining));
    if (result.isExceeded) throw tooManyRequests(result.ttl);
  };
}

/** 429 `too_many_requests` with Retry-After (whole seconds, at least 1). */
export function tooManyRequests(resetMs: number, message?: (retryAfter: number) => string): AppError {
  const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
  return new AppError(
    429,
    'too_many_requests',
    message ? message(retryAfter) : `Too many requests. Please try again in ${retryAfter} seconds.`,
    undefined,
    { 'retry-after': String(retryAfter) },
  );
}

/** who is signing in: a request, or its address and logger */
export interface LoginClient {
  ip: string;
  log?: Logger;
}

/**
 * Failed logins per client IP: after `maxFailures` failures in a window every attempt, right or
 * wrong, is refused with 429 until the window ends, so passwords cannot be guessed at speed while
 * a dashboard polling with the right password is never counted. Shared by every login of the app
 * (the monitoring pages' HTTP Basic, the console's form).
 */
export class LoginThrottle {
  private readonly windowMs: number;

  constructor(
    private readonly source: { rateLimits: RateLimitStore; log?: Logger },
    private readonly rule: { name: string; maxFailures: number; windowSeconds: number } = {
      name: 'login',
      maxFailures: 10,
      windowSeconds: 15 * 60,
    },
  ) {
    this.windowMs = rule.windowSeconds * 1000;
  }

  private key(client: LoginClient): string {
    return `${this.rule.name}:${client.ip}`;
  }

  private logOf(client: LoginClient): Logger {
    const log = this.source.log ?? client.log;
    if (!log) throw new Error('LoginThrottle needs a logger');
    return log;
  }

  /** throws 429 while the client is locked out; call before checking the credentials */
  async assertAllowed(client: LoginClient, message?: (retryAfter: number) => string): Promise<void> {
    let current: WindowHit;
    try {
      current = await this.source.rateLimits.peek(this.key(client));
    } catch (err) {
      storeFailed(this.logOf(client), err, this.rule.name, 'login throttle store unavailable; attempt let through');
      return;
    }
    if (current.count >= this.rule.maxFailures) throw tooManyRequests(current.resetMs, message);
  }

  /** counts one failed attempt */
  async failed(client: LoginClient): Promise<void> {
    try {
      await this.source.rateLimits.hit(this.key(client), this.windowMs);
    } catch (err) {
      storeFailed(this.logOf(client), err, this.rule.name, 'login throttle store unavailable; failure not counted');
    }
  }
}
