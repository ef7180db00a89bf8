// The checkout's day extras: the optional activities and transfers of each itinerary day, with
// their supplier rate converted to the market currency, and the check of a visitor's choice.
// Both kinds share the pricing (pricedExtra) and the choice (chooseDayExtras); they differ in
// where the days come from (the market product's itinerary, the template's transfers).
import type { Db } from '../../db/database.js';
import { AppError, FieldErrorBag } from '../../platform/errors.js';
import { centsToNumber } from '../../platform/money.js';
import type { OfferWithProduct } from '../catalog/offers.js';
import { cityCountry, textLanguages } from '../catalog/rules.js';
import { loadExchangeRates, loadItineraryDays } from '../catalog/supply.js';
import type { MarketScope } from '../markets/rules.js';
import { convertTo, type RatesPerEur } from './rules.js';
import * as supply from './supply.js';

/** What loading the options of a checkout step needs: the database, the page's market and language, image URLs. */
export interface OptionsContext {
  db: Db;
  scope: MarketScope;
  assetUrl(path: string | null | undefined): string | null;
}

export const money = (cents: number | null): number | null => (cents === null ? null : centsToNumber(cents));
/** Supply texts (hotels, activities, transfers) in the page's language, with the catalog's fallback. */
export const textsOf = (scope: MarketScope) => textLanguages(scope.lang, scope.market.defaultLanguage);

/** An optional activity or transfer as offered: supplier rate converted to the market currency. */
function pricedExtra(
  c: OptionsContext,
  r: {
    id: number;
    name: string;
    description: string | null;
    images: string[];
    city: string | null;
    country: string | null;
    rate: { cents: number; currency: string } | null;
  },
  exchange: RatesPerEur,
) {
  const cents = r.rate ? convertTo(r.rate.cents, r.rate.currency, c.scope.market.currency.code, exchange) : null;
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    image_url: c.assetUrl(r.images[0]),
    price: money(cents),
    priceCents: cents,
    location: cityCountry(r.city, r.country),
  };
}

/** Every itinerary day with its included and optional activities. */
export async function activityDays(c: OptionsContext, offer: OfferWithProduct) {
  const [days, rows, exchange] = await Promise.all([
    loadItineraryDays(c.db, offer.marketProductId),
    supply.loadDayActivities(c.db, offer.marketProductId, textsOf(c.scope)),
    loadExchangeRates(c.db),
  ]);
  return days.map((d) => {
    const own = rows.filter((r) => r.dayNumber === d.dayNumber);
    return {
      day_number: d.dayNumber,
      destination: d.city,
      included_activities: own.filter((r) => r.tier === 'included').map((r) => ({ name: r.name })),
      available_activities: own.filter((r) => r.tier === 'extra').map((r) => pricedExtra(c, r, exchange)),
    };
  });
}

/** The days that offer an optional transfer, with their included and optional transfers. */
export async function transferDays(c: OptionsContext, offer: OfferWithProduct) {
  const [days, rows, exchange] = await Promise.all([
    loadItineraryDays(c.db, offer.marketProductId),
    supply.loadDayTransfers(c.db, offer.templateId, textsOf(c.scope)),
    loadExchangeRates(c.db),
  ]);
  const dayNumbers = [...new Set(rows.filter((r) => r.kind === 'upsell').map((r) => r.dayNumber))].sort(
    (a, b) => a - b,
  );
  return dayNumbers.map((n) => {
    const own = rows.filter((r) => r.dayNumber === n);
    return {
      day_number: n,
      destination: days.find((d) => d.dayNumber === n)?.city ?? null,
      included_transfers: own.filter((r) => r.kind === 'included').map((r) => ({ name: r.name })),
      available_transfers: own
        .filter((r) => r.kind === 'upsell')
        .map((r) => ({
          ...pricedExtra(c, r, exchange),
          vehicle_type: r.vehicleType,
          duration_minutes: r.durationMinutes,
        })),
    };
  });
}

interface DayExtraOption {
  id: number;
  name: string;
  location: string | null;
  priceCents: number | null;
}

/** How a refused choice is worded, per kind. */
interface ChoiceWords {
  field: string;
  noun: string;
  code: string;
  missing: string;
}

export const ACTIVITY_CHOICE: ChoiceWords = {
  field: 'activity_selections',
  noun: 'Activity',
  code: 'activity_not_available',
  missing: 'is not an optional activity of this tour',
};

export const TRANSFER_CHOICE: ChoiceWords = {
  field: 'transfer_selections',
  noun: 'Transfer',
  code: 'transfer_not_available',
  missing: 'is not available for that day',
};

/**
 * Checks chosen day extras (activities or transfers): no choice twice (400), each one an option of
 * its day (422 `code`) with a supplier price (422 too). Prices come from the options, never the client.
 */
export function chooseDayExtras<O extends DayExtraOption>(
  items: { id: number; day: number }[],
  optionsOfDay: (day: number) => O[] | undefined,
  kind: ChoiceWords,
): { id: number; day: number; option: O & { priceCents: number } }[] {
  const bag = new FieldErrorBag();
  items.forEach((item, i) => {
    const dup = items.findIndex((o, j) => j < i && o.id === item.id && o.day === item.day);
    if (dup >= 0)
      bag.add(`${kind.field}.${i}`, `The ${kind.noun.toLowerCase()} is already selected (selection ${dup}).`);
  });
  bag.throwIfAny(400);
  return items.map(({ id, day }) => {
    const option = optionsOfDay(day)?.find((o) => o.id === id);
    const what = `${kind.noun} ${id} on day ${day}`;
    if (!option) throw new AppError(422, kind.code, `${what} ${kind.missing}.`);
    if (option.priceCents === null) throw new AppError(422, kind.code, `${what} has no price.`);
    return { id, day, option: option as O & { priceCents: number } };
  });
}
