// Tables of the monitoring module (migration range 0550): per-minute request aggregates behind
// /pulse (kept 7 days) and the request log behind /telescope (kept 14 days). Both are written in
// batches by the in-process recorder, never once per request.
import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';

/**
 * Requests of one minute for one method, route pattern and status, as flushed by one process
 * (several rows may share a key: readers sum them).
 */
export const pulseRequestAggregates = pgTable(
  'pulse_request_aggregates',
  {
    id: serial('id').primaryKey(),
    /** start of the minute (UTC) */
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    method: varchar('method', { length: 10 }).notNull(),
    /** route pattern (/api/:market/:lang/...), or '(unmatched)' for 404s without a route */
    route: varchar('route', { length: 300 }).notNull(),
    status: smallint('status').notNull(),
    count: integer('count').notNull(),
    durationSumMs: doublePrecision('duration_sum_ms').notNull(),
    durationMaxMs: doublePrecision('duration_max_ms').notNull(),
    /** request counts per duration bucket (monitoring rules.ts DURATION_BUCKETS_MS, last open-ended) */
    durationBuckets: integer('duration_buckets').array().notNull(),
  },
  (t) => [index('pulse_request_aggregates_minute_idx').on(t.minute)],
);

/** One row per recorded request: no body, no cookies, no credentials; 5xx rows carry the error. */
export const telescopeRequests = pgTable(
  'telescope_requests',
  {
    id: serial('id').primaryKey(),
    requestId: varchar('request_id', { length: 100 }).notNull(),
    method: varchar('method', { length: 10 }).notNull(),
    /** path without the query string (signed URLs carry secrets there) */
    path: varchar('path', { length: 500 }).notNull(),
    route: varchar('route', { length: 300 }),
    status: smallint('status').notNull(),
    durationMs: doublePrecision('duration_ms').notNull(),
    /** request headers minus credentials and cookies */
    headers: jsonb('headers').$type<Record<string, string>>().notNull(),
    errorName: varchar('error_name', { length: 100 }),
    errorMessage: text('error_message'),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('telescope_requests_recorded_at_idx').on(t.recordedAt),
    index('telescope_requests_request_id_idx').on(t.requestId),
  ],
);
