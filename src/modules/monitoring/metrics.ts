// Prometheus metrics of one app: Node's default metrics and the HTTP request duration histogram.
// Each app has its own registry, so several apps in one process (tests) do not clash.
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  observe(method: string, route: string, status: number, durationMs: number): void;
}

export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration in seconds by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    observe(method, route, status, durationMs) {
      duration.observe({ method, route, status_code: String(status) }, durationMs / 1000);
    },
  };
}
