// SQL of the checkout's own tables: bookings and their funnel, clients, API tokens. What a checkout prices
// from is the catalog's (catalog/offers.ts, catalog/supply.ts). Plain objects out.
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/database.js';
import { apiTokens, bookingStepVisits, bookings, clients } from '../../db/schema/index.js';
import { FUNNEL_STEPS, type FunnelStep } from './rules.js';

// ---------------------------------------------------------------------------------------------
// Bookings and funnel

export interface NewBooking {
  reference: string;
  offerId: number;
  marketCode: string;
  language: string;
  paxCount: number;
  actualPaxCount: number;
  actualRoomType: string;
  isNonStandardPax: boolean;
  totalPrice: string;
  currency: string;
}

/**
 * Relaxed commits: writes of checkout sessions and just-started bookings do not wait for the WAL
 * flush (synchronous_commit off for that transaction only). After a crash the last few hundred
 * milliseconds of them may be lost (the visitor starts again), never corrupted; the flush wait is
 * most of a write's latency on PostgreSQL. A statement that starts with this CTE and reads from
 * `relaxed` (INSERT ... SELECT ... FROM relaxed, UPDATE ... FROM relaxed) sets it for its own
 * implicit transaction, as SET LOCAL would, so a relaxed write is one round trip instead of four
 * (BEGIN, SET LOCAL, the write, COMMIT).
 */
export const RELAXED_CTE = `relaxed AS (SELECT set_config('synchronous_commit', 'off', true) AS sc)`;

const BOOKING_COLUMNS = `reference, offer_id, market_code, language, pax_count, actual_pax_count, actual_room_type,
  is_non_standard_pax, total_price, currency`;
const BOOKING_VALUES = `$1::varchar, $2::int, $3::varchar, $4::varchar, $5::int, $6::int, $7::varchar, $8::boolean,
  $9::numeric, $10::varchar`;

export function bookingParams(b: NewBooking): unknown[] {
  return [
    b.reference,
    b.offerId,
    b.marketCode,
    b.language,
    b.paxCount,
    b.actualPaxCount,
    b.actualRoomType,
    b.isNonStandardPax,
    b.totalPrice,
    b.currency,
  ];
}

/**
 * The booking insert of a start (relaxed commit, one statement): `FROM relaxed` first, then the
 * caller's own CTEs may follow; `inserted` holds the new row, none when the reference is taken.
 */
export const INSERT_BOOKING_CTE = `WITH ${RELAXED_CTE},
inserted AS (
  INSERT INTO bookings (${BOOKING_COLUMNS})
  SELECT ${BOOKING_VALUES} FROM relaxed
  ON CONFLICT (reference) DO NOTHING
  RETURNING id, reference
)`;

/** Inserts the booking (relaxed commit); null when the reference is taken (the caller draws another one). */
export async function insertBooking(
  database: Database,
  b: NewBooking,
): Promise<{ id: number; reference: string } | null> {
  const { rows } = await database.query<{ id: number; reference: string }>(
    `${INSERT_BOOKING_CTE} SELECT id, reference FROM inserted`,
    bookingParams(b),
    'checkout_insert_booking',
  );
  return rows[0] ?? null;
}

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

export type BookingRow = typeof bookings.$inferSelect;

export async function findBooking(db: DbOrTx, bookingId: number): Promise<BookingRow | null> {
  const rows = await db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1);
  return rows[0] ?? null;
}

export async function findBookingByReference(db: DbOrTx, reference: string): Promise<BookingRow | null> {
  const rows = await db.select().from(bookings).where(eq(bookings.reference, reference)).limit(1);
  return rows[0] ?? null;
}

// The booking's lifecycle after checkout (bookings module): finalization and status moves lock
// the row in their own transaction and pass its handle.

export async function lockBooking(tx: DbOrTx, id: number): Promise<BookingRow | null> {
  const rows = await tx.select().from(bookings).where(eq(bookings.id, id)).for('update');
  return rows[0] ?? null;
}

/** The booking's status, its row locked until the caller's transaction ends; undefined when none. */
export async function lockBookingStatus(tx: DbOrTx, id: number): Promise<string | undefined> {
  const current = await tx.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)).for('update');
  return current[0]?.status;
}

export async function setBookingStatus(tx: DbOrTx, id: number, status: string): Promise<void> {
  await tx.update(bookings).set({ status, updatedAt: sql`now()` }).where(eq(bookings.id, id));
}

export async function updateFinalizedBooking(
  tx: DbOrTx,
  id: number,
  set: {
    clientId: number;
    flightSelection: Record<string, unknown> | null;
    paymentMethodCode: string;
    paymentGatewayCode: string;
    totalPrice: string;
  },
): Promise<void> {
  await tx
    .update(bookings)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(bookings.id, id));
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

/** Ids of the clients with this e-mail (case-insensitive), for the CRM's person lookup. */
export async function findClient(db: DbOrTx, id: number) {
  const rows = await db.select().from(clients).where(eq(clients.id, id)).limit(1);
  return rows[0] ?? null;
}

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
