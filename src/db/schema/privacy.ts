// Tables of the privacy module (migration range 0820): the record of each erasure of a person.
import { index, jsonb, pgTable, serial, timestamp, varchar } from 'drizzle-orm/pg-core';

/**
 * One row per `privacy:erase` run: the keyed hash of the e-mail (never the e-mail itself, so the
 * record does not keep what it erased) and how many rows of each table were removed or anonymized.
 */
export const privacyErasures = pgTable(
  'privacy_erasures',
  {
    id: serial('id').primaryKey(),
    /** HMAC-SHA256 of the normalized e-mail with APP_KEY, hex */
    emailHash: varchar('email_hash', { length: 64 }).notNull(),
    counts: jsonb('counts').$type<Record<string, number>>().notNull(),
    trigger: varchar('trigger', { length: 20 }).notNull(),
    erasedAt: timestamp('erased_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('privacy_erasures_email_hash_idx').on(t.emailHash)],
);
