// Signed preview URLs: HMAC-SHA256 (APP_KEY) over the market-product id and the expiry (Unix
// seconds), as `?expires=...&signature=<hex>`; compared in constant time.
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { urlSignature, verifyUrlSignature } from '../../platform/signed-url.js';
import { productPlace } from './repository.js';

export function previewSignature(appKey: string, productId: number, expires: number): string {
  return urlSignature(appKey, `preview:${productId}`, expires);
}

export function signPreview(
  appKey: string,
  productId: number,
  now: Date,
  ttlMinutes: number,
): { expires: number; signature: string } {
  const expires = Math.floor(now.getTime() / 1000) + ttlMinutes * 60;
  return { expires, signature: previewSignature(appKey, productId, expires) };
}

/** True when `signature` is this product's signature for `expires` and `expires` is not past. */
export function verifyPreview(
  appKey: string,
  productId: number,
  expires: string | undefined,
  signature: string | undefined,
  now: Date,
): boolean {
  return verifyUrlSignature(appKey, `preview:${productId}`, expires, signature, now);
}

/** Full preview URL of a market product under its own market and language, or undefined. */
export async function previewUrlFor(
  database: Database,
  config: Config,
  productId: number,
  now: Date,
): Promise<string | undefined> {
  const place = await productPlace(database.db, productId);
  if (!place) return undefined;
  const { expires, signature } = signPreview(config.appKey, productId, now, config.previewTtlMinutes);
  return `${config.appUrl}/api/${place.market}/${place.language}/products/${productId}/preview?expires=${expires}&signature=${signature}`;
}
