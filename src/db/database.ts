// One handle over either PostgreSQL (pg Pool) or embedded PGlite, so the rest of the code has
// one path: Drizzle for typed queries, `exec` for multi-statement SQL (migrations, pg-boss).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { ConfigError } from '../config.js';
import { projectRoot } from '../platform/paths.js';
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

export interface PostgresLimits {
  /** server-side statement_timeout of every connection, ms (0 = none) */
  statementTimeoutMs?: number;
  /** wait for a pooled (or new) connection, ms; a stalled or full server fails fast instead of queueing forever */
  acquireTimeoutMs?: number;
  /**
   * server-side idle_in_transaction_session_timeout, ms (0 = none): a transaction its client left
   * open (gave up on, or lost the network to) is rolled back by the server
   */
  idleInTransactionTimeoutMs?: number;
  /** told of a connection that failed while idle or checked out (the process carries on) */
  onConnectionError?: (err: Error) => void;
}

/** The client-side read deadline past the server's statement_timeout: the server gets the first chance. */
export const READ_DEADLINE_MARGIN_MS = 1_000;

type QueryArgs = unknown[];

/**
 * A pooled connection's safety: an 'error' listener for its whole life (pg emits 'error' on a
 * checked-out client whose connection dies between queries; without a listener that is an uncaught
 * exception and the process exits), and a read time-out closes the socket, so nothing written after
 * the client gave up (a COMMIT queued behind the stalled statement) ever reaches the server, and the
 * server rolls the transaction back when it sees the connection go.
 */
function guardClient(client: pg.PoolClient, onError: (err: Error) => void): void {
  client.on('error', onError);
  const destroy = (err: unknown) => {
    if ((err as Error | undefined)?.message === 'Query read timeout') {
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    }
  };
  const query = client.query.bind(client) as (...args: QueryArgs) => unknown;
  (client as unknown as { query: (...args: QueryArgs) => unknown }).query = (...args: QueryArgs) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (err: unknown, res: unknown) => {
        if (err) destroy(err);
        (callback as (e: unknown, r: unknown) => void)(err, res);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).catch(destroy);
    return result;
  };
}

export function connectPostgres(url: string, max = 10, limits: PostgresLimits = {}): Database {
  const statement = limits.statementTimeoutMs ?? 0;
  const idleInTransaction = limits.idleInTransactionTimeoutMs ?? 0;
  const onError = limits.onConnectionError ?? (() => {});
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: limits.acquireTimeoutMs ?? 0,
    // the server cancels a statement past statement_timeout; a server (or network) that stops
    // answering altogether is caught by the client-side query_timeout a second later
    ...(statement > 0 ? { statement_timeout: statement, query_timeout: statement + READ_DEADLINE_MARGIN_MS } : {}),
    ...(idleInTransaction > 0 ? { idle_in_transaction_session_timeout: idleInTransaction } : {}),
    keepAlive: true,
  });
  // idle clients' errors (a server restart, pg_terminate_backend) come here; the pool drops them
  pool.on('error', onError);
  // checked-out clients: their own listener, for as long as they live
  pool.on('connect', (client) => guardClient(client, onError));
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

/**
 * PGlite and its Drizzle driver are loaded only when the embedded database is used: they are
 * development dependencies (`npm start`'s demo), absent from the production image.
 */
async function pgliteModules() {
  try {
    const [{ PGlite }, { drizzle }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
    return { PGlite, drizzle };
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    throw new ConfigError(
      'DATABASE_URL must be set: the embedded database (PGlite) is a development dependency, not installed here',
    );
  }
}

export async function wrapPglite(pglite: PGlite): Promise<Database> {
  const { drizzle } = await pgliteModules();
  return {
    kind: 'pglite',
    db: drizzle(pglite, { schema }) as unknown as Db,
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

/**
 * PGlite writes this file as the database's postgresql.conf on every open. It is initdb's file with
 * shared_buffers at 16 MB instead of 128 MB: the embedded database holds a demo-sized catalog, and
 * the smaller pool takes about 120 MB off the server's RSS.
 */
export const PGLITE_CONF = [
  'shared_buffers = 16MB',
  'max_connections = 20',
  'dynamic_shared_memory_type = posix',
  'max_wal_size = 1GB',
  'min_wal_size = 80MB',
  'log_timezone = UTC',
  "datestyle = 'iso, mdy'",
  'timezone = UTC',
  'lc_messages = C',
  'lc_monetary = C',
  'lc_numeric = C',
  'lc_time = C',
  "default_text_search_config = 'pg_catalog.english'",
];

/**
 * Creates a new data directory in a child process. PGlite's initdb runs in a WebAssembly instance
 * of its own that peaks near 600 MB and that V8 gives back only over many seconds; in a short-lived
 * child that memory is gone when the child exits, and the server starts at its normal size.
 */
async function initPgliteDir(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const script = `import { PGlite } from '@electric-sql/pglite';
const db = await PGlite.create(${JSON.stringify(dir)});
await db.close();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: projectRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`creating the embedded database in ${dir} failed (exit ${code})`);
}

/** dir: a directory for a file-backed database, or 'memory'. */
export async function openPglite(dir: string): Promise<Database> {
  const { PGlite } = await pgliteModules();
  if (dir !== 'memory' && !existsSync(join(dir, 'PG_VERSION'))) await initPgliteDir(dir);
  const pglite = await PGlite.create({ dataDir: dir === 'memory' ? undefined : dir, postgresqlconf: PGLITE_CONF });
  return wrapPglite(pglite);
}

/**
 * What the connections serve: `requests` (the API process) get the short DATABASE_REQUEST_STATEMENT_TIMEOUT_MS
 * and an idle-in-transaction limit of the same length, so a request answers 503 within
 * DATABASE_ACQUIRE_TIMEOUT_MS plus that deadline and a write it gave up on is rolled back; `jobs`
 * (workers, imports, operator commands) get DATABASE_STATEMENT_TIMEOUT_MS.
 */
export type DatabasePurpose = 'requests' | 'jobs';

export async function openDatabase(
  opts: {
    databaseUrl?: string;
    pgliteDir: string;
    limits?: { dbStatementTimeoutMs: number; dbRequestStatementTimeoutMs?: number; dbAcquireTimeoutMs: number };
    databasePoolSize?: number;
  },
  purpose: DatabasePurpose = 'jobs',
  onConnectionError?: (err: Error) => void,
): Promise<Database> {
  const request = purpose === 'requests' ? opts.limits?.dbRequestStatementTimeoutMs : undefined;
  return opts.databaseUrl
    ? connectPostgres(opts.databaseUrl, opts.databasePoolSize ?? 10, {
        statementTimeoutMs: request ?? opts.limits?.dbStatementTimeoutMs,
        idleInTransactionTimeoutMs: request,
        acquireTimeoutMs: opts.limits?.dbAcquireTimeoutMs,
        onConnectionError,
      })
    : openPglite(opts.pgliteDir);
}

/**
 * A Drizzle transaction as a raw-SQL executor ($1, $2, ... placeholders), so work that speaks SQL
 * text (enqueueing a job) commits or rolls back with the transaction's rows.
 */
export function txExecutor(tx: DbOrTx): { executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }> } {
  return {
    async executeSql(text, values = []) {
      // Drizzle numbers its own placeholders: each $N becomes a parameter (a repeated one twice)
      const parts = text.split(/\$(\d+)/);
      const query = sql.join(
        parts.map((p, i) => (i % 2 === 0 ? sql.raw(p) : sql`${values[Number(p) - 1] ?? null}`)),
        sql.raw(''),
      );
      const result = (await tx.execute(query)) as unknown as { rows: any[] };
      return { rows: result.rows };
    },
  };
}
