// Keyset pagination over a serial id column, for commands that walk a whole table in batches.
import { asc, gt } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './database.js';

/** Ids after `afterId`, lowest first, at most `limit`. */
export async function idsAfter(
  db: DbOrTx,
  table: PgTable,
  id: AnyPgColumn,
  afterId: number,
  limit: number,
): Promise<number[]> {
  const rows = await db.select({ id }).from(table).where(gt(id, afterId)).orderBy(asc(id)).limit(limit);
  return rows.map((r) => Number(r.id));
}
