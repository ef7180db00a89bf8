// Business gauges on /metrics, read from the database at scrape time: bookings by status, payments
// by outcome (count and amount), flight legs by outcome, CRM and marketing sync state, and the job
// queues (waiting, active, failed per queue). They describe the whole installation, so every API
// replica reports the same values: alert rules take max() over instances (docs/alerts.yml).
import { Gauge, type Registry } from 'prom-client';
import type { AppContext } from '../../context.js';
import { withDeadline } from '../ops/deadline.js';

/** a scrape must answer even when the database is slow: the gauges then keep their last values */
const SCRAPE_DEADLINE_MS = 2_000;

type Row = Record<string, string | number | null>;

interface GaugeSpec {
  name: string;
  help: string;
  labels: string[];
  sql: string;
  /** the column holding the value (default n) */
  value?: string;
}

const GAUGES: GaugeSpec[] = [
  {
    name: 'itinera_bookings',
    help: 'Bookings by status',
    labels: ['status'],
    sql: 'SELECT status, count(*) AS n FROM bookings GROUP BY status',
  },
  {
    name: 'itinera_payments',
    help: 'Payments by gateway status (Succeeded, Failed, ...)',
    labels: ['outcome'],
    sql: 'SELECT status AS outcome, count(*) AS n FROM booking_payments GROUP BY status',
  },
  {
    name: 'itinera_payments_amount',
    help: 'Sum of payment amounts by status and currency, in major units',
    labels: ['outcome', 'currency'],
    sql: 'SELECT status AS outcome, currency, sum(amount) AS n FROM booking_payments GROUP BY status, currency',
  },
  {
    name: 'itinera_flight_legs',
    help: 'Booked flight legs by provider status',
    labels: ['outcome'],
    sql: 'SELECT status AS outcome, count(*) AS n FROM flight_bookings GROUP BY status',
  },
  {
    name: 'itinera_flight_legs_unmatched',
    help: 'Flight legs whose fare the provider no longer offers (booking needs a person)',
    labels: [],
    sql: 'SELECT count(*) AS n FROM flight_leg_attempts WHERE no_match_count > 0',
  },
  {
    name: 'itinera_crm_sync_records',
    help: 'CRM sync records by model and status (Pending, Synced, Failed, Ignored)',
    labels: ['model', 'status'],
    sql: 'SELECT model_type AS model, status, count(*) AS n FROM crm_sync_records GROUP BY model_type, status',
  },
  {
    name: 'itinera_marketing_subscribers',
    help: 'Newsletter subscribers by marketing sync state (synced: has a marketing contact)',
    labels: ['state'],
    sql: `SELECT CASE WHEN marketing_contact_id IS NULL THEN 'pending' ELSE 'synced' END AS state, count(*) AS n
            FROM newsletter_subscribers GROUP BY 1`,
  },
  {
    name: 'itinera_queue_jobs',
    help: 'Jobs per queue and state (waiting = created or retry)',
    labels: ['queue', 'state'],
    sql: `SELECT name AS queue, CASE WHEN state::text IN ('created', 'retry') THEN 'waiting' ELSE state::text END AS state,
                 count(*) AS n
            FROM pgboss.job WHERE name NOT LIKE '\\_\\_pgboss%' AND state::text IN ('created', 'retry', 'active', 'failed')
           GROUP BY 1, 2`,
  },
];

export function registerBusinessMetrics(registry: Registry, ctx: AppContext): void {
  for (const spec of GAUGES) {
    new Gauge({
      name: spec.name,
      help: spec.help,
      labelNames: spec.labels,
      registers: [registry],
      async collect() {
        let rows: Row[];
        try {
          rows = (await withDeadline(ctx.database.query<Row>(spec.sql), SCRAPE_DEADLINE_MS, spec.name)).rows;
        } catch (err) {
          ctx.log.warn({ err, metric: spec.name }, 'business metric not read');
          return;
        }
        this.reset();
        for (const row of rows) {
          const labels = Object.fromEntries(spec.labels.map((l) => [l, String(row[l] ?? '')]));
          this.set(labels, Number(row[spec.value ?? 'n'] ?? 0));
        }
      },
    });
  }
}
