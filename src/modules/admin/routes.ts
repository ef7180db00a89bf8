// HTTP of the console's own pages: sign-in and sign-out, home, admin users, roles, API tokens and
// the audit log (the notifications pages are the notifications module's). Every route goes through
// `guard` with its permission; the services check it again and write the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  csrfToken,
  csrfValid,
  field,
  fields,
  guard,
  loginCookieName,
  pageOf,
  readCookie,
  sendPage,
  sessionCookieName,
  sessionOf,
  setCookie,
} from '../../console/http.js';
import { confirmPage, loginPage } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { auditPage, rolesPage, sessionsPage, tokensPage, userForm, usersPage } from './pages.js';
import * as admin from './service.js';

const hidden = { hide: true };
/** console pages are not API: out of OpenAPI; the monitoring recorder still sees them */
const opts = (ctx: AppContext, permission?: Parameters<typeof guard>[1]) => ({
  schema: hidden,
  preHandler: guard(ctx, permission),
});

/** A path to return to after sign-in: our own console or dashboard pages only. */
export function safeNext(next: string | undefined): string {
  if (!next || !/^\/(admin|health-dashboard|pulse|telescope|docs)(?=[/?]|$)/.test(next) || next.includes('//')) {
    return '/admin';
  }
  return next;
}

const DONE: Record<string, string> = {
  created: 'Saved: created.',
  saved: 'Saved.',
  revoked: 'Token revoked.',
  ended: 'Signed out there.',
};
const doneOf = (request: FastifyRequest) => DONE[(request.query as { done?: string }).done ?? ''];

function idParam(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  if (!/^\d{1,9}$/.test(raw)) throw new AppError(404, 'not_found', 'No such record.');
  return Number(raw);
}

/** The admin module's console pages, registered in the console's scope like every module's. */
export async function adminConsoleRoutes(scope: FastifyInstance, ctx: AppContext): Promise<void> {
  // --------------------------------------------------------------------------- sign-in
  const loginForm = (
    reply: import('fastify').FastifyReply,
    view: { email?: string; error?: string; next?: string },
    status = 200,
  ) => {
    // the form's token is made from a secret in a cookie only our pages can set (SameSite=Strict)
    const { token, secret } = csrfToken(reply.request, reply);
    setCookie(ctx, reply, loginCookieName(ctx), secret, { sameSite: 'Strict', maxAgeSeconds: 3600 });
    return sendPage(reply, loginPage({ ...view, token }), status);
  };

  scope.get('/admin/login', { schema: hidden }, async (request, reply) => {
    const next = (request.query as { next?: string }).next;
    if (await sessionOf(ctx, request)) return reply.redirect(safeNext(next), 303);
    return loginForm(reply, { next: next ? safeNext(next) : undefined });
  });

  scope.post('/admin/login', { schema: hidden }, async (request, reply) => {
    const body = request.body;
    const email = field(body, 'email').slice(0, 255);
    const next = safeNext(field(body, 'next') || undefined);
    if (!(await csrfValid(request, readCookie(request, loginCookieName(ctx))))) {
      return loginForm(reply, { email, next, error: 'The sign-in form expired. Please try again.' }, 403);
    }
    try {
      const user = await admin.authenticate(ctx, email, field(body, 'password'), request.ip);
      const started = await admin.startSession(ctx, user.id, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        previousId: readCookie(request, sessionCookieName(ctx)),
      });
      await admin.audit(ctx, { email: user.email, userId: user.id, ip: request.ip }, { action: 'login' });
      setCookie(ctx, reply, sessionCookieName(ctx), started.id, {
        maxAgeSeconds: ctx.config.admin.sessionMaxHours * 3600,
      });
      setCookie(ctx, reply, loginCookieName(ctx), '', { maxAgeSeconds: 0, sameSite: 'Strict' });
      return reply.redirect(next, 303);
    } catch (err) {
      if (!(err instanceof AppError) || (err.status !== 401 && err.status !== 429)) throw err;
      if (err.headers) reply.headers(err.headers);
      return loginForm(reply, { email, next, error: err.message }, err.status);
    }
  });

  scope.post('/admin/logout', opts(ctx), async (request, reply) => {
    const { actor } = pageOf(request);
    const id = readCookie(request, sessionCookieName(ctx));
    if (id) await admin.endSession(ctx, id);
    await admin.audit(ctx, actor, { action: 'logout' });
    setCookie(ctx, reply, sessionCookieName(ctx), '', { maxAgeSeconds: 0 });
    return reply.redirect('/admin/login', 303);
  });

  // --------------------------------------------------------------------------- admin users
  scope.get('/admin/users', opts(ctx, 'manage_admin'), async (request, reply) => {
    const p = pageOf(request);
    return sendPage(reply, usersPage(p, await admin.listAdminUsers(ctx, p.actor), doneOf(request)));
  });

  scope.get('/admin/users/new', opts(ctx, 'manage_admin'), async (request, reply) => {
    const p = pageOf(request);
    return sendPage(reply, userForm(p, { roles: await admin.listAdminRoles(ctx, p.actor) }));
  });

  const userValues = (body: unknown) => ({
    email: field(body, 'email'),
    name: field(body, 'name'),
    roles: fields(body, 'roles'),
    disabled: field(body, 'disabled') === '1',
  });

  scope.post('/admin/users', opts(ctx, 'manage_admin'), async (request, reply) => {
    const p = pageOf(request);
    const values = userValues(request.body);
    try {
      await admin.createAdminUser(ctx, { ...values, password: field(request.body, 'password') }, p.actor);
      return reply.redirect('/admin/users?done=created', 303);
    } catch (err) {
      if (!(err instanceof AppError) || err.status === 403) throw err;
      const roles = await admin.listAdminRoles(ctx, p.actor);
      return sendPage(reply, userForm(p, { roles, values, error: err.message }), err.status);
    }
  });

  scope.get('/admin/users/:id', opts(ctx, 'manage_admin'), async (request, reply) => {
    const p = pageOf(request);
    const user = await admin.adminUser(ctx, p.actor, idParam(request));
    return sendPage(reply, userForm(p, { user, roles: await admin.listAdminRoles(ctx, p.actor) }));
  });

  scope.post('/admin/users/:id', opts(ctx, 'manage_admin'), async (request, reply) => {
    const p = pageOf(request);
    const id = idParam(request);
    const values = userValues(request.body);
    try {
      await admin.updateAdminUser(ctx, p.actor, id, {
        ...values,
        password: field(request.body, 'password') || undefined,
        currentPassword: field(request.body, 'current_password') || undefined,
      });
      return reply.redirect('/admin/users?done=saved', 303);
    } catch (err) {
      if (!(err instanceof AppError) || err.status === 403 || err.status === 404) throw err;
      const [user, roles] = await Promise.all([admin.adminUser(ctx, p.actor, id), admin.listAdminRoles(ctx, p.actor)]);
      return sendPage(reply, userForm(p, { user, roles, values, error: err.message }), err.status);
    }
  });

  // --------------------------------------------------------------------------- own sessions
  scope.get('/admin/sessions', opts(ctx), async (request, reply) => {
    const p = pageOf(request);
    return sendPage(reply, sessionsPage(p, await admin.ownSessions(ctx, p.actor), doneOf(request)));
  });

  scope.post('/admin/sessions/end', opts(ctx), async (request, reply) => {
    const session = field(request.body, 'session');
    await admin.endOwnSessions(ctx, pageOf(request).actor, session || 'others');
    return reply.redirect('/admin/sessions?done=ended', 303);
  });

  // --------------------------------------------------------------------------- roles
  scope.get('/admin/roles', opts(ctx, 'manage_admin'), async (request, reply) => {
    const p = pageOf(request);
    return sendPage(reply, rolesPage(p, await admin.listAdminRoles(ctx, p.actor), doneOf(request)));
  });

  scope.post('/admin/roles', opts(ctx, 'manage_admin'), async (request, reply) => {
    await admin.saveRole(ctx, pageOf(request).actor, {
      name: field(request.body, 'name'),
      label: field(request.body, 'label'),
      permissions: fields(request.body, 'permissions'),
    });
    return reply.redirect('/admin/roles?done=saved', 303);
  });

  // --------------------------------------------------------------------------- API tokens
  scope.get('/admin/api-tokens', opts(ctx, 'manage_admin'), async (request, reply) => {
    const p = pageOf(request);
    return sendPage(reply, tokensPage(p, await admin.apiTokens(ctx, p.actor), undefined, doneOf(request)));
  });

  scope.post('/admin/api-tokens', opts(ctx, 'manage_admin'), async (request, reply) => {
    const p = pageOf(request);
    const name = field(request.body, 'name');
    const created = await admin.createToken(ctx, p.actor, name, field(request.body, 'abilities').split(','));
    // shown once, in this response only (never in a URL or a redirect)
    return sendPage(reply, tokensPage(p, await admin.apiTokens(ctx, p.actor), { token: created.token, name }), 201);
  });

  scope.get('/admin/api-tokens/:id/revoke', opts(ctx, 'manage_admin'), async (request, reply) => {
    const id = idParam(request);
    return sendPage(
      reply,
      confirmPage(pageOf(request), {
        title: 'Revoke API token',
        message: `Token ${id} stops working at once. This cannot be undone.`,
        action: `/admin/api-tokens/${id}/revoke`,
        button: 'Revoke token',
        back: '/admin/api-tokens',
      }),
    );
  });

  scope.post('/admin/api-tokens/:id/revoke', opts(ctx, 'manage_admin'), async (request, reply) => {
    await admin.revokeToken(ctx, pageOf(request).actor, idParam(request));
    return reply.redirect('/admin/api-tokens?done=revoked', 303);
  });

  // --------------------------------------------------------------------------- audit log
  scope.get('/admin/audit-log', opts(ctx, 'view_audit_log'), async (request, reply) => {
    const p = pageOf(request);
    const q = request.query as { page?: string };
    const page = Math.max(1, Math.min(10_000, Number.parseInt(q.page ?? '1', 10) || 1));
    const data = await admin.auditLog(ctx, p.actor, page);
    return sendPage(
      reply,
      auditPage(p, data, (n) => `/admin/audit-log?page=${n}`),
    );
  });
}
