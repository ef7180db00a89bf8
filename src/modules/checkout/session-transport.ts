// How a checkout session travels between a storefront and the API: the signed HttpOnly cookie
// (same-site storefronts, nothing to do) or the X-Checkout-Session header carrying the
// session_token of the start response (storefronts on another site, whose browsers may block
// third-party cookies, and server-side callers without a cookie jar). Every checkout, flights and
// payment route reads the session through sessionTokenOf.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { crossSiteOrigins } from '../../platform/http-security.js';

export const SESSION_COOKIE = 'itinera_checkout';
export const VISITOR_COOKIE = 'itinera_visitor';
/** request header with the start response's session_token, instead of the cookie */
export const SESSION_HEADER = 'x-checkout-session';

/** a token as start() makes them: 32 random bytes, base64url */
const TOKEN = /^[\w-]{43}$/;

// Verified values by raw signed cookie: the HMAC check was a measurable part of a session read's
// CPU, and its answer for one string never changes (one secret), so recent answers are kept, per
// app (keyed by its cookie plugin's unsign function, which holds that app's secret).
const verifiedByApp = new WeakMap<object, Map<string, string | undefined>>();

/** the value of a signed cookie (the app's @fastify/cookie secret), or undefined when absent or forged */
export function signedCookie(request: FastifyRequest, name: string): string | undefined {
  const raw = request.cookies[name];
  if (!raw) return undefined;
  let verified = verifiedByApp.get(request.unsignCookie);
  if (!verified) {
    verified = new Map();
    verifiedByApp.set(request.unsignCookie, verified);
  }
  const key = `${name}\n${raw}`;
  if (verified.has(key)) return verified.get(key);
  const r = request.unsignCookie(raw);
  const value = r.valid && r.value ? r.value : undefined;
  if (verified.size >= 10_000) verified.clear();
  verified.set(key, value);
  return value;
}

/**
 * The session token: the X-Checkout-Session header when sent (it wins, so a storefront that
 * switched to the header is never read through a stale cookie), else the signed cookie.
 */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers[SESSION_HEADER];
  if (header !== undefined) {
    const value = Array.isArray(header) ? header[0] : header;
    return TOKEN.test(value) ? value : undefined;
  }
  return signedCookie(request, SESSION_COOKIE);
}

export interface SessionCookieOptions {
  signed: true;
  httpOnly: true;
  path: '/';
  maxAge: number;
  secure: boolean;
  sameSite: 'lax' | 'none';
  partitioned?: true;
}

/**
 * Lax where every storefront is same-site with the API; when CORS_ORIGINS lists another site the
 * browser only sends the cookie on its fetches as SameSite=None, which requires Secure, and
 * Partitioned keeps it to that storefront (CHIPS) where third-party cookies are blocked.
 */
export function sessionCookieOptions(config: Config): SessionCookieOptions {
  const maxAge = config.checkout.sessionTtlMinutes * 60;
  const common = { signed: true, httpOnly: true, path: '/', maxAge } as const;
  if (crossSiteOrigins(config.appUrl, config.corsOrigins).length > 0) {
    return { ...common, secure: true, sameSite: 'none', partitioned: true };
  }
  return { ...common, secure: config.appEnv === 'production' || config.appEnv === 'staging', sameSite: 'lax' };
}

/** the start's cookies (session and visitor) and its token in the X-Checkout-Session response header */
export function sendSessionCookies(
  reply: FastifyReply,
  config: Config,
  started: { token: string; visitorId: string },
): void {
  const options = sessionCookieOptions(config);
  reply.setCookie(SESSION_COOKIE, started.token, options);
  reply.setCookie(VISITOR_COOKIE, started.visitorId, options);
  reply.header(SESSION_HEADER, started.token);
}
