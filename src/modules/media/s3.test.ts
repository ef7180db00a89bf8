// The media store on S3-compatible object storage, against a fake of the S3 REST API on 127.0.0.1
// (path-style): an upload is a HeadObject then a signed PutObject of exactly our bytes, type and
// cache header under S3_PREFIX; a second upload of the same bytes puts nothing; /storage streams
// the object back; 404 stays a 404; 403, 500 and no answer become clear errors (502/504).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encodePng } from '../../../scripts/demo-images.js';
import { type FakeS3, startFakeS3 } from '../../../test/fakes/s3.js';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { multipartBody } from '../../../test/support/multipart.js';

let s3: FakeS3;
let t: TestApp;
beforeAll(async () => {
  s3 = await startFakeS3('itinera-media');
  t = await createTestApp({
    env: {
      S3_BUCKET: 'itinera-media',
      S3_REGION: 'eu-west-1',
      S3_ENDPOINT: s3.url,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'AKIAITINERATEST',
      S3_SECRET_ACCESS_KEY: 'fake-secret-key',
      S3_PREFIX: 'site-a',
      S3_TIMEOUT_MS: '1500',
      S3_MAX_ATTEMPTS: '1',
      MEDIA_DEMO_IMAGES: 'false',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});
beforeEach(() => {
  s3.answer = 'ok';
  s3.listBucket = true;
  s3.requests.length = 0;
});

const png = encodePng(30, 20, (x, y) => [x * 8, y * 12, 200]);
const sha = createHash('sha256').update(png).digest('hex');
const key = `/itinera-media/site-a/uploads/${sha}.png`;

async function upload(bytes: Uint8Array) {
  const a = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog'] });
  const { payload, headers } = multipartBody(
    { _csrf: a.csrf },
    { name: 'file', filename: 'x.png', type: 'image/png', bytes },
  );
  return t.app.inject({ method: 'POST', url: '/admin/media', payload, headers: { ...headers, cookie: a.cookie } });
}

describe('media on S3', () => {
  it('puts an upload into the bucket under its sha256 name, signed, with our bytes and headers', async () => {
    const res = await upload(png);
    expect(res.statusCode).toBe(201);
    expect(s3.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`HEAD ${key}`, `PUT ${key}`]);
    const put = s3.requests[1]!;
    expect(put.body.equals(png)).toBe(true);
    expect(put.headers['content-type']).toBe('image/png');
    expect(put.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(put.headers['content-length']).toBe(String(png.length));
    expect(put.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAITINERATEST\/\d{8}\/eu-west-1\/s3\/aws4_request, SignedHeaders=.*host.*, Signature=[0-9a-f]{64}$/,
    );
    // nothing was written to the local directory
    expect(existsSync(join(t.config.media.dir, 'uploads', `${sha}.png`))).toBe(false);
  });

  it('puts nothing for the same bytes again', async () => {
    const res = await upload(png);
    expect(res.statusCode).toBe(200);
    expect(s3.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`HEAD ${key}`]);
  });

  it('serves the object at /storage (GET and HEAD), and a missing one as 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/storage/uploads/${sha}.png` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers.etag).toBe(`"${sha}"`);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.rawPayload.equals(png)).toBe(true);
    const head = await t.app.inject({ method: 'HEAD', url: `/storage/uploads/${sha}.png` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(png.length));
    expect(s3.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${key}`, `HEAD ${key}`]);
    const missing = await t.app.inject({ method: 'GET', url: '/storage/uploads/nothing.png' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('media_not_found');
  });

  it('works under the minimal policy (GetObject, PutObject; no ListBucket): a missing key is absent, not denied', async () => {
    s3.listBucket = false;
    const fresh = encodePng(3, 3, () => [9, 8, 7]);
    const freshKey = `/itinera-media/site-a/uploads/${createHash('sha256').update(fresh).digest('hex')}.png`;
    const res = await upload(fresh);
    expect(res.statusCode).toBe(201);
    expect(s3.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`HEAD ${freshKey}`, `PUT ${freshKey}`]);
    const missing = await t.app.inject({ method: 'GET', url: '/storage/uploads/nothing.png' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('media_not_found');
    const headMissing = await t.app.inject({ method: 'HEAD', url: '/storage/uploads/nothing.png' });
    expect(headMissing.statusCode).toBe(404);
  });

  it('a real denial shows where S3 cannot mean "absent": the upload PutObject', async () => {
    s3.answer = { status: 403 };
    const up = await upload(encodePng(2, 3, () => [4, 5, 6]));
    expect(up.statusCode).toBe(502);
    expect(up.body).toContain('Object storage PutObject of uploads/');
    expect(up.body).toContain('access denied (403)');
  });

  it('turns 500 and no answer into clear errors', async () => {
    const cases: [FakeS3['answer'], number, string, string][] = [
      [{ status: 500 }, 502, 'media_storage_failed', 'HTTP 500 (InternalError)'],
      ['hang', 504, 'media_storage_timeout', 'no answer in time'],
    ];
    for (const [answer, status, code, cause] of cases) {
      s3.answer = answer;
      const res = await t.app.inject({ method: 'GET', url: `/storage/uploads/${sha}.png` });
      expect(res.statusCode, code).toBe(status);
      expect(res.json(), code).toEqual({
        success: false,
        error: code,
        message: `Object storage GetObject of uploads/${sha}.png in bucket itinera-media failed: ${cause}.`,
      });
    }
    s3.answer = { status: 500 };
    const up = await upload(encodePng(2, 2, () => [1, 2, 3]));
    expect(up.statusCode).toBe(502);
    expect(up.body).toContain('Object storage HeadObject of uploads/');
  });
});
