// The only reader of process.env. Every setting has a default that runs the embedded demo;
// a bad value stops the boot with a message naming the variable.

export type AppEnv = 'development' | 'test' | 'staging' | 'production';

export interface Config {
  port: number;
  host: string;
  appEnv: AppEnv;
  /** NODE_ENV as given; the OptimizedApp health check expects 'production' in production and staging. */
  nodeEnv: string;
  appUrl: string;
  /** Base URL for storage paths turned into absolute image URLs. */
  assetBaseUrl: string;
  /** Frontend site URL used for product paths and trip links. */
  frontendUrl: string;
  /** Origins whose browsers may call the API with credentials (CORS); default: the frontend's. */
  corsOrigins: string[];
  logLevel: string;
  /** postgres://... or undefined for embedded PGlite. */
  databaseUrl?: string;
  /** Directory of the embedded PGlite database; 'memory' for an in-memory one. */
  pgliteDir: string;
  redisUrl?: string;
  /** Secret for HMAC signatures (preview URLs) and signed cookies. */
  appKey: string;
  previewTtlMinutes: number;
  /** Networks (CIDR or single addresses) whose X-Forwarded-For is trusted. */
  trustedProxies: string[];
  /** Load the demo catalog on first start when the database is empty. */
  loadDemo: boolean;
  /** Run queue workers inside the API process (embedded default). */
  inProcessWorkers: boolean;
  /** Expose GET /bench/constant, the baseline route of `npm run bench`. */
  benchRoutes: boolean;
  checkout: {
    sessionTtlMinutes: number;
    depositPercent: number;
    /** seats are held from payment intent until payment, at least this long */
    holdMinutes: number;
  };
  newsletter: {
    privacyPolicyVersion: string;
    dnsServers: string[];
    dnsTimeoutMs: number;
  };
  queue: {
    crmSyncQueue: string;
    /** jobs run at the same time per queue in one process */
    concurrency: number;
    /** per-queue exceptions to `concurrency` (QUEUE_CONCURRENCY=crm-sync:2,flights:4) */
    concurrencyByQueue: Record<string, number>;
    /** how often an idle worker looks for new jobs */
    pollIntervalMs: number;
  };
  /** connections in the PostgreSQL pool of one process */
  databasePoolSize: number;
  /** the largest request body accepted, in bytes (413 above) */
  bodyLimitBytes: number;
  crm: {
    apiUrl: string;
    apiToken: string;
  };
  marketing: {
    apiUrl: string;
    apiToken: string;
    listId: string;
  };
  stripe: {
    secretKey: string;
    /** signing secret of the webhook endpoint (whsec_...); a demo default outside production */
    webhookSecret: string;
    apiHost?: string;
    apiPort?: number;
    apiProtocol?: 'http' | 'https';
  };
  flights: {
    provider: 'sandbox' | 'http';
    apiUrl: string;
    apiToken: string;
    /** time-out of one provider call; the checkout falls back to the cache after it */
    timeoutMs: number;
  };
  deploymentToken: string;
  /** HTTP Basic credentials of /metrics (scraping); required (else 503) in production and staging */
  dashboard: { user: string; password: string };
  /** the back-office console at /admin: session lifetimes */
  admin: {
    /** a session unused this long is signed out */
    sessionIdleMinutes: number;
    /** a session ends this long after sign-in, used or not */
    sessionMaxHours: number;
  };
  health: {
    expectedEnv?: string;
    notifyEmail: string;
    smtpUrl?: string;
    mailFrom: string;
    diskPath: string;
  };
}

export class ConfigError extends Error {}

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

export function loadConfig(env: Env = process.env): Config {
  const appEnv = str(env, 'APP_ENV', env.NODE_ENV === 'test' ? 'test' : 'development');
  if (!['development', 'test', 'staging', 'production'].includes(appEnv)) {
    throw new ConfigError(`APP_ENV must be one of development, test, staging, production; got "${appEnv}"`);
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
  const production = appEnv === 'production' || appEnv === 'staging';
  const appKey = str(env, 'APP_KEY', production ? '' : 'itinera-dev-key-change-me');
  if (!appKey) throw new ConfigError('APP_KEY must be set in production and staging');
  if (production && appKey.length < 32) throw new ConfigError('APP_KEY must be at least 32 characters');

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
  const flightsProvider = str(env, 'FLIGHTS_PROVIDER', 'sandbox');
  if (flightsProvider !== 'sandbox' && flightsProvider !== 'http') {
    throw new ConfigError(`FLIGHTS_PROVIDER must be sandbox or http, got "${flightsProvider}"`);
  }
  // without a URL every search would fail into the cache fallback: a setting error, not a quiet one
  const flightsUrl = url(env, 'FLIGHTS_API_URL', '');
  if (flightsProvider === 'http' && !flightsUrl) {
    throw new ConfigError('FLIGHTS_API_URL must be set when FLIGHTS_PROVIDER is http');
  }

  const frontendUrl = url(env, 'FRONTEND_URL', 'http://localhost:5173');

  return {
    port,
    host: str(env, 'HOST', '0.0.0.0'),
    appEnv: appEnv as AppEnv,
    nodeEnv: str(env, 'NODE_ENV', 'development'),
    appUrl,
    assetBaseUrl: url(env, 'ASSET_BASE_URL', `${appUrl}/storage`),
    frontendUrl,
    corsOrigins: origins(env, 'CORS_ORIGINS', [new URL(frontendUrl).origin]),
    logLevel: str(env, 'LOG_LEVEL', appEnv === 'test' ? 'silent' : 'info'),
    databaseUrl,
    pgliteDir: str(env, 'PGLITE_DIR', './var/pglite'),
    redisUrl,
    appKey,
    previewTtlMinutes: int(env, 'PREVIEW_URL_TTL_MINUTES', 60, 1, 60 * 24 * 30),
    trustedProxies: list(env, 'TRUSTED_PROXIES', ['127.0.0.1', '::1']),
    loadDemo: bool(env, 'LOAD_DEMO_DATA', !production),
    inProcessWorkers: bool(env, 'IN_PROCESS_WORKERS', !databaseUrl),
    benchRoutes: bool(env, 'BENCH_ROUTES', false),
    checkout: {
      sessionTtlMinutes: int(env, 'CHECKOUT_SESSION_TTL_MINUTES', 120, 1),
      depositPercent: int(env, 'CHECKOUT_DEPOSIT_PERCENT', 30, 1, 100),
      holdMinutes: int(env, 'CHECKOUT_HOLD_MINUTES', 30, 1, 24 * 60),
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
      apiUrl: flightsUrl,
      apiToken: str(env, 'FLIGHTS_API_TOKEN', ''),
      timeoutMs: int(env, 'FLIGHTS_TIMEOUT_MS', 30_000, 1_000, 120_000),
    },
    deploymentToken: str(env, 'DEPLOYMENT_TOKEN', ''),
    dashboard: { user: str(env, 'DASHBOARD_USER', ''), password: str(env, 'DASHBOARD_PASSWORD', '') },
    admin: {
      sessionIdleMinutes: int(env, 'ADMIN_SESSION_IDLE_MINUTES', 60, 1, 24 * 60),
      sessionMaxHours: int(env, 'ADMIN_SESSION_MAX_HOURS', 12, 1, 24 * 30),
    },
    health: {
      expectedEnv: env.HEALTH_EXPECTED_ENV || undefined,
      notifyEmail: str(env, 'HEALTH_NOTIFY_EMAIL', ''),
      smtpUrl: env.SMTP_URL || undefined,
      mailFrom: str(env, 'MAIL_FROM', 'itinera@localhost'),
      diskPath: str(env, 'HEALTH_DISK_PATH', '.'),
    },
  };
}
