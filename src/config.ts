// The only reader of process.env. Every setting has a default that runs the embedded demo;
// a bad value stops the boot with a message naming the variable. The settings' shape is declared
// once, as TypeBox schemas: their Static types are the Config types, and loadConfig's result is
// checked against them (a setting read into the wrong type or left out stops the boot too).
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
// layer exception: CANCELLATION_POLICY is checked at boot with the bookings module's own parser
// (pure rules, no I/O), so a bad policy stops the boot naming the variable like any setting
import {
  type CancellationStep,
  DEFAULT_CANCELLATION_POLICY,
  parsePolicy,
} from './modules/bookings/cancellation-rules.js';

export const AppEnvSchema = Type.Union([
  Type.Literal('development'),
  Type.Literal('test'),
  Type.Literal('staging'),
  Type.Literal('production'),
]);
export type AppEnv = Static<typeof AppEnvSchema>;

const S3ConfigSchema = Type.Object({
  bucket: Type.String(),
  region: Type.String(),
  /** an S3-compatible service's URL (MinIO, R2...); AWS when unset */
  endpoint: Type.Optional(Type.String()),
  accessKeyId: Type.Optional(Type.String()),
  secretAccessKey: Type.Optional(Type.String()),
  /** bucket in the path (endpoint/bucket/key) instead of the host name */
  forcePathStyle: Type.Boolean(),
  /** put before every key ('' or ending in '/') */
  prefix: Type.String(),
  timeoutMs: Type.Integer(),
  maxAttempts: Type.Integer(),
});
export type S3Config = Static<typeof S3ConfigSchema>;

const MediaConfigSchema = Type.Object({
  /** the local directory of uploads (when S3 is not configured) */
  dir: Type.String(),
  /** the largest upload accepted, in bytes */
  maxBytes: Type.Integer(),
  maxWidth: Type.Integer(),
  maxHeight: Type.Integer(),
  /** object storage instead of `dir` when S3_BUCKET is set */
  s3: Type.Optional(S3ConfigSchema),
  /** /storage answers the demo's own images (data/demo/media) for paths the store does not hold */
  demoFallback: Type.Boolean(),
});
export type MediaConfig = Static<typeof MediaConfigSchema>;

export const ConfigSchema = Type.Object({
  port: Type.Integer(),
  host: Type.String(),
  appEnv: AppEnvSchema,
  /** NODE_ENV as given; the OptimizedApp health check expects 'production' in production and staging. */
  nodeEnv: Type.String(),
  appUrl: Type.String(),
  /** Base URL for storage paths turned into absolute image URLs. */
  assetBaseUrl: Type.String(),
  /** Frontend site URL used for product paths and trip links. */
  frontendUrl: Type.String(),
  /** Origins whose browsers may call the API with credentials (CORS); default: the frontend's. */
  corsOrigins: Type.Array(Type.String()),
  logLevel: Type.String(),
  /** 'pretty': one readable line per request (development default); 'json': pino's JSON lines */
  logFormat: Type.Union([Type.Literal('pretty'), Type.Literal('json')]),
  /** postgres://... or undefined for embedded PGlite. */
  databaseUrl: Type.Optional(Type.String()),
  /** Directory of the embedded PGlite database; 'memory' for an in-memory one. */
  pgliteDir: Type.String(),
  redisUrl: Type.Optional(Type.String()),
  /** Prefix of every Redis key (sessions, rate limits): several deployments, or test runs, can share one Redis. */
  redisKeyPrefix: Type.String(),
  /** Secret for HMAC signatures (preview URLs) and signed cookies. */
  appKey: Type.String(),
  previewTtlMinutes: Type.Integer(),
  /** Networks (CIDR or single addresses) whose X-Forwarded-For is trusted. */
  trustedProxies: Type.Array(Type.String()),
  /** Load the demo catalog on first start when the database is empty. */
  loadDemo: Type.Boolean(),
  /** Run queue workers inside the API process (embedded default). */
  inProcessWorkers: Type.Boolean(),
  /**
   * /docs and /openapi.json: 'full' (every endpoint), 'public' (internal and ops endpoints left
   * out), 'login' (every endpoint, behind the monitoring pages' login), 'off' (not served)
   */
  apiDocs: Type.Union([Type.Literal('full'), Type.Literal('public'), Type.Literal('login'), Type.Literal('off')]),
  /** Expose GET /bench/constant, the baseline route of `npm run bench`. */
  benchRoutes: Type.Boolean(),
  checkout: Type.Object({
    sessionTtlMinutes: Type.Integer(),
    depositPercent: Type.Integer(),
    /** seats are held from payment intent until payment, at least this long */
    holdMinutes: Type.Integer(),
    /** days an abandoned checkout booking is kept (funnel statistics) before it is deleted */
    abandonedRetentionDays: Type.Integer(),
  }),
  /** per-minute request limits of the public writes */
  writeLimits: Type.Object({
    /** checkout starts per client IP */
    checkoutStartsPerIp: Type.Integer(),
    /** checkout starts per visitor (the visitor cookie) */
    checkoutStartsPerVisitor: Type.Integer(),
    /** every other write under /api/:market/:lang per client IP */
    publicWritesPerMinute: Type.Integer(),
    /** requests per minute and IP on the signed links (manage my booking, supplier confirmations) */
    signedLinksPerMinute: Type.Integer(),
    /** GET .../checkout/confirmation/{reference} per client IP (reference guessing) */
    confirmationLookupsPerMinute: Type.Integer(),
  }),
  newsletter: Type.Object({
    privacyPolicyVersion: Type.String(),
    dnsServers: Type.Array(Type.String()),
    dnsTimeoutMs: Type.Integer(),
  }),
  queue: Type.Object({
    crmSyncQueue: Type.String(),
    /** jobs run at the same time per queue in one process */
    concurrency: Type.Integer(),
    /** per-queue exceptions to `concurrency` (QUEUE_CONCURRENCY=crm-sync:2,flights:4) */
    concurrencyByQueue: Type.Record(Type.String(), Type.Integer()),
    /** how often an idle worker looks for new jobs */
    pollIntervalMs: Type.Integer(),
    /** how often a job whose worker died (its time-out plus a margin passed) is failed and retried */
    maintenanceSeconds: Type.Integer(),
  }),
  /** connections in the PostgreSQL pool of one process */
  databasePoolSize: Type.Integer(),
  /** the largest request body accepted, in bytes (413 above) */
  bodyLimitBytes: Type.Integer(),
  crm: Type.Object({
    apiUrl: Type.String(),
    apiToken: Type.String(),
  }),
  marketing: Type.Object({
    apiUrl: Type.String(),
    apiToken: Type.String(),
    listId: Type.String(),
  }),
  stripe: Type.Object({
    secretKey: Type.String(),
    /** signing secret of the webhook endpoint (whsec_...); a demo default outside production */
    webhookSecret: Type.String(),
    apiHost: Type.Optional(Type.String()),
    apiPort: Type.Optional(Type.Integer()),
    apiProtocol: Type.Optional(Type.Union([Type.Literal('http'), Type.Literal('https')])),
  }),
  flights: Type.Object({
    provider: Type.Union([Type.Literal('sandbox'), Type.Literal('duffel')]),
    /** Duffel's API (FLIGHTS_PROVIDER=duffel) */
    duffel: Type.Object({ apiUrl: Type.String(), apiToken: Type.String() }),
    /** time-out of one provider call; the checkout falls back to the cache after it */
    timeoutMs: Type.Integer(),
    /** time-out of an order creation (Duffel recommends about 130 s: airlines may take 120 s) */
    orderTimeoutMs: Type.Integer(),
  }),
  deploymentToken: Type.String(),
  /** Deadlines of every outside call and of the process life cycle (docs/operations.md). */
  limits: Type.Object({
    /** PostgreSQL statement_timeout of jobs, imports and commands (0 = none) */
    dbStatementTimeoutMs: Type.Integer(),
    /** PostgreSQL statement_timeout of the API process (request paths), shorter (0 = none) */
    dbRequestStatementTimeoutMs: Type.Integer(),
    /** wait for a pooled PostgreSQL connection (or a new one) before giving up */
    dbAcquireTimeoutMs: Type.Integer(),
    /** how long the boot keeps trying an unreachable database before it exits */
    dbBootRetrySeconds: Type.Integer(),
    redisConnectTimeoutMs: Type.Integer(),
    redisCommandTimeoutMs: Type.Integer(),
    /** whole request (headers and body) must arrive within this */
    httpRequestTimeoutMs: Type.Integer(),
    /** request headers must arrive within this (slowloris) */
    httpHeadersTimeoutMs: Type.Integer(),
    /** an idle keep-alive connection is closed after this */
    httpKeepAliveTimeoutMs: Type.Integer(),
    /** SIGTERM/SIGINT: in-flight requests and running jobs get this long before the process exits */
    shutdownGraceSeconds: Type.Integer(),
  }),
  /** HTTP Basic credentials of /metrics (scraping); required (else 503) in production and staging */
  dashboard: Type.Object({ user: Type.String(), password: Type.String() }),
  /** Balance payments: due BALANCE_DUE_DAYS before departure, collected off-session. */
  balance: Type.Object({ dueDays: Type.Integer() }),
  /**
   * Cancellations: the policy used when a market product has none of its own, as
   * `days:percent` steps (CANCELLATION_POLICY, default 60:10,30:30,15:60,0:100).
   */
  cancellation: Type.Object({
    defaultPolicy: Type.Unsafe<CancellationStep[]>(
      Type.Array(Type.Object({ days_before_departure: Type.Integer(), fee_percent: Type.Number() })),
    ),
  }),
  /** Customer e-mails: the outbox is delivered over SMTP_URL; without it mails stay in the outbox. */
  mail: Type.Object({ smtpUrl: Type.Optional(Type.String()), from: Type.String() }),
  /** the back-office console at /admin: session lifetimes */
  admin: Type.Object({
    /** a session unused this long is signed out */
    sessionIdleMinutes: Type.Integer(),
    /** a session ends this long after sign-in, used or not */
    sessionMaxHours: Type.Integer(),
  }),
  health: Type.Object({
    expectedEnv: Type.Optional(Type.String()),
    notifyEmail: Type.String(),
    smtpUrl: Type.Optional(Type.String()),
    mailFrom: Type.String(),
    diskPath: Type.String(),
    /** GET /health answers from this process's latest run when younger than this (0: always run) */
    maxAgeSeconds: Type.Integer(),
  }),
  /** the daily exchange-rates.sync task: the ECB euro reference rates feed */
  exchangeRates: Type.Object({ url: Type.String() }),
  /** the offers.generate task: departures are created this many days ahead */
  offers: Type.Object({ horizonDays: Type.Integer() }),
  /** uploaded images and the files served at /storage */
  media: MediaConfigSchema,
});
export type Config = Static<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** The development signing key; production and staging refuse it (and any key shorter than 32 characters). */
export const DEV_APP_KEY = 'itinera-dev-key-change-me';

type Env = Record<string, string | undefined>;

function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function policy(env: Env, name: string, fallback: string): CancellationStep[] {
  try {
    return parsePolicy(env[name] || fallback);
  } catch (err) {
    throw new ConfigError(`${name}: ${(err as Error).message}`);
  }
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, fallback: string): string {
  const v = str(env, name, fallback);
  if (v === '') return v;
  try {
    new URL(v);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${v}"`);
  }
  return v.replace(/\/+$/, '');
}

function list(env: Env, name: string, fallback: string[]): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** a list of browser origins (scheme://host[:port]); a path or a trailing slash would never match */
function origins(env: Env, name: string, fallback: string[]): string[] {
  return list(env, name, fallback).map((o) => {
    let parsed: URL;
    try {
      parsed = new URL(o);
    } catch {
      throw new ConfigError(`${name} entries must be origins like https://shop.example.com, got "${o}"`);
    }
    if (parsed.origin !== o.replace(/\/+$/, '')) {
      throw new ConfigError(`${name} entries must be origins like https://shop.example.com (no path), got "${o}"`);
    }
    return parsed.origin;
  });
}

/** `queue:n,queue:n` -> {queue: n} (1..100 each) */
function perQueue(env: Env, name: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of list(env, name, [])) {
    const m = /^([\w.-]+):(\d{1,3})$/.exec(entry);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 100) {
      throw new ConfigError(`${name} entries must be queue:n with n from 1 to 100, got "${entry}"`);
    }
    out[m[1]] = Number(m[2]);
  }
  return out;
}

/** names of the variables still holding deploy/.env.production.example's `replace-me` placeholders */
export function placeholderSettings(env: Env): string[] {
  return Object.keys(env)
    .filter((name) => /replace-me/i.test(env[name] ?? ''))
    .sort();
}

export function loadConfig(env: Env = process.env): Config {
  const appEnv = str(env, 'APP_ENV', env.NODE_ENV === 'test' ? 'test' : 'development');
  if (!['development', 'test', 'staging', 'production'].includes(appEnv)) {
    throw new ConfigError(`APP_ENV must be one of development, test, staging, production; got "${appEnv}"`);
  }
  // production is declared once, with APP_ENV: NODE_ENV=production alone (or contradicting APP_ENV)
  // would run the development defaults (open dashboards, sandbox gateways, the public signing key)
  const nodeEnvGiven = env.NODE_ENV || undefined;
  const productionLike = appEnv === 'production' || appEnv === 'staging';
  if (nodeEnvGiven === 'production' && !productionLike) {
    throw new ConfigError(
      env.APP_ENV
        ? `NODE_ENV is production but APP_ENV is ${appEnv}: set APP_ENV=production (or staging), or unset NODE_ENV`
        : 'NODE_ENV is production but APP_ENV is not set: set APP_ENV=production (or staging) to run in production',
    );
  }
  if (productionLike && nodeEnvGiven && nodeEnvGiven !== 'production') {
    throw new ConfigError(`APP_ENV is ${appEnv} but NODE_ENV is ${nodeEnvGiven}: set NODE_ENV=production or unset it`);
  }
  const port = int(env, 'PORT', 3000, 0, 65535);
  const appUrl = url(env, 'APP_URL', `http://localhost:${port}`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl))
    throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  const production = productionLike;
  const appKey = str(env, 'APP_KEY', production ? '' : DEV_APP_KEY);
  if (!appKey) throw new ConfigError(`APP_KEY must be set in ${appEnv} (at least 32 random characters)`);
  if (production && (appKey === DEV_APP_KEY || appKey.length < 32))
    throw new ConfigError(`APP_KEY must be at least 32 characters and not the development key in ${appEnv}`);

  // stamped on every subscriber and lead, in a varchar(50): a longer one failed every signup with a 500
  const privacyPolicyVersion = str(env, 'PRIVACY_POLICY_VERSION', 'v1.0').trim();
  if (privacyPolicyVersion.length > 50) {
    throw new ConfigError(`PRIVACY_POLICY_VERSION must be at most 50 characters, got ${privacyPolicyVersion.length}`);
  }
  const dnsServers = list(env, 'DNS_SERVERS', []);
  for (const s of dnsServers) {
    if (!/^(\[[0-9a-fA-F:]+\]|[0-9.]+|[0-9a-fA-F:]+)(:\d{1,5})?$/.test(s)) {
      throw new ConfigError(`DNS_SERVERS entries must be host:port (IP address), got "${s}"`);
    }
  }
  const stripeBase = env.STRIPE_API_BASE ? url(env, 'STRIPE_API_BASE', '') : '';
  const stripeUrl = stripeBase ? new URL(stripeBase) : undefined;
  const flightsProvider = str(env, 'FLIGHTS_PROVIDER', production ? '' : 'sandbox');
  if (production && (flightsProvider === '' || flightsProvider === 'sandbox')) {
    // the sandbox confirms flights on fake PNRs: a live site would take deposits for seats it never booked
    throw new ConfigError(`FLIGHTS_PROVIDER must name a real flight provider in ${appEnv}, not the sandbox`);
  }
  if (flightsProvider !== 'sandbox' && flightsProvider !== 'duffel') {
    throw new ConfigError(`FLIGHTS_PROVIDER must be sandbox or duffel, got "${flightsProvider}"`);
  }
  const duffelToken = str(env, 'DUFFEL_API_TOKEN', '');
  if (flightsProvider === 'duffel' && !duffelToken) {
    throw new ConfigError('DUFFEL_API_TOKEN must be set when FLIGHTS_PROVIDER is duffel');
  }

  const apiDocs = str(env, 'API_DOCS', production ? 'public' : 'full');
  if (!['full', 'public', 'login', 'off'].includes(apiDocs)) {
    throw new ConfigError(`API_DOCS must be one of full, public, login, off; got "${apiDocs}"`);
  }

  // without a Stripe key the sandbox gateway would "confirm" unpaid bookings
  if (production && !str(env, 'STRIPE_SECRET_KEY', '')) {
    throw new ConfigError(
      `STRIPE_SECRET_KEY must be set in ${appEnv} (the sandbox payment gateway is for development)`,
    );
  }
  if (production && (!str(env, 'DASHBOARD_USER', '') || !str(env, 'DASHBOARD_PASSWORD', ''))) {
    throw new ConfigError(`DASHBOARD_USER and DASHBOARD_PASSWORD must be set in ${appEnv} (they guard /metrics)`);
  }

  // the demo creates admin@example.com with a printed password and publishes the demo tours
  const loadDemo = bool(env, 'LOAD_DEMO_DATA', !production);
  if (production && loadDemo) {
    throw new ConfigError(
      `LOAD_DEMO_DATA must be off in ${appEnv}: the demo catalog and its admin account are for development`,
    );
  }

  const frontendUrl = url(env, 'FRONTEND_URL', 'http://localhost:5173');
  const logFormat = str(env, 'LOG_FORMAT', appEnv === 'development' ? 'pretty' : 'json');
  if (logFormat !== 'pretty' && logFormat !== 'json') {
    throw new ConfigError(`LOG_FORMAT must be pretty or json, got "${logFormat}"`);
  }

  return checkedShape({
    port,
    apiDocs: apiDocs as Config['apiDocs'],
    // the demo (and its admin) stays on this machine unless HOST says otherwise; containers set 0.0.0.0
    host: str(env, 'HOST', '127.0.0.1'),
    appEnv: appEnv as AppEnv,
    nodeEnv: str(env, 'NODE_ENV', production ? 'production' : 'development'),
    appUrl,
    assetBaseUrl: url(env, 'ASSET_BASE_URL', `${appUrl}/storage`),
    frontendUrl,
    corsOrigins: origins(env, 'CORS_ORIGINS', [new URL(frontendUrl).origin]),
    logLevel: str(env, 'LOG_LEVEL', appEnv === 'test' ? 'silent' : 'info'),
    logFormat,
    databaseUrl,
    pgliteDir: str(env, 'PGLITE_DIR', './var/pglite'),
    redisUrl,
    redisKeyPrefix: str(env, 'REDIS_KEY_PREFIX', 'itinera:'),
    appKey,
    previewTtlMinutes: int(env, 'PREVIEW_URL_TTL_MINUTES', 60, 1, 60 * 24 * 30),
    // none by default: behind no proxy, or a proxy not listed, X-Forwarded-For is ignored (issue 26)
    trustedProxies: list(env, 'TRUSTED_PROXIES', []),
    loadDemo,
    inProcessWorkers: bool(env, 'IN_PROCESS_WORKERS', !databaseUrl),
    benchRoutes: bool(env, 'BENCH_ROUTES', false),
    checkout: {
      sessionTtlMinutes: int(env, 'CHECKOUT_SESSION_TTL_MINUTES', 120, 1),
      depositPercent: int(env, 'CHECKOUT_DEPOSIT_PERCENT', 30, 1, 100),
      holdMinutes: int(env, 'CHECKOUT_HOLD_MINUTES', 30, 1, 24 * 60),
      abandonedRetentionDays: int(env, 'CHECKOUT_ABANDONED_RETENTION_DAYS', 90, 1, 3650),
    },
    writeLimits: {
      checkoutStartsPerIp: int(env, 'RATE_LIMIT_CHECKOUT_STARTS_PER_IP', 20, 1),
      checkoutStartsPerVisitor: int(env, 'RATE_LIMIT_CHECKOUT_STARTS_PER_VISITOR', 6, 1),
      publicWritesPerMinute: int(env, 'RATE_LIMIT_PUBLIC_WRITES', 120, 1),
      signedLinksPerMinute: int(env, 'RATE_LIMIT_SIGNED_LINKS', 30, 1),
      confirmationLookupsPerMinute: int(env, 'RATE_LIMIT_CONFIRMATION_LOOKUPS', 20, 1),
    },
    newsletter: {
      privacyPolicyVersion: privacyPolicyVersion || 'v1.0',
      dnsServers,
      dnsTimeoutMs: int(env, 'DNS_TIMEOUT_MS', 3000, 100, 30_000),
    },
    queue: {
      crmSyncQueue: str(env, 'CRM_SYNC_QUEUE', 'crm-sync'),
      concurrency: int(env, 'WORKER_CONCURRENCY', 5, 1, 100),
      concurrencyByQueue: perQueue(env, 'QUEUE_CONCURRENCY'),
      pollIntervalMs: int(env, 'QUEUE_POLL_INTERVAL_MS', 2000, 500, 60_000),
      maintenanceSeconds: int(env, 'QUEUE_MAINTENANCE_SECONDS', 60, 1, 3_600),
    },
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 100 * 1024 * 1024),
    crm: {
      apiUrl: url(env, 'CRM_API_URL', 'https://api.pipedrive.com'),
      apiToken: str(env, 'CRM_API_TOKEN', ''),
    },
    marketing: {
      apiUrl: url(env, 'MARKETING_API_URL', ''),
      apiToken: str(env, 'MARKETING_API_TOKEN', ''),
      listId: str(env, 'MARKETING_LIST_ID', ''),
    },
    stripe: {
      secretKey: str(env, 'STRIPE_SECRET_KEY', ''),
      webhookSecret: str(env, 'STRIPE_WEBHOOK_SECRET', production ? '' : 'whsec_itinera_demo'),
      apiHost: stripeUrl?.hostname,
      apiPort: stripeUrl ? Number(stripeUrl.port || (stripeUrl.protocol === 'https:' ? 443 : 80)) : undefined,
      apiProtocol: stripeUrl ? (stripeUrl.protocol.replace(':', '') as 'http' | 'https') : undefined,
    },
    flights: {
      provider: flightsProvider,
      duffel: { apiUrl: url(env, 'DUFFEL_API_URL', 'https://api.duffel.com'), apiToken: duffelToken },
      timeoutMs: int(env, 'FLIGHTS_TIMEOUT_MS', 30_000, 1_000, 120_000),
      orderTimeoutMs: int(env, 'FLIGHTS_ORDER_TIMEOUT_MS', 130_000, 1_000, 300_000),
    },
    deploymentToken: str(env, 'DEPLOYMENT_TOKEN', ''),
    limits: {
      dbStatementTimeoutMs: int(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 60_000, 0, 3_600_000),
      dbRequestStatementTimeoutMs: int(env, 'DATABASE_REQUEST_STATEMENT_TIMEOUT_MS', 5_000, 0, 600_000),
      dbAcquireTimeoutMs: int(env, 'DATABASE_ACQUIRE_TIMEOUT_MS', 5_000, 100, 600_000),
      dbBootRetrySeconds: int(env, 'DATABASE_BOOT_RETRY_SECONDS', 30, 0, 3_600),
      redisConnectTimeoutMs: int(env, 'REDIS_CONNECT_TIMEOUT_MS', 2_000, 100, 60_000),
      redisCommandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 2_000, 100, 60_000),
      httpRequestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 1_000, 3_600_000),
      httpHeadersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 1_000, 600_000),
      httpKeepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 1_000, 600_000),
      shutdownGraceSeconds: int(env, 'SHUTDOWN_GRACE_SECONDS', 25, 1, 3_600),
    },
    dashboard: { user: str(env, 'DASHBOARD_USER', ''), password: str(env, 'DASHBOARD_PASSWORD', '') },
    balance: { dueDays: int(env, 'BALANCE_DUE_DAYS', 60, 0, 365) },
    cancellation: { defaultPolicy: policy(env, 'CANCELLATION_POLICY', DEFAULT_CANCELLATION_POLICY) },
    mail: { smtpUrl: env.SMTP_URL || undefined, from: str(env, 'MAIL_FROM', 'itinera@localhost') },
    admin: {
      sessionIdleMinutes: int(env, 'ADMIN_SESSION_IDLE_MINUTES', 30, 1, 24 * 60),
      sessionMaxHours: int(env, 'ADMIN_SESSION_MAX_HOURS', 12, 1, 24 * 30),
    },
    health: {
      expectedEnv: env.HEALTH_EXPECTED_ENV || undefined,
      notifyEmail: str(env, 'HEALTH_NOTIFY_EMAIL', ''),
      smtpUrl: env.SMTP_URL || undefined,
      mailFrom: str(env, 'MAIL_FROM', 'itinera@localhost'),
      diskPath: str(env, 'HEALTH_DISK_PATH', '.'),
      maxAgeSeconds: int(env, 'HEALTH_MAX_AGE_SECONDS', 60, 0, 3600),
    },
    exchangeRates: {
      url: url(env, 'EXCHANGE_RATES_URL', 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml'),
    },
    offers: { horizonDays: int(env, 'OFFER_HORIZON_DAYS', 365, 1, 1096) },
    media: mediaConfig(env, production),
  });
}

/** the loaded settings against their declared shape: a reader that returned the wrong type stops the boot */
function checkedShape(config: Config): Config {
  if (Value.Check(ConfigSchema, config)) return config;
  const [first] = Value.Errors(ConfigSchema, config);
  throw new ConfigError(`configuration ${first?.instancePath || '/'}: ${first?.message ?? 'invalid'}`);
}

function mediaConfig(env: Env, production: boolean): MediaConfig {
  const bucket = str(env, 'S3_BUCKET', '');
  const accessKeyId = str(env, 'S3_ACCESS_KEY_ID', '');
  const secretAccessKey = str(env, 'S3_SECRET_ACCESS_KEY', '');
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the default AWS credentials)',
    );
  }
  const prefix = str(env, 'S3_PREFIX', '').replace(/^\/+/, '');
  const s3: S3Config | undefined = bucket
    ? {
        bucket,
        region: str(env, 'S3_REGION', 'us-east-1'),
        endpoint: env.S3_ENDPOINT ? url(env, 'S3_ENDPOINT', '') : undefined,
        accessKeyId: accessKeyId || undefined,
        secretAccessKey: secretAccessKey || undefined,
        forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
        prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
        timeoutMs: int(env, 'S3_TIMEOUT_MS', 10_000, 100, 300_000),
        maxAttempts: int(env, 'S3_MAX_ATTEMPTS', 3, 1, 10),
      }
    : undefined;
  if (!bucket && (env.S3_ENDPOINT || accessKeyId)) {
    throw new ConfigError(
      'S3_BUCKET must be set when S3_ENDPOINT or S3_ACCESS_KEY_ID is (object storage needs a bucket)',
    );
  }
  return {
    dir: str(env, 'MEDIA_DIR', './var/media'),
    maxBytes: int(env, 'MEDIA_MAX_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    maxWidth: int(env, 'MEDIA_MAX_WIDTH', 8000, 1, 100_000),
    maxHeight: int(env, 'MEDIA_MAX_HEIGHT', 8000, 1, 100_000),
    s3,
    demoFallback: bool(env, 'MEDIA_DEMO_IMAGES', bool(env, 'LOAD_DEMO_DATA', !production)),
  };
}
