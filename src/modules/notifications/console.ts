// Console pages of the notifications module: the bell's unread count, the list (latest 100) and
// marking one or all read. Read state is per admin user; marking writes the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { guard, pageOf, sendPage } from '../../console/http.js';
import { assertAllowed, type Permission } from '../../console/permissions.js';
import { bell } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { type AdminActor, audit } from '../admin/service.js';
import * as repo from './repository.js';
import { notificationsPage } from './views.js';

type Ctx = Pick<AppContext, 'database' | 'clock'>;

/** Notifications concern bookings: whoever may view bookings sees them. */
const NOTIFICATIONS: Permission = 'view_booking';

export async function unreadNotifications(ctx: Ctx, actor: AdminActor): Promise<number> {
  assertAllowed(actor.grant, NOTIFICATIONS);
  return repo.unreadCount(ctx.database.db, actor.userId);
}

export async function notifications(ctx: Ctx, actor: AdminActor, limit = 100) {
  assertAllowed(actor.grant, NOTIFICATIONS);
  return repo.notificationsFor(ctx.database.db, actor.userId, limit);
}

export async function markNotificationsRead(ctx: Ctx, actor: AdminActor, ids: number[] | 'all'): Promise<number> {
  assertAllowed(actor.grant, NOTIFICATIONS);
  const n = await repo.markRead(ctx.database.db, actor.userId, ids, ctx.clock.now());
  await audit(ctx, actor, {
    action: ids === 'all' ? 'notification.read_all' : 'notification.read',
    resourceType: 'notification',
    resourceId: ids === 'all' ? undefined : ids.join(',').slice(0, 60),
    details: { marked: n },
  });
  return n;
}

/** console pages are not API: out of OpenAPI */
const opts = (ctx: AppContext) => ({ schema: { hide: true }, preHandler: guard(ctx, NOTIFICATIONS) });

function idParam(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  if (!/^\d{1,9}$/.test(raw)) throw new AppError(404, 'not_found', 'No such record.');
  return Number(raw);
}

export async function notificationConsoleRoutes(scope: FastifyInstance, ctx: AppContext): Promise<void> {
  scope.get('/admin/notifications/bell', opts(ctx), async (request, reply) => {
    const count = await unreadNotifications(ctx, pageOf(request).actor);
    return sendPage(reply, bell(count).text);
  });

  scope.get('/admin/notifications', opts(ctx), async (request, reply) => {
    const p = pageOf(request);
    const list = await notifications(ctx, p.actor);
    const done = (request.query as { done?: string }).done === 'read' ? 'Marked read.' : undefined;
    return sendPage(reply, notificationsPage(p, list, done));
  });

  scope.post('/admin/notifications/:id/read', opts(ctx), async (request, reply) => {
    await markNotificationsRead(ctx, pageOf(request).actor, [idParam(request)]);
    return reply.redirect('/admin/notifications?done=read', 303);
  });

  scope.post('/admin/notifications/read-all', opts(ctx), async (request, reply) => {
    await markNotificationsRead(ctx, pageOf(request).actor, 'all');
    return reply.redirect('/admin/notifications?done=read', 303);
  });
}
