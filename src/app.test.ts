import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('HTTP conventions', () => {
  it('treats an empty application/json body as no body (validation runs, not a parse error)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { 'content-type': 'application/json' },
      payload: '',
      remoteAddress: '192.0.2.201',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ success: false, error: 'validation_failed' });
  });

  it('answers malformed JSON with 400 invalid_json in the common envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
      remoteAddress: '192.0.2.202',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: 'invalid_json' });
  });

  it('refuses prototype poisoning', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__":{"x":1}}',
      remoteAddress: '192.0.2.203',
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers a malformed %-escape in the path with 400 bad_request in the common envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/es/es/products/sku/%ff' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: 'bad_request' });
  });

  it('keeps a caller request id and echoes it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'abc-123' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(res.json()).toMatchObject({ success: false, error: 'not_found' });
  });

  it('serves the OpenAPI document and the interactive reference', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    // the per-IP limits of spec 3 are documented with their 429
    for (const path of ['/api/newsletter/subscribe', '/api/leads', '/api/deployments']) {
      expect(Object.keys(doc.json().paths[path].post.responses), path).toContain('429');
    }
    const ui = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(ui.statusCode).toBe(200);
  });
});
