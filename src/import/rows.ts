// Writing import records on their natural keys. A record updates only the fields it names
// (mergeRows): a stored row keeps every column the document leaves out, a new row gets the
// defaults of what it leaves out. Unchanged rows are left alone (IS DISTINCT FROM), so
// re-importing the same document writes nothing and keeps updated_at as it was.
import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/database.js';

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

/** A field an update changed: stored value -> imported value, as JSON. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** Columns of a table by property name, and the table's SQL name. */
function describe(table: PgTable) {
  return { columns: getTableColumns(table) as Record<string, PgColumn>, name: getTableName(table) };
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return ((result as { rows?: unknown[] }).rows ?? (result as unknown[])) as Record<string, unknown>[];
}

export interface MergeOptions<T extends PgTable> {
  /** counters the application raises (allotment_used): an import may raise them, never lower them */
  neverLower?: PgColumn[];
  /** a new record's full row: the named fields plus the defaults of what it leaves out */
  complete: (row: Partial<T['$inferInsert']>) => T['$inferInsert'];
  /** receives each updated row's key (column values in key order) and its changed fields */
  changed?: (key: unknown[], changes: FieldChange[]) => void;
}

/**
 * Inserts the rows whose key is not stored (completed with defaults) and updates, in the stored
 * rows, only the columns each row names. Rows are grouped by the set of columns they name, so one
 * UPDATE serves every row naming the same fields.
 */
export async function mergeRows<T extends PgTable>(
  tx: Tx,
  table: T,
  rows: Partial<T['$inferInsert']>[],
  key: PgColumn[],
  opts: MergeOptions<T>,
): Promise<WriteCounts> {
  const counts = { inserted: 0, updated: 0 };
  if (rows.length === 0) return counts;
  const { columns, name } = describe(table);
  const q = (c: string) => `"${c}"`;
  const prop = (col: PgColumn) => Object.keys(columns).find((k) => columns[k] === col)!;
  const keyProps = key.map(prop);
  const keyOf = (row: Record<string, unknown>) => JSON.stringify(keyProps.map((k) => String(row[k])));
  const toJson = (list: Record<string, unknown>[], props: string[]) =>
    JSON.stringify(
      list.map((row) => Object.fromEntries(props.map((k) => [columns[k].name, row[k] === undefined ? null : row[k]]))),
    );
  const keyCols = key.map((c) => q(c.name)).join(', ');
  const stored = new Set<string>();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK) as Record<string, unknown>[];
    const found = rowsOf(
      await tx.execute(
        sql`SELECT ${sql.raw(keyProps.map((k) => `t.${q(columns[k].name)} AS ${q(k)}`).join(', '))} FROM ${sql.raw(q(name))} t
             WHERE (${sql.raw(key.map((c) => `t.${q(c.name)}`).join(', '))}) IN
                   (SELECT ${sql.raw(keyCols)} FROM json_populate_recordset(NULL::${sql.raw(q(name))}, ${toJson(chunk, keyProps)}::json))`,
      ),
    );
    for (const r of found) stored.add(keyOf(r));
  }

  const fresh = rows.filter((r) => !stored.has(keyOf(r as Record<string, unknown>)));
  if (fresh.length) {
    const written = await upsertRows(tx, table, fresh.map(opts.complete), key, opts.neverLower ?? []);
    counts.inserted += written.inserted;
    counts.updated += written.updated;
  }

  const groups = new Map<string, Record<string, unknown>[]>();
  for (const row of rows as Record<string, unknown>[]) {
    if (!stored.has(keyOf(row))) continue;
    const named = Object.keys(row).filter(
      (k) => row[k] !== undefined && !keyProps.includes(k) && k !== 'createdAt' && k !== 'updatedAt',
    );
    if (named.length === 0) continue;
    const signature = named.sort().join(',');
    const list = groups.get(signature) ?? [];
    list.push(row);
    groups.set(signature, list);
  }
  const monotonic = new Set((opts.neverLower ?? []).map((c) => c.name));
  for (const [signature, list] of groups) {
    const props = signature.split(',');
    const incoming = (k: string) => {
      const col = q(columns[k].name);
      return monotonic.has(columns[k].name) ? `GREATEST(t.${col}, v.${col})` : `v.${col}`;
    };
    const mine = props.map((k) => `t.${q(columns[k].name)}`).join(', ');
    const theirs = props.map(incoming).join(', ');
    const join = key.map((c) => `t.${q(c.name)} = v.${q(c.name)}`).join(' AND ');
    const diff = props
      .map(
        (k) =>
          `'${k}', CASE WHEN t.${q(columns[k].name)} IS DISTINCT FROM ${incoming(k)} THEN jsonb_build_array(to_jsonb(t.${q(columns[k].name)}), to_jsonb(${incoming(k)})) END`,
      )
      .join(', ');
    const sets = props.map((k) => `${q(columns[k].name)} = ${incoming(k)}`);
    if ('updatedAt' in columns) sets.push('"updated_at" = now()');
    for (let i = 0; i < list.length; i += CHUNK) {
      const json = toJson(list.slice(i, i + CHUNK), [...keyProps, ...props]);
      const source = sql`json_populate_recordset(NULL::${sql.raw(q(name))}, ${json}::json) v`;
      const changedRows = rowsOf(
        await tx.execute(
          sql`SELECT ${sql.raw(keyProps.map((k) => `t.${q(columns[k].name)} AS ${q(k)}`).join(', '))},
                     jsonb_strip_nulls(jsonb_build_object(${sql.raw(diff)})) AS changes
                FROM ${sql.raw(q(name))} t JOIN ${source} ON ${sql.raw(join)}
               WHERE ROW(${sql.raw(mine)}) IS DISTINCT FROM ROW(${sql.raw(theirs)})`,
        ),
      );
      if (changedRows.length === 0) continue;
      await tx.execute(
        sql`UPDATE ${sql.raw(q(name))} t SET ${sql.raw(sets.join(', '))}
              FROM ${source} WHERE ${sql.raw(join)} AND ROW(${sql.raw(mine)}) IS DISTINCT FROM ROW(${sql.raw(theirs)})`,
      );
      counts.updated += changedRows.length;
      for (const r of changedRows) {
        const changes = r.changes as Record<string, [unknown, unknown]>;
        opts.changed?.(
          keyProps.map((k) => r[k]),
          Object.entries(changes).map(([field, [from, to]]) => ({ field, from, to })),
        );
      }
    }
  }
  return counts;
}

/**
 * The columns a document record names. `fields` maps a document field to its column (or to a
 * function giving several columns); a field the record leaves out is left out of the row, so the
 * stored value stays; an explicit null is kept (it clears a nullable column).
 */
export function namedColumns<D extends object>(
  record: D,
  fields: { [K in keyof D]?: string | ((value: Exclude<D[K], undefined>) => Record<string, unknown>) },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, target] of Object.entries(fields) as [string, unknown][]) {
    const value = (record as Record<string, unknown>)[field];
    if (value === undefined) continue;
    if (typeof target === 'string') out[target] = value;
    else Object.assign(out, (target as (v: unknown) => Record<string, unknown>)(value));
  }
  return out;
}
