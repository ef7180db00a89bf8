// The job queue (platform/queue.ts) on pg-boss 10, over PostgreSQL or PGlite.
//
// How the contract maps onto pg-boss:
// - One pg-boss queue per JobDefinition.queue; several job classes share it: the job's data is
//   {job: <class name>, payload}, and the worker routes by class name.
// - tries -> retryLimit = tries: pg-boss counts tries in retry_count, and the one try beyond `tries`
//   is only reached when the last real try never reported back (its worker was killed and pg-boss
//   expired the job); that try does not run the handler, it calls onExhausted and fails the job.
//   Every other end (exhausted retries, fail) lowers retry_limit first, so pg-boss stops there.
// - backoff list: pg-boss's own backoff is exponential, so every job is sent with a fixed
//   (non-exponential) retry_delay, and before a `retry` outcome is handed to pg-boss the job's
//   retry_delay is set to the list's entry for that try. The retry itself is pg-boss's (same job
//   id, same unique key, failed-state bookkeeping), so a crashed worker's job is retried the same way.
// - time-out: the handler races timeoutSeconds (a time-out is a `retry`); pg-boss's expireInSeconds
//   is set a little longer, so a job whose worker was killed is expired by pg-boss's maintenance
//   and retried: nothing is lost, handlers are idempotent.
// - release(seconds): the job row goes back to `created` with start_after = now() + seconds and
//   started_on cleared, so pg-boss's fetch does not count it as a new try.
// - fail: retry_limit is lowered to the tries used, then pg-boss fails the job (state `failed`,
//   kept for inspection; see failedJobs()).
// - unique window: counted from the first dispatch. A dispatch is dropped (null) while a job of
//   the key sent less than uniqueSeconds ago is still waiting, retrying or running (checked on the
//   job table first, since pg-boss aligns singletonSeconds slots to the clock); pg-boss's
//   singletonKey + singletonSeconds then settles two dispatches racing inside one slot. A slot also
//   holds finished jobs: when every job of the key in the slot has finished (completed or failed),
//   the dispatch is sent again without a slot, so a retry after a failure is not dropped.
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { DispatchOptions, JobDefinition, JobInfo, JobOutcome, Queue } from './queue.js';

/** What a job row holds in pg-boss's `data` column. */
interface Envelope {
  job: string;
  payload: unknown;
}

/** The part of the database handle the queue needs (src/db/database.ts's Database fits). */
export interface QueueDatabase {
  kind: 'postgres' | 'pglite';
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[]; rowCount: number }>;
  pglite?: {
    exec(sql: string): Promise<Array<{ rows: unknown[] }>>;
    query(sql: string, params?: unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }>;
  };
  pool?: { query(sql: string, params?: unknown[]): Promise<unknown> };
}

export interface PgBossQueueOptions {
  database: QueueDatabase;
  log: FastifyBaseLogger;
  /** pg-boss's schema (default 'pgboss') */
  schema?: string;
  /** seconds between polls of an idle queue (pg-boss minimum 0.5; default 2) */
  pollingIntervalSeconds?: number;
  /** jobs run at the same time per queue in this process (default 5) */
  concurrency?: number;
  /** per-queue exceptions to `concurrency` */
  concurrencyByQueue?: Record<string, number>;
  /** multiplies every backoff delay; tests use 0 to retry at once (default 1) */
  backoffScale?: number;
  /** seconds between pg-boss maintenance runs (expiry of jobs whose worker died; default 60) */
  maintenanceIntervalSeconds?: number;
}

export interface FailedJob {
  id: string;
  queue: string;
  jobClass: string;
  payload: unknown;
  error: string | null;
  tries: number;
  createdOn: Date;
  failedOn: Date | null;
}

export interface JobCounts {
  waiting: number;
  active: number;
  completed: number;
  failed: number;
}

/** Extra seconds of pg-boss expiry past the handler's own time-out. */
const EXPIRY_MARGIN_SECONDS = 15;

export class PgBossQueue implements Queue {
  private readonly boss: PgBoss;
  private readonly defs = new Map<string, JobDefinition<any>>();
  private readonly queues = new Set<string>();
  private readonly created = new Set<string>();
  private readonly workerIds = new Map<string, string[]>();
  private readonly scheduledQueues = new Map<string, string>();
  private readonly opts: Required<Omit<PgBossQueueOptions, 'database' | 'log'>>;
  private started: Promise<void> | undefined;
  private working = false;
  private readonly executeSql: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

  constructor(private readonly options: PgBossQueueOptions) {
    this.opts = {
      schema: options.schema ?? 'pgboss',
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
      concurrency: options.concurrency ?? 5,
      concurrencyByQueue: options.concurrencyByQueue ?? {},
      backoffScale: options.backoffScale ?? 1,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
    };
    this.executeSql = sqlExecutor(options.database);
    this.boss = new PgBoss({
      db: { executeSql: settledCompletions(this.executeSql, this.opts.schema, options.log) },
      schema: this.opts.schema,
      maintenanceIntervalSeconds: this.opts.maintenanceIntervalSeconds,
      // failed jobs stay in the job table (inspectable, retryable) for a week before archiving
      archiveFailedAfterSeconds: 7 * 24 * 3600,
      deleteAfterDays: 30,
    });
    this.boss.on('error', (err: Error) => options.log.error({ err }, 'job queue error'));
  }

  register<P>(def: JobDefinition<P>): void {
    const known = this.defs.get(def.name);
    if (known && known.queue !== def.queue) {
      throw new Error(`job class ${def.name} registered on two queues (${known.queue}, ${def.queue})`);
    }
    this.defs.set(def.name, def);
    this.queues.add(def.queue);
  }

  /** Installs pg-boss's schema, creates the queues; with `workers`, runs the registered handlers. */
  async start(opts: { workers: boolean }): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      for (const q of this.queues) await this.ensureQueue(q);
    })().catch((err) => {
      // forget the failed start so a later call tries again
      this.started = undefined;
      throw err;
    });
    await this.started;
    if (opts.workers && !this.working) {
      this.working = true;
      for (const q of this.queues) await this.work(q);
    }
  }

  /** Stops polling, waits (up to `timeoutMs`) for running jobs, then leaves unfinished ones to expiry. */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (!this.started) return;
    await this.started.catch(() => {});
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
    this.started = undefined;
    this.working = false;
    this.workerIds.clear();
  }

  async dispatch<P>(def: JobDefinition<P>, payload: P, opts: DispatchOptions = {}): Promise<string | null> {
    await this.ensureStarted();
    await this.ensureQueue(def.queue);
    const envelope: Envelope = { job: def.name, payload };
    if (!opts.uniqueKey || !def.uniqueSeconds) return this.send(def, envelope, opts);
    const singletonKey = `${def.name}:${opts.uniqueKey}`;
    const run = opts.transaction ? opts.transaction.executeSql.bind(opts.transaction) : this.executeSql;
    // The window starts at the first dispatch: while a job of the key dispatched less than
    // uniqueSeconds ago still waits, retries or runs, a new dispatch is dropped. pg-boss's own
    // singletonSeconds slots are aligned to the clock (multiples of the window since the epoch), so
    // on their own a dispatch just after a slot boundary would send a second job.
    // pg-boss 10 finds no job by singleton key: its job table is read (the same for the slot check)
    const { rows: pending } = await run(
      `SELECT 1 FROM ${this.opts.schema}.job
        WHERE name = $1 AND singleton_key = $2 AND state < 'completed'
          AND created_on > now() - $3 * interval '1 second'
        LIMIT 1`,
      [def.queue, singletonKey, def.uniqueSeconds],
    );
    if (pending.length > 0) return null;
    // The slot still settles two dispatches racing within one slot (one insert wins).
    const id = await this.send(def, envelope, opts, { singletonKey, singletonSeconds: def.uniqueSeconds });
    if (id) return id;
    // The slot of this key is taken by a job that has finished (the check above saw none waiting):
    // unique means "not while one waits or runs", so send one outside the slot (same key, so the
    // next dispatch sees it pending).
    const { rows } = await run(
      `SELECT 1 FROM ${this.opts.schema}.job WHERE name = $1 AND singleton_key = $2 AND state < 'completed' LIMIT 1`,
      [def.queue, singletonKey],
    );
    return rows.length > 0 ? null : this.send(def, envelope, opts, { singletonKey });
  }

  private async send(
    def: JobDefinition<unknown>,
    envelope: Envelope,
    opts: DispatchOptions,
    singleton?: { singletonKey: string; singletonSeconds?: number },
  ): Promise<string | null> {
    const id = await this.boss.send(def.queue, envelope as object, {
      ...this.retrySettings(def),
      ...(opts.delaySeconds && opts.delaySeconds > 0 ? { startAfter: opts.delaySeconds } : {}),
      ...(opts.transaction ? { db: opts.transaction } : {}),
      ...singleton,
    });
    if (id && !opts.delaySeconds) this.wake(def.queue);
    return id;
  }

  /**
   * Many jobs of one class in one statement (no unique keys): for backfills, where one commit per
   * job would dominate. Returns how many were queued.
   */
  async dispatchMany<P>(def: JobDefinition<P>, items: Array<{ payload: P; delaySeconds?: number }>): Promise<number> {
    if (!items.length) return 0;
    await this.ensureStarted();
    await this.ensureQueue(def.queue);
    const retry = this.retrySettings(def);
    await this.boss.insert(
      items.map((item) => ({
        name: def.queue,
        data: { job: def.name, payload: item.payload } satisfies Envelope,
        startAfter: item.delaySeconds && item.delaySeconds > 0 ? String(item.delaySeconds) : undefined,
        retryLimit: retry.retryLimit,
        retryDelay: retry.retryDelay,
        retryBackoff: false,
        expireInSeconds: retry.expireInSeconds,
      })),
    );
    // all or nothing: one INSERT ... SELECT (it throws on failure)
    return items.length;
  }

  async schedule<P>(def: JobDefinition<P>, cron: string, payload: P): Promise<void> {
    // pg-boss keeps one schedule per queue name
    const owner = this.scheduledQueues.get(def.queue);
    if (owner && owner !== def.name) {
      throw new Error(`queue ${def.queue} already has a schedule (${owner}); give ${def.name} its own queue`);
    }
    this.scheduledQueues.set(def.queue, def.name);
    this.register(def);
    await this.ensureStarted();
    await this.ensureQueue(def.queue);
    const envelope: Envelope = { job: def.name, payload };
    await this.boss.schedule(def.queue, cron, envelope as object, { ...this.retrySettings(def), tz: 'UTC' });
  }

  /** Failed jobs of a queue (newest first), from pg-boss's job table and its archive. */
  async failedJobs(queue: string, limit = 100): Promise<FailedJob[]> {
    return this.failedRows('', [queue, limit]);
  }

  /** How many failed jobs the queues hold (job table and archive), counted up to `cap` + 1. */
  // pg-boss 10 counts no failed jobs (getQueueSize stops below a state): its tables are read
  async failedCount(queues: string[], cap: number): Promise<number> {
    const s = this.opts.schema;
    const { rows } = await this.options.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (
         SELECT 1 FROM ${s}.job WHERE name = ANY($1) AND state = 'failed'
         UNION ALL
         SELECT 1 FROM ${s}.archive WHERE name = ANY($1) AND state = 'failed'
         LIMIT $2) x`,
      [queues, cap + 1],
    );
    return rows[0]?.n ?? 0;
  }

  /** One failed job of a queue (from the job table or its archive), or null. */
  async failedJob(queue: string, id: string): Promise<FailedJob | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    await this.ensureStarted();
    const job = await this.boss.getJobById<Envelope>(queue, id, { includeArchive: true });
    if (job?.state !== 'failed') return null;
    const output = job.output as { message?: string } | null;
    return {
      id: job.id,
      queue: job.name,
      jobClass: job.data?.job ?? '',
      payload: job.data?.payload,
      error: output?.message ?? null,
      tries: job.retryCount + 1,
      createdOn: new Date(job.createdOn),
      failedOn: job.completedOn ? new Date(job.completedOn) : null,
    };
  }

  // pg-boss 10 lists no jobs by state (fetch hands out waiting ones only), so the failed list is
  // read from its job and archive tables (docs/decisions.md, "Module homes")
  private async failedRows(extra: string, params: unknown[]): Promise<FailedJob[]> {
    const s = this.opts.schema;
    const { rows } = await this.options.database.query<{
      id: string;
      name: string;
      data: Envelope;
      output: { message?: string } | null;
      retry_count: number;
      created_on: Date;
      completed_on: Date | null;
    }>(
      `SELECT id, name, data, output, retry_count, created_on, completed_on FROM ${s}.job
        WHERE name = $1 AND state = 'failed' ${extra}
       UNION ALL
       SELECT id, name, data, output, retry_count, created_on, completed_on FROM ${s}.archive
        WHERE name = $1 AND state = 'failed' ${extra}
       ORDER BY completed_on DESC NULLS LAST LIMIT $2`,
      params,
    );
    return rows.map((r) => ({
      id: r.id,
      queue: r.name,
      jobClass: r.data?.job ?? '',
      payload: r.data?.payload,
      error: r.output?.message ?? null,
      tries: r.retry_count + 1,
      createdOn: new Date(r.created_on),
      failedOn: r.completed_on ? new Date(r.completed_on) : null,
    }));
  }

  /**
   * An operator's retry of a failed job: a new job of the same class and payload with a fresh set
   * of tries, then the failed row is removed. False when the job is not (or no longer) failed.
   */
  async retryFailedJob(queue: string, id: string): Promise<boolean> {
    const failed = await this.failedJob(queue, id);
    if (!failed) return false;
    const def = this.defs.get(failed.jobClass);
    if (!def) return false;
    await this.dispatch(def, failed.payload);
    await this.deleteFailedJob(queue, id);
    return true;
  }

  /** Removes a failed job (from the job table or its archive). False when there is none. */
  async deleteFailedJob(queue: string, id: string): Promise<boolean> {
    if (!(await this.failedJob(queue, id))) return false;
    // deleteJob removes the job table's row; pg-boss 10 has no call for an archived one (failed
    // jobs are archived after a week), so that row is deleted from the archive table directly
    await this.boss.deleteJob(queue, id);
    await this.options.database.query(
      `DELETE FROM ${this.opts.schema}.archive WHERE name = $1 AND id = $2 AND state = 'failed'`,
      [queue, id],
    );
    return true;
  }

  /**
   * Job counts of a queue by state (waiting = created or retry, whether due or not). One grouped
   * read of pg-boss's job table: getQueueSize counts the states below a bound, one query each,
   * and cannot count `failed`, the last state.
   */
  async counts(queue: string): Promise<JobCounts> {
    const { rows } = await this.options.database.query<{ state: string; n: string | number }>(
      `SELECT state::text AS state, count(*) AS n FROM ${this.opts.schema}.job WHERE name = $1 GROUP BY state`,
      [queue],
    );
    const c: JobCounts = { waiting: 0, active: 0, completed: 0, failed: 0 };
    for (const r of rows) {
      const n = Number(r.n);
      if (r.state === 'created' || r.state === 'retry') c.waiting += n;
      else if (r.state === 'active') c.active += n;
      else if (r.state === 'completed') c.completed += n;
      else if (r.state === 'failed') c.failed += n;
    }
    return c;
  }

  /** Names of the queues the registered job classes use. */
  queueNames(): string[] {
    return [...this.queues];
  }

  private retrySettings(def: JobDefinition<unknown>) {
    return {
      retryLimit: Math.max(1, def.tries),
      retryDelay: this.backoffFor(def, 1),
      retryBackoff: false,
      expireInSeconds: def.timeoutSeconds + EXPIRY_MARGIN_SECONDS,
    };
  }

  /** Delay before the try after `attempt` (the list's last value repeats). */
  private backoffFor(def: JobDefinition<unknown>, attempt: number): number {
    const list = def.backoffSeconds.length ? def.backoffSeconds : [0];
    const seconds = list[Math.min(attempt - 1, list.length - 1)];
    return Math.round(seconds * this.opts.backoffScale);
  }

  private async ensureStarted(): Promise<void> {
    if (!this.started) await this.start({ workers: false });
    else await this.started;
  }

  private async ensureQueue(queue: string): Promise<void> {
    if (this.created.has(queue)) return;
    // createQueue is idempotent in pg-boss 10 (ON CONFLICT DO NOTHING)
    await this.boss.createQueue(queue);
    this.created.add(queue);
  }

  private wake(queue: string): void {
    for (const id of this.workerIds.get(queue) ?? []) this.boss.notifyWorker(id);
  }

  private async work(queue: string): Promise<void> {
    const ids: string[] = [];
    this.workerIds.set(queue, ids);
    const concurrency = this.opts.concurrencyByQueue[queue] ?? this.opts.concurrency;
    for (let i = 0; i < concurrency; i++) {
      const self = { id: '' };
      self.id = await this.boss.work<Envelope>(
        queue,
        { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.opts.pollingIntervalSeconds },
        async ([job]) => {
          try {
            return await this.runJob(queue, job);
          } finally {
            // a job was found: poll again at once instead of waiting for the interval
            if (self.id) this.boss.notifyWorker(self.id);
          }
        },
      );
      ids.push(self.id);
    }
  }

  /**
   * Runs one job and turns its outcome into pg-boss state. Returning completes the job (unless it
   * was released); throwing hands it to pg-boss's fail, which retries or fails it.
   */
  private async runJob(queue: string, job: PgBoss.JobWithMetadata<Envelope>): Promise<object | undefined> {
    const def = this.defs.get(job.data?.job);
    const log = this.options.log;
    const attempt = job.retryCount + 1;
    if (!def) {
      await this.setRetryLimitToUsed(job.id);
      log.error({ jobId: job.id, queue, jobClass: job.data?.job }, 'no handler registered for job class');
      throw new Error(`no handler registered for job class ${job.data?.job}`);
    }
    const timeout = new AbortController();
    const info: JobInfo = { id: job.id, name: def.name, queue, attempt, signal: timeout.signal };
    const ctx = { jobId: job.id, jobClass: def.name, queue, attempt };
    if (attempt > def.tries) return this.exhausted(def, job, info, 'the last try did not finish (its worker stopped)');
    const result = await runWithTimeout(def, job.data.payload, info, timeout);
    switch (result.kind) {
      case 'done':
        return { outcome: 'done' };
      case 'ignore':
        log.info({ ...ctx, reason: result.reason }, 'job ignored');
        return { outcome: 'ignored', reason: result.reason };
      case 'release': {
        const seconds = Math.max(0, result.seconds);
        log.warn({ ...ctx, seconds, error: result.error }, 'job released');
        // pg-boss 10 cannot put an active job back without using a try (its fail() and retry()
        // both count one): the row returns to `created` directly
        await this.options.database.query(
          `UPDATE ${this.opts.schema}.job
              SET state = 'created', started_on = NULL, start_after = now() + $3 * interval '1 second',
                  output = $4::jsonb
            WHERE name = $1 AND id = $2 AND state = 'active'`,
          [queue, job.id, seconds, JSON.stringify({ outcome: 'released', message: result.error ?? null })],
        );
        return undefined;
      }
      case 'fail':
        log.error({ ...ctx, error: result.error }, 'job failed (no retry)');
        await this.setRetryLimitToUsed(job.id);
        throw new JobError(result.error);
      case 'retry': {
        if (attempt >= def.tries) return this.exhausted(def, job, info, result.error);
        const delay = this.backoffFor(def, attempt);
        log.warn({ ...ctx, error: result.error, retryInSeconds: delay }, 'job will be retried');
        // a per-job retry delay is set only at send in pg-boss 10: the fixed backoff list sets it here
        await this.options.database.query(
          `UPDATE ${this.opts.schema}.job SET retry_delay = $3 WHERE name = $1 AND id = $2`,
          [queue, job.id, delay],
        );
        throw new JobError(result.error);
      }
    }
  }

  /** The job's tries are used up: logged at error, onExhausted called once, then failed for good. */
  private async exhausted(
    def: JobDefinition<any>,
    job: PgBoss.JobWithMetadata<Envelope>,
    info: JobInfo,
    error: string,
  ): Promise<never> {
    const ctx = { jobId: job.id, jobClass: def.name, queue: info.queue, attempt: info.attempt };
    this.options.log.error({ ...ctx, error }, 'job failed: tries exhausted');
    if (def.onExhausted) {
      await def.onExhausted(job.data.payload, info, error).catch((err: unknown) => {
        this.options.log.error({ ...ctx, err }, 'onExhausted hook failed');
      });
    }
    await this.setRetryLimitToUsed(job.id);
    throw new JobError(error);
  }

  // pg-boss 10's fail() retries while tries remain: lowering the limit makes it the last one
  private async setRetryLimitToUsed(id: string): Promise<void> {
    await this.options.database.query(`UPDATE ${this.opts.schema}.job SET retry_limit = retry_count WHERE id = $1`, [
      id,
    ]);
  }
}

/** The reason a job's signal carries when its time-out passed. */
export class JobTimeoutError extends Error {
  override name = 'JobTimeoutError';
}

/** An error whose message is the outcome's text (pg-boss stores it as the job's output). */
class JobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobError';
    // pg-boss serializes the error; the stack adds nothing for an outcome
    this.stack = undefined;
  }
}

async function runWithTimeout<P>(
  def: JobDefinition<P>,
  payload: P,
  info: JobInfo,
  controller: AbortController,
): Promise<JobOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<JobOutcome>((resolve) => {
    timer = setTimeout(() => {
      const error = `timed out after ${def.timeoutSeconds} s`;
      // the handler's outside calls see the abort and stop; the try counts as failed either way
      controller.abort(new JobTimeoutError(error));
      resolve({ kind: 'retry', error });
    }, def.timeoutSeconds * 1000);
  });
  try {
    return await Promise.race([
      def
        .handler(payload, info)
        .catch(
          (err: unknown): JobOutcome => ({ kind: 'retry', error: err instanceof Error ? err.message : String(err) }),
        ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// pg-boss's own SQL texts of complete() and fail() (its plans module; the package has no exports map)
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  completeJobs(schema: string): string;
  failJobsById(schema: string): string;
};

/**
 * pg-boss's worker calls complete() and fail() after a handler without awaiting them
 * (manager.js, onFetch): with the database gone at that moment their rejection is unhandled and
 * ends the process (issue 26: the worker died on the first pg_terminate_backend). Those two
 * statements alone are settled here: the failure is logged and the job stays active, so pg-boss's
 * expiry hands it out again (a job runs at least once; handlers are idempotent).
 */
function settledCompletions(
  run: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>,
  schema: string,
  log: Pick<FastifyBaseLogger, 'error'>,
) {
  const completions = new Set([plans.completeJobs(schema), plans.failJobsById(schema)]);
  return async (text: string, values?: unknown[]) => {
    try {
      return await run(text, values);
    } catch (err) {
      if (!completions.has(text)) throw err;
      log.error({ err }, 'job outcome not recorded (database unavailable): the job runs again after its expiry');
      // the shape pg-boss reads its affected count from
      return { rows: [{ count: 0 }] };
    }
  };
}

/**
 * pg-boss's executeSql over our database handle. PGlite's query() refuses multi-statement text,
 * and pg-boss sends its schema and maintenance scripts parameterless, so those go through exec()
 * and the last statement's result is returned.
 */
export function sqlExecutor(database: QueueDatabase) {
  if (database.kind === 'pglite' && database.pglite) {
    const pglite = database.pglite;
    return async (text: string, values?: unknown[]) => {
      if (!values || values.length === 0) {
        const results = await pglite.exec(text);
        return results[results.length - 1] ?? { rows: [] };
      }
      return pglite.query(text, values);
    };
  }
  if (database.pool) {
    const pool = database.pool;
    return async (text: string, values?: unknown[]) => {
      const r = (await pool.query(text, values)) as { rows: unknown[] } | Array<{ rows: unknown[] }>;
      return Array.isArray(r) ? (r[r.length - 1] ?? { rows: [] }) : r;
    };
  }
  return async (text: string, values?: unknown[]) => database.query(text, values);
}

/** Creates (or migrates) pg-boss's schema without starting workers; used to prepare templates. */
export async function installQueueSchema(database: QueueDatabase, schema = 'pgboss'): Promise<void> {
  const boss = new PgBoss({ db: { executeSql: sqlExecutor(database) }, schema, supervise: false, schedule: false });
  await boss.start();
  await boss.stop({ graceful: false, close: false });
}
