// The in-process request recorder: every response adds to a per-minute aggregate in memory and
// queues one request-log entry; a timer (unref'd) writes both in batches, and closing the app writes
// what is left. The request itself never waits for the database.
import type { AppContext } from '../../context.js';
import { type AggregateRow, insertAggregates, insertTelescopeEntries, type TelescopeInsert } from './repository.js';
import { bucketIndex, emptyBuckets, minuteOf, storableErrorMessage, storableHeaders, storablePath } from './rules.js';

export interface RecordedRequest {
  requestId: string;
  method: string;
  url: string;
  /** route pattern, or null when no route matched */
  route: string | null;
  status: number;
  durationMs: number;
  headers: Record<string, string | string[] | undefined>;
  /** the error behind a 5xx, when there was one */
  error?: { name: string; message: string };
}

export interface RecorderOptions {
  /** how often buffered data is written (default 10 s) */
  flushIntervalMs?: number;
  /** request-log entries kept in memory at most; more are dropped (and counted) until the next flush */
  maxPendingEntries?: number;
}

export const UNMATCHED_ROUTE = '(unmatched)';

export class RequestRecorder {
  private aggregates = new Map<string, AggregateRow & { durationBuckets: number[] }>();
  // Kept entries are copies made here, never the request's own objects: keeping those (the hook's
  // record, the request's headers, the clock's Date) until the flush left ~35 MB of promoted garbage
  // per 5 s under load, whatever the number kept (it looks like V8 pretenuring those allocation
  // sites for every request); see docs/decisions.md, Monitoring.
  private entries: TelescopeInsert[] = [];
  private dropped = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly maxPending: number;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: Pick<AppContext, 'database' | 'clock' | 'log'>,
    opts: RecorderOptions = {},
  ) {
    this.maxPending = opts.maxPendingEntries ?? 1_000;
    this.timer = setInterval(() => void this.flush(), opts.flushIntervalMs ?? 10_000);
    this.timer.unref();
  }

  /** cheap: a map update and an array push */
  record(r: RecordedRequest): void {
    const at = this.ctx.clock.now();
    const minute = minuteOf(at);
    const route = r.route ?? UNMATCHED_ROUTE;
    const key = `${minute.getTime()}|${r.method}|${route}|${r.status}`;
    let agg = this.aggregates.get(key);
    if (!agg) {
      agg = {
        minute,
        method: r.method,
        route,
        status: r.status,
        count: 0,
        durationSumMs: 0,
        durationMaxMs: 0,
        durationBuckets: emptyBuckets(),
      };
      this.aggregates.set(key, agg);
    }
    agg.count += 1;
    agg.durationSumMs += r.durationMs;
    if (r.durationMs > agg.durationMaxMs) agg.durationMaxMs = r.durationMs;
    agg.durationBuckets[bucketIndex(r.durationMs)]! += 1;

    if (this.entries.length >= this.maxPending) {
      this.dropped += 1;
      return;
    }
    this.entries.push(storableEntry(r, new Date(at.getTime())));
  }

  /** writes what is buffered (one insert per table); flushes run one after another */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    const aggregates = [...this.aggregates.values()];
    const entries = this.entries;
    const dropped = this.dropped;
    this.aggregates = new Map();
    this.entries = [];
    this.dropped = 0;
    if (dropped > 0) this.ctx.log.warn({ dropped }, 'request log entries dropped: more than the buffer holds');
    try {
      await insertAggregates(this.ctx.database.db, aggregates);
    } catch (err) {
      this.ctx.log.error({ err, rows: aggregates.length }, 'request aggregates could not be written');
    }
    try {
      await insertTelescopeEntries(this.ctx.database, entries);
    } catch (err) {
      this.ctx.log.error({ err, rows: entries.length }, 'request log entries could not be written');
    }
  }
}

/** The request-log row of a recorded request: truncated fields, secret headers and query left out. */
function storableEntry(r: RecordedRequest, at: Date): TelescopeInsert {
  return {
    requestId: r.requestId.slice(0, 100),
    method: r.method.slice(0, 10),
    path: storablePath(r.url),
    route: r.route?.slice(0, 300) ?? null,
    status: r.status,
    durationMs: Math.round(r.durationMs * 100) / 100,
    headers: storableHeaders(r.headers),
    errorName: r.error ? r.error.name.slice(0, 100) : null,
    errorMessage: r.error ? storableErrorMessage(r.error.message) : null,
    recordedAt: at,
  };
}
