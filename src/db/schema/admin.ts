// Tables of the back-office console (migration range 0700): admin users, their roles and the
// roles' permissions, server-side sessions and the audit log.

import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { timestamps } from './columns.js';

export const adminUsers = pgTable(
  'admin_users',
  {
    id: serial('id').primaryKey(),
    email: varchar('email', { length: 255 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    /** argon2id PHC string */
    passwordHash: text('password_hash').notNull(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /** failed sign-ins since the last correct one (the account's growing delay) */
    failedSignIns: integer('failed_sign_ins').notNull().default(0),
    lastFailedSignInAt: timestamp('last_failed_sign_in_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [uniqueIndex('admin_users_email').on(sql`lower(${t.email})`)],
);

export const adminRoles = pgTable(
  'admin_roles',
  {
    id: serial('id').primaryKey(),
    /** machine name; 'super_admin' holds every permission */
    name: varchar('name', { length: 50 }).notNull(),
    label: varchar('label', { length: 100 }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('admin_roles_name').on(t.name)],
);

export const adminRolePermissions = pgTable(
  'admin_role_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => adminRoles.id, { onDelete: 'cascade' }),
    permission: varchar('permission', { length: 60 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permission] })],
);

export const adminUserRoles = pgTable(
  'admin_user_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => adminRoles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

/** One row per signed-in browser; the cookie holds the id, the table its sha256 (revocable). */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    idHash: varchar('id_hash', { length: 64 }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    csrfToken: varchar('csrf_token', { length: 64 }).notNull(),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 300 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('admin_sessions_user').on(t.userId), index('admin_sessions_expires').on(t.expiresAt)],
);

/** Who did what, when, on which record: one row per admin action. */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => adminUsers.id, { onDelete: 'set null' }),
    /** the actor's e-mail at the time (kept when the user is gone) */
    actor: varchar('actor', { length: 255 }).notNull(),
    action: varchar('action', { length: 60 }).notNull(),
    resourceType: varchar('resource_type', { length: 40 }),
    resourceId: varchar('resource_id', { length: 60 }),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    ip: varchar('ip', { length: 64 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('admin_audit_log_created').on(t.createdAt),
    index('admin_audit_log_resource').on(t.resourceType, t.resourceId),
  ],
);
