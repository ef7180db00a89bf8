// Bulk upserts on natural keys that leave unchanged rows alone: the update only runs when a
// value differs (IS DISTINCT FROM), so re-importing the same document writes nothing and keeps
// updated_at as it was.
import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/database.js';

const CHUNK = 500;

export interface WriteCounts {
  inserted: number;
  updated: number;
}

export async function upsertRows<T extends PgTable>(
  tx: Tx,
  table: T,
  rows: T['$inferInsert'][],
  conflict: PgColumn[],
): Promise<WriteCounts> {
  const counts = { inserted: 0, updated: 0 };
  if (rows.length === 0) return counts;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const name = getTableName(table);
  const conflictNames = new Set(conflict.map((c) => c.name));
  const keys = Object.keys(rows[0] as object).filter(
    (k) => !conflictNames.has(columns[k].name) && k !== 'createdAt' && k !== 'updatedAt',
  );
  const set: Record<string, SQL> = {};
  for (const k of keys) set[k] = sql.raw(`excluded."${columns[k].name}"`);
  if ('updatedAt' in columns) set.updatedAt = sql`now()`;
  const mine = keys.map((k) => `"${name}"."${columns[k].name}"`).join(', ');
  const theirs = keys.map((k) => `excluded."${columns[k].name}"`).join(', ');
  const changed = sql.raw(`ROW(${mine}) IS DISTINCT FROM ROW(${theirs})`);

  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const insert = tx.insert(table).values(chunk as never);
    const written =
      keys.length === 0
        ? await insert.onConflictDoNothing({ target: conflict }).returning({ inserted: sql<boolean>`(xmax = 0)` })
        : await insert
            .onConflictDoUpdate({ target: conflict, set: set as never, setWhere: changed })
            .returning({ inserted: sql<boolean>`(xmax = 0)` });
    for (const w of written as { inserted: boolean }[]) {
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
