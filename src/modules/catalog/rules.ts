// Pure catalog rules shared by the catalog and the checkout.
import { addDays } from '../../platform/clock.js';

/** Departure must be at least this many days after today (market time zone). */
export const LEAD_TIME_DAYS = 5;

export interface OfferState {
  status: string;
  departureDate: string;
}

/** Bookable: status Active and departure at least LEAD_TIME_DAYS after `today` (YYYY-MM-DD). */
export function isBookable(offer: OfferState, today: string): boolean {
  return offer.status === 'Active' && offer.departureDate >= addDays(today, LEAD_TIME_DAYS);
}

/** Active but departing inside the lead time: the checkout answers 410 offer_expired. */
export function isInsideLeadTime(offer: OfferState, today: string): boolean {
  return offer.status === 'Active' && offer.departureDate < addDays(today, LEAD_TIME_DAYS);
}
