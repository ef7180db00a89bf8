// The console's readable preview: a signed preview address of the public API (a draft product,
// region, country or About Us page) read through the API itself, as a storefront would, and shown
// as a page of texts and images, with the signed JSON link beside it for storefront developers.
import type { FastifyInstance } from 'fastify';
import { guard, pageOf, sendPage } from '../../console/http.js';
import { layout } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { type Html, html } from '../../platform/html.js';

/** The path of a signed preview address of our API (absolute under APP_URL, or a path), or null. */
export function previewPath(url: string, appUrl: string): string | null {
  const path = url.startsWith(appUrl) ? url.slice(appUrl.length) : url;
  return /^\/api\/[a-z]{2,3}\/[a-z]{2}\/[^?#]*\/preview\?expires=\d+&signature=[0-9a-f]+$/.test(path) ? path : null;
}

/** The console's address of the readable preview of a signed preview address. */
export const readablePreviewHref = (signed: string) => `/admin/preview?url=${encodeURIComponent(signed)}`;

const words = (key: string) => key.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());
const isImage = (key: string, v: string) =>
  /image|photo|picture|gallery/i.test(key) || /\.(png|jpe?g|webp|gif)(\?|$)/i.test(v);
const TITLE_KEYS = ['title', 'name', 'label'];

/** A JSON value as a reader sees it: texts as paragraphs, lists as lists, images as images. */
function readable(key: string, value: unknown, depth: number): Html {
  if (value === null || value === undefined || value === '') return html``;
  if (typeof value === 'string') {
    if (isImage(key, value)) return html`<img src="${value}" alt="${words(key)}" loading="lazy">`;
    if (/^https?:\/\//.test(value)) return html`<a href="${value}">${value}</a>`;
    return html`${value.split(/\n{2,}/).map((p) => html`<p>${p}</p>`)}`;
  }
  if (typeof value !== 'object') return html`<p>${String(value)}</p>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return html``;
    if (value.every((v) => typeof v !== 'object' || v === null)) {
      return value.every((v) => typeof v === 'string' && isImage(key, v))
        ? html`${value.map((v) => readable(key, v, depth))}`
        : html`<ul>${value.map((v) => html`<li>${String(v)}</li>`)}</ul>`;
    }
    return html`${value.map((v) => readable(key, v, depth))}`;
  }
  const record = value as Record<string, unknown>;
  const titleKey = TITLE_KEYS.find((k) => typeof record[k] === 'string');
  const level = Math.min(6, depth + 2);
  const heading = titleKey ? html`<h${level}>${record[titleKey] as string}</h${level}>` : html``;
  const rest = Object.entries(record).filter(([k]) => k !== titleKey && k !== 'id' && !k.endsWith('_id'));
  return html`<section class="card">${heading}${rest.map(([k, v]) => {
    const inner = readable(k, v, depth + 1);
    if (!inner.text) return '';
    return typeof v === 'object' && v !== null
      ? html`<div><strong>${words(k)}</strong>${inner}</div>`
      : html`<div><strong>${words(k)}:</strong> ${inner}</div>`;
  })}</section>`;
}

export async function previewConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const opts = { schema: { hide: true }, preHandler: guard(ctx, ['view_catalog', 'view_content']) };
  app.get('/admin/preview', opts, async (request, reply) => {
    const signed = (request.query as { url?: string }).url ?? '';
    const path = previewPath(signed, ctx.config.appUrl);
    if (!path) throw new AppError(400, 'not_a_preview', 'This is not a preview address the console made.');
    // the public API itself answers, exactly as it answers a storefront holding the signed link
    const res = await app.inject({ method: 'GET', url: path, headers: { accept: 'application/json' } });
    const body = res.json() as { success: boolean; data?: Record<string, unknown>; message?: string };
    const p = pageOf(request);
    if (res.statusCode !== 200 || !body.data) {
      throw new AppError(
        res.statusCode === 404 ? 404 : 410,
        'preview_unavailable',
        body.message ?? 'This preview is not available.',
      );
    }
    const data = body.data;
    const title = String(TITLE_KEYS.map((k) => data[k]).find((v) => typeof v === 'string') ?? 'Preview');
    return sendPage(
      reply,
      layout(
        p,
        `Preview: ${title}`,
        html`<div class="preview-page"><p class="muted">A preview of what the public API serves for this record, drawn plainly. For storefront developers: <a href="${path}">the signed JSON link</a> (valid for a limited time).</p>
<h1>${title}</h1>${readable('', Object.fromEntries(Object.entries(data).filter(([k]) => !TITLE_KEYS.includes(k))), 0)}</div>`,
      ),
    );
  });
}
