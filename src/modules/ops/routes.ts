// HTTP of the ops module: the deployment webhook (bearer token, 10 requests a minute per IP) and
// the health endpoint for load balancers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ErrorBody } from '../../platform/http-shapes.js';
import { ref, ValidationErrorBody } from '../../platform/openapi.js';
import { rateLimit, TooManyRequestsBody } from '../../platform/rate-limit.js';
import { type HealthMonitor, healthMonitorOf } from './health.js';
import { ReadinessProbe } from './readiness.js';
import { bearerMatches, type DeploymentBody, healthHttpStatus } from './rules.js';
import { recordDeployment } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** the health run behind GET /health (its probes can be replaced in tests) */
    health: HealthMonitor;
  }
}

const ValidationBody = ref(ValidationErrorBody);

const DeploymentRequest = Type.Object({
  environment: Type.String({ maxLength: 50, description: 'e.g. production, staging' }),
  version: Type.String({ maxLength: 100 }),
  commit: Type.String({ maxLength: 40, description: 'commit SHA (full or abbreviated)' }),
  build_date: Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time' }),
  build_id: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
});

const CheckResult = Type.Object({
  name: Type.String(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('warning'), Type.Literal('failed')]),
  message: Type.Optional(Type.String()),
  meta: Type.Optional(Type.Object({}, { additionalProperties: true })),
});
const HealthBody = Type.Object({
  finishedAt: Type.String({ format: 'date-time' }),
  checkResults: Type.Array(CheckResult),
});

const LiveBody = Type.Object({ status: Type.Literal('ok') });
const ReadinessCheckBody = Type.Object({
  ok: Type.Boolean(),
  required: Type.Boolean({ description: 'whether a failure makes the process not ready' }),
  message: Type.Optional(Type.String()),
});
const ReadyBody = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
  checks: Type.Object({ database: ReadinessCheckBody, migrations: ReadinessCheckBody, redis: ReadinessCheckBody }),
});

/** 500 when no token is configured; 401 {error:'Unauthorized'} when the bearer token is missing or wrong */
function deploymentToken(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const expected = ctx.config.deploymentToken;
    if (!expected) {
      request.log.error('POST /api/deployments refused: DEPLOYMENT_TOKEN is not configured');
      throw new AppError(
        500,
        'deployment_token_not_configured',
        'The deployment token is not configured on this server.',
      );
    }
    if (!bearerMatches(request.headers.authorization, expected)) {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'Unauthorized' });
    }
  };
}

/** load balancers poll every few seconds from a handful of addresses */
const HEALTH_RATE_PER_MINUTE = 120;

export async function opsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const monitor = healthMonitorOf(ctx);
  app.decorate('health', monitor);
  app.addHook('onClose', () => monitor.close());

  app.post(
    '/api/deployments',
    {
      // limit first (every attempt counts, guessing tokens included), then the token, then the body
      onRequest: [rateLimit({ name: 'deployments', max: 10, windowSeconds: 60 }), deploymentToken(ctx)],
      config: { validationStatus: 422 },
      schema: {
        tags: ['ops'],
        summary: 'Record a deployment (CI webhook)',
        security: [{ deploymentToken: [] }],
        description:
          'Bearer-authenticated with DEPLOYMENT_TOKEN. Emits the internal deployment:completed event. ' +
          '10 requests per minute per IP.',
        body: DeploymentRequest,
        response: {
          201: Type.Object({ status: Type.Literal('recorded') }),
          401: Type.Object({ error: Type.Literal('Unauthorized') }),
          422: ValidationBody,
          429: TooManyRequestsBody,
          500: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      await recordDeployment(ctx, request.body as DeploymentBody);
      return reply.code(201).send({ status: 'recorded' });
    },
  );

  const readiness = new ReadinessProbe(ctx, monitor);
  app.get(
    '/livez',
    {
      schema: {
        tags: ['ops'],
        summary: 'Liveness probe',
        description:
          'Answers as long as the process serves HTTP; no I/O. For an orchestrator liveness probe ' +
          '(restart the process when it stops answering).',
        response: { 200: { description: 'The process answers.', ...LiveBody } },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['ops'],
        summary: 'Readiness probe',
        description:
          'The database answers and its migrations are current (Redis is reported, never required: ' +
          'rate limits let requests through without it). For load balancers and orchestrator ' +
          'readiness probes. Debug logging, NODE_ENV and disk use never make it fail.',
        response: {
          200: { description: 'Ready to serve.', ...ReadyBody },
          503: { description: 'Not ready: a required check failed.', ...ReadyBody },
        },
      },
    },
    async (_request, reply) => {
      const result = await readiness.check();
      return reply
        .code(result.ready ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: result.ready ? 'ready' : 'not_ready', checks: result.checks });
    },
  );

  app.get(
    '/health',
    {
      onRequest: rateLimit({ name: 'health', max: HEALTH_RATE_PER_MINUTE, windowSeconds: 60 }),
      schema: {
        tags: ['ops'],
        summary: 'Health checks',
        description:
          'Runs the checks (Database, Cache, UsedDiskSpace; in production and staging also OptimizedApp, ' +
          'DebugMode, Environment). 200 when none failed (warnings included), 503 otherwise. ' +
          'Answered from the latest run of this process (the workers run the checks every minute) when it is ' +
          `younger than HEALTH_MAX_AGE_SECONDS; ${HEALTH_RATE_PER_MINUTE} requests per minute per IP.`,
        response: { 200: HealthBody, 503: HealthBody, 429: TooManyRequestsBody },
      },
    },
    async (_request, reply) => {
      const report = await monitor.latest(ctx.config.health.maxAgeSeconds * 1000);
      reply.header('cache-control', 'no-store');
      return reply
        .code(healthHttpStatus(report.checkResults.map((r) => r.status)))
        .send({ finishedAt: report.finishedAt.toISOString(), checkResults: report.checkResults });
    },
  );
}
