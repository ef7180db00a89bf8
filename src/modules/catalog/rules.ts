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

/** `<MARKET>-<TEMPLATEID><IATA><DAYS>-<LANG><VERSION>`, e.g. ES-3MAD12-CA1 (codes upper-case). */
export function skuOf(p: {
  market: string;
  templateId: number;
  airport: string;
  days: number;
  language: string;
  version: number;
}): string {
  return `${p.market.toUpperCase()}-${p.templateId}${p.airport.toUpperCase()}${p.days}-${p.language.toUpperCase()}${p.version}`;
}

/** Storage paths become absolute URLs under `base`; values that already are URLs pass through. */
export function absoluteUrl(base: string, value: string | null | undefined): string | null {
  if (!value) return null;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.startsWith('//')) return value;
  return `${base.replace(/\/+$/, '')}/${value.replace(/^\/+/, '')}`;
}

/** `City, Country`, or whichever part exists; null when neither does. */
export function cityCountry(city: string | null | undefined, country: string | null | undefined): string | null {
  const parts = [city, country].filter((s): s is string => !!s && s.trim() !== '');
  return parts.length ? parts.join(', ') : null;
}
