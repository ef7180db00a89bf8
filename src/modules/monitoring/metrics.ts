// Prometheus metrics of one app: Node's default metrics (prom-client) and the HTTP request duration
// histogram. Each app has its own registry, so several apps in one process (tests) do not clash.
//
// The histogram is counted here rather than by prom-client's Histogram: its observe() validates the
// label set and hashes it into a string on every call (about 1 µs, 4 % of a catalog request's CPU in
// a bench profile). Here a series is found through maps keyed by the route pattern, method and
// status (strings and numbers the server already holds, so nothing is built per request), and
// counted in a plain array. prom-client only renders it, at scrape time.
import { collectDefaultMetrics, Registry } from 'prom-client';

const NAME = 'http_request_duration_seconds';
const HELP = 'HTTP request duration in seconds by method, route pattern and status code';
export const DURATION_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  labels: { method: string; route: string; status_code: string };
  /** per-bucket counts, not cumulative; the last slot is above the largest bound */
  counts: number[];
  sum: number;
  count: number;
}

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/** The request duration histogram, in the shape prom-client's Registry renders (get, reset). */
export class DurationHistogram {
  readonly name = NAME;
  readonly help = HELP;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private byRoute = new Map<string, Map<string, Map<number, Series>>>();

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.byRoute.set(route, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = {
        labels: { method, route, status_code: String(status) },
        counts: new Array(DURATION_BUCKETS_SECONDS.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, series);
    }
    let i = 0;
    while (i < DURATION_BUCKETS_SECONDS.length && seconds > DURATION_BUCKETS_SECONDS[i]!) i++;
    series.counts[i]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** prom-client's metric interface: cumulative buckets (le), then _sum and _count per series */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: MetricValue[] }> {
    const values: MetricValue[] = [];
    for (const byMethod of this.byRoute.values()) {
      for (const byStatus of byMethod.values()) {
        for (const s of byStatus.values()) {
          let cumulative = 0;
          DURATION_BUCKETS_SECONDS.forEach((le, i) => {
            cumulative += s.counts[i]!;
            values.push({ labels: { le, ...s.labels }, value: cumulative, metricName: `${NAME}_bucket` });
          });
          values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${NAME}_bucket` });
          values.push({ labels: s.labels, value: s.sum, metricName: `${NAME}_sum` });
          values.push({ labels: s.labels, value: s.count, metricName: `${NAME}_count` });
        }
      }
    }
    return { name: NAME, help: HELP, type: 'histogram', aggregator: 'sum', values };
  }

  reset(): void {
    this.byRoute.clear();
  }
}

export interface HttpMetrics {
  registry: Registry;
  observe(method: string, route: string, status: number, durationMs: number): void;
}

export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new DurationHistogram();
  // prom-client's types list its own metric classes; the registry itself only calls get() and reset()
  registry.registerMetric(duration as unknown as Parameters<Registry['registerMetric']>[0]);
  return {
    registry,
    observe(method, route, status, durationMs) {
      duration.observe(method, route, status, durationMs / 1000);
    },
  };
}

/**
 * A counter kept in the database (ops_counters) because other processes (the workers) count it;
 * read at scrape time, in the shape prom-client's Registry renders.
 */
export class SharedCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => Promise<Array<{ labels: Record<string, string>; value: number }>>,
  ) {}

  async get() {
    const values = (await this.read()).map((s) => ({ labels: s.labels, value: s.value, metricName: this.name }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  reset(): void {}
}
