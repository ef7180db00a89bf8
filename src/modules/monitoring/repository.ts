// SQL of the monitoring module: batched inserts of request aggregates and request log entries,
// the reads behind /pulse and /telescope, and pruning by age.
import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { Database, Db } from '../../db/database.js';
import { pulseRequestAggregates, telescopeRequests } from '../../db/schema/index.js';

export type AggregateRow = typeof pulseRequestAggregates.$inferInsert;
export type TelescopeInsert = typeof telescopeRequests.$inferInsert;
export type TelescopeEntry = typeof telescopeRequests.$inferSelect;

/** rows per INSERT: well under PostgreSQL's 65535 bind parameters */
const CHUNK = 1000;

export async function insertAggregates(db: Db, rows: AggregateRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await db.insert(pulseRequestAggregates).values(rows.slice(i, i + CHUNK));
}

/**
 * The request log's batch goes in as one JSON parameter, not as ten bind parameters a row: building
 * a 1,000-row insert with the query builder held the event loop for 60-100 ms every flush, which
 * every in-flight request then waited out.
 */
export async function insertTelescopeEntries(database: Database, rows: TelescopeInsert[]): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(
    rows.map((r) => ({
      request_id: r.requestId,
      method: r.method,
      path: r.path,
      route: r.route ?? null,
      status: r.status,
      duration_ms: r.durationMs,
      headers: r.headers,
      error_name: r.errorName ?? null,
      error_message: r.errorMessage ?? null,
      recorded_at: r.recordedAt,
    })),
  );
  await database.query(
    `INSERT INTO telescope_requests
       (request_id, method, path, route, status, duration_ms, headers, error_name, error_message, recorded_at)
     SELECT request_id, method, path, route, status, duration_ms, headers, error_name, error_message, recorded_at
       FROM json_to_recordset($1::json) AS r(request_id varchar(100), method varchar(10), path varchar(500),
            route varchar(300), status smallint, duration_ms double precision, headers jsonb,
            error_name varchar(100), error_message text, recorded_at timestamptz)`,
    [json],
  );
}

export interface RouteTotals {
  method: string;
  route: string;
  count: number;
  errors: number;
  durationSumMs: number;
  durationMaxMs: number;
  buckets: number[];
}

/** per method and route since `since`: totals, 5xx count and the summed duration buckets */
export async function routeTotals(database: Database, since: Date): Promise<RouteTotals[]> {
  const { rows: totals } = await database.query<{
    method: string;
    route: string;
    n: string | number;
    errors: string | number;
    sum_ms: number;
    max_ms: number;
  }>(
    `SELECT method, route, sum(count) AS n, coalesce(sum(count) FILTER (WHERE status >= 500), 0) AS errors,
            sum(duration_sum_ms) AS sum_ms, max(duration_max_ms) AS max_ms
       FROM pulse_request_aggregates WHERE minute >= $1 GROUP BY method, route`,
    [since.toISOString()],
  );
  const { rows: buckets } = await database.query<{ method: string; route: string; i: number; n: string | number }>(
    `SELECT a.method, a.route, b.i::int AS i, sum(b.n) AS n
       FROM pulse_request_aggregates a, unnest(a.duration_buckets) WITH ORDINALITY AS b(n, i)
      WHERE a.minute >= $1 GROUP BY a.method, a.route, b.i`,
    [since.toISOString()],
  );
  const byKey = new Map<string, RouteTotals>();
  for (const r of totals) {
    byKey.set(`${r.method} ${r.route}`, {
      method: r.method,
      route: r.route,
      count: Number(r.n),
      errors: Number(r.errors),
      durationSumMs: Number(r.sum_ms),
      durationMaxMs: Number(r.max_ms),
      buckets: [],
    });
  }
  for (const b of buckets) {
    const t = byKey.get(`${b.method} ${b.route}`);
    if (t) t.buckets[Number(b.i) - 1] = Number(b.n);
  }
  return [...byKey.values()];
}

/** requests per minute since `since` (all routes), oldest first; minutes without requests left out */
export async function requestsPerMinute(
  database: Database,
  since: Date,
): Promise<Array<{ minute: Date; count: number }>> {
  const { rows } = await database.query<{ minute: string | Date; n: string | number }>(
    `SELECT minute, sum(count) AS n FROM pulse_request_aggregates WHERE minute >= $1 GROUP BY minute ORDER BY minute`,
    [since.toISOString()],
  );
  return rows.map((r) => ({ minute: new Date(r.minute), count: Number(r.n) }));
}

export async function slowRequests(db: Db, since: Date, minMs: number, limit: number): Promise<TelescopeEntry[]> {
  return db
    .select()
    .from(telescopeRequests)
    .where(and(gte(telescopeRequests.recordedAt, since), gte(telescopeRequests.durationMs, minMs)))
    .orderBy(desc(telescopeRequests.durationMs))
    .limit(limit);
}

export async function recentRequests(db: Db, limit: number): Promise<TelescopeEntry[]> {
  return db
    .select()
    .from(telescopeRequests)
    .orderBy(desc(telescopeRequests.recordedAt), desc(telescopeRequests.id))
    .limit(limit);
}

export async function recentExceptions(db: Db, limit: number): Promise<TelescopeEntry[]> {
  return db
    .select()
    .from(telescopeRequests)
    .where(gte(telescopeRequests.status, 500))
    .orderBy(desc(telescopeRequests.recordedAt), desc(telescopeRequests.id))
    .limit(limit);
}

/** every entry with this request id, newest first (clients may send their own X-Request-Id) */
export async function requestsById(db: Db, requestId: string): Promise<TelescopeEntry[]> {
  return db
    .select()
    .from(telescopeRequests)
    .where(eq(telescopeRequests.requestId, requestId))
    .orderBy(desc(telescopeRequests.recordedAt), desc(telescopeRequests.id))
    .limit(20);
}

export async function deleteAggregatesBefore(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(pulseRequestAggregates)
    .where(lt(pulseRequestAggregates.minute, before))
    .returning({ id: pulseRequestAggregates.id });
  return rows.length;
}

export async function deleteTelescopeBefore(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(telescopeRequests)
    .where(lt(telescopeRequests.recordedAt, before))
    .returning({ id: telescopeRequests.id });
  return rows.length;
}
