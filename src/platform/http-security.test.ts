// CORS for the storefront's origins (credentialed, preflight cached, nothing for other origins)
// and the security headers every response carries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { crossSiteOrigins, siteOf } from './http-security.js';

const SHOP = 'https://shop.example.com';
const OTHER = 'https://evil.example.net';

describe('CORS and security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CORS_ORIGINS: `${SHOP}, http://localhost:5173` } });
  });
  afterAll(() => t.close());

  const preflight = (origin: string) =>
    t.app.inject({
      method: 'OPTIONS',
      url: '/checkout/start',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });

  it('answers a preflight from an allowed origin with credentials and a cache lifetime', async () => {
    const res = await preflight(SHOP);
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']).toBe('content-type');
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers.vary).toContain('Origin');
  });

  it('allows the X-Checkout-Session request header of a storefront on another site', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/es/es/checkout/contact',
      headers: {
        origin: SHOP,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type,x-checkout-session',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    expect(res.headers['access-control-allow-headers']).toBe('content-type,x-checkout-session');
  });

  it('lets an allowed origin read a credentialed response', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { origin: SHOP, cookie: 'a=b' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-expose-headers']).toBe('x-request-id, retry-after, x-checkout-session');
  });

  it('sends no CORS header to a refused origin, on the preflight and on the request', async () => {
    const pre = await preflight(OTHER);
    const get = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { origin: OTHER } });
    for (const res of [pre, get]) {
      const cors = Object.keys(res.headers).filter((h) => h.startsWith('access-control-'));
      expect(cors).toEqual([]);
    }
    expect(get.statusCode).toBe(200); // a server-side caller without a browser still gets its answer
  });

  it('defaults to the frontend origin', async () => {
    const d = await createTestApp({ env: { FRONTEND_URL: 'https://www.example.org/de/' } });
    try {
      expect(d.config.corsOrigins).toEqual(['https://www.example.org']);
      const res = await d.app.inject({
        method: 'GET',
        url: '/openapi.json',
        headers: { origin: 'https://www.example.org' },
      });
      expect(res.headers['access-control-allow-origin']).toBe('https://www.example.org');
    } finally {
      await d.close();
    }
  }, 90_000);

  it('sends security headers with a CSP that allows only our own scripts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("script-src-attr 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toContain('max-age=');
  });

  it('keeps /docs working: swagger-ui loads only scripts from this origin', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)|<script(?![^>]*\ssrc=)[^>]*>\s*\S/);
    const init = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
  });
});

describe('BODY_LIMIT_BYTES', () => {
  it('refuses a larger body with 413', async () => {
    const t = await createTestApp({ env: { BODY_LIMIT_BYTES: '2048' } });
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/newsletter/subscribe',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'a@example.com', name: 'x'.repeat(4000) }),
      });
      expect(res.statusCode).toBe(413);
    } finally {
      await t.close();
    }
  }, 90_000); // a fresh app (and, on PostgreSQL, a fresh database) inside the test
});

describe('sites (what SameSite compares)', () => {
  it('takes the registrable domain, with the scheme: subdomains of one domain are one site', () => {
    expect(siteOf('https://api.example.com')).toBe('https://example.com');
    expect(siteOf('https://shop.eu.example.com:8443')).toBe('https://example.com');
    expect(siteOf('https://api.example.co.uk')).toBe('https://example.co.uk');
    expect(siteOf('http://localhost:3000')).toBe('http://localhost');
    expect(siteOf('http://127.0.0.1:3000')).toBe('http://127.0.0.1');
  });

  it('lists the allowed origins on another site than APP_URL', () => {
    const api = 'https://api.example.net';
    expect(crossSiteOrigins(api, ['https://www.example.net', 'https://shop.example.com'])).toEqual([
      'https://shop.example.com',
    ]);
    // the same host over http is another site (schemeful same-site)
    expect(crossSiteOrigins(api, ['http://www.example.net'])).toEqual(['http://www.example.net']);
    expect(crossSiteOrigins('http://localhost:3000', ['http://localhost:5173'])).toEqual([]);
  });
});
