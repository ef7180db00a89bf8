// The signed "manage my booking" link (its own file: the balance and finalization e-mails carry it,
// while the manage page itself, manage.ts, reads the balance; one file would tie them in a circle).
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { addDays } from '../../platform/clock.js';
import { urlSignature } from '../../platform/signed-url.js';
import { offerTrip } from '../catalog/offers.js';

type Ctx = Pick<AppContext, 'config'>;

export const linkMessage = (reference: string) => `manage-booking:${reference}`;

/** The link expires at the end of the return day (UTC). */
function manageExpiry(returnDate: string): number {
  return Math.floor(Date.parse(`${addDays(returnDate, 1)}T00:00:00Z`) / 1000);
}

/** The signed manage URL: APP_URL/api/{market}/{lang}/bookings/{reference}?expires&signature. */
export function manageLink(
  config: Ctx['config'],
  booking: { reference: string; marketCode: string; language: string },
  returnDate: string,
): string {
  const expires = manageExpiry(returnDate);
  const signature = urlSignature(config.appKey, linkMessage(booking.reference), expires);
  return `${config.appUrl}/api/${booking.marketCode}/${booking.language}/bookings/${booking.reference}?expires=${expires}&signature=${signature}`;
}

/** The manage URL of a booking, or null when its offer (and so its return date) is unknown. */
export async function manageLinkOf(
  db: DbOrTx,
  config: Ctx['config'],
  booking: { reference: string; marketCode: string; language: string; offerId: number },
): Promise<string | null> {
  const trip = await offerTrip(db, booking.offerId);
  const back = trip?.returnDate ?? trip?.departureDate;
  return back ? manageLink(config, booking, back) : null;
}
