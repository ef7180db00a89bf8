// Signed pay links of a booking's balance, on the scheme of the catalog's preview URLs
// (platform/signed-url: HMAC-SHA256 with APP_KEY, `?expires=...&signature=<hex>`). A link is
// valid until the departure day.
import { urlSignature, verifyUrlSignature } from '../../platform/signed-url.js';

const message = (reference: string) => `balance-pay:${reference}`;

/** The frontend's pay page of a booking: FRONTEND_URL/{market}/{lang}/pay/{reference}?expires&signature. */
export function payLink(
  config: { appKey: string; frontendUrl: string },
  booking: { reference: string; marketCode: string; language: string },
  departureDate: string,
): string {
  const expires = Math.floor(new Date(`${departureDate}T00:00:00Z`).getTime() / 1000);
  const signature = urlSignature(config.appKey, message(booking.reference), expires);
  return `${config.frontendUrl}/${booking.marketCode}/${booking.language}/pay/${booking.reference}?expires=${expires}&signature=${signature}`;
}

export function verifyPayLink(
  appKey: string,
  reference: string,
  expires: string | undefined,
  signature: string | undefined,
  now: Date,
): boolean {
  return verifyUrlSignature(appKey, message(reference), expires, signature, now);
}
