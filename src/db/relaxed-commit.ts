// The relaxed-commit CTE of the hottest writes (checkout sessions and booking starts).
/**
 * Relaxed commits: writes of checkout sessions and just-started bookings do not wait for the WAL
 * flush (synchronous_commit off for that transaction only). After a crash the last few hundred
 * milliseconds of them may be lost (the visitor starts again), never corrupted; the flush wait is
 * most of a write's latency on PostgreSQL. A statement that starts with this CTE and reads from
 * `relaxed` (INSERT ... SELECT ... FROM relaxed, UPDATE ... FROM relaxed) sets it for its own
 * implicit transaction, as SET LOCAL would, so a relaxed write is one round trip instead of four
 * (BEGIN, SET LOCAL, the write, COMMIT).
 */
export const RELAXED_CTE = `relaxed AS (SELECT set_config('synchronous_commit', 'off', true) AS sc)`;
