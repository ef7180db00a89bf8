// The job queue's contract (implemented on pg-boss in platform/queue-pgboss.ts). Handlers say
// what happened; the queue turns it into pg-boss retries, delays and failures:
//   done     the work is complete
//   retry    a try failed; run again after the next backoff delay (uses a try)
//   release  run again after `seconds` without using a try (e.g. 429 with Retry-After)
//   fail     permanent failure: no retry; the job stays inspectable as failed
//   ignore   nothing to do (record gone, integration unconfigured): completes without error

export type JobOutcome =
  | { kind: 'done' }
  | { kind: 'retry'; error: string }
  | { kind: 'release'; seconds: number; error?: string }
  | { kind: 'fail'; error: string }
  | { kind: 'ignore'; reason: string };

export const outcome = {
  done: (): JobOutcome => ({ kind: 'done' }),
  retry: (error: string): JobOutcome => ({ kind: 'retry', error }),
  release: (seconds: number, error?: string): JobOutcome => ({ kind: 'release', seconds, error }),
  fail: (error: string): JobOutcome => ({ kind: 'fail', error }),
  ignore: (reason: string): JobOutcome => ({ kind: 'ignore', reason }),
};

export interface JobInfo {
  id: string;
  /** job class name */
  name: string;
  queue: string;
  /** 1 for the first try */
  attempt: number;
  /**
   * Aborted when the job's time-out passes: hand it to every outside call (fetch, provider SDKs,
   * queries that may block) so the handler really stops instead of running on unseen.
   */
  signal: AbortSignal;
}

export interface JobDefinition<P> {
  /** job class, e.g. 'newsletter.crm-sync'; several classes may share one queue */
  name: string;
  queue: string;
  /** total tries (first run included) */
  tries: number;
  timeoutSeconds: number;
  /** delay before try 2, 3, ...; the last value repeats */
  backoffSeconds: number[];
  /** a second dispatch with the same unique key inside this window is dropped */
  uniqueSeconds?: number;
  handler(payload: P, job: JobInfo): Promise<JobOutcome>;
  /** called once when the last try failed (retry outcome or thrown error on the last try) */
  onExhausted?(payload: P, job: JobInfo, error: string): Promise<void>;
}

/** Runs one parameterised statement on a caller's open transaction. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface DispatchOptions {
  /** uniqueness key; defaults to none (every dispatch is a job) */
  uniqueKey?: string;
  delaySeconds?: number;
  /** enqueue inside the caller's transaction: the job commits (or not) with the caller's rows */
  transaction?: SqlExecutor;
}

export interface Queue {
  register<P>(def: JobDefinition<P>): void;
  /** the new job's id, or null when a job with the same unique key is inside its window */
  dispatch<P>(def: JobDefinition<P>, payload: P, opts?: DispatchOptions): Promise<string | null>;
  /** runs `def` with `payload` on a cron schedule, once per cluster */
  schedule<P>(def: JobDefinition<P>, cron: string, payload: P): Promise<void>;
}
