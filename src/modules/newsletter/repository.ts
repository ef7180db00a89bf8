// SQL of newsletter subscribers. Uniqueness of the email is the database's (a unique index on
// lower(email)), so concurrent first submits cannot create two rows.
import { and, asc, count, desc, eq, gt, ilike, isNull, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import { idsAfter } from '../../db/keyset.js';
import { newsletterSubscribers } from '../../db/schema/index.js';
import { containing } from '../../db/search.js';
import type { Transaction } from '../../db/transaction.js';

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
  async insertIfAbsent(tx: Transaction, v: NewSubscriber): Promise<number | null> {
    const { rows } = await tx.executeSql(
      `INSERT INTO newsletter_subscribers
         (email, name, phone, market, consent_given_at, privacy_policy_version, consent_ip, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $5, $5)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [v.email, v.name, v.phone, v.market, v.consentGivenAt.toISOString(), v.privacyPolicyVersion, v.consentIp],
    );
    return rows[0]?.id ?? null;
  }

  /** Sets the phone of the subscriber with this email only when it has none: one atomic UPDATE. */
  async fillPhoneIfEmpty(tx: Transaction, email: string, phone: string, at: Date): Promise<number | null> {
    const { rows } = await tx.executeSql(
      `UPDATE newsletter_subscribers SET phone = $2, updated_at = $3
        WHERE lower(email) = lower($1) AND phone IS NULL
        RETURNING id`,
      [email, phone, at.toISOString()],
    );
    return rows[0]?.id ?? null;
  }

  find(id: number): Promise<Subscriber | null> {
    return findSubscriber(this.db, id);
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

// ---------------------------------------------------------------------------------------------
// For the CRM mirror: it reads subscribers by id and in id order, and writes crm_person_id (its
// remote id column, as the schema says); it never changes other columns.

export async function findSubscriber(db: DbOrTx, id: number): Promise<Subscriber | null> {
  const rows = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id));
  return rows[0] ?? null;
}

export async function subscribersAfter(db: DbOrTx, afterId: number, limit: number): Promise<Subscriber[]> {
  return db
    .select()
    .from(newsletterSubscribers)
    .where(gt(newsletterSubscribers.id, afterId))
    .orderBy(asc(newsletterSubscribers.id))
    .limit(limit);
}

/** Subscriber ids after `afterId`, lowest first (keyset pagination). */
export function subscriberIdsAfter(db: DbOrTx, afterId: number, limit: number): Promise<number[]> {
  return idsAfter(db, newsletterSubscribers, newsletterSubscribers.id, afterId, limit);
}

export async function setCrmPersonId(db: DbOrTx, id: number, personId: number, now: Date): Promise<void> {
  await db
    .update(newsletterSubscribers)
    .set({ crmPersonId: personId, updatedAt: now })
    .where(eq(newsletterSubscribers.id, id));
}

/** Newest first for the console; `q` matches e-mail or name (case-insensitive). */
export async function subscriberPage(
  db: DbOrTx,
  page: number,
  perPage: number,
  q?: string,
): Promise<{ rows: Subscriber[]; total: number }> {
  const like = q ? containing(q) : undefined;
  const where = like
    ? or(ilike(newsletterSubscribers.email, like), ilike(newsletterSubscribers.name, like))
    : undefined;
  const rows = await db
    .select()
    .from(newsletterSubscribers)
    .where(where)
    .orderBy(desc(newsletterSubscribers.createdAt), desc(newsletterSubscribers.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(newsletterSubscribers).where(where);
  return { rows, total: Number(n) };
}
