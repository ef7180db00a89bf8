// Bulk upserts on natural keys that leave unchanged rows alone: the update only runs when a
// value differs (IS DISTINCT FROM), so re-importing the same document writes nothing and keeps
// updated_at as it was.
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/database.js';

const CHUNK = 2000;

export interface WriteCounts {
  inserted: number;
  updated: number;
}

/**
 * `neverLower`: counters the application raises (an offer's allotment_used, consumed by bookings)
 * keep the greater of the stored and the imported value, so re-importing a file gives no seat back.
 */
export async function upsertRows<T extends PgTable>(
  tx: Tx,
  table: T,
  rows: T['$inferInsert'][],
  conflict: PgColumn[],
  neverLower: PgColumn[] = [],
): Promise<WriteCounts> {
  const counts = { inserted: 0, updated: 0 };
  if (rows.length === 0) return counts;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const name = getTableName(table);
  const conflictNames = new Set(conflict.map((c) => c.name));
  const all = Object.keys(rows[0] as object);
  const keys = all.filter((k) => !conflictNames.has(columns[k].name) && k !== 'createdAt' && k !== 'updatedAt');
  const q = (c: string) => `"${c}"`;
  const insertCols = all.map((k) => q(columns[k].name)).join(', ');
  const monotonic = new Set(neverLower.map((c) => c.name));
  const incoming = (k: string) => {
    const col = q(columns[k].name);
    return monotonic.has(columns[k].name) ? `GREATEST(${q(name)}.${col}, excluded.${col})` : `excluded.${col}`;
  };
  const sets = keys.map((k) => `${q(columns[k].name)} = ${incoming(k)}`);
  if ('updatedAt' in columns) sets.push('"updated_at" = now()');
  const mine = keys.map((k) => `${q(name)}.${q(columns[k].name)}`).join(', ');
  const theirs = keys.map(incoming).join(', ');
  const target = conflict.map((c) => q(c.name)).join(', ');
  const onConflict =
    keys.length === 0
      ? `ON CONFLICT (${target}) DO NOTHING`
      : `ON CONFLICT (${target}) DO UPDATE SET ${sets.join(', ')} WHERE ROW(${mine}) IS DISTINCT FROM ROW(${theirs})`;
  // rows travel as one JSON parameter (thousands of bind parameters are slow on PGlite)
  const text = `INSERT INTO ${q(name)} (${insertCols}) SELECT ${insertCols} FROM json_populate_recordset(NULL::${q(name)}, `;
  const tail = `::json) ${onConflict} RETURNING (xmax = 0) AS inserted`;

  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK).map((row) => {
      const out: Record<string, unknown> = {};
      for (const k of all) out[columns[k].name] = (row as Record<string, unknown>)[k];
      return out;
    });
    const result = await tx.execute(sql`${sql.raw(text)}${JSON.stringify(chunk)}${sql.raw(tail)}`);
    const written = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as {
      inserted: boolean;
    }[];
    for (const w of written) {
      if (w.inserted) counts.inserted++;
      else counts.updated++;
    }
  }
  return counts;
}

/**
 * Deletes the children of `parentIds` whose key is not among `keep` (the document replaces a
 * parent's children). Keys travel as one JSON parameter, which both drivers pass the same way.
 */
export async function deleteMissing(
  tx: Tx,
  table: string,
  parentColumn: string,
  parentIds: number[],
  keyColumns: [string, 'int' | 'text'][],
  keep: Record<string, unknown>[],
): Promise<void> {
  if (parentIds.length === 0) return;
  const cols = keyColumns.map(([c]) => `"${c}"`).join(', ');
  const defs = keyColumns.map(([c, t]) => `"${c}" ${t}`).join(', ');
  await tx.execute(
    sql`DELETE FROM ${sql.raw(`"${table}"`)} WHERE ${sql.raw(`"${parentColumn}"`)} IN (SELECT value::int FROM json_array_elements_text(${JSON.stringify(parentIds)}::json)) AND (${sql.raw(cols)}) NOT IN (SELECT ${sql.raw(cols)} FROM json_to_recordset(${JSON.stringify(keep)}::json) AS k(${sql.raw(defs)}))`,
  );
}
