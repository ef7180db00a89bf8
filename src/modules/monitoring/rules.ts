// Pure functions of the monitoring pages: duration buckets and percentiles, what of a request may
// be stored, HTML escaping, badge colours and the Basic credential check.
import { createHash, timingSafeEqual } from 'node:crypto';

/** upper bounds (ms) of the duration buckets; one more open-ended bucket follows the last */
export const DURATION_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000] as const;

/** a request at or above this duration is listed as slow on /pulse */
export const SLOW_REQUEST_MS = 1000;

/** index of the bucket a duration falls in (the last index is the open-ended one) */
export function bucketIndex(durationMs: number): number {
  for (let i = 0; i < DURATION_BUCKETS_MS.length; i++) if (durationMs <= DURATION_BUCKETS_MS[i]!) return i;
  return DURATION_BUCKETS_MS.length;
}

export function emptyBuckets(): number[] {
  return new Array(DURATION_BUCKETS_MS.length + 1).fill(0);
}

/**
 * The p-th percentile (0 < p <= 100) estimated from bucket counts: linear inside the bucket that
 * holds it; the open-ended bucket is bounded by the largest duration seen. null without requests.
 */
export function percentile(buckets: number[], p: number, maxMs: number): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = (p / 100) * total;
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    const n = buckets[i]!;
    if (n === 0) continue;
    if (seen + n >= rank) {
      const lower = i === 0 ? 0 : DURATION_BUCKETS_MS[i - 1]!;
      const upper = Math.min(i < DURATION_BUCKETS_MS.length ? DURATION_BUCKETS_MS[i]! : maxMs, maxMs);
      const value = lower + ((rank - seen) / n) * (Math.max(upper, lower) - lower);
      return Math.round(Math.min(value, maxMs) * 10) / 10;
    }
    seen += n;
  }
  return maxMs;
}

/** start of the UTC minute holding `at` */
export function minuteOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 60_000) * 60_000);
}

// Request headers never stored: credentials, cookies and anything named like a secret.
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|token|secret|password|api-?key|signature|auth/i;

/** the request headers that may be stored: credentials and cookies removed, long values cut */
export function storableHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || SECRET_HEADER.test(name)) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    out[name] = text.length > 500 ? `${text.slice(0, 500)}…` : text;
  }
  return out;
}

/** the path of a URL without its query string (signed URLs and tokens travel there), at most 500 chars */
export function storablePath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.length > 500 ? path.slice(0, 500) : path;
}

/**
 * An error message fit to store: credentials inside URLs (scheme://user:pass@host) and bearer or
 * key=value secrets masked, cut to 1000 characters. Stacks are never stored.
 */
export function storableErrorMessage(message: string): string {
  const masked = message
    .replaceAll('\u0000', '') // PostgreSQL text holds no NUL
    .replace(/(\w+:\/\/)[^/\s:@]*:[^@\s]*@/g, '$1***@')
    .replace(/(bearer\s+)[^\s;,]+/gi, '$1***')
    .replace(/((?:token|secret|password|api[_-]?key|key)\s*[=:]\s*)[^\s&,;]+/gi, '$1***');
  return masked.length > 1000 ? `${masked.slice(0, 1000)}…` : masked;
}

export { escapeHtml } from '../../platform/html.js';

/** the deployments card's badge colour: production green, staging yellow, others blue */
export function environmentBadge(environment: string): 'green' | 'yellow' | 'blue' {
  const env = environment.trim().toLowerCase();
  if (env === 'production') return 'green';
  if (env === 'staging') return 'yellow';
  return 'blue';
}

/** user and password of an `Authorization: Basic ...` header, or null */
export function basicCredentials(authorization: string | undefined): { user: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** both compared in constant time, always both (no early exit on a wrong user name) */
export function credentialsMatch(
  given: { user: string; password: string } | null,
  expected: { user: string; password: string },
): boolean {
  if (!given || !expected.user || !expected.password) return false;
  const userOk = sameSecret(given.user, expected.user);
  const passwordOk = sameSecret(given.password, expected.password);
  return userOk && passwordOk;
}
