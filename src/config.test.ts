// Settings that would break requests at run time are refused at boot (exit code 78 in main.ts).
// Pure loadConfig rules, shown without booting anything.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('takes PRIVACY_POLICY_VERSION up to the 50 characters its column holds, v1.0 by default', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).newsletter.privacyPolicyVersion).toBe('v1.0');
    const fifty = 'v'.repeat(50);
    expect(loadConfig({ NODE_ENV: 'test', PRIVACY_POLICY_VERSION: fifty }).newsletter.privacyPolicyVersion).toBe(fifty);
    expect(() => loadConfig({ NODE_ENV: 'test', PRIVACY_POLICY_VERSION: `${fifty}1` })).toThrow(ConfigError);
  });
});

describe('flight provider settings', () => {
  it('stops the boot when the http provider has no URL', () => {
    expect(() => loadConfig({ FLIGHTS_PROVIDER: 'http' })).toThrow(ConfigError);
    expect(() => loadConfig({ FLIGHTS_PROVIDER: 'http' })).toThrow(/FLIGHTS_API_URL/);
    expect(loadConfig({ FLIGHTS_PROVIDER: 'http', FLIGHTS_API_URL: 'http://127.0.0.1:9/' }).flights.apiUrl).toBe(
      'http://127.0.0.1:9',
    );
  });

  it('takes the time-out of one provider call from FLIGHTS_TIMEOUT_MS (30 s by default)', () => {
    expect(loadConfig({}).flights.timeoutMs).toBe(30_000);
    expect(loadConfig({ FLIGHTS_TIMEOUT_MS: '5000' }).flights.timeoutMs).toBe(5_000);
    expect(() => loadConfig({ FLIGHTS_TIMEOUT_MS: '50' })).toThrow(/FLIGHTS_TIMEOUT_MS/);
  });
});

describe('scale knobs', () => {
  it('defaults to 10 connections, 5 jobs per queue, a 2 s poll and a 1 MiB body', () => {
    const c = loadConfig({});
    expect(c.databasePoolSize).toBe(10);
    expect(c.queue).toMatchObject({ concurrency: 5, concurrencyByQueue: {}, pollIntervalMs: 2000 });
    expect(c.bodyLimitBytes).toBe(1_048_576);
  });

  it('reads them from the environment and refuses nonsense', () => {
    const c = loadConfig({
      DATABASE_POOL_SIZE: '25',
      WORKER_CONCURRENCY: '2',
      QUEUE_CONCURRENCY: 'crm-sync:1, flights:8',
      QUEUE_POLL_INTERVAL_MS: '500',
      BODY_LIMIT_BYTES: '65536',
    });
    expect(c.databasePoolSize).toBe(25);
    expect(c.queue).toMatchObject({
      concurrency: 2,
      concurrencyByQueue: { 'crm-sync': 1, flights: 8 },
      pollIntervalMs: 500,
    });
    expect(c.bodyLimitBytes).toBe(65_536);
    expect(() => loadConfig({ QUEUE_CONCURRENCY: 'crm-sync' })).toThrow(/QUEUE_CONCURRENCY entries must be queue:n/);
    expect(() => loadConfig({ QUEUE_POLL_INTERVAL_MS: '100' })).toThrow(/QUEUE_POLL_INTERVAL_MS/);
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
