import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createHttpMetrics, DURATION_BUCKETS_SECONDS } from './metrics.js';

const NAME = 'http_request_duration_seconds';
const sortedLines = (text: string) => text.trimEnd().split('\n').sort();

describe('request duration histogram', () => {
  it("renders the same Prometheus text as prom-client's own Histogram fed the same requests", async () => {
    const ours = createHttpMetrics();
    const reference = new Registry();
    const histogram = new Histogram({
      name: NAME,
      help: 'HTTP request duration in seconds by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: DURATION_BUCKETS_SECONDS,
      registers: [reference],
    });
    const requests: [string, string, number, number][] = [
      ['GET', '/api/:market/:lang/products', 200, 3],
      ['GET', '/api/:market/:lang/products', 200, 30],
      ['GET', '/api/:market/:lang/products', 200, 5], // on a bucket bound: counted in le="0.005"
      ['POST', '/api/checkout/start', 422, 0.5],
      ['GET', '/api/:market/:lang/products', 404, 20_000], // above every bound: only in +Inf
      ['GET', '(unmatched)', 404, 7],
      ['GET', '/odd/"quoted"\\path\n', 200, 1], // label values escaped as prom-client does
    ];
    for (const [method, route, status, ms] of requests) {
      ours.observe(method, route, status, ms);
      histogram.observe({ method, route, status_code: String(status) }, ms / 1000);
    }
    const text = await ours.registry.getSingleMetricAsString(NAME);
    expect(text).toContain(`# TYPE ${NAME} histogram`);
    expect(sortedLines(text)).toEqual(sortedLines(await reference.metrics()));
  });

  it('keeps the histogram beside the default metrics and empties it on reset', async () => {
    const ours = createHttpMetrics();
    ours.observe('GET', '/x', 200, 1);
    expect(await ours.registry.metrics()).toContain(`${NAME}_count{method="GET",route="/x",status_code="200"} 1`);
    expect(await ours.registry.metrics()).toContain('process_cpu_user_seconds_total');
    ours.registry.resetMetrics();
    expect(await ours.registry.metrics()).not.toContain(`${NAME}_count`);
  });
});
