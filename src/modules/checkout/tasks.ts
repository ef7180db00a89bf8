// Scheduled tasks of the checkout module: abandoned checkouts. Every start writes a booking with
// status `checkout` (the funnel); once its session has expired and no payment was started, it is
// marked `abandoned` (kept for funnel statistics), and deleted after the retention period.
import type { AppContext } from '../../context.js';
import type { Task } from '../../platform/tasks.js';
import { BookingStatus } from '../bookings/rules.js';

/** bookings handled per statement, so one run never holds a long lock */
const BATCH = 5_000;

/**
 * Marks abandoned the `checkout` bookings without activity for the session lifetime, without a
 * live database session and without any payment record. Returns how many.
 */
export async function markAbandonedCheckouts(ctx: Pick<AppContext, 'database' | 'config'>, now: Date): Promise<number> {
  const idleSince = new Date(now.getTime() - ctx.config.checkout.sessionTtlMinutes * 60_000);
  let total = 0;
  for (;;) {
    const { rows } = await ctx.database.query<{ n: number }>(
      `WITH candidates AS (
         SELECT b.id FROM bookings b
          WHERE b.status = $1 AND b.updated_at < $3 AND b.created_at < $3
            AND NOT EXISTS (SELECT 1 FROM checkout_sessions s WHERE s.booking_id = b.id AND s.expires_at > $4)
            AND NOT EXISTS (SELECT 1 FROM booking_payments p WHERE p.booking_id = b.id)
          ORDER BY b.id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
       ), moved AS (
         UPDATE bookings b SET status = $2, updated_at = $4 FROM candidates c
          WHERE b.id = c.id AND b.status = $1 RETURNING b.id
       ), recorded AS (
         INSERT INTO booking_status_transitions (booking_id, from_status, to_status, metadata, created_at)
         SELECT id, $1, $2, '{"reason":"session_expired"}'::jsonb, $4 FROM moved RETURNING 1
       )
       SELECT count(*)::int AS n FROM recorded`,
      [BookingStatus.checkout, BookingStatus.abandoned, idleSince, now],
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < BATCH) return total;
  }
}

/** Deletes abandoned bookings (with their step visits and transitions) older than the retention. */
export async function pruneAbandonedCheckouts(
  ctx: Pick<AppContext, 'database' | 'config'>,
  now: Date,
): Promise<number> {
  const before = new Date(now.getTime() - ctx.config.checkout.abandonedRetentionDays * 86_400_000);
  let total = 0;
  for (;;) {
    const { rows } = await ctx.database.query<{ n: number }>(
      `WITH gone AS (
         DELETE FROM bookings WHERE id IN (
           SELECT id FROM bookings WHERE status = $1 AND updated_at < $2 ORDER BY id LIMIT ${BATCH}
         ) AND status = $1 RETURNING 1
       ) SELECT count(*)::int AS n FROM gone`,
      [BookingStatus.abandoned, before],
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < BATCH) return total;
  }
}

export function tasks(_ctx: AppContext): Task[] {
  return [
    {
      name: 'checkout.abandon',
      describe:
        'mark checkout bookings whose session expired as abandoned; delete abandoned ones older than ' +
        'CHECKOUT_ABANDONED_RETENTION_DAYS',
      cron: '23 * * * *',
      timeoutSeconds: 600,
      async run(ctx, run) {
        const now = ctx.clock.now();
        const marked = await markAbandonedCheckouts(ctx, now);
        const pruned = await pruneAbandonedCheckouts(ctx, now);
        const message = `${marked} checkout bookings marked abandoned, ${pruned} abandoned bookings deleted`;
        run.out(message);
        return { ok: true, message };
      },
    },
  ];
}
