// Tables of the CRM mirror and the leads module (see its migration range in src/db/migrations).
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

export type CrmModelType = 'newsletter_subscriber' | 'lead' | 'client';
export type CrmSyncStatus = 'Pending' | 'Synced' | 'Failed' | 'Ignored';

/** One row per local record mirrored to the CRM: where it stands and what went wrong last. */
export const crmSyncRecords = pgTable(
  'crm_sync_records',
  {
    id: serial('id').primaryKey(),
    modelType: varchar('model_type', { length: 40 }).$type<CrmModelType>().notNull(),
    modelId: integer('model_id').notNull(),
    /** CRM id: a person id for subscribers and clients, a lead UUID for leads */
    remoteId: text('remote_id'),
    status: varchar('status', { length: 10 }).$type<CrmSyncStatus>().notNull().default('Pending'),
    /** delivery tries that used a job try (a 429 release does not count) */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    syncedAt: timestamp('synced_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('crm_sync_records_model_unique').on(t.modelType, t.modelId),
    index('crm_sync_records_status_idx').on(t.modelType, t.status),
    check('crm_sync_records_status_check', sql`${t.status} IN ('Pending', 'Synced', 'Failed', 'Ignored')`),
    check('crm_sync_records_model_type_check', sql`${t.modelType} IN ('newsletter_subscriber', 'lead', 'client')`),
  ],
);

/**
 * Who holds the CRM person lock of a normalized e-mail: newsletter, lead and client mirrors of
 * one e-mail take turns (across processes), so two of them never both find no person and both
 * create one. A holder that died is overtaken once `expires_at` passes.
 */
export const crmPersonLocks = pgTable('crm_person_locks', {
  email: varchar('email', { length: 255 }).primaryKey(),
  holder: varchar('holder', { length: 64 }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export interface LeadDestination {
  type: 'region' | 'country';
  id?: string;
  label: string;
}

/** Contact-form leads from the website; read-only for admins (view, bulk delete). */
export const leads = pgTable(
  'leads',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 255 }).notNull(),
    email: varchar('email', { length: 255 }).notNull(),
    phone: varchar('phone', { length: 50 }),
    /** legacy free text */
    region: varchar('region', { length: 255 }),
    destinations: jsonb('destinations').$type<LeadDestination[]>().notNull().default(sql`'[]'::jsonb`),
    preferredCallTime: varchar('preferred_call_time', { length: 255 }),
    source: varchar('source', { length: 50 }).notNull(),
    consentGivenAt: timestamp('consent_given_at', { withTimezone: true }).notNull(),
    privacyPolicyVersion: varchar('privacy_policy_version', { length: 50 }).notNull(),
    consentIp: varchar('consent_ip', { length: 45 }),
    /** CRM person the lead was attached to; saved before the CRM lead is created so a retry reuses it */
    crmPersonId: integer('crm_person_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('leads_email_idx').on(sql`lower(${t.email})`), index('leads_created_at_idx').on(t.createdAt)],
);
