// Ids of ActiveCampaign tags and custom fields, resolved by name and cached for every process
// (owned by the marketing module).
import { pgTable, primaryKey, timestamp, varchar } from 'drizzle-orm/pg-core';

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
