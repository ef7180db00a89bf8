// The console's Media page: upload an image (multipart form, CSRF like every console write) and
// the latest uploads with their /storage URL and the path to paste into products and content.
// Seeing it needs view_catalog or view_content; uploading needs edit_catalog or edit_content.
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { guard, pageOf, sendPage, sessionOf } from '../../console/http.js';
import { csrfField, layout, notice, type PageContext, when } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { html } from '../../platform/html.js';
import { mayAny, recentUploads, type StoredUpload, storeUpload, UPLOAD_MEDIA, VIEW_MEDIA } from './service.js';

interface FilePart {
  filename: string;
  bytes: Buffer;
  truncated: boolean;
}

/** a caller that does not accept HTML (Accept: application/json) */
const wantsJson = (request: FastifyRequest) => !String(request.headers.accept ?? 'text/html').includes('html');

const sizeOf = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);

async function mediaPage(
  ctx: AppContext,
  p: PageContext,
  opts: { uploaded?: StoredUpload; error?: string } = {},
): Promise<string> {
  const uploads = await recentUploads(ctx, p.actor);
  const canUpload = mayAny(p.actor, UPLOAD_MEDIA);
  const maxBytes = ctx.config.media.maxBytes;
  const { maxWidth, maxHeight } = ctx.config.media;
  const u = opts.uploaded;
  const rows = uploads.length
    ? uploads.map(
        (
          r,
        ) => html`<tr><td><img src="/storage/${r.name}" alt="" width="64" height="${Math.max(1, Math.round((64 * r.height) / r.width))}" loading="lazy"></td>
<td><code>${r.name}</code></td><td><a href="${r.url}">${r.url}</a></td><td>${r.contentType}</td>
<td class="n">${r.width}x${r.height}</td><td class="n">${sizeOf(r.bytes)}</td><td>${r.originalName ?? ''}</td>
<td>${r.uploadedByEmail ?? html`<span class="muted">–</span>`}</td><td>${when(r.createdAt)}</td></tr>`,
      )
    : html`<tr><td colspan="9" class="muted">No upload yet.</td></tr>`;
  return layout(
    p,
    'Media',
    html`<h1>Media</h1>
${opts.error ? html`<div class="alert error" role="alert">${opts.error}</div>` : ''}
${u ? notice(`${u.created ? 'Uploaded' : 'Already uploaded'}: ${u.path} (${u.width}x${u.height}). Paste the path into a product or content image field.`) : ''}
${u ? html`<div class="card" aria-label="Uploaded image"><p>Path to paste: <code id="uploaded-path">${u.path}</code></p><p>URL: <a href="${u.url}">${u.url}</a></p></div>` : ''}
${
  canUpload
    ? html`<form method="post" action="/admin/media" enctype="multipart/form-data" class="card">${csrfField(p.csrfToken)}
<div class="field"><label for="file">Image (PNG, JPEG, WebP or GIF, at most ${sizeOf(maxBytes)} and ${maxWidth}x${maxHeight} pixels)</label>
<input id="file" name="file" type="file" accept="image/png,image/jpeg,image/webp,image/gif" required></div>
<div class="actions"><button type="submit">Upload</button></div></form>`
    : html`<p class="muted">Uploading needs the edit_catalog or edit_content permission.</p>`
}
<div class="card table-wrap"><table><caption>Latest uploads (the path goes into products and content; the URL is what the API hands out)</caption>
<thead><tr><th scope="col">Preview</th><th scope="col">Path</th><th scope="col">URL</th><th scope="col">Type</th><th scope="col" class="n">Size (px)</th><th scope="col" class="n">Bytes</th><th scope="col">File name</th><th scope="col">Uploaded by</th><th scope="col">When</th></tr></thead>
<tbody>${rows}</tbody></table></div>`,
  );
}

export async function mediaConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/admin/media', { schema: { hide: true }, preHandler: guard(ctx, VIEW_MEDIA) }, async (request, reply) =>
    sendPage(reply, await mediaPage(ctx, pageOf(request))),
  );

  // the upload: multipart bodies are parsed in this scope only, and only for a signed-in admin who
  // may upload (checked before a byte of the body is read; the guard then checks the CSRF token)
  await app.register(async (scope) => {
    const { maxBytes } = ctx.config.media;
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await sessionOf(ctx, request);
      if (!session) return reply.redirect('/admin/login?next=%2Fadmin%2Fmedia', 303);
      if (!mayAny(session.actor, UPLOAD_MEDIA)) {
        throw new AppError(403, 'forbidden', 'Uploading needs the edit_catalog or edit_content permission.');
      }
    });
    await scope.register(multipart, {
      attachFieldsToBody: 'keyValues',
      // one file; a larger one is cut at the limit and refused as media_too_large below
      limits: { files: 1, fields: 4, fileSize: maxBytes + 1, fieldSize: 1024, parts: 6 },
      throwFileSizeLimit: false,
      async onFile(part) {
        const bytes = await part.toBuffer();
        (part as unknown as { value: FilePart }).value = {
          filename: part.filename,
          bytes,
          truncated: part.file.truncated,
        };
      },
    });
    scope.post(
      '/admin/media',
      { schema: { hide: true }, bodyLimit: maxBytes + 64 * 1024, preHandler: guard(ctx, UPLOAD_MEDIA) },
      async (request, reply) => {
        const p = pageOf(request);
        const file = (request.body as { file?: FilePart } | undefined)?.file;
        try {
          if (!file || typeof file !== 'object' || !Buffer.isBuffer(file.bytes)) {
            throw new AppError(422, 'media_missing', 'Choose an image file to upload.');
          }
          if (file.truncated) {
            throw new AppError(
              413,
              'media_too_large',
              `The file is larger than the limit of ${maxBytes} bytes (MEDIA_MAX_BYTES).`,
            );
          }
          const uploaded = await storeUpload(ctx, file.bytes, file.filename, p.actor);
          const status = uploaded.created ? 201 : 200;
          if (wantsJson(request)) return reply.status(status).send({ data: uploaded });
          return sendPage(reply, await mediaPage(ctx, p, { uploaded }), status);
        } catch (err) {
          // a script or htmx asking for JSON gets the error envelope with the refusal's code
          if (!(err instanceof AppError) || err.status === 403 || err.status >= 500 || wantsJson(request)) throw err;
          return sendPage(reply, await mediaPage(ctx, p, { error: err.message }), err.status);
        }
      },
    );
  });
}
