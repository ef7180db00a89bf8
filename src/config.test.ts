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
});

describe('hardening settings', () => {
  it('has public-write limits, abandoned-checkout retention and the health cache age by default', () => {
    const c = loadConfig({});
    expect(c.limits).toEqual({ checkoutStartsPerIp: 20, checkoutStartsPerVisitor: 6, publicWritesPerMinute: 120 });
    expect(c.checkout.abandonedRetentionDays).toBe(90);
    expect(c.health.maxAgeSeconds).toBe(60);
    expect(() => loadConfig({ RATE_LIMIT_PUBLIC_WRITES: '0' })).toThrow(/RATE_LIMIT_PUBLIC_WRITES/);
  });

  it('serves the API documentation in full outside production, public in production, as API_DOCS says', () => {
    expect(loadConfig({}).apiDocs).toBe('full');
    expect(loadConfig({ APP_ENV: 'production', APP_KEY: 'k'.repeat(40) }).apiDocs).toBe('public');
    expect(loadConfig({ API_DOCS: 'off' }).apiDocs).toBe('off');
    expect(() => loadConfig({ API_DOCS: 'secret' })).toThrow(/API_DOCS/);
  });
});
