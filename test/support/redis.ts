// The machine's Redis for tests of Redis-backed features; tests skip (with a printed reason) only
// when no Redis answers.
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

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
