// Newsletter subscribers (owned by the newsletter module; the CRM and marketing mirrors update
// their remote id columns).
import { sql } from 'drizzle-orm';
import { integer, pgTable, serial, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: serial('id').primaryKey(),
    /** trimmed as submitted; unique case-insensitively */
    email: varchar('email', { length: 255 }).notNull(),
    name: varchar('name', { length: 255 }),
    /** filled once, never replaced */
    phone: varchar('phone', { length: 50 }),
    consentGivenAt: timestamp('consent_given_at', { withTimezone: true }).notNull(),
    privacyPolicyVersion: varchar('privacy_policy_version', { length: 50 }).notNull(),
    consentIp: varchar('consent_ip', { length: 45 }),
    crmPersonId: integer('crm_person_id'),
    marketingContactId: integer('marketing_contact_id'),
    /** es | de | us | uk | ca, or null when unknown */
    market: varchar('market', { length: 5 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('newsletter_subscribers_email_unique').on(sql`lower(${t.email})`)],
);
