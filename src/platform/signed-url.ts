// HMAC-SHA256 signatures of links that expire (preview URLs, balance pay links): the signature
// covers a purpose-specific message and the expiry (Unix seconds) and is compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function urlSignature(appKey: string, message: string, expires: number): string {
  return createHmac('sha256', appKey).update(`${message}:${expires}`).digest('hex');
}

/** True when `signature` is the signature of `message` for `expires` and `expires` is not past. */
export function verifyUrlSignature(
  appKey: string,
  message: string,
  expires: string | undefined,
  signature: string | undefined,
  now: Date,
): boolean {
  if (!expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const expected = Buffer.from(urlSignature(appKey, message, Number(expires)), 'hex');
  const given = Buffer.from(signature, 'hex');
  const valid = given.length === expected.length && timingSafeEqual(given, expected);
  return valid && Number(expires) * 1000 > now.getTime();
}
