// The checkout's hotel step: each stay's included hotel and its upgrades, priced as the
// difference to the included one for the party's room type, and the check of a visitor's choice.
import { AppError, FieldErrorBag } from '../../platform/errors.js';
import { labelsFor } from '../catalog/labels.js';
import type { OfferWithProduct } from '../catalog/offers.js';
import { cityCountry } from '../catalog/rules.js';
import { loadExchangeRates } from '../catalog/supply.js';
import { money, type OptionsContext, textsOf } from './day-extras.js';
import { groupStays, hotelOptionId, nightsOf, type Rate, upgradeDifferenceCents } from './rules.js';
import * as supply from './supply.js';

/** Every stay's included hotel and upgrades (a legacy package tour: one placeholder stay). */
export async function hotelOptionsOf(c: OptionsContext, offer: OfferWithProduct, roomType: string) {
  const { scope } = c;
  const { stays, hotels } = await supply.loadStays(c.db, offer.templateId, textsOf(scope));
  const [rates, exchange] = await Promise.all([
    supply.loadHotelRates(c.db, [...hotels.keys()]),
    loadExchangeRates(c.db),
  ]);
  const currency = scope.market.currency.code;
  const tierLabels = labelsFor(scope.lang).stayTiers;
  const rateOf = (hotelId: number): Rate | undefined => rates.get(hotelId)?.get(roomType);
  const entry = (hotelId: number, tier: 'selection' | 'luxury' | 'grand_luxury', start: number, end: number) => {
    const h = hotels.get(hotelId)!;
    return {
      id: hotelOptionId(hotelId, tier, start, end),
      hotelId: hotelId as number | null,
      name: h.name,
      location: cityCountry(h.city, h.country),
      tier,
      tier_label: tierLabels[tier],
      nights: { start, end },
      imageUrl: c.assetUrl(h.images[0]),
      description: h.description,
      isIncluded: tier === 'selection',
      priceDifference: null as number | null,
      selectionHotelName: null as string | null,
      // internal: cents for selections, removed from the response
      priceDifferenceCents: null as number | null,
    };
  };
  const out: ReturnType<typeof entry>[] = [];
  for (const g of groupStays(stays)) {
    const sel = g.selection;
    out.push(entry(sel.hotelId, 'selection', sel.dayStart, sel.dayEnd));
    for (const u of g.upgrades) {
      const e = entry(u.hotelId, u.tier, u.dayStart, u.dayEnd);
      const diff = upgradeDifferenceCents(
        rateOf(u.hotelId),
        rateOf(sel.hotelId),
        nightsOf(u.dayStart, u.dayEnd),
        currency,
        exchange,
      );
      e.priceDifferenceCents = diff;
      e.priceDifference = money(diff);
      e.selectionHotelName = hotels.get(sel.hotelId)!.name;
      out.push(e);
    }
  }
  if (out.length === 0 && offer.packageServiceName) {
    // legacy package tour: one placeholder stay for all nights, priced inside the package
    const end = Math.max(1, offer.tripDurationDays - 1);
    out.push({
      id: hotelOptionId(null, 'selection', 1, end),
      hotelId: null,
      name: offer.packageServiceName,
      location: null,
      tier: 'selection',
      tier_label: tierLabels.selection,
      nights: { start: 1, end },
      imageUrl: null,
      description: null,
      isIncluded: true,
      priceDifference: null,
      selectionHotelName: null,
      priceDifferenceCents: null,
    });
  }
  return out;
}

/**
 * Checks chosen hotel upgrades: nights in order and not overlapping (400), each one an upgrade
 * option with a price for the room type (422 `hotel_not_available`). Prices come from the options.
 */
export function chooseHotels(
  items: { upgrade_hotel_id: number; nights_start: number; nights_end: number }[],
  options: Awaited<ReturnType<typeof hotelOptionsOf>>,
  roomType: string,
) {
  const bag = new FieldErrorBag();
  items.forEach((item, i) => {
    if (item.nights_end < item.nights_start) {
      bag.add(`hotel_selections.${i}.nights_end`, 'The nights end must not be before the nights start.');
    }
    const overlap = items.findIndex(
      (o, j) => j < i && o.nights_start <= item.nights_end && o.nights_end >= item.nights_start,
    );
    if (overlap >= 0) bag.add(`hotel_selections.${i}`, `The nights overlap hotel selection ${overlap}.`);
  });
  bag.throwIfAny(400);
  return items.map((item) => {
    const option = options.find(
      (o) =>
        o.tier !== 'selection' &&
        o.hotelId === item.upgrade_hotel_id &&
        o.nights.start === item.nights_start &&
        o.nights.end === item.nights_end,
    );
    const what = `Hotel ${item.upgrade_hotel_id} for nights ${item.nights_start}-${item.nights_end}`;
    if (!option) throw new AppError(422, 'hotel_not_available', `${what} is not an upgrade option of this tour.`);
    if (option.priceDifferenceCents === null) {
      throw new AppError(422, 'hotel_not_available', `${what} has no price for room type ${roomType}.`);
    }
    return {
      upsell_hotel_id: item.upgrade_hotel_id,
      nights_start: item.nights_start,
      nights_end: item.nights_end,
      tier: option.tier,
      price_difference_cents: option.priceDifferenceCents,
      hotel_name: option.name,
      location: option.location,
    };
  });
}
