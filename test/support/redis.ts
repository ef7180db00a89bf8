// The machine's Redis for tests of Redis-backed features; tests skip (with a printed reason) only
// when no Redis answers. REDIS_URL is only the switch of the suite's Redis pass (test apps then
// keep sessions and limits in Redis); the Redis the tests touch is TEST_REDIS_URL, by default
// database 15 of REDIS_URL's server (or of 127.0.0.1:6379), and every key they write is under an
// itinera-test: prefix, so an application's own data on database 0 is never read or written.
import { Redis } from 'ioredis';

function onDatabase(url: string, database: number): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export const TEST_REDIS_URL =
  process.env.TEST_REDIS_URL || onDatabase(process.env.REDIS_URL || 'redis://127.0.0.1:6379', 15);

/** null when Redis answers PING, else the reason it did not */
export async function redisUnavailable(url = TEST_REDIS_URL): Promise<string | null> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (err) {
    return `no Redis at ${url}: ${(err as Error).message}`;
  } finally {
    redis.disconnect();
  }
}

/** a random client IPv4 address, so test runs sharing one Redis never share a counter */
export function randomClientIp(): string {
  const b = () => Math.floor(Math.random() * 254) + 1;
  return `198.51.${b()}.${b()}`;
}
