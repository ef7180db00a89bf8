// Settings that would break requests at run time are refused at boot (exit code 78 in main.ts).
// Pure loadConfig rules, shown without booting anything.

import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_ENV } from '../test/support/app.js';
import { ConfigError, ConfigSchema, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('takes PRIVACY_POLICY_VERSION up to the 50 characters its column holds, v1.0 by default', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).newsletter.privacyPolicyVersion).toBe('v1.0');
    const fifty = 'v'.repeat(50);
    expect(loadConfig({ NODE_ENV: 'test', PRIVACY_POLICY_VERSION: fifty }).newsletter.privacyPolicyVersion).toBe(fifty);
    expect(() => loadConfig({ NODE_ENV: 'test', PRIVACY_POLICY_VERSION: `${fifty}1` })).toThrow(ConfigError);
  });
});

describe('flight provider settings', () => {
  it('stops the boot when Duffel has no token; Duffel production is the default URL', () => {
    expect(() => loadConfig({ FLIGHTS_PROVIDER: 'duffel' })).toThrow(ConfigError);
    expect(() => loadConfig({ FLIGHTS_PROVIDER: 'duffel' })).toThrow(/DUFFEL_API_TOKEN/);
    const duffel = loadConfig({ FLIGHTS_PROVIDER: 'duffel', DUFFEL_API_TOKEN: 'duffel_test_x' }).flights;
    expect(duffel).toMatchObject({
      provider: 'duffel',
      duffel: { apiUrl: 'https://api.duffel.com', apiToken: 'duffel_test_x' },
    });
    expect(
      loadConfig({ FLIGHTS_PROVIDER: 'duffel', DUFFEL_API_TOKEN: 'x', DUFFEL_API_URL: 'http://127.0.0.1:9/' }).flights
        .duffel.apiUrl,
    ).toBe('http://127.0.0.1:9');
  });

  it('refuses the retired in-house http provider and unknown names', () => {
    expect(() => loadConfig({ FLIGHTS_PROVIDER: 'http' })).toThrow(/FLIGHTS_PROVIDER must be sandbox or duffel/);
  });

  it('takes the time-out of one provider call from FLIGHTS_TIMEOUT_MS (30 s by default)', () => {
    expect(loadConfig({}).flights.timeoutMs).toBe(30_000);
    expect(loadConfig({ FLIGHTS_TIMEOUT_MS: '5000' }).flights.timeoutMs).toBe(5_000);
    expect(() => loadConfig({ FLIGHTS_TIMEOUT_MS: '50' })).toThrow(/FLIGHTS_TIMEOUT_MS/);
  });

  it('gives order creation its own time-out, FLIGHTS_ORDER_TIMEOUT_MS (130 s by default, Duffel’s guidance)', () => {
    expect(loadConfig({}).flights.orderTimeoutMs).toBe(130_000);
    expect(loadConfig({ FLIGHTS_ORDER_TIMEOUT_MS: '150000' }).flights.orderTimeoutMs).toBe(150_000);
    expect(() => loadConfig({ FLIGHTS_ORDER_TIMEOUT_MS: '10' })).toThrow(/FLIGHTS_ORDER_TIMEOUT_MS/);
  });
});

describe('hardening settings', () => {
  it('has public-write limits, abandoned-checkout retention and the health cache age by default', () => {
    const c = loadConfig({});
    expect(c.writeLimits).toEqual({
      checkoutStartsPerIp: 20,
      checkoutStartsPerVisitor: 6,
      publicWritesPerMinute: 120,
      signedLinksPerMinute: 30,
      confirmationLookupsPerMinute: 20,
    });
    expect(c.checkout.abandonedRetentionDays).toBe(90);
    expect(c.health.maxAgeSeconds).toBe(60);
    expect(() => loadConfig({ RATE_LIMIT_PUBLIC_WRITES: '0' })).toThrow(/RATE_LIMIT_PUBLIC_WRITES/);
  });

  it('serves the API documentation in full outside production, public in production, as API_DOCS says', () => {
    expect(loadConfig({}).apiDocs).toBe('full');
    expect(loadConfig(PRODUCTION_ENV).apiDocs).toBe('public');
    expect(loadConfig({ API_DOCS: 'off' }).apiDocs).toBe('off');
    expect(() => loadConfig({ API_DOCS: 'secret' })).toThrow(/API_DOCS/);
  });
});

describe('production is declared once (APP_ENV) and refuses the development defaults', () => {
  const production: Record<string, string> = {
    APP_ENV: 'production',
    APP_KEY: 'k'.repeat(40),
    STRIPE_SECRET_KEY: 'sk_live_x',
    FLIGHTS_PROVIDER: 'duffel',
    DUFFEL_API_TOKEN: 'duffel_live_x',
    DASHBOARD_USER: 'ops',
    DASHBOARD_PASSWORD: 'secret',
  };
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    return 'booted';
  };

  it('boots with a complete production configuration; NODE_ENV follows APP_ENV', () => {
    expect(loadConfig(production)).toMatchObject({ appEnv: 'production', nodeEnv: 'production' });
    expect(loadConfig({ ...production, NODE_ENV: 'production', APP_ENV: 'staging' }).appEnv).toBe('staging');
  });

  it('refuses NODE_ENV=production without APP_ENV, and any mismatch of the two', () => {
    expect(refusal({ NODE_ENV: 'production' })).toBe(
      'NODE_ENV is production but APP_ENV is not set: set APP_ENV=production (or staging) to run in production',
    );
    expect(refusal({ NODE_ENV: 'production', APP_ENV: 'development' })).toMatch(/^NODE_ENV is production but APP_ENV/);
    expect(refusal({ ...production, NODE_ENV: 'development' })).toBe(
      'APP_ENV is production but NODE_ENV is development: set NODE_ENV=production or unset it',
    );
  });

  it('refuses the development signing key, the sandbox gateways and open dashboards, naming the variable', () => {
    expect(refusal({ ...production, APP_KEY: '' })).toMatch(/^APP_KEY must be set in production/);
    expect(refusal({ ...production, APP_KEY: 'itinera-dev-key-change-me' })).toMatch(/^APP_KEY /);
    expect(refusal({ ...production, FLIGHTS_PROVIDER: '' })).toMatch(/^FLIGHTS_PROVIDER .*not the sandbox/);
    expect(refusal({ ...production, FLIGHTS_PROVIDER: 'sandbox' })).toMatch(/^FLIGHTS_PROVIDER /);
    expect(refusal({ ...production, APP_ENV: 'staging', STRIPE_SECRET_KEY: '' })).toMatch(
      /^STRIPE_SECRET_KEY must be set in staging/,
    );
    expect(refusal({ ...production, DASHBOARD_PASSWORD: '' })).toMatch(/^DASHBOARD_USER and DASHBOARD_PASSWORD/);
  });

  it('refuses LOAD_DEMO_DATA on in production and staging (the demo admin and tours would go live)', () => {
    expect(refusal({ ...production, LOAD_DEMO_DATA: 'true' })).toBe(
      'LOAD_DEMO_DATA must be off in production: the demo catalog and its admin account are for development',
    );
    expect(refusal({ ...production, APP_ENV: 'staging', LOAD_DEMO_DATA: 'yes' })).toMatch(
      /^LOAD_DEMO_DATA must be off in staging/,
    );
    expect(loadConfig({ ...production, LOAD_DEMO_DATA: 'false' }).loadDemo).toBe(false);
    expect(loadConfig(production).loadDemo).toBe(false);
    expect(loadConfig({ LOAD_DEMO_DATA: 'true' }).loadDemo).toBe(true);
  });

  it('listens on 127.0.0.1 unless HOST says otherwise (containers set 0.0.0.0)', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('keeps the sandboxes as the embedded defaults outside production', () => {
    expect(loadConfig({}).flights.provider).toBe('sandbox');
    expect(loadConfig({ NODE_ENV: 'development' }).appEnv).toBe('development');
  });
});

describe('the settings schema', () => {
  it('types and checks what loadConfig returns (declared once, in config.ts)', () => {
    expect(Value.Check(ConfigSchema, loadConfig({}))).toBe(true);
    expect(Value.Check(ConfigSchema, loadConfig(PRODUCTION_ENV))).toBe(true);
    expect(Value.Check(ConfigSchema, { ...loadConfig({}), port: '3000' })).toBe(false);
    expect(Value.Check(ConfigSchema, { ...loadConfig({}), appEnv: 'prod' })).toBe(false);
  });
});

describe('deadlines', () => {
  it('has a default for every outside call and the shutdown grace period, each configurable', () => {
    expect(loadConfig({}).limits).toEqual({
      dbStatementTimeoutMs: 60_000,
      dbRequestStatementTimeoutMs: 5_000,
      dbAcquireTimeoutMs: 5_000,
      dbBootRetrySeconds: 30,
      redisConnectTimeoutMs: 2_000,
      redisCommandTimeoutMs: 2_000,
      httpRequestTimeoutMs: 30_000,
      httpHeadersTimeoutMs: 10_000,
      httpKeepAliveTimeoutMs: 5_000,
      shutdownGraceSeconds: 25,
    });
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '3' }).limits.shutdownGraceSeconds).toBe(3);
    expect(() => loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '5' })).toThrow(/REDIS_COMMAND_TIMEOUT_MS/);
  });
});

describe('scale knobs', () => {
  it('defaults to 10 connections, 5 jobs per queue, a 2 s poll and a 1 MiB body', () => {
    const c = loadConfig({});
    expect(c.databasePoolSize).toBe(10);
    expect(c.queue).toMatchObject({
      concurrency: 5,
      concurrencyByQueue: {},
      pollIntervalMs: 2000,
      maintenanceSeconds: 60,
    });
    expect(c.bodyLimitBytes).toBe(1_048_576);
  });

  it('reads them from the environment and refuses nonsense', () => {
    const c = loadConfig({
      DATABASE_POOL_SIZE: '25',
      WORKER_CONCURRENCY: '2',
      QUEUE_CONCURRENCY: 'crm-sync:1, flights:8',
      QUEUE_POLL_INTERVAL_MS: '500',
      QUEUE_MAINTENANCE_SECONDS: '5',
      BODY_LIMIT_BYTES: '65536',
    });
    expect(c.databasePoolSize).toBe(25);
    expect(c.queue).toMatchObject({
      concurrency: 2,
      concurrencyByQueue: { 'crm-sync': 1, flights: 8 },
      pollIntervalMs: 500,
      maintenanceSeconds: 5,
    });
    expect(c.bodyLimitBytes).toBe(65_536);
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'crm-sync' })).toThrow(/QUEUE_CONCURRENCY entries must be queue:n/);
    expect(() => loadConfig({ QUEUE_POLL_INTERVAL_MS: '100' })).toThrow(/QUEUE_POLL_INTERVAL_MS/);
    expect(() => loadConfig({ QUEUE_MAINTENANCE_SECONDS: '0' })).toThrow(/QUEUE_MAINTENANCE_SECONDS/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
  });
});

describe('CORS_ORIGINS', () => {
  it('is a list of origins, by default the frontend origin', () => {
    expect(loadConfig({}).corsOrigins).toEqual(['http://localhost:5173']);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:3001/' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:3001',
    ]);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example/shop' })).toThrow(/no path/);
    expect(() => loadConfig({ CORS_ORIGINS: 'shop.example' })).toThrow(/CORS_ORIGINS/);
  });
});
