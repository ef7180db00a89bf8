// Per-IP fixed-window rate limits. One store per app (AppContext.rateLimits): in process memory by
// default, in Redis when REDIS_URL is set so the limits hold across several server processes.
// Routes apply a limit with one hook:
//   app.post('/api/x', { onRequest: rateLimit(ctx, { name: 'x', max: 5, windowSeconds: 60 }) }, handler)
// The client address is request.ip, which Fastify derives from X-Forwarded-For only when the peer
// is in TRUSTED_PROXIES (trustProxy in app.ts), so a forged header from anyone else is ignored.
import type { FastifyReply, FastifyRequest } from 'fastify';
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

// INCR and the first hit's PEXPIRE in one atomic step; a key left without a TTL (it cannot
// happen through this script, but a crash between commands elsewhere could) gets one.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/** Redis store: windows live in Redis (its clock), shared by every process using the same server. */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis';
  private readonly redis: Redis;

  constructor(
    redisUrl: string,
    private readonly prefix = 'itinera:rate-limit:',
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
    this.redis.defineCommand('itineraRateHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
  }

  async peek(key: string): Promise<WindowHit> {
    this.assertConnected();
    const [[, count], [, ttl]] = (await this.redis
      .multi()
      .get(this.prefix + key)
      .pttl(this.prefix + key)
      .exec()) as [[unknown, string | null], [unknown, number]];
    return count === null || ttl <= 0 ? { count: 0, resetMs: 0 } : { count: Number(count), resetMs: Number(ttl) };
  }

  private assertConnected(): void {
    // while ioredis is between reconnect attempts, fail at once instead of queueing the request
    if (this.redis.status === 'reconnecting' || this.redis.status === 'close') {
      throw new Error(`Redis is not connected (${this.redis.status})`);
    }
  }

  async hit(key: string, windowMs: number): Promise<WindowHit> {
    this.assertConnected();
    const run = (this.redis as unknown as Record<string, (k: string, ms: number) => Promise<[number, number]>>)
      .itineraRateHit;
    const [count, ttl] = await run.call(this.redis, this.prefix + key, windowMs);
    return { count: Number(count), resetMs: Number(ttl) };
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

/**
 * A Fastify hook (use as onRequest, so refused requests cost no parsing or validation) that
 * answers 429 `too_many_requests` with Retry-After once a client IP passes `max` requests in a
 * window. Accepts the app context (its shared store) or a store.
 */
export function rateLimit(
  source: { rateLimits: RateLimitStore; log?: Logger } | RateLimitStore,
  rule: RateLimitRule,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const store = 'rateLimits' in source ? source.rateLimits : source;
  const log = 'rateLimits' in source ? source.log : undefined;
  const windowMs = rule.windowSeconds * 1000;
  return async (request, reply) => {
    const who = rule.key ? rule.key(request) : request.ip;
    if (who === undefined) return;
    let hit: WindowHit;
    try {
      hit = await store.hit(`${rule.name}:${who}`, windowMs);
    } catch (err) {
      // the limiter is a guard, not a dependency: with its store down, serve rather than fail
      (log ?? request.log).error({ err, limit: rule.name }, 'rate limit store unavailable; request let through');
      return;
    }
    const remaining = Math.max(0, rule.max - hit.count);
    reply.header('x-ratelimit-limit', String(rule.max));
    reply.header('x-ratelimit-remaining', String(remaining));
    if (hit.count > rule.max) throw tooManyRequests(hit.resetMs);
  };
}

function tooManyRequests(resetMs: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(resetMs / 1000));
  return new AppError(
    429,
    'too_many_requests',
    `Too many requests. Please try again in ${retryAfter} seconds.`,
    undefined,
    { 'retry-after': String(retryAfter) },
  );
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

  private key(request: FastifyRequest): string {
    return `${this.rule.name}:${request.ip}`;
  }

  /** throws 429 while the client is locked out; call before checking the credentials */
  async assertAllowed(request: FastifyRequest): Promise<void> {
    let current: WindowHit;
    try {
      current = await this.source.rateLimits.peek(this.key(request));
    } catch (err) {
      (this.source.log ?? request.log).error({ err, limit: this.rule.name }, 'login throttle store unavailable');
      return;
    }
    if (current.count >= this.rule.maxFailures) throw tooManyRequests(current.resetMs);
  }

  /** counts one failed attempt */
  async failed(request: FastifyRequest): Promise<void> {
    try {
      await this.source.rateLimits.hit(this.key(request), this.windowMs);
    } catch (err) {
      (this.source.log ?? request.log).error({ err, limit: this.rule.name }, 'login throttle store unavailable');
    }
  }
}
