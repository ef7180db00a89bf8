// The media settings: defaults, S3 settings read and refused when incomplete, and the production
// boot refusing a MEDIA_DIR it cannot write.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PRODUCTION_ENV } from '../../../test/support/app.js';
import { ConfigError, loadConfig } from '../../config.js';
import { checkMediaDir } from './service.js';

const dir = mkdtempSync(join(tmpdir(), 'itinera-media-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('media configuration', () => {
  it('defaults to ./var/media, 10 MB, 8000x8000, no S3, demo images where the demo loads', () => {
    const c = loadConfig({ APP_ENV: 'development' });
    expect(c.media).toEqual({
      dir: './var/media',
      maxBytes: 10_485_760,
      maxWidth: 8000,
      maxHeight: 8000,
      s3: undefined,
      demoFallback: true,
    });
    expect(loadConfig(PRODUCTION_ENV).media.demoFallback).toBe(false);
    expect(loadConfig({ APP_ENV: 'development', LOAD_DEMO_DATA: 'false' }).media.demoFallback).toBe(false);
  });

  it('reads the S3 settings and refuses incomplete ones', () => {
    const c = loadConfig({
      S3_BUCKET: 'b',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: '/site-a',
    });
    expect(c.media.s3).toEqual({
      bucket: 'b',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
      prefix: 'site-a/',
      timeoutMs: 10_000,
      maxAttempts: 3,
    });
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(ConfigError);
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_BUCKET must be set/);
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'not a url' })).toThrow(
      /S3_ENDPOINT must be an absolute URL/,
    );
    expect(() => loadConfig({ MEDIA_MAX_BYTES: '10k' })).toThrow(/MEDIA_MAX_BYTES must be a whole number/);
  });

  it('refuses to boot in production when MEDIA_DIR is not a writable directory', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    await expect(
      checkMediaDir({ config: loadConfig({ ...PRODUCTION_ENV, MEDIA_DIR: join(file, 'media') }) }),
    ).rejects.toThrow(/MEDIA_DIR .* is not a writable directory/);
    const readOnly = join(dir, 'read-only');
    await checkMediaDir({ config: loadConfig({ ...PRODUCTION_ENV, MEDIA_DIR: readOnly }) });
    chmodSync(readOnly, 0o500);
    // root may write anywhere: the refusal is then only for a path that cannot be a directory
    if (process.getuid?.() !== 0) {
      await expect(checkMediaDir({ config: loadConfig({ ...PRODUCTION_ENV, MEDIA_DIR: readOnly }) })).rejects.toThrow(
        /not a writable directory/,
      );
    }
    // with S3 the directory is not used
    await checkMediaDir({ config: loadConfig({ ...PRODUCTION_ENV, MEDIA_DIR: join(file, 'media'), S3_BUCKET: 'b' }) });
  });
});
