// SQL of the flights module's records: per-leg flight bookings and their attempts. The bookings
// module writes them through these functions; those that take part in a caller's transaction take
// its handle.
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { flightBookings, flightLegAttempts } from '../../db/schema/index.js';

export type FlightBookingRow = typeof flightBookings.$inferSelect;
export type NewFlightBooking = typeof flightBookings.$inferInsert;

export async function flightBookingsOf(db: DbOrTx, bookingId: number): Promise<FlightBookingRow[]> {
  return db
    .select()
    .from(flightBookings)
    .where(eq(flightBookings.bookingId, bookingId))
    .orderBy(asc(flightBookings.legIndex));
}

/** Inserts the leg's record unless one exists (one per booking and leg); the stored row either way. */
export async function saveFlightBooking(db: DbOrTx, row: NewFlightBooking): Promise<FlightBookingRow> {
  const inserted = await db.insert(flightBookings).values(row).onConflictDoNothing().returning();
  if (inserted[0]) return inserted[0];
  const rows = await db
    .select()
    .from(flightBookings)
    .where(and(eq(flightBookings.bookingId, row.bookingId), eq(flightBookings.legIndex, row.legIndex)));
  return rows[0];
}

export async function findFlightBooking(db: DbOrTx, id: number): Promise<FlightBookingRow | null> {
  const rows = await db.select().from(flightBookings).where(eq(flightBookings.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function updateFlightBooking(
  db: DbOrTx,
  id: number,
  set: Partial<Pick<FlightBookingRow, 'pnr' | 'status' | 'details' | 'retrievedAt' | 'cancellation'>>,
): Promise<void> {
  await db
    .update(flightBookings)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(flightBookings.id, id));
}

type LegAttemptInsert = typeof flightLegAttempts.$inferInsert;

/** The leg's attempt row: inserted with `values`, or updated with `set` (updated_at too) when it exists. */
function upsertAttempt(
  db: DbOrTx,
  bookingId: number,
  legIndex: number,
  values: { [K in keyof LegAttemptInsert]?: LegAttemptInsert[K] | SQL },
  set: Record<string, unknown>,
) {
  return db
    .insert(flightLegAttempts)
    .values({ bookingId, legIndex, ...values })
    .onConflictDoUpdate({
      target: [flightLegAttempts.bookingId, flightLegAttempts.legIndex],
      set: { ...set, updatedAt: sql`now()` },
    });
}

/** Adds one to a counter of the leg's attempt row and records the error; returns the new count. */
async function countLegEvent(
  db: DbOrTx,
  bookingId: number,
  legIndex: number,
  counter: 'noMatchCount' | 'exceptionCount',
  error: Record<string, unknown>,
): Promise<number> {
  const column = flightLegAttempts[counter];
  const rows = await upsertAttempt(
    db,
    bookingId,
    legIndex,
    { [counter]: 1, lastError: error },
    { [counter]: sql`${column} + 1`, lastError: error },
  ).returning({ count: column });
  return rows[0].count;
}

/** Counts a "no matching fare" for the leg; returns the new count. */
export function countNoMatch(db: DbOrTx, bookingId: number, legIndex: number, error: Record<string, unknown>) {
  return countLegEvent(db, bookingId, legIndex, 'noMatchCount', error);
}

export async function recordLegError(
  db: DbOrTx,
  bookingId: number,
  legIndex: number,
  error: Record<string, unknown>,
): Promise<void> {
  await upsertAttempt(db, bookingId, legIndex, { lastError: error }, { lastError: error });
}

export type LegAttemptRow = typeof flightLegAttempts.$inferSelect;

export async function legAttempt(db: DbOrTx, bookingId: number, legIndex: number): Promise<LegAttemptRow | null> {
  const rows = await db
    .select()
    .from(flightLegAttempts)
    .where(and(eq(flightLegAttempts.bookingId, bookingId), eq(flightLegAttempts.legIndex, legIndex)));
  return rows[0] ?? null;
}

/**
 * Records that a booking call for the leg starts now; returns when an earlier one started (null
 * when none): from then on an order may exist at the provider that no record of ours names.
 */
export async function markBookingStarted(db: DbOrTx, bookingId: number, legIndex: number): Promise<Date | null> {
  const before = await legAttempt(db, bookingId, legIndex);
  await upsertAttempt(db, bookingId, legIndex, { bookingStartedAt: sql`now()` }, { bookingStartedAt: sql`now()` });
  return before?.bookingStartedAt ?? null;
}

/** Counts an unclassified exception of the leg's job; returns the new count. */
export function countLegException(db: DbOrTx, bookingId: number, legIndex: number, error: Record<string, unknown>) {
  return countLegEvent(db, bookingId, legIndex, 'exceptionCount', error);
}

export async function saveRebookSearch(
  db: DbOrTx,
  bookingId: number,
  legIndex: number,
  search: Record<string, unknown>,
): Promise<void> {
  await upsertAttempt(db, bookingId, legIndex, { rebookSearch: search }, { rebookSearch: search });
}

/**
 * A retry by the admin starts the legs' attempt bookkeeping afresh, except the mark of a booking
 * call already made: an order from it may exist, and the next job must look for it first.
 */
export async function resetLegAttempts(db: DbOrTx, bookingId: number, legIndexes: number[]): Promise<void> {
  if (legIndexes.length === 0) return;
  await db
    .update(flightLegAttempts)
    .set({ noMatchCount: 0, exceptionCount: 0, lastError: null, updatedAt: sql`now()` })
    .where(and(eq(flightLegAttempts.bookingId, bookingId), inArray(flightLegAttempts.legIndex, legIndexes)));
}

/** Per-leg attempt state (no-match count, last failure) for the operator. */
export async function legAttemptsOf(db: DbOrTx, bookingId: number) {
  return db
    .select()
    .from(flightLegAttempts)
    .where(eq(flightLegAttempts.bookingId, bookingId))
    .orderBy(asc(flightLegAttempts.legIndex));
}
