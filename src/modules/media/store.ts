// Where media bytes live: a local directory (MEDIA_DIR, the default) or an S3-compatible bucket
// (S3_BUCKET and friends) through the official AWS SDK v3 client. Both answer the same port, so
// /storage serves either and the stored paths never change when a site moves to a bucket.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { MediaConfig, S3Config } from '../../config.js';
import { AppError } from '../../platform/errors.js';

export interface StoredFile {
  size: number;
  /** the store's content type, when it keeps one (S3); the serving route decides otherwise */
  contentType?: string;
  lastModified?: Date;
  /** the store's own entity tag (S3), or a weak one from size and time (local files) */
  etag?: string;
}

export interface MediaStore {
  readonly kind: 'local' | 's3';
  /** Metadata of a file, or null when there is none at `path`. */
  head(path: string): Promise<StoredFile | null>;
  /** The file's bytes as a stream with its metadata, or null when there is none. */
  open(path: string): Promise<(StoredFile & { body: Readable }) | null>;
  put(path: string, bytes: Uint8Array, contentType: string, cacheControl: string): Promise<void>;
}

/** Files under one directory; `path` was checked by checkStoragePath, and is checked again here. */
export class LocalMediaStore implements MediaStore {
  readonly kind = 'local';
  readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private file(path: string): string {
    const full = resolve(this.root, path);
    if (!full.startsWith(this.root + sep))
      throw new AppError(400, 'media_path_invalid', 'The storage path is not valid.');
    return full;
  }

  async head(path: string): Promise<StoredFile | null> {
    try {
      const s = await stat(this.file(path));
      if (!s.isFile()) return null;
      return {
        size: s.size,
        lastModified: s.mtime,
        etag: `W/"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}"`,
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') {
        return null;
      }
      throw err;
    }
  }

  async open(path: string) {
    const meta = await this.head(path);
    return meta ? { ...meta, body: createReadStream(this.file(path)) } : null;
  }

  /**
   * Written to a temporary name and renamed, so a reader never sees half a file. A failed write
   * removes its temporary file (a full disk would otherwise keep the partial bytes forever) and a
   * full disk or quota is 507 `media_storage_full`.
   */
  async put(path: string, bytes: Uint8Array): Promise<void> {
    const full = this.file(path);
    const tmp = `${full}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(full), { recursive: true });
      await writeFile(tmp, bytes);
      await rename(tmp, full);
    } catch (err) {
      await unlink(tmp).catch(() => {});
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        throw new AppError(
          507,
          'media_storage_full',
          'The media storage is full: nothing was stored. Tell the operators.',
        );
      }
      throw err;
    }
  }
}

/** S3 (or a compatible service: MinIO, R2, Ceph...) through @aws-sdk/client-s3. */
export class S3MediaStore implements MediaStore {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly config: S3Config) {
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      ...(config.accessKeyId
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey ?? '' } }
        : {}),
      // compatible services do not all accept the SDK's default CRC32 trailers
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: config.maxAttempts,
      requestHandler: {
        connectionTimeout: config.timeoutMs,
        requestTimeout: config.timeoutMs,
        throwOnRequestTimeout: true,
      },
    });
  }

  private key(path: string): string {
    return `${this.config.prefix}${path}`;
  }

  /**
   * One S3 call; a missing object is null. `read`: a read of one object, where 403 is missing too:
   * without s3:ListBucket, S3 answers a missing key with 403 AccessDenied, not 404, and the
   * minimal policy (GetObject, PutObject) has no ListBucket. A real denial still shows on PutObject.
   */
  private async call<T>(
    what: string,
    path: string,
    run: (signal: AbortSignal) => Promise<T>,
    read = false,
  ): Promise<T | null> {
    try {
      return await run(AbortSignal.timeout(this.config.timeoutMs * this.config.maxAttempts + 1_000));
    } catch (err) {
      const status = err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
      if (status === 404 || (err as Error).name === 'NoSuchKey' || (err as Error).name === 'NotFound') return null;
      if (read && status === 403) return null;
      throw storageError(what, path, this.config.bucket, err, status);
    }
  }

  async head(path: string): Promise<StoredFile | null> {
    return this.call(
      'HeadObject',
      path,
      async (abortSignal) => fileOf(await this.client.send(new HeadObjectCommand(this.object(path)), { abortSignal })),
      true,
    );
  }

  async open(path: string) {
    return this.call(
      'GetObject',
      path,
      async (abortSignal) => {
        const out = await this.client.send(new GetObjectCommand(this.object(path)), { abortSignal });
        return { ...fileOf(out), body: out.Body as Readable };
      },
      true,
    );
  }

  private object(path: string) {
    return { Bucket: this.config.bucket, Key: this.key(path) };
  }

  async put(path: string, bytes: Uint8Array, contentType: string, cacheControl: string): Promise<void> {
    await this.call('PutObject', path, (abortSignal) =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.config.bucket,
          Key: this.key(path),
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.length,
          CacheControl: cacheControl,
        }),
        { abortSignal },
      ),
    );
  }
}

/** the metadata HeadObject and GetObject both answer */
function fileOf(out: { ContentLength?: number; ContentType?: string; LastModified?: Date; ETag?: string }): StoredFile {
  return { size: out.ContentLength ?? 0, contentType: out.ContentType, lastModified: out.LastModified, etag: out.ETag };
}

/** A failed S3 call as a 502 naming the operation and the cause (never the credentials). */
function storageError(what: string, path: string, bucket: string, err: unknown, status?: number): AppError {
  const e = err as Error;
  const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || /timed? ?out/i.test(e.message ?? '');
  const cause = timedOut
    ? 'no answer in time'
    : status === 403
      ? 'access denied (403)'
      : status
        ? `HTTP ${status} (${e.name})`
        : `${e.name}: ${e.message}`;
  return new AppError(
    status === 403 ? 502 : timedOut ? 504 : 502,
    timedOut ? 'media_storage_timeout' : status === 403 ? 'media_storage_denied' : 'media_storage_failed',
    `Object storage ${what} of ${path} in bucket ${bucket} failed: ${cause}.`,
  );
}

export function createMediaStore(config: MediaConfig): MediaStore {
  return config.s3 ? new S3MediaStore(config.s3) : new LocalMediaStore(config.dir);
}
