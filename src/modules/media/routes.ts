// GET and HEAD /storage/<path>: the files every image URL of the API points at (APP_URL/storage/...,
// or ASSET_BASE_URL), from the local directory or the S3 bucket, then the demo's own images.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ErrorBody } from '../../platform/http-shapes.js';
import { NotModified } from '../../platform/prepared-body.js';
import { CONTENT_TYPES, cacheControlOf, contentHashOf, contentTypeOf } from './rules.js';
import { checkMediaDir, openMedia } from './service.js';

/** the stored-path form of the request (URL-decoded by the router); NUL and '..' are refused by the rules */
function pathOf(request: FastifyRequest): string {
  const raw = request.url.split('?')[0]!;
  // a %2F inside a segment or a raw NUL would survive decoding as a separator or a byte: refused
  if (/%2f|%5c|%00/i.test(raw)) throw new AppError(400, 'media_path_invalid', 'The storage path is not valid.');
  return (request.params as { '*': string })['*'];
}

function sameEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header === '*' || header.split(',').some((t) => bare(t) === bare(etag));
}

export async function mediaRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.addHook('onReady', () => checkMediaDir(ctx));

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request);
    const head = request.method === 'HEAD';
    const file = await openMedia(ctx, path, head);
    if (!file) throw new AppError(404, 'media_not_found', `No file at storage/${path}.`);
    const hash = contentHashOf(path);
    const etag = hash ? `"${hash}"` : (file.etag ?? undefined);
    reply
      .header('content-type', contentTypeOf(path))
      .header('cache-control', cacheControlOf(path))
      .header('x-content-type-options', 'nosniff')
      // a stored file is never a document: no script, no plugin, no frame, even opened directly
      .header('content-security-policy', "default-src 'none'; sandbox");
    if (etag) reply.header('etag', etag);
    if (file.lastModified) reply.header('last-modified', file.lastModified.toUTCString());
    if (etag && sameEtag(request.headers['if-none-match'], etag)) {
      if ('body' in file) (file.body as NodeJS.ReadableStream & { destroy(): void }).destroy();
      return reply.status(304).send();
    }
    reply.header('content-length', file.size);
    if (head || !('body' in file)) return reply.send();
    return reply.send(file.body);
  };

  app.route({
    method: ['GET', 'HEAD'],
    url: '/storage/*',
    schema: {
      tags: ['content'],
      summary: 'A stored image or video',
      description:
        'The file behind every image and video URL the API returns (`ASSET_BASE_URL/<path>`, by default ' +
        '`APP_URL/storage/<path>`). Uploads are named by the sha256 of their bytes and cached for a year ' +
        '(`immutable`); the ETag answers `If-None-Match` with 304. A path with `..`, a NUL or other characters ' +
        'than letters, digits, `.`, `_`, `-` and `/` is refused with 400 `media_path_invalid`.',
      params: Type.Object({ '*': Type.String({ description: 'the stored path, e.g. uploads/<sha256>.png' }) }),
      response: {
        200: {
          description: 'The file, with its type, length, ETag and Cache-Control.',
          content: Object.fromEntries(
            [...new Set(Object.values(CONTENT_TYPES))].map((type) => [
              type,
              { schema: { type: 'string', format: 'binary' } },
            ]),
          ),
        },
        304: NotModified,
        400: ErrorBody,
        404: ErrorBody,
        502: ErrorBody,
        504: ErrorBody,
      },
    },
    handler: serve,
  });
}
