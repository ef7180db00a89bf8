// The console shell's web plumbing, used by every module's pages: the session cookie, one guard
// (signed in, holding a permission, CSRF token on every non-GET), HTML replies with a strict CSP,
// form bodies, and the assets (htmx from node_modules, our stylesheet), all served from our own
// origin.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { projectPath } from '../platform/paths.js';
import { allows, type Permission, type ResolvedSession } from './permissions.js';
import { errorPage, type PageContext } from './views.js';

export const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

const secureCookies = (ctx: Pick<AppContext, 'config'>) =>
  ctx.config.appEnv === 'production' || ctx.config.appEnv === 'staging';

/** __Host- (Secure, path /, no domain) where cookies are Secure, a plain name in development. */
export function sessionCookieName(ctx: Pick<AppContext, 'config'>): string {
  return secureCookies(ctx) ? '__Host-itinera_admin' : 'itinera_admin';
}
export function loginCookieName(ctx: Pick<AppContext, 'config'>): string {
  return secureCookies(ctx) ? '__Host-itinera_login' : 'itinera_login';
}

/** a console cookie, as @fastify/cookie (registered once for the app) parsed it */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  return request.cookies[name] || undefined;
}

/** a console cookie: HttpOnly, path /, Lax unless said, Secure where cookies are (through @fastify/cookie) */
export function setCookie(
  ctx: Pick<AppContext, 'config'>,
  reply: FastifyReply,
  name: string,
  value: string,
  opts: { maxAgeSeconds?: number; sameSite?: 'Lax' | 'Strict' } = {},
): void {
  reply.setCookie(name, value, {
    path: '/',
    httpOnly: true,
    sameSite: opts.sameSite === 'Strict' ? 'strict' : 'lax',
    secure: secureCookies(ctx),
    ...(opts.maxAgeSeconds === undefined ? {} : { maxAge: opts.maxAgeSeconds }),
  });
}

export function sendPage(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', CSP)
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin')
    .send(body);
}

/** The live session of a session cookie's value, or null: the admin module's sessions. */
export type SessionLookup = (ctx: AppContext, id: string, ip: string) => Promise<ResolvedSession | null>;

// given by app.ts (consoleSessions): the shell sits below the modules, so it does not import the
// admin module that owns the sessions
const lookups = new WeakMap<AppContext, SessionLookup>();

/** Where the console's guard finds sessions, once per app. */
export function consoleSessions(ctx: AppContext, lookup: SessionLookup): void {
  lookups.set(ctx, lookup);
}

const sessions = new WeakMap<FastifyRequest, ResolvedSession | null>();
const pageTokens = new WeakMap<FastifyRequest, string>();

// CSRF tokens are @fastify/csrf-protection's (registered in app.ts in its @fastify/session mode):
// it reads the secret from request.session._csrf, and ours is the console session's own secret
// (admin_sessions.csrf_token: rotated at every sign-in, gone with the session), or, on the sign-in
// form that has no session yet, the value of the SameSite=Strict login cookie. Pages carry salted
// tokens made from the secret, never the secret itself.
function useSecret(request: FastifyRequest, secret: string | undefined): void {
  (request as unknown as { session: { _csrf?: string } }).session = secret ? { _csrf: secret } : {};
}

/** A fresh token for `secret`; without one, a new secret is drawn (returned with the token). */
export function csrfToken(
  request: FastifyRequest,
  reply: FastifyReply,
  secret?: string,
): { token: string; secret: string } {
  useSecret(request, secret);
  const token = reply.generateCsrf();
  return { token, secret: (request as unknown as { session: { _csrf: string } }).session._csrf };
}

/** Whether the request's `_csrf` field or `x-csrf-token` header is a token of `secret` (the plugin's check). */
export function csrfValid(request: FastifyRequest, secret: string | undefined): Promise<boolean> {
  if (!secret) return Promise.resolve(false);
  useSecret(request, secret);
  return new Promise((resolve) => {
    // the plugin answers a refusal through reply.send; ours is the console's own 403 page
    const refusal = { send: () => resolve(false) } as unknown as FastifyReply;
    request.server.csrfProtection(request, refusal, () => resolve(true));
  });
}

/** The request's signed-in admin (resolved once per request), or null. */
export async function sessionOf(ctx: AppContext, request: FastifyRequest): Promise<ResolvedSession | null> {
  if (sessions.has(request)) return sessions.get(request)!;
  const lookup = lookups.get(ctx);
  if (!lookup) throw new Error('the console has no session lookup: app.ts calls consoleSessions(ctx, ...)');
  const id = readCookie(request, sessionCookieName(ctx));
  const resolved = id ? await lookup(ctx, id, request.ip) : null;
  sessions.set(request, resolved);
  return resolved;
}

/** The page context of a guarded request (the guard ran, so there is a session). */
export function pageOf(request: FastifyRequest): PageContext {
  const s = sessions.get(request);
  if (!s) throw new AppError(401, 'unauthenticated', 'Sign in to use the console.');
  return { actor: s.actor, csrfToken: pageTokens.get(request) ?? '', path: request.url.split('?')[0]! };
}

const SAFE = new Set(['GET', 'HEAD']);
const wantsJson = (request: FastifyRequest) =>
  request.url.split('?')[0]!.endsWith('.json') || !String(request.headers.accept ?? 'text/html').includes('html');

/**
 * The console's one guard, a preHandler (form bodies are parsed by then): a signed-in admin, the
 * route's permission, and on every non-GET the session's CSRF token (form field `_csrf` or header
 * `x-csrf-token`, the one htmx sends) from a same-origin page.
 */
export function guard(ctx: AppContext, permission?: Permission | readonly Permission[]) {
  // a list: any one of them will do (the Media page: view_catalog or view_content)
  const wanted = permission === undefined ? [] : typeof permission === 'string' ? [permission] : permission;
  const named = wanted.join(' or ');
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await sessionOf(ctx, request);
    if (!session) {
      if (request.headers['hx-request']) return reply.status(401).header('hx-redirect', '/admin/login').send();
      if (SAFE.has(request.method) && !wantsJson(request)) {
        return reply.redirect(`/admin/login?next=${encodeURIComponent(request.url)}`, 303);
      }
      throw new AppError(401, 'unauthenticated', 'Sign in to use the console.');
    }
    if (!SAFE.has(request.method)) {
      const site = request.headers['sec-fetch-site'];
      if (site === 'cross-site' || !(await csrfValid(request, session.csrfToken))) {
        const page = {
          actor: session.actor,
          csrfToken: csrfToken(request, reply, session.csrfToken).token,
          path: request.url.split('?')[0]!,
        };
        request.log.warn({ admin: session.actor.email }, 'console request refused: missing or wrong CSRF token');
        return sendPage(
          reply,
          errorPage(
            page,
            403,
            'Request refused',
            'The form was stale or did not come from this console. Reload the page and try again.',
          ),
          403,
        );
      }
    }
    pageTokens.set(request, csrfToken(request, reply, session.csrfToken).token);
    const page = pageOf(request);
    if (wanted.length > 0 && !wanted.some((p) => allows(session.actor.grant, p))) {
      if (wantsJson(request)) throw new AppError(403, 'forbidden', `This needs the ${named} permission.`);
      return sendPage(
        reply,
        errorPage(page, 403, 'Not allowed', `Your roles do not include the ${named} permission. Ask an administrator.`),
        403,
      );
    }
  };
}

/** Parses application/x-www-form-urlencoded bodies in the console's scope: repeated names become arrays. */
export function formBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => {
      const out: Record<string, string | string[]> = {};
      for (const [k, v] of new URLSearchParams(body as string)) {
        const prev = out[k];
        out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
      }
      done(null, out);
    },
  );
}

/** A form field as one string (the first when repeated), '' when absent. */
export function field(body: unknown, name: string): string {
  const v = (body as Record<string, string | string[]> | undefined)?.[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/** A form field as a list (checkboxes). */
export function fields(body: unknown, name: string): string[] {
  const v = (body as Record<string, string | string[]> | undefined)?.[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** Renders AppErrors and other failures of console routes as HTML pages. */
export function htmlErrors(ctx: AppContext, scope: FastifyInstance): void {
  scope.setErrorHandler(async (err: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
    const s = await sessionOf(ctx, request).catch(() => null);
    const token = s ? (pageTokens.get(request) ?? csrfToken(request, reply, s.csrfToken).token) : '';
    const page = s ? { actor: s.actor, csrfToken: token, path: request.url.split('?')[0]! } : null;
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      if (wantsJson(request))
        return reply.status(err.status).send({ success: false, error: err.code, message: err.message });
      const title = err.status === 403 ? 'Not allowed' : err.status === 404 ? 'Not found' : 'Could not do that';
      return sendPage(reply, errorPage(page, err.status, title, err.message), err.status);
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
    if (status >= 500) request.log.error({ err }, 'console error');
    const message =
      status >= 500 ? 'Something went wrong on our side. It is logged.' : 'The request was not understood.';
    return sendPage(reply, errorPage(page, status, status >= 500 ? 'Server error' : 'Bad request', message), status);
  });
}

const require = createRequire(import.meta.url);

/** htmx and our stylesheet, read once at start-up. */
export function assetRoutes(scope: FastifyInstance): void {
  const htmx = readFileSync(require.resolve('htmx.org/dist/htmx.min.js'));
  const css = readFileSync(projectPath('src', 'console', 'console.css'));
  const cache = 'public, max-age=86400';
  scope.get('/admin/assets/htmx.min.js', { schema: { hide: true }, config: { unrecorded: true } }, (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', cache).send(htmx),
  );
  scope.get('/admin/assets/console.css', { schema: { hide: true }, config: { unrecorded: true } }, (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', cache).send(css),
  );
}

/**
 * An onRequest hook for pages outside the console that need a console session with `permission`
 * (the API reference with API_DOCS=login): a browser is sent to the sign-in form, anything else
 * gets 401 or 403 in the error envelope.
 */
export function consoleSignIn(ctx: AppContext, permission: Permission) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await sessionOf(ctx, request);
    if (!session) {
      if (SAFE.has(request.method) && !wantsJson(request)) {
        return reply.redirect(`/admin/login?next=${encodeURIComponent(request.url)}`, 303);
      }
      throw new AppError(401, 'unauthenticated', 'Sign in to the console to read the API reference.');
    }
    if (!allows(session.actor.grant, permission)) {
      throw new AppError(403, 'forbidden', `This needs the ${permission} permission.`);
    }
  };
}
