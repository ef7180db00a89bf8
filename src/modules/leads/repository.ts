// SQL of the leads module.
import { desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { idsAfter } from '../../db/keyset.js';
import { leads } from '../../db/schema/index.js';
import { containing } from '../../db/search.js';

export type Lead = typeof leads.$inferSelect;
export type NewLead = typeof leads.$inferInsert;

export async function insertLead(db: DbOrTx, values: NewLead): Promise<Lead> {
  const [row] = await db.insert(leads).values(values).returning();
  return row;
}

export async function findLead(db: DbOrTx, id: number): Promise<Lead | null> {
  const rows = await db.select().from(leads).where(eq(leads.id, id));
  return rows[0] ?? null;
}

export async function setLeadPerson(db: DbOrTx, id: number, personId: number, now: Date): Promise<void> {
  await db.update(leads).set({ crmPersonId: personId, updatedAt: now }).where(eq(leads.id, id));
}

/** Newest first, for the admin list; `q` matches name, e-mail or phone (case-insensitive). */
export async function listLeads(
  db: DbOrTx,
  page: number,
  perPage: number,
  q?: string,
): Promise<{ rows: Lead[]; total: number }> {
  const like = q ? containing(q) : undefined;
  const where = like ? or(ilike(leads.name, like), ilike(leads.email, like), ilike(leads.phone, like)) : undefined;
  const rows = await db
    .select()
    .from(leads)
    .where(where)
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(perPage)
    .offset((page - 1) * perPage);
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(leads).where(where);
  return { rows, total: Number(n) };
}

export async function deleteLeads(db: DbOrTx, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db.delete(leads).where(inArray(leads.id, ids)).returning({ id: leads.id });
  return rows.map((r) => r.id);
}

/** Lead ids after `afterId`, lowest first (keyset pagination), for the CRM's sync-all. */
export function leadIdsAfter(db: DbOrTx, afterId: number, limit: number): Promise<number[]> {
  return idsAfter(db, leads, leads.id, afterId, limit);
}
