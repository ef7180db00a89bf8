// HTTP of the monitoring module: the request recorder's hooks (every route, cheap, no database
// write per request), the pages /health-dashboard, /pulse and /telescope behind the console's
// sign-in (permission view_dashboard), and /metrics behind HTTP Basic in production and staging.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import { Type } from 'typebox';
import { guard, pageOf, sendPage } from '../../console/http.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ErrorBody } from '../../platform/http-shapes.js';
import { CONSOLE_SESSION } from '../../platform/openapi.js';
import { LoginThrottle, rateLimitStoreFailures } from '../../platform/rate-limit.js';
import { sharedCounter } from '../ops/alerts.js';
import { registerBusinessMetrics } from './business-metrics.js';
import { createHttpMetrics, SharedCounter } from './metrics.js';
import { RequestRecorder, UNMATCHED_ROUTE } from './recorder.js';
import { basicCredentials, credentialsMatch } from './rules.js';
import {
  deploymentFeed,
  healthDashboard,
  PULSE_PERIODS,
  type PulsePeriod,
  pulseOverview,
  telescopeOverview,
  telescopeRequest,
} from './service.js';
import { deploymentsBody, healthPage, pulsePage, telescopeDetailPage, telescopePage } from './views.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** true on the monitoring pages themselves: kept out of /pulse and /telescope */
    unrecorded?: boolean;
  }
  interface FastifyInstance {
    /** the in-process request recorder behind /pulse and /telescope (tests flush it) */
    requestRecorder: RequestRecorder;
  }
}

const REALM = 'Basic realm="itinera monitoring", charset="UTF-8"';

/**
 * /metrics (scraping) and /docs with API_DOCS=login: open in development and test; HTTP Basic with
 * DASHBOARD_USER / DASHBOARD_PASSWORD otherwise, failed attempts throttled per IP
 */
export function metricsLogin(ctx: AppContext) {
  const throttle = new LoginThrottle(ctx, { name: 'dashboard-login', maxFailures: 10, windowSeconds: 15 * 60 });
  return async (request: FastifyRequest) => {
    const { appEnv, dashboard } = ctx.config;
    if (appEnv !== 'production' && appEnv !== 'staging') return;
    if (!dashboard.user || !dashboard.password) {
      request.log.error('monitoring page refused: DASHBOARD_USER and DASHBOARD_PASSWORD are not configured');
      throw new AppError(
        503,
        'dashboard_login_not_configured',
        '/metrics is unavailable: set DASHBOARD_USER and DASHBOARD_PASSWORD on this server.',
      );
    }
    await throttle.assertAllowed(request);
    if (!credentialsMatch(basicCredentials(request.headers.authorization), dashboard)) {
      // a browser's first request carries no credentials (it waits for the 401): not a failure
      if (request.headers.authorization) await throttle.failed(request);
      throw new AppError(401, 'unauthorized', 'Log in to scrape the metrics.', undefined, {
        'www-authenticate': REALM,
      });
    }
  };
}

const CheckResult = Type.Object({
  name: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('warning'), Type.Literal('failed')]),
  message: Type.Optional(Type.String()),
  meta: Type.Optional(Type.Object({}, { additionalProperties: true })),
});
const HealthRun = Type.Object({
  finishedAt: Type.String({ format: 'date-time' }),
  checkResults: Type.Array(CheckResult),
});
const Deployment = Type.Object({
  id: Type.Integer(),
  environment: Type.String(),
  badge: Type.Union([Type.Literal('green'), Type.Literal('yellow'), Type.Literal('blue')]),
  version: Type.String(),
  commit: Type.String(),
  build_date: Type.String(),
  build_id: Type.Union([Type.String(), Type.Null()]),
  recorded_at: Type.String({ format: 'date-time' }),
});
const PeriodQuery = Type.Object({
  period: Type.Optional(Type.Union(Object.keys(PULSE_PERIODS).map((p) => Type.Literal(p)))),
});
const FreshQuery = Type.Object({ fresh: Type.Optional(Type.String({ maxLength: 5 })) });

export async function monitoringRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const recorder = new RequestRecorder(ctx);
  const metrics = createHttpMetrics();
  metrics.registry.registerMetric(
    new SharedCounter('crm_sync_failed_total', 'CRM sync records that ended Failed, by model', () =>
      sharedCounter(ctx, 'crm_sync_failed_total'),
    ) as unknown as Parameters<typeof metrics.registry.registerMetric>[0],
  );
  registerBusinessMetrics(metrics.registry, ctx);
  new Counter({
    name: 'itinera_rate_limit_store_failures_total',
    help: 'Requests a rate limit let through because its store (Redis) did not answer, by limit (this process)',
    labelNames: ['limit'],
    registers: [metrics.registry],
    collect() {
      this.reset();
      for (const [limit, n] of rateLimitStoreFailures()) this.inc({ limit }, n);
    },
  });
  app.decorate('requestRecorder', recorder);
  app.addHook('onClose', () => recorder.close());

  // deployment:completed bumps the deployments card's version, so the next poll redraws it
  let deploymentEvents = 0;
  const onDeployment = () => {
    deploymentEvents += 1;
  };
  ctx.events.on('deployment:completed', onDeployment);
  app.addHook('onClose', () => {
    ctx.events.off('deployment:completed', onDeployment);
  });

  // Callback-style hooks: these run on every request, and an async hook costs a promise and a
  // microtask turn each time.
  const errors = new WeakMap<FastifyRequest, Error>();
  app.addHook('onError', (request, _reply, error, done) => {
    errors.set(request, error);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const { url, config } = request.routeOptions; // a getter that builds an object: read once
    const route = url ?? null;
    const status = reply.statusCode;
    const durationMs = reply.elapsedTime;
    metrics.observe(request.method, route ?? UNMATCHED_ROUTE, status, durationMs);
    if (!config?.unrecorded) {
      const error = status >= 500 ? errors.get(request) : undefined;
      recorder.record({
        requestId: request.id,
        method: request.method,
        url: request.url,
        route,
        status,
        durationMs,
        headers: request.headers,
        error: error ? { name: error.name, message: error.message } : undefined,
      });
    }
    done();
  });

  // behind the console sign-in; the HTML pages are not part of the API document, their data is
  const page = { preHandler: guard(ctx, 'view_dashboard'), config: { unrecorded: true } };
  const denied = { 401: ErrorBody, 403: ErrorBody };

  app.get(
    '/health-dashboard',
    {
      ...page,
      schema: {
        hide: true,
        tags: ['ops'],
        summary: 'Health dashboard (HTML)',
        description: 'Latest stored health run and the last day of history. `?fresh=1` runs the checks first.',
        querystring: FreshQuery,
      },
    },
    async (request, reply) => {
      if ((request.query as { fresh?: string }).fresh) await app.health.run();
      return sendPage(reply, healthPage(pageOf(request), await healthDashboard(ctx)));
    },
  );

  app.get(
    '/health-dashboard.json',
    {
      ...page,
      schema: {
        security: CONSOLE_SESSION,
        tags: ['ops'],
        summary: 'Health dashboard data',
        description: 'The latest stored health run (null when none in the last day) and every run of the last day.',
        response: {
          200: Type.Object({ latest: Type.Union([HealthRun, Type.Null()]), history: Type.Array(HealthRun) }),
          ...denied,
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return healthDashboard(ctx);
    },
  );

  app.get(
    '/pulse',
    {
      ...page,
      schema: {
        hide: true,
        tags: ['ops'],
        summary: 'Performance dashboard (HTML)',
        description:
          'Throughput and latency percentiles per route over a window (1h, 6h, 24h, 7d), slow requests, ' +
          'queue job counts and the last 20 deployments (polled every 5 s).',
        querystring: PeriodQuery,
      },
    },
    async (request, reply) => {
      const period = ((request.query as { period?: PulsePeriod }).period ?? '1h') as PulsePeriod;
      const [overview, feed] = await Promise.all([pulseOverview(ctx, period), deploymentFeed(ctx, deploymentEvents)]);
      return sendPage(reply, pulsePage(pageOf(request), overview, feed));
    },
  );

  app.get(
    '/pulse/deployments.json',
    {
      ...page,
      schema: {
        security: CONSOLE_SESSION,
        tags: ['ops'],
        summary: 'Deployments card data',
        description: 'The last 20 deployments, newest first; `version` changes when the list may have changed.',
        response: { 200: Type.Object({ version: Type.String(), deployments: Type.Array(Deployment) }), ...denied },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return deploymentFeed(ctx, deploymentEvents);
    },
  );

  app.get('/pulse/deployments', { ...page, schema: { hide: true } }, async (_request, reply) =>
    sendPage(reply, deploymentsBody(await deploymentFeed(ctx, deploymentEvents)).text),
  );

  app.get(
    '/telescope',
    {
      ...page,
      schema: {
        hide: true,
        tags: ['ops'],
        summary: 'Debug inspector (HTML)',
        description: 'Recent requests and 5xx errors.',
      },
    },
    async (request, reply) => sendPage(reply, telescopePage(pageOf(request), await telescopeOverview(ctx))),
  );

  app.get(
    '/telescope/requests/:requestId',
    {
      ...page,
      schema: {
        hide: true,
        tags: ['ops'],
        summary: 'Debug inspector: one request (HTML)',
        params: Type.Object({ requestId: Type.String({ maxLength: 100 }) }),
      },
    },
    async (request, reply) => {
      const { requestId } = request.params as { requestId: string };
      const entries = await telescopeRequest(ctx, requestId);
      if (entries.length === 0) throw new AppError(404, 'request_not_found', 'No request with this id is recorded.');
      return sendPage(reply, telescopeDetailPage(pageOf(request), requestId, entries));
    },
  );

  app.get(
    '/metrics',
    { onRequest: metricsLogin(ctx), config: { unrecorded: true }, schema: { hide: true } },
    async (_request, reply) => {
      reply.type(metrics.registry.contentType).header('cache-control', 'no-store');
      return metrics.registry.metrics();
    },
  );
}
