// The queue on real pg-boss workers, on PGlite (default) or PostgreSQL (DATABASE_URL).
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/support/db.js';
import { waitFor } from '../../test/support/wait.js';
import type { Database } from '../db/database.js';
import { type JobDefinition, type JobInfo, outcome } from './queue.js';
import { PgBossQueue } from './queue-pgboss.js';

const log = pino({ level: 'silent' });
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

function def<P>(
  over: Partial<JobDefinition<P>> & Pick<JobDefinition<P>, 'name' | 'queue' | 'handler'>,
): JobDefinition<P> {
  return { tries: 3, timeoutSeconds: 30, backoffSeconds: [30, 60, 180], ...over };
}

async function jobRow(id: string) {
  const { rows } = await database.query<{ state: string; retry_count: number; delay: number; output: unknown }>(
    `SELECT state::text AS state, retry_count, extract(epoch FROM start_after - now())::float AS delay, output
       FROM pgboss.job WHERE id = $1`,
    [id],
  );
  return rows[0];
}

describe('pg-boss queue with instant backoff', () => {
  let queue: PgBossQueue;
  const seen: Record<string, JobInfo[]> = {};
  const payloads: Record<string, unknown[]> = {};
  const exhausted: string[] = [];
  const record = (key: string, payload: unknown, job: JobInfo) => {
    seen[key] = [...(seen[key] ?? []), job];
    payloads[key] = [...(payloads[key] ?? []), payload];
  };

  const ok = def<{ n: number }>({
    name: 'test.ok',
    queue: 'q-shared',
    handler: async (p, job) => {
      record('ok', p, job);
      return outcome.done();
    },
  });
  const other = def<{ s: string }>({
    name: 'test.other',
    queue: 'q-shared',
    handler: async (p, job) => {
      record('other', p, job);
      return outcome.done();
    },
  });
  const flaky = def<{ key: string }>({
    name: 'test.flaky',
    queue: 'q-flaky',
    handler: async (p, job) => {
      record(p.key, p, job);
      return job.attempt < 3 ? outcome.retry(`try ${job.attempt} failed`) : outcome.done();
    },
  });
  const thrower = def<{ key: string }>({
    name: 'test.thrower',
    queue: 'q-flaky',
    handler: async (p, job) => {
      record(p.key, p, job);
      if (job.attempt === 1) throw new Error('boom');
      return outcome.done();
    },
  });
  const releaser = def<{ key: string }>({
    name: 'test.releaser',
    queue: 'q-release',
    tries: 1,
    handler: async (p, job) => {
      record(p.key, p, job);
      return (seen[p.key] ?? []).length < 3 ? outcome.release(0.1, 'rate limited') : outcome.done();
    },
  });
  const failing = def<{ key: string }>({
    name: 'test.failing',
    queue: 'q-fail',
    handler: async (p, job) => {
      record(p.key, p, job);
      return outcome.fail('permanent: 401');
    },
  });
  const hopeless = def<{ key: string }>({
    name: 'test.hopeless',
    queue: 'q-fail',
    tries: 2,
    handler: async (p, job) => {
      record(p.key, p, job);
      return outcome.retry(`still down (try ${job.attempt})`);
    },
    onExhausted: async (p, _job, error) => {
      exhausted.push(`${p.key}:${error}`);
    },
  });
  const ignoring = def<{ key: string }>({
    name: 'test.ignoring',
    queue: 'q-fail',
    handler: async (p, job) => {
      record(p.key, p, job);
      return outcome.ignore('not configured');
    },
  });
  const slowAbortReasons: string[] = [];
  const slow = def<{ key: string }>({
    name: 'test.slow',
    queue: 'q-slow',
    tries: 1,
    timeoutSeconds: 1,
    handler: async (p, job) => {
      record(p.key, p, job);
      // stands for an outside call that honours the signal: it ends when the time-out aborts it
      await new Promise((resolve) => job.signal.addEventListener('abort', resolve, { once: true }));
      slowAbortReasons.push(String(job.signal.reason));
      return new Promise(() => {});
    },
  });
  const unique = def<{ key: string }>({
    name: 'test.unique',
    queue: 'q-unique',
    uniqueSeconds: 600,
    handler: ok.handler as never,
  });

  // its worker "dies" on the last try (simulated): pg-boss expires it, and the queue must still
  // report the exhaustion
  const dyingRuns: number[] = [];
  const dying = def<{ key: string }>({
    name: 'test.dying',
    queue: 'q-dying',
    tries: 2,
    handler: async (_p, job) => {
      dyingRuns.push(job.attempt);
      return outcome.done();
    },
    onExhausted: async (p, _job, error) => {
      exhausted.push(`${p.key}:${error}`);
    },
  });

  // unique and worked: once its job has finished, the same key can be queued again
  let uniqueRuns = 0;
  const uniqueWorked = def<{ fail: boolean }>({
    name: 'test.unique-worked',
    queue: 'q-unique-worked',
    tries: 1,
    uniqueSeconds: 600,
    handler: async (p) => {
      uniqueRuns++;
      return p.fail ? outcome.fail('rejected') : outcome.done();
    },
  });

  beforeAll(async () => {
    queue = new PgBossQueue({
      database,
      log,
      backoffScale: 0,
      pollingIntervalSeconds: 0.5,
      maintenanceIntervalSeconds: 1,
    });
    for (const d of [ok, other, flaky, thrower, releaser, failing, hopeless, ignoring, slow, uniqueWorked, dying])
      queue.register(d as never);
    await queue.start({ workers: true });
  });
  afterAll(async () => {
    await queue.stop(2000);
  });

  it('routes several job classes on one queue by name', async () => {
    expect(await queue.dispatch(ok, { n: 1 })).toMatch(/^[0-9a-f-]{36}$/);
    await queue.dispatch(other, { s: 'x' });
    await waitFor(() => seen.ok?.length === 1 && seen.other?.length === 1);
    expect(payloads.ok).toEqual([{ n: 1 }]);
    expect(payloads.other).toEqual([{ s: 'x' }]);
    expect(seen.ok[0]).toMatchObject({ name: 'test.ok', queue: 'q-shared', attempt: 1 });
  });

  it('retries a failed try until it succeeds, counting attempts', async () => {
    const id = (await queue.dispatch(flaky, { key: 'flaky' }))!;
    await waitFor(async () => (await jobRow(id))?.state === 'completed');
    expect(seen.flaky.map((j) => j.attempt)).toEqual([1, 2, 3]);
  });

  it('treats a thrown error as a failed try', async () => {
    const id = (await queue.dispatch(thrower, { key: 'thrower' }))!;
    await waitFor(async () => (await jobRow(id))?.state === 'completed');
    expect(seen.thrower.map((j) => j.attempt)).toEqual([1, 2]);
  });

  it('releases without using a try', async () => {
    // tries: 1, so a release that used a try would fail the job
    const id = (await queue.dispatch(releaser, { key: 'rel' }))!;
    await waitFor(async () => (await jobRow(id))?.state === 'completed');
    expect(seen.rel.map((j) => j.attempt)).toEqual([1, 1, 1]);
  });

  it('fails without retry and keeps the failed job inspectable', async () => {
    const id = (await queue.dispatch(failing, { key: 'fail' }))!;
    await waitFor(async () => (await jobRow(id))?.state === 'failed');
    expect(seen.fail).toHaveLength(1);
    const failed = await queue.failedJobs('q-fail');
    expect(failed.find((f) => f.id === id)).toMatchObject({
      jobClass: 'test.failing',
      payload: { key: 'fail' },
      error: 'permanent: 401',
      tries: 1,
    });
  });

  it('calls onExhausted once when the last try fails', async () => {
    const id = (await queue.dispatch(hopeless, { key: 'hopeless' }))!;
    await waitFor(async () => (await jobRow(id))?.state === 'failed');
    expect(seen.hopeless.map((j) => j.attempt)).toEqual([1, 2]);
    expect(exhausted).toEqual(['hopeless:still down (try 2)']);
    expect((await queue.failedJobs('q-fail')).find((f) => f.id === id)?.error).toBe('still down (try 2)');
  });

  it('completes an ignored job without error', async () => {
    const id = (await queue.dispatch(ignoring, { key: 'ign' }))!;
    await waitFor(async () => (await jobRow(id))?.state === 'completed');
    expect((await jobRow(id)).output).toMatchObject({ outcome: 'ignored', reason: 'not configured' });
  });

  it('times a handler out and counts it as a failed try', async () => {
    const id = (await queue.dispatch(slow, { key: 'slow' }))!;
    await waitFor(async () => (await jobRow(id))?.state === 'failed', 5000);
    expect((await queue.failedJobs('q-slow'))[0].error).toBe('timed out after 1 s');
    // the handler's signal was aborted, so its outside calls stop instead of running on unseen
    expect(slowAbortReasons).toEqual(['JobTimeoutError: timed out after 1 s']);
  });

  it('drops a second dispatch with the same key inside the unique window', async () => {
    const first = await queue.dispatch(unique, { key: 'a' }, { uniqueKey: 'sub-1' });
    const second = await queue.dispatch(unique, { key: 'a' }, { uniqueKey: 'sub-1' });
    const otherKey = await queue.dispatch(unique, { key: 'b' }, { uniqueKey: 'sub-2' });
    expect(first).toBeTruthy();
    expect(second).toBeNull();
    expect(otherKey).toBeTruthy();
  });

  it('counts the window from the first dispatch, not from a clock-aligned slot', async () => {
    const first = await queue.dispatch(unique, { key: 'a' }, { uniqueKey: 'slot-edge', delaySeconds: 3600 });
    expect(first).toBeTruthy();
    // as if it was sent 30 s ago, just before the current 600 s slot began
    await database.query(
      `UPDATE pgboss.job SET created_on = now() - interval '30 seconds',
              singleton_on = singleton_on - interval '600 seconds' WHERE id = $1`,
      [first],
    );
    expect(await queue.dispatch(unique, { key: 'a' }, { uniqueKey: 'slot-edge' })).toBeNull();
    // 600 s after the first dispatch the window is over, even though that job still waits
    await database.query(`UPDATE pgboss.job SET created_on = now() - interval '601 seconds' WHERE id = $1`, [first]);
    const later = await queue.dispatch(unique, { key: 'a' }, { uniqueKey: 'slot-edge' });
    expect(later).toBeTruthy();
    expect(later).not.toBe(first);
  });

  it('queues the same key again inside the window once its job has failed or completed', async () => {
    const first = await queue.dispatch(uniqueWorked, { fail: true }, { uniqueKey: 'sub-9' });
    expect(first).toBeTruthy();
    await waitFor(async () => (await jobRow(first!))?.state === 'failed', 5000);
    // a retry after the failure (crm:retry-failed does this) is a new job, not "already queued"
    const retry = await queue.dispatch(uniqueWorked, { fail: false }, { uniqueKey: 'sub-9' });
    expect(retry).toBeTruthy();
    expect(retry).not.toBe(first);
    await waitFor(async () => (await jobRow(retry!))?.state === 'completed', 5000);
    expect(uniqueRuns).toBe(2);
    // ... and it is unique again while it waits: hold the queue's workers off with a delay
    const later = await queue.dispatch(uniqueWorked, { fail: false }, { uniqueKey: 'sub-9', delaySeconds: 300 });
    expect(later).toBeTruthy();
    expect(await queue.dispatch(uniqueWorked, { fail: false }, { uniqueKey: 'sub-9' })).toBeNull();
  });

  it('re-runs a job whose worker died mid-job once pg-boss expires it', async () => {
    const id = (await queue.dispatch(ok, { n: 99 }, { delaySeconds: 3600 }))!;
    // what a killed worker leaves behind: an active job started long ago
    await database.query(
      `UPDATE pgboss.job SET state = 'active', started_on = now() - interval '1 hour', start_after = now() - interval '1 hour'
        WHERE id = $1`,
      [id],
    );
    await waitFor(async () => (await jobRow(id))?.state === 'completed', 10_000);
    const rerun = seen.ok.find((j) => j.id === id)!;
    expect(rerun.attempt).toBe(2);
  });

  it('calls onExhausted and fails the job when the worker died on its last try', async () => {
    const id = (await queue.dispatch(dying, { key: 'd1' }, { delaySeconds: 3600 }))!;
    // a killed worker on try 2 of 2: active, started long ago, one retry already used
    await database.query(
      `UPDATE pgboss.job SET state = 'active', retry_count = 1, started_on = now() - interval '1 hour',
              start_after = now() - interval '1 hour'
        WHERE id = $1`,
      [id],
    );
    await waitFor(async () => (await jobRow(id))?.state === 'failed', 10_000);
    expect(exhausted).toContain('d1:the last try did not finish (its worker stopped)');
    expect(dyingRuns).toEqual([]); // the handler is not run a third time
    expect((await jobRow(id))?.retry_count).toBe(2);
  });
});

describe('pg-boss queue backoff schedule', () => {
  it('schedules tries after 30 then 60 s and a delayed dispatch after its delay', async () => {
    const queue = new PgBossQueue({ database, log, pollingIntervalSeconds: 0.5 });
    const attempts: number[] = [];
    const d = def<object>({
      name: 'test.backoff',
      queue: 'q-backoff',
      handler: async (_p, job) => {
        attempts.push(job.attempt);
        return outcome.retry('down');
      },
    });
    queue.register(d);
    await queue.start({ workers: true });
    try {
      const id = (await queue.dispatch(d, {}))!;
      await waitFor(async () => (await jobRow(id))?.state === 'retry');
      expect((await jobRow(id)).delay).toBeGreaterThan(25);
      expect((await jobRow(id)).delay).toBeLessThanOrEqual(30);
      // make the second try due now instead of in 30 s
      await database.query(`UPDATE pgboss.job SET start_after = now() WHERE id = $1`, [id]);
      await waitFor(async () => attempts.length === 2 && (await jobRow(id))?.state === 'retry');
      expect((await jobRow(id)).delay).toBeGreaterThan(55);
      expect((await jobRow(id)).delay).toBeLessThanOrEqual(60);
      await database.query(`UPDATE pgboss.job SET start_after = now() WHERE id = $1`, [id]);
      await waitFor(async () => (await jobRow(id))?.state === 'failed');
      expect(attempts).toEqual([1, 2, 3]);

      const later = (await queue.dispatch(d, {}, { delaySeconds: 120 }))!;
      expect((await jobRow(later)).delay).toBeGreaterThan(115);
      expect((await jobRow(later)).state).toBe('created');
    } finally {
      await queue.stop(2000);
    }
  });

  it('release waits for the given seconds', async () => {
    const queue = new PgBossQueue({ database, log, pollingIntervalSeconds: 0.5 });
    const d = def<object>({
      name: 'test.release-delay',
      queue: 'q-release-delay',
      handler: async () => outcome.release(42, 'HTTP 429'),
    });
    queue.register(d);
    await queue.start({ workers: true });
    try {
      const id = (await queue.dispatch(d, {}))!;
      await waitFor(async () => {
        const r = await jobRow(id);
        return r?.state === 'created' && r.delay > 30;
      });
      const row = await jobRow(id);
      expect(row.delay).toBeLessThanOrEqual(42);
      expect(row.retry_count).toBe(0);
      expect(row.output).toMatchObject({ outcome: 'released', message: 'HTTP 429' });
    } finally {
      await queue.stop(2000);
    }
  });
});

describe('pg-boss queue schedules', () => {
  it('stores one cron schedule per queue with the job class envelope', async () => {
    const queue = new PgBossQueue({ database, log });
    const handler = async () => outcome.done();
    const nightly = def<{ scope: string }>({ name: 'test.nightly', queue: 'q-nightly', handler });
    const other = def<object>({ name: 'test.other-nightly', queue: 'q-nightly', handler });
    try {
      await queue.schedule(nightly, '0 3 * * *', { scope: 'all' });
      const { rows } = await database.query<{ cron: string; data: unknown; tz: string }>(
        `SELECT cron, data, options->>'tz' AS tz FROM pgboss.schedule WHERE name = 'q-nightly'`,
      );
      expect(rows).toEqual([
        { cron: '0 3 * * *', data: { job: 'test.nightly', payload: { scope: 'all' } }, tz: 'UTC' },
      ]);
      await expect(queue.schedule(other, '0 4 * * *', {})).rejects.toThrow(/already has a schedule/);
    } finally {
      await queue.stop(1000);
    }
  });
});

describe('per-queue concurrency', () => {
  it('runs at most QUEUE_CONCURRENCY jobs of a queue at once, the default on the others', async () => {
    const running: Record<string, number> = { narrow: 0, wide: 0 };
    const peak: Record<string, number> = { narrow: 0, wide: 0 };
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const blocking = (queue: 'narrow' | 'wide') =>
      def<{ n: number }>({
        name: `test.block-${queue}`,
        queue: `q-${queue}`,
        handler: async () => {
          running[queue]++;
          peak[queue] = Math.max(peak[queue], running[queue]);
          await gate;
          running[queue]--;
          return outcome.done();
        },
      });
    const queue = new PgBossQueue({
      database,
      log,
      concurrency: 3,
      concurrencyByQueue: { 'q-narrow': 1 },
      pollingIntervalSeconds: 0.5,
    });
    const narrow = blocking('narrow');
    const wide = blocking('wide');
    queue.register(narrow);
    queue.register(wide);
    await queue.start({ workers: true });
    try {
      for (let n = 0; n < 3; n++) {
        await queue.dispatch(narrow, { n });
        await queue.dispatch(wide, { n });
      }
      await waitFor(() => running.wide === 3 && running.narrow === 1, 20_000);
      // a few more polls: the narrow queue still runs one job while the other two wait
      await new Promise((r) => setTimeout(r, 1_500));
      expect(peak).toEqual({ narrow: 1, wide: 3 });
    } finally {
      release();
      await waitFor(() => running.narrow === 0 && running.wide === 0, 20_000);
      await queue.stop();
    }
  });
});
