// SQL of the admin module: users, roles and their permissions, sessions and the audit log.
import { and, asc, count, desc, eq, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import {
  adminAuditLog,
  adminRolePermissions,
  adminRoles,
  adminSessions,
  adminUserRoles,
  adminUsers,
} from '../../db/schema/index.js';

export type AdminUserRow = typeof adminUsers.$inferSelect;
export type SessionRow = typeof adminSessions.$inferSelect;

export async function findUserByEmail(db: DbOrTx, email: string): Promise<AdminUserRow | null> {
  const [row] = await db
    .select()
    .from(adminUsers)
    .where(sql`lower(${adminUsers.email}) = ${email.trim().toLowerCase()}`);
  return row ?? null;
}

export async function findUser(db: DbOrTx, id: number): Promise<AdminUserRow | null> {
  const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, id));
  return row ?? null;
}

export async function listUsers(db: DbOrTx): Promise<AdminUserRow[]> {
  return db.select().from(adminUsers).orderBy(asc(adminUsers.email));
}

export async function insertUser(
  db: DbOrTx,
  row: { email: string; name: string; passwordHash: string },
): Promise<AdminUserRow | null> {
  const [created] = await db.insert(adminUsers).values(row).onConflictDoNothing().returning();
  return created ?? null;
}

export async function updateUser(
  db: DbOrTx,
  id: number,
  change: Partial<
    Pick<
      AdminUserRow,
      'name' | 'email' | 'passwordHash' | 'disabledAt' | 'lastLoginAt' | 'failedSignIns' | 'lastFailedSignInAt'
    >
  >,
): Promise<void> {
  await db
    .update(adminUsers)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(adminUsers.id, id));
}

/** One more failed sign-in; the count starts again when the last failure is older than `forgetBefore`. */
export async function recordFailedSignIn(db: DbOrTx, id: number, at: Date, forgetBefore: Date): Promise<void> {
  await db
    .update(adminUsers)
    .set({
      failedSignIns: sql`CASE WHEN ${adminUsers.lastFailedSignInAt} IS NULL OR ${adminUsers.lastFailedSignInAt} < ${forgetBefore} THEN 1 ELSE ${adminUsers.failedSignIns} + 1 END`,
      lastFailedSignInAt: at,
    })
    .where(eq(adminUsers.id, id));
}

export async function listRoles(db: DbOrTx) {
  const roles = await db.select().from(adminRoles).orderBy(asc(adminRoles.name));
  const perms = await db.select().from(adminRolePermissions);
  return roles.map((r) => ({
    ...r,
    permissions: perms.filter((p) => p.roleId === r.id).map((p) => p.permission),
  }));
}

export async function findRoleByName(db: DbOrTx, name: string) {
  const [row] = await db.select().from(adminRoles).where(eq(adminRoles.name, name));
  return row ?? null;
}

export async function insertRole(db: DbOrTx, name: string, label: string) {
  const [row] = await db.insert(adminRoles).values({ name, label }).onConflictDoNothing().returning();
  return row ?? null;
}

export async function setRolePermissions(db: DbOrTx, roleId: number, permissions: string[]): Promise<void> {
  await db.delete(adminRolePermissions).where(eq(adminRolePermissions.roleId, roleId));
  if (permissions.length) {
    await db.insert(adminRolePermissions).values(permissions.map((permission) => ({ roleId, permission })));
  }
}

export async function rolesOfUser(db: DbOrTx, userId: number) {
  const rows = await db
    .select({ id: adminRoles.id, name: adminRoles.name, permission: adminRolePermissions.permission })
    .from(adminUserRoles)
    .innerJoin(adminRoles, eq(adminRoles.id, adminUserRoles.roleId))
    .leftJoin(adminRolePermissions, eq(adminRolePermissions.roleId, adminRoles.id))
    .where(eq(adminUserRoles.userId, userId));
  const roles = [...new Set(rows.map((r) => r.name))];
  const permissions = [...new Set(rows.flatMap((r) => (r.permission ? [r.permission] : [])))];
  return { roles, permissions };
}

export async function userRoleNames(db: DbOrTx): Promise<Map<number, string[]>> {
  const rows = await db
    .select({ userId: adminUserRoles.userId, name: adminRoles.name })
    .from(adminUserRoles)
    .innerJoin(adminRoles, eq(adminRoles.id, adminUserRoles.roleId))
    .orderBy(asc(adminRoles.name));
  const out = new Map<number, string[]>();
  for (const r of rows) out.set(r.userId, [...(out.get(r.userId) ?? []), r.name]);
  return out;
}

export async function setUserRoles(db: DbOrTx, userId: number, roleIds: number[]): Promise<void> {
  await db.delete(adminUserRoles).where(eq(adminUserRoles.userId, userId));
  if (roleIds.length) await db.insert(adminUserRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
}

// --- sessions

export async function insertSession(db: DbOrTx, row: typeof adminSessions.$inferInsert): Promise<void> {
  await db.insert(adminSessions).values(row);
}

/** A session with its user, in one round trip (every console request asks). */
export async function findSession(
  db: DbOrTx,
  idHash: string,
): Promise<{ session: SessionRow; user: AdminUserRow } | null> {
  const [row] = await db
    .select({ session: adminSessions, user: adminUsers })
    .from(adminSessions)
    .innerJoin(adminUsers, eq(adminUsers.id, adminSessions.userId))
    .where(eq(adminSessions.idHash, idHash));
  return row ?? null;
}

export async function touchSession(db: DbOrTx, idHash: string, at: Date): Promise<void> {
  await db.update(adminSessions).set({ lastSeenAt: at }).where(eq(adminSessions.idHash, idHash));
}

export async function deleteSession(db: DbOrTx, idHash: string): Promise<void> {
  await db.delete(adminSessions).where(eq(adminSessions.idHash, idHash));
}

/** Ends every session of `userId`, but the one `keep` (the acting browser's) when given. */
export async function deleteSessionsOf(db: DbOrTx, userId: number, keep?: string): Promise<number> {
  const gone = await db
    .delete(adminSessions)
    .where(and(eq(adminSessions.userId, userId), keep ? ne(adminSessions.idHash, keep) : undefined))
    .returning({ id: adminSessions.idHash });
  return gone.length;
}

export async function sessionsOf(db: DbOrTx, userId: number): Promise<SessionRow[]> {
  return db
    .select()
    .from(adminSessions)
    .where(eq(adminSessions.userId, userId))
    .orderBy(desc(adminSessions.lastSeenAt));
}

/** Ends one session of `userId` (a session of someone else is left alone); true when it existed. */
export async function deleteSessionOf(db: DbOrTx, userId: number, idHash: string): Promise<boolean> {
  const gone = await db
    .delete(adminSessions)
    .where(and(eq(adminSessions.userId, userId), eq(adminSessions.idHash, idHash)))
    .returning({ id: adminSessions.idHash });
  return gone.length > 0;
}

export async function pruneSessions(db: DbOrTx, now: Date, idleBefore: Date): Promise<number> {
  const gone = await db
    .delete(adminSessions)
    .where(or(lt(adminSessions.expiresAt, now), lt(adminSessions.lastSeenAt, idleBefore)))
    .returning({ id: adminSessions.idHash });
  return gone.length;
}

// --- audit log

export type AuditRow = typeof adminAuditLog.$inferSelect;

export async function insertAudit(db: DbOrTx, row: typeof adminAuditLog.$inferInsert): Promise<void> {
  await db.insert(adminAuditLog).values(row);
}

export async function auditPage(
  db: DbOrTx,
  opts: { limit: number; offset: number; resourceType?: string; resourceId?: string },
): Promise<{ rows: AuditRow[]; total: number }> {
  const where = and(
    opts.resourceType ? eq(adminAuditLog.resourceType, opts.resourceType) : undefined,
    opts.resourceId ? eq(adminAuditLog.resourceId, opts.resourceId) : undefined,
  );
  const [rows, [{ n }]] = await Promise.all([
    db
      .select()
      .from(adminAuditLog)
      .where(where)
      .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
      .limit(opts.limit)
      .offset(opts.offset),
    db.select({ n: count() }).from(adminAuditLog).where(where),
  ]);
  return { rows, total: Number(n) };
}
