// Columns several tables share.
import { timestamp } from 'drizzle-orm/pg-core';

/** created_at / updated_at, timestamptz in UTC, set by the database on insert. */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
