// Ids of ActiveCampaign tags and custom fields, resolved by name and cached for every process
// (owned by the marketing module).
import { integer, pgTable, primaryKey, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { newsletterSubscribers } from './newsletter.js';

export const marketingRemoteIds = pgTable(
  'marketing_remote_ids',
  {
    /** the account's API root, so a change of account does not reuse stale ids */
    account: varchar('account', { length: 255 }).notNull(),
    /** tag | field */
    kind: varchar('kind', { length: 10 }).notNull(),
    name: varchar('name', { length: 255 }).notNull(),
    remoteId: varchar('remote_id', { length: 50 }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.kind, t.name] })],
);

/**
 * The marketing mirror's last outcome per subscriber (Synced, Pending while retrying, Failed,
 * Ignored), for the console's subscribers page and sync monitor.
 */
export const marketingSyncStates = pgTable('marketing_sync_states', {
  subscriberId: integer('subscriber_id')
    .primaryKey()
    .references(() => newsletterSubscribers.id, { onDelete: 'cascade' }),
  status: varchar('status', { length: 10 }).notNull(),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
