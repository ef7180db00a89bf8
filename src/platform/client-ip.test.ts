// Issue 26 item 4: which address is the client's. TRUSTED_PROXIES defaults to none, so behind a
// local reverse proxy that appends X-Forwarded-For a visitor cannot rotate the header to skip the
// per-IP limits; set to the proxy's address, each forwarded client is counted on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/support/app.js';
import { createTestDatabase } from '../../test/support/db.js';
import { type App, buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { storableIp } from './client-ip.js';
import { fixedClock } from './clock.js';
import { rateLimit } from './rate-limit.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function appWith(trustedProxies: string) {
  const config = testConfig({ REDIS_URL: '', TRUSTED_PROXIES: trustedProxies });
  const app: App = await buildApp({ config, database, clock: fixedClock('2026-06-15T10:00:00Z') });
  app.get('/who', { onRequest: rateLimit({ name: 'who', max: 2, windowSeconds: 60 }) }, async (req) => ({
    ip: req.ip,
  }));
  await app.ready();
  return app;
}

/** a request through a reverse proxy on 127.0.0.1 that appends the peer to what the client sent */
const viaProxy = (app: App, forged: string, client = '198.51.100.7') =>
  app.inject({ url: '/who', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': `${forged}, ${client}` } });

describe('client IP', () => {
  it('trusts no proxy unless TRUSTED_PROXIES names one', () => {
    expect(loadConfig({ APP_ENV: 'test' }).trustedProxies).toEqual([]);
    expect(loadConfig({ APP_ENV: 'test', TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
  });

  it('with the default, the client is the TCP peer: a rotated X-Forwarded-For skips no limit', async () => {
    const app = await appWith('');
    try {
      const first = await viaProxy(app, '10.9.9.1');
      expect(first.json()).toEqual({ ip: '127.0.0.1' });
      expect((await viaProxy(app, '10.9.9.2')).statusCode).toBe(200);
      const third = await viaProxy(app, '10.9.9.3', '198.51.100.8');
      expect(third.statusCode).toBe(429);
    } finally {
      await app.close();
    }
  });

  it('with the proxy trusted, the client is the address the proxy saw (the last entry), one quota each', async () => {
    const app = await appWith('127.0.0.1');
    try {
      expect((await viaProxy(app, '10.9.9.1')).json()).toEqual({ ip: '198.51.100.7' });
      expect((await viaProxy(app, '10.9.9.2')).statusCode).toBe(200);
      // the same client with yet another forged entry: still its own quota, now spent
      expect((await viaProxy(app, '10.9.9.3')).statusCode).toBe(429);
      // another client behind the same proxy has a quota of its own
      expect((await viaProxy(app, '10.9.9.4', '198.51.100.8')).json()).toEqual({ ip: '198.51.100.8' });
      // a peer that is not the proxy is its own client, whatever it forwards
      const direct = await app.inject({
        url: '/who',
        remoteAddress: '203.0.113.50',
        headers: { 'x-forwarded-for': '198.51.100.99' },
      });
      expect(direct.json()).toEqual({ ip: '203.0.113.50' });
    } finally {
      await app.close();
    }
  });

  it('stores only an address that fits the column', () => {
    expect(storableIp('198.51.100.7')).toBe('198.51.100.7');
    expect(storableIp('2001:db8::1')).toBe('2001:db8::1');
    expect(storableIp('not an address')).toBeNull();
    expect(storableIp(undefined)).toBeNull();
  });
});
