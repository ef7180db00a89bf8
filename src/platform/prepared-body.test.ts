import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptsGzip, entityTag, matchesIfNoneMatch, PreparedBody, sendPrepared } from './prepared-body.js';

describe('entity tags', () => {
  it('are stable quoted hashes of the body', () => {
    expect(entityTag('{"a":1}')).toBe(entityTag('{"a":1}'));
    expect(entityTag('{"a":1}')).not.toBe(entityTag('{"a":2}'));
    expect(entityTag('x')).toMatch(/^"[\w-]+"$/);
  });
  it('If-None-Match matches the tag, its weak form, a list containing it, or *', () => {
    const tag = '"abc"';
    expect(matchesIfNoneMatch('"abc"', tag)).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', tag)).toBe(true);
    expect(matchesIfNoneMatch('"x", "abc"', tag)).toBe(true);
    expect(matchesIfNoneMatch('*', tag)).toBe(true);
    expect(matchesIfNoneMatch('"abcd"', tag)).toBe(false);
    expect(matchesIfNoneMatch(undefined, tag)).toBe(false);
  });
});

describe('acceptsGzip', () => {
  it('accepts gzip listed by a browser, x-gzip, or *', () => {
    expect(acceptsGzip('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('x-gzip')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
  });
  it('refuses without the header, with q=0, or when * is refused and gzip unnamed', () => {
    expect(acceptsGzip(undefined)).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('*;q=0, br')).toBe(false);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('gzip;q=bad')).toBe(false);
  });
});

describe('sendPrepared', () => {
  const big = PreparedBody.of({ data: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Tour ${i}` })) });
  const small = PreparedBody.of({ data: { ok: true } });
  const app = Fastify();
  app.get('/big', (request, reply) => sendPrepared(request, reply, big));
  app.get('/small', (request, reply) => sendPrepared(request, reply, small));
  afterAll(() => app.close());

  it('sends the JSON as is to a client that does not accept gzip', async () => {
    const res = await app.inject({ url: '/big' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers.etag).toBe(big.etag);
    expect(res.rawPayload.equals(big.raw)).toBe(true);
  });

  it('sends the gzip copy, with its own tag, to a client that accepts gzip', async () => {
    const res = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers.etag).toBe(`${big.etag.slice(0, -1)}-gz"`);
    expect(Number(res.headers['content-length'])).toBeLessThan(big.raw.length / 3);
    expect(gunzipSync(res.rawPayload).equals(big.raw)).toBe(true);
  });

  it('sends small bodies uncompressed whatever the client accepts', async () => {
    const res = await app.inject({ url: '/small', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ data: { ok: true } });
  });

  it('answers 304 without a body when If-None-Match holds the tag of the coding it would send', async () => {
    const plain = await app.inject({ url: '/big', headers: { 'if-none-match': big.etag } });
    expect(plain.statusCode).toBe(304);
    expect(plain.body).toBe('');
    expect(plain.headers.etag).toBe(big.etag);
    const gz = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip', 'if-none-match': big.etag } });
    expect(gz.statusCode).toBe(200); // the identity tag does not validate the gzip representation
    const gzTag = gz.headers.etag as string;
    const again = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip', 'if-none-match': gzTag } });
    expect(again.statusCode).toBe(304);
  });
});
