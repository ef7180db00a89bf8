// A dependency that is down or too slow (PostgreSQL, Redis) is not a bug of ours: the request
// answers 503 service_unavailable with Retry-After at once, instead of a 500 (or a hang).
import { AppError } from './errors.js';

/** seconds a client is told to wait before trying again */
export const RETRY_AFTER_SECONDS = 5;

// network failures, and PostgreSQL refusing work for now: shutting down, starting, out of slots,
// or a statement cancelled by statement_timeout
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);

// what pg and ioredis say when a deadline passes or the connection went away
const MESSAGES = [
  /^timeout exceeded when trying to connect$/,
  /^Connection terminated (unexpectedly|due to connection timeout)$/,
  /^Query read timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
  // a connection closed after its read deadline (database.ts), asked for the ROLLBACK
  /^Client was closed and is not queryable$/,
  /^Connection terminated$/,
  /^Command timed out$/,
  /^Connection is closed\.$/,
  /^Stream isn't writeable/,
  /^Reached the max retries per request limit/,
  /^Redis is not connected/,
];

function isUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && CODES.has(e.code)) return true;
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  return isUnavailable(e.cause, depth + 1); // Drizzle wraps the driver's error
}

/** The 503 to answer for `err`, or null when it is not a dependency being unavailable. */
export function dependencyUnavailable(err: unknown): AppError | null {
  if (!isUnavailable(err)) return null;
  return new AppError(
    503,
    'service_unavailable',
    'A service this request needs is unavailable right now. Please try again shortly.',
    undefined,
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );
}
