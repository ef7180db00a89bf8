// Use cases of the monitoring pages: what each page shows, read from our own tables, the ops
// module's exported functions and the queue; and pruning by age.
import type { AppContext } from '../../context.js';
import { PgBossQueue } from '../../platform/queue-pgboss.js';
import { type DeploymentRecord, healthHistory, recentDeployments } from '../ops/service.js';
import {
  deleteAggregatesBefore,
  deleteTelescopeBefore,
  recentExceptions,
  recentRequests,
  requestsById,
  requestsPerMinute,
  routeTotals,
  slowRequests,
  type TelescopeEntry,
} from './repository.js';
import { environmentBadge, percentile, SLOW_REQUEST_MS } from './rules.js';

export type { TelescopeEntry } from './repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** pulse aggregates are kept 7 days, the request log 14 days */
export const PULSE_RETENTION_MS = 7 * DAY_MS;
export const TELESCOPE_RETENTION_MS = 14 * DAY_MS;

/** the windows /pulse offers, in minutes */
export const PULSE_PERIODS = { '1h': 60, '6h': 360, '24h': 1440, '7d': 10080 } as const;
export type PulsePeriod = keyof typeof PULSE_PERIODS;

// ---- health dashboard

export interface HealthCheckView {
  name: string;
  status: 'ok' | 'warning' | 'failed';
  message?: string;
  meta?: Record<string, unknown>;
}
export interface HealthRunView {
  finishedAt: string;
  checkResults: HealthCheckView[];
}

/** the latest stored health run and every run of the last day, newest first */
export async function healthDashboard(
  ctx: Pick<AppContext, 'database' | 'clock'>,
): Promise<{ latest: HealthRunView | null; history: HealthRunView[] }> {
  const runs = await healthHistory(ctx);
  const history = runs.map((run) => ({
    finishedAt: run.finishedAt.toISOString(),
    checkResults: run.checkResults.map((r) => ({
      name: r.name,
      status: r.status,
      ...(r.message ? { message: r.message } : {}),
      ...(r.meta ? { meta: r.meta } : {}),
    })),
  }));
  return { latest: history[0] ?? null, history };
}

// ---- pulse

export interface RouteStats {
  method: string;
  route: string;
  count: number;
  /** requests per minute over the window */
  perMinute: number;
  errors: number;
  avgMs: number;
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number;
}

export interface QueueCounts {
  queue: string;
  waiting: number;
  active: number;
  completed: number;
  failed: number;
}

export interface PulseOverview {
  period: PulsePeriod;
  since: string;
  totals: { count: number; errors: number; perMinute: number };
  routes: RouteStats[];
  throughput: Array<{ minute: string; count: number }>;
  slow: Array<{ requestId: string; method: string; path: string; status: number; durationMs: number; at: string }>;
  queues: QueueCounts[] | null;
}

export async function pulseOverview(ctx: AppContext, period: PulsePeriod): Promise<PulseOverview> {
  const minutes = PULSE_PERIODS[period];
  const since = new Date(ctx.clock.now().getTime() - minutes * 60_000);
  const [totals, perMinute, slow, queues] = await Promise.all([
    routeTotals(ctx.database, since),
    requestsPerMinute(ctx.database, since),
    slowRequests(ctx.database.db, since, SLOW_REQUEST_MS, 20),
    queueCounts(ctx),
  ]);
  const routes = totals
    .map((t) => ({
      method: t.method,
      route: t.route,
      count: t.count,
      perMinute: round(t.count / minutes),
      errors: t.errors,
      avgMs: round(t.count ? t.durationSumMs / t.count : 0),
      p50Ms: percentile(t.buckets, 50, t.durationMaxMs),
      p95Ms: percentile(t.buckets, 95, t.durationMaxMs),
      p99Ms: percentile(t.buckets, 99, t.durationMaxMs),
      maxMs: round(t.durationMaxMs),
    }))
    .sort((a, b) => b.count - a.count || a.route.localeCompare(b.route));
  const count = routes.reduce((n, r) => n + r.count, 0);
  return {
    period,
    since: since.toISOString(),
    totals: { count, errors: routes.reduce((n, r) => n + r.errors, 0), perMinute: round(count / minutes) },
    routes,
    throughput: perMinute.map((m) => ({ minute: m.minute.toISOString(), count: m.count })),
    slow: slow.map((e) => ({
      requestId: e.requestId,
      method: e.method,
      path: e.path,
      status: e.status,
      durationMs: e.durationMs,
      at: e.recordedAt.toISOString(),
    })),
    queues,
  };
}

/** job counts per queue when the queue is pg-boss; null when they cannot be read */
async function queueCounts(ctx: AppContext): Promise<QueueCounts[] | null> {
  const queue = ctx.queue;
  if (!(queue instanceof PgBossQueue)) return null;
  try {
    const names = [...new Set(queue.queueNames())].sort();
    return await Promise.all(names.map(async (name) => ({ queue: name, ...(await queue.counts(name)) })));
  } catch (err) {
    ctx.log.warn({ err }, 'queue counts unavailable for /pulse');
    return null;
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

// ---- deployments card

export interface DeploymentView {
  id: number;
  environment: string;
  badge: 'green' | 'yellow' | 'blue';
  version: string;
  commit: string;
  build_date: string;
  build_id: string | null;
  recorded_at: string;
}

export function deploymentView(d: DeploymentRecord): DeploymentView {
  return {
    id: d.id,
    environment: d.environment,
    badge: environmentBadge(d.environment),
    version: d.version,
    commit: d.commit,
    build_date: d.buildDate,
    build_id: d.buildId,
    recorded_at: d.recordedAt.toISOString(),
  };
}

/**
 * The deployments card's data. `version` changes whenever the list can have changed: it holds the
 * newest deployment id and this process's count of deployment:completed events, so the page's poll
 * redraws only on change.
 */
export async function deploymentFeed(
  ctx: Pick<AppContext, 'database'>,
  eventCount: number,
): Promise<{ version: string; deployments: DeploymentView[] }> {
  const deployments = (await recentDeployments(ctx)).map(deploymentView);
  return { version: `${deployments[0]?.id ?? 0}.${eventCount}`, deployments };
}

// ---- telescope

export function telescopeOverview(ctx: Pick<AppContext, 'database'>) {
  return Promise.all([recentRequests(ctx.database.db, 100), recentExceptions(ctx.database.db, 25)]).then(
    ([requests, exceptions]) => ({ requests, exceptions }),
  );
}

export function telescopeRequest(ctx: Pick<AppContext, 'database'>, requestId: string): Promise<TelescopeEntry[]> {
  return requestsById(ctx.database.db, requestId);
}

// ---- pruning

export function prunePulse(ctx: Pick<AppContext, 'database' | 'clock'>): Promise<number> {
  return deleteAggregatesBefore(ctx.database.db, new Date(ctx.clock.now().getTime() - PULSE_RETENTION_MS));
}

export function pruneTelescope(ctx: Pick<AppContext, 'database' | 'clock'>): Promise<number> {
  return deleteTelescopeBefore(ctx.database.db, new Date(ctx.clock.now().getTime() - TELESCOPE_RETENTION_MS));
}
