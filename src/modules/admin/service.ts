// Use cases of the console's access control: admin users and roles, sign-in with rate limits,
// server-side sessions (revocable, idle time-out, a new id at every sign-in) and the audit log.
// Every use case that changes something takes the acting admin, checks its permission again (the
// route's preHandler is the first check) and writes the audit log.
import { createHash, randomBytes } from 'node:crypto';
import {
  type AdminActor,
  assertAllowed,
  type Grant,
  isPermission,
  type ResolvedSession,
  SUPER_ADMIN_ROLE,
} from '../../console/permissions.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { LoginThrottle, tooManyRequests } from '../../platform/rate-limit.js';
import { createApiToken, listApiTokens, revokeApiToken } from '../checkout/api-tokens.js';
import { queueOperatorNotice } from '../mail/service.js';
import { checkPasswordRules, hashPassword, verifyPassword } from './passwords.js';
import * as repo from './repository.js';
import { FORGET_FAILURES_AFTER_SECONDS, signInWaitMs } from './rules.js';

type Ctx = Pick<AppContext, 'config' | 'database' | 'clock' | 'rateLimits' | 'log'>;
/** what writing users and the audit log needs (the command line has no rate limits) */
type Store = Pick<AppContext, 'database' | 'clock'>;

export type { AdminActor, ResolvedSession } from '../../console/permissions.js';

export const LOGIN_LIMITS = {
  /** failed attempts per client IP: a flood from one address is refused */
  perIp: { name: 'admin-login-ip', maxFailures: 20, windowSeconds: 5 * 60 },
};

const TOO_MANY = (retryAfter: number) => `Too many sign-in attempts. Try again in ${retryAfter} seconds.`;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/;
const ROLE_NAME = /^[a-z][a-z0-9_]{1,49}$/;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function grantOf(roles: string[], permissions: string[]): Grant {
  return { superAdmin: roles.includes(SUPER_ADMIN_ROLE), permissions };
}

// ------------------------------------------------------------------------------------ audit

export interface AuditEntry {
  action: string;
  resourceType?: string;
  resourceId?: string | number;
  details?: Record<string, unknown>;
}

export async function audit(
  ctx: Store,
  actor: AdminActor | { email: string; userId?: number; ip?: string },
  e: AuditEntry,
) {
  await repo.insertAudit(ctx.database.db, {
    userId: actor.userId ?? null,
    actor: actor.email,
    action: e.action,
    resourceType: e.resourceType ?? null,
    resourceId: e.resourceId === undefined ? null : String(e.resourceId),
    details: e.details ?? {},
    ip: actor.ip ?? null,
    createdAt: ctx.clock.now(),
  });
}

// ------------------------------------------------------------------------------------ users

function checkUserFields(input: { email?: string; name?: string }): void {
  const errors: Record<string, string[]> = {};
  if (input.email !== undefined && !EMAIL.test(input.email.trim())) errors.email = ['a valid e-mail address'];
  if (input.name !== undefined && (input.name.trim().length < 1 || input.name.trim().length > 100)) {
    errors.name = ['1 to 100 characters'];
  }
  if (Object.keys(errors).length) throw new AppError(422, 'validation_failed', 'Check the highlighted fields.', errors);
}

async function roleIdsOf(ctx: Store, names: string[]): Promise<number[]> {
  const roles = await repo.listRoles(ctx.database.db);
  return names.map((n) => {
    const role = roles.find((r) => r.name === n);
    if (!role) throw new AppError(422, 'unknown_role', `There is no role named "${n}".`, { roles: [`unknown: ${n}`] });
    return role.id;
  });
}

/**
 * Creates an admin user. `actor` is the admin doing it (checked for manage_admin and audited);
 * without one it is the operator's command line (`npm run admin:create`) or the demo.
 */
export async function createAdminUser(
  ctx: Store,
  input: { email: string; name: string; password?: string; passwordHash?: string; roles: string[] },
  actor?: AdminActor,
) {
  if (actor) {
    assertAllowed(actor.grant, 'manage_admin');
    if (input.roles.includes(SUPER_ADMIN_ROLE) && !actor.grant.superAdmin) {
      throw new AppError(403, 'super_admin_only', 'Only a super admin can grant super_admin or change a super admin.');
    }
  }
  checkUserFields(input);
  if (!input.passwordHash) checkPasswordRules(input.password ?? '');
  const roleIds = await roleIdsOf(ctx, input.roles);
  const passwordHash = input.passwordHash ?? (await hashPassword(input.password ?? ''));
  const user = await ctx.database.db.transaction(async (tx) => {
    const created = await repo.insertUser(tx, {
      email: input.email.trim().toLowerCase(),
      name: input.name.trim(),
      passwordHash,
    });
    if (!created) return null;
    await repo.setUserRoles(tx, created.id, roleIds);
    return created;
  });
  if (!user) {
    throw new AppError(409, 'admin_exists', `An admin user with the e-mail ${input.email} exists.`, {
      email: ['already in use'],
    });
  }
  await audit(ctx, actor ?? { email: 'command line' }, {
    action: 'admin_user.create',
    resourceType: 'admin_user',
    resourceId: user.id,
    details: { email: user.email, roles: input.roles },
  });
  return user;
}

export async function listAdminUsers(ctx: Ctx, actor: AdminActor) {
  assertAllowed(actor.grant, 'manage_admin');
  const [users, roles] = await Promise.all([repo.listUsers(ctx.database.db), repo.userRoleNames(ctx.database.db)]);
  return users.map((u) => ({ ...u, roles: roles.get(u.id) ?? [] }));
}

export async function adminUser(ctx: Ctx, actor: AdminActor, id: number) {
  assertAllowed(actor.grant, 'manage_admin');
  const user = await repo.findUser(ctx.database.db, id);
  if (!user) throw new AppError(404, 'admin_not_found', 'No such admin user.');
  const { roles } = await repo.rolesOfUser(ctx.database.db, id);
  return { ...user, roles };
}

const sameRoles = (a: string[], b: string[]) => [...new Set(a)].sort().join() === [...new Set(b)].sort().join();

/**
 * Who may change what of an admin user: only a super admin grants super_admin or changes a super
 * admin (manage_admin alone is not super_admin in disguise); nobody changes their own roles or
 * disables themselves (someone else must).
 */
function assertMayChange(
  actor: AdminActor,
  target: { id: number; roles: string[] },
  change: { roles: string[]; disabled?: boolean },
): void {
  const touchesSuper = target.roles.includes(SUPER_ADMIN_ROLE) || change.roles.includes(SUPER_ADMIN_ROLE);
  if (touchesSuper && !actor.grant.superAdmin) {
    throw new AppError(403, 'super_admin_only', 'Only a super admin can grant super_admin or change a super admin.');
  }
  if (target.id !== actor.userId) return;
  if (!sameRoles(target.roles, change.roles)) {
    throw new AppError(409, 'own_roles', 'You cannot change your own roles. Ask another administrator.');
  }
  if (change.disabled) throw new AppError(409, 'own_account', 'You cannot disable your own account.');
}

/**
 * Name, e-mail, roles, a new password, disabled or not. Disabling or a new password ends the user's
 * sessions (the acting admin's own change keeps the browser they made it from). A change of one's
 * own password or e-mail needs the current password; a password set by someone else is e-mailed
 * to the user (so a takeover does not go unnoticed).
 */
export async function updateAdminUser(
  ctx: Ctx,
  actor: AdminActor,
  id: number,
  change: {
    name: string;
    email: string;
    roles: string[];
    disabled: boolean;
    password?: string;
    currentPassword?: string;
  },
) {
  assertAllowed(actor.grant, 'manage_admin');
  const before = await adminUser(ctx, actor, id);
  checkUserFields(change);
  if (change.password) checkPasswordRules(change.password);
  assertMayChange(actor, before, change);
  const email = change.email.trim().toLowerCase();
  const own = id === actor.userId;
  if (own && (change.password || email !== before.email)) {
    const ok = await verifyPassword(before.passwordHash, change.currentPassword ?? '');
    if (!ok) {
      await audit(ctx, actor, {
        action: 'admin_user.current_password_refused',
        resourceType: 'admin_user',
        resourceId: id,
      });
      throw new AppError(
        422,
        'current_password_required',
        'To change your password or e-mail, give your current password.',
        {
          current_password: ['your current password'],
        },
      );
    }
  }
  const other = await repo.findUserByEmail(ctx.database.db, email);
  if (other && other.id !== id) {
    throw new AppError(409, 'admin_exists', `An admin user with the e-mail ${email} exists.`, {
      email: ['already in use'],
    });
  }
  const roleIds = await roleIdsOf(ctx, change.roles);
  const passwordHash = change.password ? await hashPassword(change.password) : undefined;
  const now = ctx.clock.now();
  const disabledAt = change.disabled ? (before.disabledAt ?? now) : null;
  await ctx.database.db.transaction(async (tx) => {
    await repo.updateUser(tx, id, {
      name: change.name.trim(),
      email,
      disabledAt,
      ...(passwordHash ? { passwordHash } : {}),
    });
    await repo.setUserRoles(tx, id, roleIds);
    if (change.disabled || passwordHash) await repo.deleteSessionsOf(tx, id, own ? actor.sessionHash : undefined);
    if (passwordHash && !own) {
      await queueOperatorNotice(tx, {
        key: `admin-password-changed:${id}:${now.getTime()}`,
        kind: 'admin_password_changed',
        to: before.email,
        subject: 'Your itinera console password was changed',
        text: [
          `Hello ${before.name},`,
          '',
          `${actor.name} (${actor.email}) set a new password for your itinera console account on ${now.toISOString()}.`,
          'You were signed out everywhere. Ask them for the new password, or, if you did not expect this, tell your security contact at once.',
        ].join('\n'),
        at: now,
      });
    }
  });
  await audit(ctx, actor, {
    action: change.disabled && !before.disabledAt ? 'admin_user.disable' : 'admin_user.update',
    resourceType: 'admin_user',
    resourceId: id,
    details: {
      email,
      roles: change.roles,
      ...(before.roles.join() !== change.roles.join() ? { roles_before: before.roles } : {}),
      ...(passwordHash ? { password_changed: true } : {}),
      disabled: change.disabled,
    },
  });
}

// ------------------------------------------------------------------------------------ roles

export async function listAdminRoles(ctx: Ctx, actor: AdminActor) {
  assertAllowed(actor.grant, 'manage_admin');
  return repo.listRoles(ctx.database.db);
}

export async function saveRole(
  ctx: Ctx,
  actor: AdminActor,
  input: { name: string; label: string; permissions: string[] },
): Promise<void> {
  assertAllowed(actor.grant, 'manage_admin');
  if (!ROLE_NAME.test(input.name)) {
    throw new AppError(422, 'validation_failed', 'A role name is lower-case letters, digits and _.', {
      name: ['lower-case letters, digits and _'],
    });
  }
  if (input.name === SUPER_ADMIN_ROLE)
    throw new AppError(409, 'super_admin_fixed', 'super_admin holds every permission; it cannot be edited.');
  const unknown = input.permissions.filter((p) => !isPermission(p));
  if (unknown.length) throw new AppError(422, 'unknown_permission', `Unknown permission: ${unknown.join(', ')}.`);
  const label = input.label.trim().slice(0, 100) || input.name;
  const db = ctx.database.db;
  let role = await repo.findRoleByName(db, input.name);
  const created = !role;
  role ??= await repo.insertRole(db, input.name, label);
  if (!role) throw new AppError(409, 'role_exists', 'The role was created meanwhile.');
  await repo.setRolePermissions(db, role.id, [...new Set(input.permissions)]);
  await audit(ctx, actor, {
    action: created ? 'admin_role.create' : 'admin_role.update',
    resourceType: 'admin_role',
    resourceId: role.id,
    details: { name: input.name, permissions: input.permissions },
  });
}

// ------------------------------------------------------------------------------------ API tokens

export async function apiTokens(ctx: Ctx, actor: AdminActor) {
  assertAllowed(actor.grant, 'manage_admin');
  return listApiTokens(ctx.database.db);
}

const ABILITY = /^[a-z*][a-z0-9_*:-]{0,49}$/;

export async function createToken(ctx: Ctx, actor: AdminActor, name: string, abilities: string[]) {
  assertAllowed(actor.grant, 'manage_admin');
  const list = [...new Set(abilities.map((a) => a.trim()).filter(Boolean))];
  if (!name.trim() || name.length > 100)
    throw new AppError(422, 'validation_failed', 'Give the token a name.', { name: ['1 to 100 characters'] });
  if (list.length === 0 || list.some((a) => !ABILITY.test(a))) {
    throw new AppError(422, 'validation_failed', 'Give at least one ability, e.g. admin:bookings.', {
      abilities: ['e.g. admin:bookings'],
    });
  }
  const created = await createApiToken(ctx.database.db, name.trim(), list);
  await audit(ctx, actor, {
    action: 'api_token.create',
    resourceType: 'api_token',
    resourceId: created.id,
    details: { name, abilities: list },
  });
  return created;
}

export async function revokeToken(ctx: Ctx, actor: AdminActor, id: number) {
  assertAllowed(actor.grant, 'manage_admin');
  const done = await revokeApiToken(ctx.database.db, id, ctx.clock.now());
  if (!done) throw new AppError(404, 'token_not_found', 'No live token with this id.');
  await audit(ctx, actor, { action: 'api_token.revoke', resourceType: 'api_token', resourceId: id });
}

// ------------------------------------------------------------------------------------ sign-in

/**
 * Checks e-mail and password. Only failures count: per client IP (after 20 in 5 minutes every
 * attempt from it is refused until the window ends) and per account (after 5, each attempt waits a
 * growing delay after the last failure; see rules.ts). A correct password resets the account's
 * count. Every refusal says the same thing, whether the e-mail is unknown, the password wrong or
 * the account disabled. The per-IP count is in the rate-limit store and fails open when it is
 * down; the account's count is in the database.
 */
export async function authenticate(ctx: Ctx, email: string, password: string, ip: string) {
  const account = email.trim().toLowerCase().slice(0, 255);
  const perIp = new LoginThrottle(ctx, LOGIN_LIMITS.perIp);
  await perIp.assertAllowed({ ip }, TOO_MANY);
  const user = await repo.findUserByEmail(ctx.database.db, account);
  const now = ctx.clock.now();
  if (user) {
    const waitMs = signInWaitMs({ failures: user.failedSignIns, lastFailedAt: user.lastFailedSignInAt }, now);
    if (waitMs > 0) throw tooManyRequests(waitMs, TOO_MANY);
  }
  const ok = await verifyPassword(user?.passwordHash ?? null, password);
  if (!user || !ok || user.disabledAt) {
    await perIp.failed({ ip });
    if (user) {
      const forgetBefore = new Date(now.getTime() - FORGET_FAILURES_AFTER_SECONDS * 1000);
      await repo.recordFailedSignIn(ctx.database.db, user.id, now, forgetBefore);
    }
    await audit(ctx, { email: account.slice(0, 255) || '(empty)', userId: user?.id, ip }, { action: 'login.failed' });
    throw new AppError(401, 'invalid_credentials', 'The e-mail or password is not right.');
  }
  if (user.failedSignIns > 0)
    await repo.updateUser(ctx.database.db, user.id, { failedSignIns: 0, lastFailedSignInAt: null });
  return user;
}

export interface StartedSession {
  /** the cookie value: shown to the browser only */
  id: string;
  csrfToken: string;
}

/** A new session for `userId`; the previous one of this browser (if any) ends: a new id at every sign-in. */
export async function startSession(
  ctx: Ctx,
  userId: number,
  meta: { ip: string; userAgent?: string; previousId?: string },
): Promise<StartedSession> {
  const id = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const now = ctx.clock.now();
  const db = ctx.database.db;
  if (meta.previousId) await repo.deleteSession(db, sha256(meta.previousId));
  await repo.insertSession(db, {
    idHash: sha256(id),
    userId,
    csrfToken,
    ip: meta.ip.slice(0, 64),
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + ctx.config.admin.sessionMaxHours * 3600_000),
  });
  await repo.updateUser(db, userId, { lastLoginAt: now });
  return { id, csrfToken };
}

/** The live session of a cookie value, or null (unknown, idle too long, expired, user disabled). */
export async function resolveSession(ctx: Ctx, id: string, ip: string): Promise<ResolvedSession | null> {
  if (!id || id.length > 100) return null;
  const db = ctx.database.db;
  const idHash = sha256(id);
  const found = await repo.findSession(db, idHash);
  if (!found) return null;
  const { session, user } = found;
  const now = ctx.clock.now();
  const idleMs = ctx.config.admin.sessionIdleMinutes * 60_000;
  if (session.expiresAt <= now || now.getTime() - session.lastSeenAt.getTime() > idleMs) {
    await repo.deleteSession(db, idHash);
    return null;
  }
  if (user.disabledAt) return null;
  // one write a minute at most, not one per request
  if (now.getTime() - session.lastSeenAt.getTime() > 60_000) await repo.touchSession(db, idHash, now);
  const { roles, permissions } = await repo.rolesOfUser(db, user.id);
  return {
    csrfToken: session.csrfToken,
    actor: {
      userId: user.id,
      email: user.email,
      name: user.name,
      roles,
      grant: grantOf(roles, permissions),
      ip,
      sessionHash: idHash,
    },
  };
}

/** The admin's own live sessions, newest use first; `current` marks the browser asking. */
export async function ownSessions(ctx: Ctx, actor: AdminActor) {
  const now = ctx.clock.now().getTime();
  const idleMs = ctx.config.admin.sessionIdleMinutes * 60_000;
  const rows = await repo.sessionsOf(ctx.database.db, actor.userId);
  return rows
    .filter((s) => s.expiresAt.getTime() > now && now - s.lastSeenAt.getTime() <= idleMs)
    .map((s) => ({
      idHash: s.idHash,
      ip: s.ip,
      userAgent: s.userAgent,
      createdAt: s.createdAt,
      lastSeenAt: s.lastSeenAt,
      current: s.idHash === actor.sessionHash,
    }));
}

/** Ends one of the admin's own other sessions, or all of them ('others'); the number ended. */
export async function endOwnSessions(ctx: Ctx, actor: AdminActor, which: string | 'others'): Promise<number> {
  const db = ctx.database.db;
  let ended: number;
  if (which === 'others') ended = await repo.deleteSessionsOf(db, actor.userId, actor.sessionHash);
  else {
    if (which === actor.sessionHash) {
      throw new AppError(409, 'current_session', 'This is the session you are using: sign out instead.');
    }
    ended = (await repo.deleteSessionOf(db, actor.userId, which)) ? 1 : 0;
    if (!ended) throw new AppError(404, 'session_not_found', 'No such session of yours.');
  }
  await audit(ctx, actor, {
    action: 'admin_session.end',
    resourceType: 'admin_user',
    resourceId: actor.userId,
    details: { ended },
  });
  return ended;
}

export async function endSession(ctx: Ctx, id: string): Promise<void> {
  await repo.deleteSession(ctx.database.db, sha256(id));
}

export async function pruneSessions(ctx: Ctx): Promise<number> {
  const now = ctx.clock.now();
  return repo.pruneSessions(
    ctx.database.db,
    now,
    new Date(now.getTime() - ctx.config.admin.sessionIdleMinutes * 60_000),
  );
}

// ------------------------------------------------------------------------------------ audit log

export async function auditLog(
  ctx: Ctx,
  actor: AdminActor,
  page: number,
  filter: { resourceType?: string; resourceId?: string } = {},
) {
  assertAllowed(actor.grant, 'view_audit_log');
  const limit = 50;
  const { rows, total } = await repo.auditPage(ctx.database.db, { limit, offset: (page - 1) * limit, ...filter });
  return { rows, total, page, pages: Math.max(1, Math.ceil(total / limit)) };
}
