// Signed preview URLs of content (issue 18): a region, a country or the About Us page in one market
// and language, in any status, like the product preview (src/modules/catalog/preview.ts): an
// HMAC-SHA256 (APP_KEY) over what is previewed and the expiry, `?expires=<unix s>&signature=<hex>`.
import type { Config } from '../../config.js';
import { urlSignature, verifyUrlSignature } from '../../platform/signed-url.js';

export type PreviewKind = 'region' | 'country' | 'about_us';

/** What a preview link shows: a record (by slug; none for About Us) in a market and language. */
export interface PreviewTarget {
  kind: PreviewKind;
  /** region or country slug; ignored for About Us */
  slug?: string;
  market: string;
  lang: string;
}

const norm = (t: PreviewTarget) => ({
  kind: t.kind,
  slug: t.kind === 'about_us' ? '' : (t.slug ?? '').toLowerCase(),
  market: t.market.toLowerCase(),
  lang: t.lang.toLowerCase(),
});

const message = (t: PreviewTarget) => {
  const n = norm(t);
  return `content-preview:${n.kind}:${n.slug}:${n.market}:${n.lang}`;
};

/** The preview's path under the public API (no query). */
export function contentPreviewPath(t: PreviewTarget): string {
  const n = norm(t);
  const base = `/api/${n.market}/${n.lang}/cms`;
  if (n.kind === 'about_us') return `${base}/about-us/preview`;
  return `${base}/${n.kind === 'region' ? 'regions' : 'countries'}/${encodeURIComponent(n.slug)}/preview`;
}

export function signContentPreview(
  appKey: string,
  t: PreviewTarget,
  now: Date,
  ttlMinutes: number,
): { expires: number; signature: string } {
  const expires = Math.floor(now.getTime() / 1000) + ttlMinutes * 60;
  return { expires, signature: urlSignature(appKey, message(t), expires) };
}

/** True when `signature` signs this target for `expires` and `expires` is not past. */
export function verifyContentPreview(
  appKey: string,
  t: PreviewTarget,
  expires: string | undefined,
  signature: string | undefined,
  now: Date,
): boolean {
  return verifyUrlSignature(appKey, message(t), expires, signature, now);
}

/**
 * The signed preview URL, valid PREVIEW_URL_TTL_MINUTES from `now`, under `base` (APP_URL; the
 * console passes '' for a link on its own origin, which serves the API too).
 */
export function previewUrl(
  config: Pick<Config, 'appKey' | 'appUrl' | 'previewTtlMinutes'>,
  t: PreviewTarget,
  now: Date,
  base = config.appUrl,
): string {
  const { expires, signature } = signContentPreview(config.appKey, t, now, config.previewTtlMinutes);
  return `${base}${contentPreviewPath(t)}?expires=${expires}&signature=${signature}`;
}
