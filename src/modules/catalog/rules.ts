// Pure catalog rules shared by the catalog and the checkout.
import { addDays } from '../../platform/clock.js';
import { formatCents, toCents } from '../../platform/money.js';

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

/** `City, Country`, or whichever part exists; null when neither does. */
export function cityCountry(city: string | null | undefined, country: string | null | undefined): string | null {
  const parts = [city, country].filter((s): s is string => !!s && s.trim() !== '');
  return parts.length ? parts.join(', ') : null;
}

export interface PricedOffer extends OfferState {
  pricePerPerson: string;
}

/** Leading price: the lowest price per person among bookable offers, or undefined when none is. */
export function leadingPriceCents(offers: PricedOffer[], today: string): { cents?: number; count: number } {
  let cents: number | undefined;
  let count = 0;
  for (const o of offers) {
    if (!isBookable(o, today)) continue;
    count++;
    const c = toCents(o.pricePerPerson);
    if (cents === undefined || c < cents) cents = c;
  }
  return { cents, count };
}

/** Leading price as the catalog's string ("1234.50"), or null when no offer is bookable. */
export function leadingPrice(offers: PricedOffer[], today: string): string | null {
  const { cents } = leadingPriceCents(offers, today);
  return cents === undefined ? null : formatCents(cents);
}

// a market's language order, the markets module's rule; catalog callers keep reading it here
export { textLanguages } from '../markets/rules.js';
