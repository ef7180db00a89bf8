// SQL of newsletter subscribers. Uniqueness of the email is the database's (a unique index on
// lower(email)), so concurrent first submits cannot create two rows.
import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { newsletterSubscribers } from '../../db/schema/index.js';

export type Subscriber = typeof newsletterSubscribers.$inferSelect;

export interface NewSubscriber {
  email: string;
  name: string;
  phone: string | null;
  market: string | null;
  consentGivenAt: Date;
  privacyPolicyVersion: string;
  consentIp: string | null;
}

export class SubscriberRepository {
  constructor(private readonly db: Db) {}

  /** The new row's id, or null when the email (case-insensitively) is already subscribed. */
  async insertIfAbsent(values: NewSubscriber): Promise<number | null> {
    const rows = await this.db
      .insert(newsletterSubscribers)
      .values({ ...values, createdAt: values.consentGivenAt, updatedAt: values.consentGivenAt })
      .onConflictDoNothing()
      .returning({ id: newsletterSubscribers.id });
    return rows[0]?.id ?? null;
  }

  /** Sets the phone of the subscriber with this email only when it has none: one atomic UPDATE. */
  async fillPhoneIfEmpty(email: string, phone: string, at: Date): Promise<number | null> {
    const rows = await this.db
      .update(newsletterSubscribers)
      .set({ phone, updatedAt: at })
      .where(and(sql`lower(${newsletterSubscribers.email}) = lower(${email})`, isNull(newsletterSubscribers.phone)))
      .returning({ id: newsletterSubscribers.id });
    return rows[0]?.id ?? null;
  }

  async find(id: number): Promise<Subscriber | null> {
    const rows = await this.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id));
    return rows[0] ?? null;
  }

  async findByEmail(email: string): Promise<Subscriber | null> {
    const rows = await this.db
      .select()
      .from(newsletterSubscribers)
      .where(sql`lower(${newsletterSubscribers.email}) = lower(${email})`);
    return rows[0] ?? null;
  }

  async setMarketingContactId(id: number, contactId: number, at: Date): Promise<void> {
    await this.db
      .update(newsletterSubscribers)
      .set({ marketingContactId: contactId, updatedAt: at })
      .where(eq(newsletterSubscribers.id, id));
  }

  /** Ids without a marketing contact, lowest first, after `afterId` (keyset pagination). */
  async idsWithoutMarketingContact(afterId: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .select({ id: newsletterSubscribers.id })
      .from(newsletterSubscribers)
      .where(and(isNull(newsletterSubscribers.marketingContactId), gt(newsletterSubscribers.id, afterId)))
      .orderBy(asc(newsletterSubscribers.id))
      .limit(limit);
    return rows.map((r) => r.id);
  }

  async countWithoutMarketingContact(): Promise<number> {
    const rows = await this.db
      .select({ n: count() })
      .from(newsletterSubscribers)
      .where(isNull(newsletterSubscribers.marketingContactId));
    return Number(rows[0]?.n ?? 0);
  }
}
