// JSON bodies rendered once and sent many times (catalog and content caches). Each carries its
// entity tag, and a gzip copy made on first use: a client that accepts gzip then gets a third of
// the bytes at no per-request cost. Small bodies are always sent as they are.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Response schema of a 304 (OpenAPI): no body. */
export const NotModified = { type: 'null', description: 'Not modified: the If-None-Match header matched the ETag' };

/** Below this size gzip saves too little to be worth a Content-Encoding. */
const GZIP_MIN_BYTES = 1024;

export class PreparedBody {
  readonly raw: Buffer;
  readonly etag: string;
  /** the gzip copy is another representation, so it has its own tag */
  readonly gzipEtag: string;
  private gzipped?: Buffer;

  constructor(json: string) {
    this.raw = Buffer.from(json, 'utf8');
    this.etag = entityTag(this.raw);
    this.gzipEtag = `${this.etag.slice(0, -1)}-gz"`;
  }

  static of(value: unknown): PreparedBody {
    return new PreparedBody(JSON.stringify(value));
  }

  /** The gzip copy, or undefined when the body is too small to compress. */
  gzip(): Buffer | undefined {
    if (this.raw.length < GZIP_MIN_BYTES) return undefined;
    this.gzipped ??= gzipSync(this.raw);
    return this.gzipped;
  }
}

/** A strong entity tag: the body's SHA-1, quoted. */
export function entityTag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** If-None-Match matches when it is `*` or lists the tag (weak or strong form). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag === etag || tag.replace(/^W\//, '') === etag;
  });
}

// Clients send a handful of distinct Accept-Encoding strings (each browser the same one every
// time), so the last answer is kept and the header is parsed only when it changes.
let lastAcceptEncoding: string | undefined;
let lastAcceptsGzip = false;

/** Whether an Accept-Encoding header allows gzip (explicitly or through `*`), honouring q=0. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  if (header !== lastAcceptEncoding) {
    lastAcceptsGzip = parseAcceptsGzip(header);
    lastAcceptEncoding = header;
  }
  return lastAcceptsGzip;
}

function parseAcceptsGzip(header: string): boolean {
  let gzip: number | undefined;
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    const qParam = params.find((p) => /^q=/i.test(p));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const quality = Number.isFinite(q) ? q : 0;
    const coding = name.toLowerCase();
    if (coding === 'gzip' || coding === 'x-gzip') gzip = quality;
    else if (coding === '*') star = quality;
  }
  return (gzip ?? star ?? 0) > 0;
}

/**
 * Sends a prepared body with its ETag (304 when If-None-Match matches) and, when the client
 * accepts gzip and the body is large enough, its gzip copy under its own tag; Vary tells caches
 * the body depends on Accept-Encoding.
 */
export function sendPrepared(request: FastifyRequest, reply: FastifyReply, body: PreparedBody): FastifyReply {
  const gzipped = acceptsGzip(request.headers['accept-encoding']) ? body.gzip() : undefined;
  const etag = gzipped ? body.gzipEtag : body.etag;
  reply.header('etag', etag).header('vary', 'accept-encoding');
  if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (gzipped) return reply.header('content-encoding', 'gzip').send(gzipped);
  return reply.send(body.raw);
}
