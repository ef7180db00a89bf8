// Tables of the ops module: recorded deployments, health check history and the cross-process
// throttle of health notifications (see its migration range 0500 in src/db/migrations).
import {
  bigint,
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

/** One row per POST /api/deployments; the dashboard shows the latest 20. */
export const deployments = pgTable(
  'deployments',
  {
    id: serial('id').primaryKey(),
    environment: varchar('environment', { length: 50 }).notNull(),
    version: varchar('version', { length: 100 }).notNull(),
    commit: varchar('commit', { length: 40 }).notNull(),
    /** ISO 8601 date or date-time exactly as the pipeline sent it */
    buildDate: varchar('build_date', { length: 40 }).notNull(),
    buildId: varchar('build_id', { length: 50 }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('deployments_recorded_at_idx').on(t.recordedAt)],
);

/** One row per check per health run; kept one day (pruneHealthHistory). */
export const healthCheckResults = pgTable(
  'health_check_results',
  {
    id: serial('id').primaryKey(),
    /** the run the result belongs to; all its rows share finished_at */
    batch: uuid('batch').notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    /** ok | warning | failed */
    status: varchar('status', { length: 10 }).notNull(),
    message: text('message'),
    meta: jsonb('meta').$type<Record<string, unknown>>(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('health_check_results_finished_at_idx').on(t.finishedAt)],
);

/** When a throttled notification (e.g. 'health:failed') was last sent, shared by every process. */
export const opsNotificationThrottles = pgTable('ops_notification_throttles', {
  key: varchar('key', { length: 100 }).primaryKey(),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
});

/** One row per run of a scheduled task (src/tasks.ts), by the workers or `npm run task`. */
export const taskRuns = pgTable(
  'task_runs',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 100 }).notNull(),
    /** schedule | command */
    trigger: varchar('trigger', { length: 20 }).notNull(),
    asOf: timestamp('as_of', { withTimezone: true }).notNull(),
    ok: boolean('ok').notNull(),
    message: text('message').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('task_runs_name_finished_at_idx').on(t.name, t.finishedAt)],
);

/**
 * Counters shared by every process (workers count, the server's /metrics shows them), e.g.
 * crm_sync_failed_total{model="lead"}: `labels` is the Prometheus label text without braces.
 */
export const opsCounters = pgTable(
  'ops_counters',
  {
    name: varchar('name', { length: 100 }).notNull(),
    labels: varchar('labels', { length: 255 }).notNull().default(''),
    value: bigint('value', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ name: 'ops_counters_pkey', columns: [t.name, t.labels] })],
);
