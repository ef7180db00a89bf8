// SQL of the leads module.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { leads } from '../../db/schema/index.js';

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
