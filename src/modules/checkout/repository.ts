// SQL of the checkout's own tables: the bookings' funnel steps, clients, API tokens (the booking row
// itself is the bookings module's). What a checkout prices
// from is the catalog's (catalog/offers.ts, catalog/supply.ts). Plain objects out.
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { apiTokens, bookingStepVisits, bookings, clients } from '../../db/schema/index.js';
import { FUNNEL_STEPS, type FunnelStep } from './rules.js';

// ---------------------------------------------------------------------------------------------
// Funnel

// rank of the stored checkout_step in the funnel order, -1 when none
const STEP_RANK = sql.raw(
  `CASE checkout_step ${FUNNEL_STEPS.map((s, i) => `WHEN '${s}' THEN ${i}`).join(' ')} ELSE -1 END`,
);

/**
 * Records a view of a funnel step: checkout_step moves forward only (compared inside the UPDATE,
 * so concurrent calls cannot move it back), current_step always, the first visit once. False when
 * the booking does not exist.
 */
export async function recordFunnelStep(db: DbOrTx, bookingId: number, step: FunnelStep, at: Date): Promise<boolean> {
  const rank = FUNNEL_STEPS.indexOf(step);
  const rows = await db
    .update(bookings)
    .set({
      currentStep: step,
      checkoutStep: sql`CASE WHEN ${STEP_RANK} < ${rank} THEN ${step} ELSE ${bookings.checkoutStep} END`,
      updatedAt: at,
    })
    .where(eq(bookings.id, bookingId))
    .returning({ id: bookings.id });
  if (rows.length === 0) return false;
  await db.insert(bookingStepVisits).values({ bookingId, step, firstVisitedAt: at }).onConflictDoNothing();
  return true;
}

/** The first visit of each funnel step of a booking, in visit order. */
export async function stepVisitsOf(db: DbOrTx, bookingId: number) {
  return db
    .select({ step: bookingStepVisits.step, firstVisitedAt: bookingStepVisits.firstVisitedAt })
    .from(bookingStepVisits)
    .where(eq(bookingStepVisits.bookingId, bookingId))
    .orderBy(asc(bookingStepVisits.firstVisitedAt));
}

// ---------------------------------------------------------------------------------------------
// Clients

/**
 * The booking contact: the client with this e-mail (case-insensitive) updated, or a new one.
 * Finalization (bookings module) is the only writer, inside its transaction.
 */
export async function upsertClient(
  tx: DbOrTx,
  c: { first_name: string; last_name: string; email: string; phone: string },
): Promise<number> {
  const found = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(sql`lower(${clients.email}) = lower(${c.email})`)
    .orderBy(asc(clients.id))
    .limit(1);
  const values = { firstName: c.first_name, lastName: c.last_name, email: c.email, phone: c.phone };
  if (found[0]) {
    await tx
      .update(clients)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(clients.id, found[0].id));
    return found[0].id;
  }
  const rows = await tx.insert(clients).values(values).returning({ id: clients.id });
  return rows[0].id;
}

/** The booking contact (the console and the balance e-mails). */
export async function findClient(db: DbOrTx, id: number) {
  const rows = await db.select().from(clients).where(eq(clients.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Ids of the clients with this e-mail (case-insensitive), for the CRM's person lookup. */
export async function clientIdsByEmail(db: DbOrTx, email: string): Promise<number[]> {
  const rows = await db.select({ id: clients.id }).from(clients).where(sql`lower(${clients.email}) = lower(${email})`);
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// API tokens

export async function insertToken(db: DbOrTx, name: string, tokenHash: string, abilities: string[]): Promise<number> {
  const rows = await db.insert(apiTokens).values({ name, tokenHash, abilities }).returning({ id: apiTokens.id });
  return rows[0].id;
}

export async function listTokens(db: DbOrTx) {
  return db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      abilities: apiTokens.abilities,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
      createdAt: apiTokens.createdAt,
    })
    .from(apiTokens)
    .orderBy(desc(apiTokens.id));
}

/** true when the token was live and is now revoked */
export async function revokeToken(db: DbOrTx, id: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: at, updatedAt: at })
    .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

export async function findTokenAbilities(db: DbOrTx, tokenHash: string): Promise<string[] | null> {
  const rows = await db
    .select({ abilities: apiTokens.abilities })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt)))
    .limit(1);
  return rows[0]?.abilities ?? null;
}
