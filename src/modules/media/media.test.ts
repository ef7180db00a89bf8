// The media store over HTTP: /storage serves a stored file with its type, cache and ETag headers,
// answers 404 in the error envelope and refuses traversal; the console's upload checks the bytes
// (type by content, size, dimensions), stores them under their sha256 name once, records the row
// and the audit log, and needs edit_catalog or edit_content and the CSRF token.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeJpeg, encodePng } from '../../../scripts/demo-images.js';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { multipartBody } from '../../../test/support/multipart.js';
import { adminAuditLog, mediaUploads } from '../../db/schema/index.js';

let t: TestApp;
beforeAll(async () => {
  // small limits, so the refusals need small files
  t = await createTestApp({
    env: { MEDIA_MAX_BYTES: '20000', MEDIA_MAX_WIDTH: '400', MEDIA_MAX_HEIGHT: '300', MEDIA_DEMO_IMAGES: 'false' },
  });
});
afterAll(() => t.close());

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const png = encodePng(40, 30, (x, y) => [x * 6, y * 8, 90]);
const jpeg = encodeJpeg(64, 48, (bx, by) => [bx * 30, by * 40, 120]);

async function upload(
  who: { cookie: string; csrf: string },
  bytes: Uint8Array,
  filename: string,
  type = 'image/png',
  csrf = who.csrf,
) {
  const { payload, headers } = multipartBody({ _csrf: csrf }, { name: 'file', filename, type, bytes });
  return t.app.inject({ method: 'POST', url: '/admin/media', payload, headers: { ...headers, cookie: who.cookie } });
}

describe('GET /storage', () => {
  it('serves a file from MEDIA_DIR with its content type, length, ETag and cache headers; HEAD too', async () => {
    const dir = t.config.media.dir;
    mkdirSync(join(dir, 'regions'), { recursive: true });
    writeFileSync(join(dir, 'regions', 'asia.jpg'), jpeg);
    const res = await t.app.inject({ method: 'GET', url: '/storage/regions/asia.jpg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['content-length']).toBe(String(jpeg.length));
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toMatch(/^W\/"/);
    expect(res.rawPayload.equals(jpeg)).toBe(true);
    const head = await t.app.inject({ method: 'HEAD', url: '/storage/regions/asia.jpg' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(jpeg.length));
    expect(head.headers.etag).toBe(res.headers.etag);
    expect(head.rawPayload.length).toBe(0);
    const again = await t.app.inject({
      method: 'GET',
      url: '/storage/regions/asia.jpg',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers a missing file with 404 in the error envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/storage/regions/nowhere.jpg' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      error: 'media_not_found',
      message: 'No file at storage/regions/nowhere.jpg.',
    });
    expect((await t.app.inject({ method: 'HEAD', url: '/storage/regions/nowhere.jpg' })).statusCode).toBe(404);
  });

  it('refuses traversal, encoded slashes and NUL before touching the disk', async () => {
    // a file one level above MEDIA_DIR that traversal would reach
    writeFileSync(join(t.config.media.dir, '..', 'secret.png'), 'TOP-SECRET-BYTES');
    for (const url of [
      '/storage/../secret.png',
      '/storage/%2e%2e/secret.png',
      '/storage/regions/..%2f..%2fsecret.png',
      '/storage/a%00.png',
      '/storage/regions%5c..%5c..%5csecret.png',
      '/storage/.hidden',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect([400, 404], url).toContain(res.statusCode);
      expect(res.json().success, url).toBe(false);
      expect(res.body, url).not.toContain('TOP-SECRET');
    }
    const encoded = await t.app.inject({ method: 'GET', url: '/storage/regions/..%2f..%2fsecret.png' });
    expect(encoded.statusCode).toBe(400);
    expect(encoded.json().error).toBe('media_path_invalid');
    // the router refuses a NUL in the path itself (invalid_url), before the route runs
    const nul = await t.app.inject({ method: 'GET', url: '/storage/a%00.png' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().success).toBe(false);
  });

  it('refuses traversal sent raw over a socket (no client normalises the path)', async () => {
    const server = await createTestApp({ database: t.database, env: { MEDIA_DIR: t.config.media.dir } });
    try {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (server.app.server.address() as AddressInfo).port;
      for (const path of [
        '/storage/../secret.png',
        '/storage/regions/../../secret.png',
        '/storage/%2e%2e/secret.png',
      ]) {
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.end();
        });
        expect(answer.status, path).toBe(400);
        expect(JSON.parse(answer.body).error, path).toBe('media_path_invalid');
      }
    } finally {
      await server.close();
    }
  });
});

describe('POST /admin/media (the console upload)', () => {
  it('stores a valid PNG under its sha256 name, records it and serves it for a year', async () => {
    const a = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog'] });
    const res = await upload(a, png, 'beach.png');
    expect(res.statusCode).toBe(201);
    const path = `uploads/${sha(png)}.png`;
    expect(res.body).toContain(path);
    expect(res.body).toContain(`http://api.test/storage/${path}`);
    expect(readFileSync(join(t.config.media.dir, path)).equals(png)).toBe(true);
    const [row] = await t.database.db.select().from(mediaUploads).where(eq(mediaUploads.name, path));
    expect(row).toMatchObject({
      contentType: 'image/png',
      bytes: png.length,
      width: 40,
      height: 30,
      originalName: 'beach.png',
      uploadedBy: a.userId,
    });
    const audit = await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.actor, a.email));
    expect(audit.map((r) => r.action)).toEqual(['media.upload']);

    const served = await t.app.inject({ method: 'GET', url: `/storage/${path}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers.etag).toBe(`"${sha(png)}"`);
    expect(served.rawPayload.equals(png)).toBe(true);
  });

  it('stores a JPEG as .jpg whatever its name, and the same bytes twice as one file and one row', async () => {
    const a = await signIn(t.app, { permissions: ['view_content', 'edit_content'] });
    const first = await upload(a, jpeg, 'photo.png', 'image/png');
    expect(first.statusCode).toBe(201);
    const second = await upload(a, jpeg, 'copy.jpeg', 'image/jpeg');
    expect(second.statusCode).toBe(200);
    expect(second.body).toContain('Already uploaded');
    const path = `uploads/${sha(jpeg)}.jpg`;
    const rows = await t.database.db.select().from(mediaUploads).where(eq(mediaUploads.name, path));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ contentType: 'image/jpeg', width: 64, height: 48, originalName: 'photo.png' });
    expect(readdirSync(join(t.config.media.dir, 'uploads')).filter((f) => f.startsWith(sha(jpeg)))).toEqual([
      `${sha(jpeg)}.jpg`,
    ]);
  });

  it('refuses a wrong type by content (even named .png), SVG, too big, too large dimensions, nothing', async () => {
    const a = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog'] });
    const cases: [Uint8Array, string, number, string][] = [
      [Buffer.from('MZ\u0090\u0000 not an image at all'), 'virus.png', 415, 'not a PNG, JPEG, WebP or GIF'],
      [
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
        'logo.svg',
        415,
        'SVG and other markup',
      ],
      [Buffer.concat([png, Buffer.alloc(20_001)]), 'huge.png', 413, 'larger than the limit of 20000 bytes'],
      [encodePng(401, 10, () => [0, 0, 0]), 'wide.png', 422, 'is 401x10 pixels; the limit is 400x300'],
    ];
    for (const [bytes, name, status, text] of cases) {
      const res = await upload(a, bytes, name);
      expect(res.statusCode, name).toBe(status);
      expect(res.body, name).toContain(text);
    }
    const { payload, headers } = multipartBody({ _csrf: a.csrf });
    const none = await t.app.inject({
      method: 'POST',
      url: '/admin/media',
      payload,
      headers: { ...headers, cookie: a.cookie },
    });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('Choose an image file');
    expect(existsSync(join(t.config.media.dir, 'uploads', `${sha(encodePng(401, 10, () => [0, 0, 0]))}.png`))).toBe(
      false,
    );
  });

  it('answers a caller asking for JSON with the stored upload, or the error envelope and its code', async () => {
    const a = await signIn(t.app, { permissions: ['edit_catalog'] });
    const post = (bytes: Uint8Array, filename: string) => {
      const { payload, headers } = multipartBody({}, { name: 'file', filename, type: 'image/png', bytes });
      return t.app.inject({
        method: 'POST',
        url: '/admin/media',
        payload,
        headers: { ...headers, cookie: a.cookie, 'x-csrf-token': a.csrf, accept: 'application/json' },
      });
    };
    const gif = Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 2, 0, 3, 0, 0, 0, 0, 0x3b]);
    const ok = await post(gif, 'dot.gif');
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({
      data: {
        path: `uploads/${sha(gif)}.gif`,
        url: `http://api.test/storage/uploads/${sha(gif)}.gif`,
        contentType: 'image/gif',
        bytes: 14,
        width: 2,
        height: 3,
        created: true,
      },
    });
    const cases: [Uint8Array, number, string][] = [
      [Buffer.from('just text, named .png'), 415, 'media_type_unsupported'],
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 415, 'media_svg_refused'],
      [Buffer.alloc(20_001, 0x89), 413, 'media_too_large'],
      [encodePng(10, 301, () => [0, 0, 0]), 422, 'media_dimensions_too_large'],
      [png.subarray(0, 16), 422, 'media_unreadable'],
    ];
    for (const [bytes, status, code] of cases) {
      const res = await post(bytes, 'x.png');
      expect(res.statusCode, code).toBe(status);
      expect(res.json().error, code).toBe(code);
    }
  });

  it('needs an edit permission and the CSRF token; the page needs a view permission', async () => {
    const viewer = await signIn(t.app, { permissions: ['view_catalog'] });
    expect((await t.app.inject({ url: '/admin/media', headers: { cookie: viewer.cookie } })).statusCode).toBe(200);
    expect((await upload(viewer, png, 'x.png')).statusCode).toBe(403);
    const nobody = await signIn(t.app, { permissions: ['view_booking'] });
    expect((await t.app.inject({ url: '/admin/media', headers: { cookie: nobody.cookie } })).statusCode).toBe(403);
    const editor = await signIn(t.app, { permissions: ['edit_content'] });
    expect((await upload(editor, png, 'x.png', 'image/png', 'wrong-token')).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/admin/media',
      ...multipartBody({}, { name: 'file', filename: 'x.png', type: 'image/png', bytes: png }),
    });
    expect(anonymous.statusCode).toBe(303);
  });

  it('lists recent uploads with the path to paste and the URL', async () => {
    const a = await signIn(t.app, { permissions: ['view_catalog'] });
    const page = await t.app.inject({ url: '/admin/media', headers: { cookie: a.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<code>uploads/${sha(png)}.png</code>`);
    expect(page.body).toContain(`http://api.test/storage/uploads/${sha(jpeg)}.jpg`);
    expect(page.body).not.toContain('<form method="post" action="/admin/media"');
  });
});
