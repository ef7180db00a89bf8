// One handle over either PostgreSQL (pg Pool) or embedded PGlite, so the rest of the code has
// one path: Drizzle for typed queries, `exec` for multi-statement SQL (migrations, pg-boss).
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle; has the same query API as Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  kind: 'postgres' | 'pglite';
  db: Db;
  /** Runs parameterless SQL that may hold several statements. */
  exec(sql: string): Promise<void>;
  /**
   * Runs one parameterised statement. `name` makes it a named prepared statement on PostgreSQL
   * (parsed and planned once per connection; one name, one text); PGlite ignores it.
   */
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    name?: string,
  ): Promise<{ rows: T[]; rowCount: number }>;
  close(): Promise<void>;
  pglite?: PGlite;
  pool?: pg.Pool;
}

// NUMERIC and BIGINT come back as strings on both drivers: money stays exact.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => v);

export function connectPostgres(url: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  pool.on('error', () => {
    // idle client errors (server restart) surface on the next query; do not crash the process
  });
  return {
    kind: 'postgres',
    db: drizzlePg(pool, { schema }),
    pool,
    async exec(sql) {
      await pool.query(sql);
    },
    async query(sql, params, name) {
      const r = await pool.query({ text: sql, values: params as unknown[], name });
      return { rows: r.rows, rowCount: r.rowCount ?? 0 };
    },
    close: () => pool.end(),
  };
}

export function wrapPglite(pglite: PGlite): Database {
  return {
    kind: 'pglite',
    db: drizzlePglite(pglite, { schema }) as unknown as Db,
    pglite,
    async exec(sql) {
      await pglite.exec(sql);
    },
    async query(sql, params) {
      const r = await pglite.query(sql, params as unknown[]);
      return { rows: r.rows as never[], rowCount: r.affectedRows ?? r.rows.length };
    },
    close: () => pglite.close(),
  };
}

/** dir: a directory for a file-backed database, or 'memory'. */
export async function openPglite(dir: string): Promise<Database> {
  if (dir !== 'memory') mkdirSync(dir, { recursive: true });
  const pglite = await PGlite.create(dir === 'memory' ? undefined : dir);
  return wrapPglite(pglite);
}

export async function openDatabase(opts: { databaseUrl?: string; pgliteDir: string }): Promise<Database> {
  return opts.databaseUrl ? connectPostgres(opts.databaseUrl) : openPglite(opts.pgliteDir);
}
