// Configuration rules that a pure loadConfig shows without booting anything.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
