// buildApp(deps) -> a Fastify instance with every module registered. No I/O at import time:
// the database and configuration come in, so tests build as many apps as they like.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import cookie from '@fastify/cookie';
import csrfProtection from '@fastify/csrf-protection';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifySchema } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import { consoleSessions, consoleSignIn } from './console/http.js';
import { consoleRoutes } from './console/routes.js';
import type { AppContext } from './context.js';
import type { Database } from './db/database.js';
import { registerJobs, scheduleJobs } from './jobs.js';
import { adminConsoleRoutes } from './modules/admin/routes.js';
import { resolveSession } from './modules/admin/service.js';
import { balanceRoutes } from './modules/balance/routes.js';
import { bookingConsoleRoutes } from './modules/bookings/console.js';
import { manageRoutes } from './modules/bookings/manage-routes.js';
import { supplierConfirmationRoutes } from './modules/bookings/supplier-routes.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import { supplyTextsConsoleRoutes } from './modules/catalog/supply-texts-console.js';
import { catalogEditorConsoleRoutes } from './modules/catalog-editor/console.js';
import { checkoutRoutes } from './modules/checkout/routes.js';
import { contentConsoleRoutes } from './modules/content/console.js';
import { contentRoutes } from './modules/content/routes.js';
import { syncConsoleRoutes } from './modules/crm/console.js';
import { newsletterCrmMirror } from './modules/crm/jobs.js';
import { flightsRoutes } from './modules/flights/routes.js';
import { leadConsoleRoutes } from './modules/leads/console.js';
import { leadRoutes } from './modules/leads/routes.js';
import { mailConsoleRoutes } from './modules/mail/console.js';
import { marketingMirror } from './modules/marketing/jobs.js';
import { marketRoutes } from './modules/markets/routes.js';
import { MarketService } from './modules/markets/service.js';
import { mediaConsoleRoutes } from './modules/media/console.js';
import { mediaRoutes } from './modules/media/routes.js';
import { jobConsoleRoutes } from './modules/monitoring/jobs-console.js';
import { monitoringRoutes } from './modules/monitoring/routes.js';
import { subscriberConsoleRoutes } from './modules/newsletter/console.js';
import { useNewsletterMirrors } from './modules/newsletter/mirrors.js';
import { newsletterRoutes } from './modules/newsletter/routes.js';
import { notificationConsoleRoutes } from './modules/notifications/console.js';
import { operationsConsoleRoutes } from './modules/operations/console.js';
import { previewConsoleRoutes } from './modules/operations/preview.js';
import { opsRoutes } from './modules/ops/routes.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { type Clock, systemClock } from './platform/clock.js';
import { clientErrors, frameworkErrors, refuseWhileClosing, registerErrorHandling } from './platform/http-errors.js';
import { registerHttpSecurity } from './platform/http-security.js';
import { registerJsonBodies } from './platform/json-body.js';
import { OneLinePerRequest, prettyLogStream } from './platform/log-format.js';
import { describeRoute, namedWildcard, refResolver, registerComponents } from './platform/openapi.js';
import { errSerializer, reqSerializer } from './platform/privacy.js';
import { PgBossQueue } from './platform/queue-pgboss.js';
import { createRateLimitStore, registerRateLimits } from './platform/rate-limit.js';
import { bodiesAsSent } from './platform/strict-body.js';

export interface AppDeps {
  config: Config;
  database: Database;
  clock?: Clock;
  /** where the log goes (default stdout); tests read it */
  logStream?: DestinationStream;
}

export type App = FastifyInstance & { ctx: AppContext };

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config } = deps;
  const pretty = config.logFormat === 'pretty';
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["api-token"]'],
      // no SQL parameters, bodies, query values or personal data in the log (platform/privacy.ts)
      serializers: { err: errSerializer, error: errSerializer, req: reqSerializer },
      ...(pretty ? { stream: prettyLogStream(deps.logStream) } : deps.logStream ? { stream: deps.logStream } : {}),
    },
    ...(pretty ? { logController: new OneLinePerRequest() } : {}),
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    // slowloris: headers, then the whole request (body included), must arrive within their time-outs;
    // Node checks them every connectionsCheckingInterval (30 s by default: too coarse for these)
    requestTimeout: config.limits.httpRequestTimeoutMs,
    keepAliveTimeout: config.limits.httpKeepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(config.limits.httpHeadersTimeoutMs, config.limits.httpRequestTimeoutMs),
      connectionsCheckingInterval: 1_000,
    },
    ajv: { customOptions: { allErrors: true } },
    // bodies are checked as sent; Ajv's coercion stays for parameters and query strings
    schemaController: { compilersFactory: { buildValidator: bodiesAsSent() } },
    // find-my-way refuses parameters over 100 characters with a bare 414; slugs have no length
    // limit at import, so any parameter a URL can carry reaches its route (and its 404)
    routerOptions: { maxParamLength: 16 * 1024 },
    frameworkErrors,
    clientErrorHandler: clientErrors,
    // the drain's 503 comes from refuseWhileClosing, in the error envelope
    return503OnClosing: false,
  });
  refuseWhileClosing(app);
  // callback style: it runs on every response, and an async hook costs a promise each time
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  const ctx = {
    config,
    database: deps.database,
    clock: deps.clock ?? systemClock,
    log: app.log,
    events: new EventEmitter(),
    rateLimits: createRateLimitStore(config, deps.clock ?? systemClock),
  } as AppContext;
  app.addHook('onClose', () => ctx.rateLimits.close());
  await registerRateLimits(app, ctx);
  // the console's CSRF tokens (console/http.ts gives it each request's secret as request.session)
  app.decorateRequest('session', null);
  await app.register(csrfProtection, { sessionPlugin: '@fastify/session' });
  ctx.markets = new MarketService(deps.database);
  // the console's guard reads the admin module's sessions
  consoleSessions(ctx, resolveSession);
  // the newsletter's subscribers are mirrored to the CRM and the marketing tool, which read them
  useNewsletterMirrors(ctx, (c) => ({ crm: newsletterCrmMirror(c), marketing: marketingMirror(c) }));
  // jobs are registered on every process (dispatch needs their queues); only workers run them
  const queue = new PgBossQueue({
    database: deps.database,
    log: app.log.child({ component: 'queue' }),
    concurrency: config.queue.concurrency,
    concurrencyByQueue: config.queue.concurrencyByQueue,
    pollingIntervalSeconds: config.queue.pollIntervalMs / 1000,
    maintenanceIntervalSeconds: config.queue.maintenanceSeconds,
  });
  ctx.queue = queue;
  registerJobs(ctx);
  // The API must come up even when the database is briefly unreachable (so /health can say so):
  // a failed queue start is logged and tried again until it succeeds or the app closes.
  let queueRetry: NodeJS.Timeout | undefined;
  const startQueue = async (): Promise<void> => {
    try {
      await queue.start({ workers: config.inProcessWorkers });
      if (config.inProcessWorkers) await scheduleJobs(ctx);
    } catch (err) {
      app.log.error({ err }, 'job queue did not start; trying again in 5 s');
      queueRetry = setTimeout(() => void startQueue(), 5000).unref();
    }
  };
  app.addHook('onReady', startQueue);
  app.addHook('onClose', async () => {
    clearTimeout(queueRetry);
    // running jobs get the shutdown grace period (less a margin for the rest of the close)
    await queue.stop(Math.max(1_000, config.limits.shutdownGraceSeconds * 1000 - 3_000));
  });
  ctx.events.on('catalog:changed', () => ctx.markets.invalidate());
  app.decorate('ctx', ctx);

  registerErrorHandling(app);

  // JSON bodies: UTF-8 only, no prototype keys, bounded depth, no NUL or lone surrogate in a string
  registerJsonBodies(app);

  await registerHttpSecurity(app, config);
  // every cookie (checkout session and visitor, console session and login) goes through the one
  // plugin, signed where it must be with APP_KEY
  await app.register(cookie, { secret: config.appKey });

  // named component schemas ($ref) for validation and the document, and a description on every route
  registerComponents(app);
  app.addHook('onRoute', describeRoute);
  if (config.apiDocs !== 'off') await registerApiDocs(app, ctx);

  await monitoringRoutes(app, ctx); // first: its request hooks cover every route
  await marketRoutes(app, ctx);
  await catalogRoutes(app, ctx);
  await contentRoutes(app, ctx);
  await mediaRoutes(app, ctx);
  await checkoutRoutes(app, ctx);
  await flightsRoutes(app, ctx);
  await balanceRoutes(app, ctx);
  await supplierConfirmationRoutes(app, ctx);
  await manageRoutes(app, ctx);
  await paymentRoutes(app, ctx);
  await newsletterRoutes(app, ctx);
  await leadRoutes(app, ctx);
  await opsRoutes(app, ctx);
  // the back-office console; each module's pages join its scope (add yours to the list)
  await consoleRoutes(app, ctx, [
    notificationConsoleRoutes,
    bookingConsoleRoutes,
    leadConsoleRoutes,
    subscriberConsoleRoutes,
    syncConsoleRoutes,
    jobConsoleRoutes,
    mailConsoleRoutes,
    catalogEditorConsoleRoutes,
    contentConsoleRoutes,
    mediaConsoleRoutes,
    supplyTextsConsoleRoutes,
    operationsConsoleRoutes,
    previewConsoleRoutes,
    adminConsoleRoutes,
  ]);

  return app as unknown as App;
}

/** ops pages, deployments and /api/internal: documented for operators, not for public visitors */
function isInternal(url: string, schema: { tags?: readonly string[] } | undefined): boolean {
  return url.startsWith('/api/internal/') || url === '/api/deployments' || Boolean(schema?.tags?.includes('ops'));
}

/** /docs and /openapi.json as API_DOCS says: every endpoint, the public ones, or behind the login */
async function registerApiDocs(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config } = ctx;
  await app.register(swagger, {
    refResolver,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'itinera API',
        version: '0.1.0',
        description: 'Catalog and content, checkout, newsletter, leads and operations endpoints of itinera.',
      },
      servers: [{ url: config.appUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'API token (npm run token:create)' },
          deploymentToken: { type: 'http', scheme: 'bearer', description: 'DEPLOYMENT_TOKEN (CI webhooks)' },
          checkoutSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'itinera_checkout',
            description:
              'The signed checkout session cookie set by POST /api/{market}/{lang}/checkout/{offerId} ' +
              '(HttpOnly; SameSite=Lax, or SameSite=None; Secure; Partitioned when CORS_ORIGINS lists ' +
              'another site; a browser sends it with credentials: "include").',
          },
          consoleSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'itinera_admin',
            description: 'The console sign-in (__Host-itinera_admin in production and staging): the dashboards data.',
          },
          checkoutSessionHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Checkout-Session',
            description:
              'The session_token of the start response, instead of the cookie: storefronts on another ' +
              'site than the API, and server-side callers.',
          },
        },
      },
      tags: [
        { name: 'catalog', description: 'Market-scoped product catalog' },
        { name: 'content', description: 'Editorial content (CMS)' },
        { name: 'checkout', description: 'Stateful checkout' },
        { name: 'newsletter', description: 'Newsletter subscription' },
        { name: 'leads', description: 'Lead capture' },
        { name: 'ops', description: 'Deployments, health and internal endpoints' },
      ],
    },
    // wildcards named; public: internal endpoints hidden (they still work for their callers)
    transform: ({ schema, url }: { schema: FastifySchema; url: string }) =>
      namedWildcard({
        schema:
          config.apiDocs === 'public' && isInternal(url, schema as { tags?: string[] })
            ? ({ ...schema, hide: true } as FastifySchema)
            : schema,
        url,
      }),
  });
  // login: a console session holding view_dashboard (the operators' own sign-in)
  const login = config.apiDocs === 'login' ? consoleSignIn(ctx, 'view_dashboard') : undefined;
  await app.register(swaggerUi, { routePrefix: '/docs', ...(login ? { uiHooks: { onRequest: login } } : {}) });
  app.get('/openapi.json', { schema: { hide: true }, ...(login ? { onRequest: login } : {}) }, async () =>
    app.swagger(),
  );
}
