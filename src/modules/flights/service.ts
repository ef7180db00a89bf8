// Flight use cases of the checkout: live economy re-pricing, live business search, cached flight
// options and the flight selection. Prices are computed here in integer cents; fares and flight
// numbers come from the provider, never from the client.
import type { AppContext } from '../../context.js';
import { AppError, validationError } from '../../platform/errors.js';
import { centsToNumber, formatCents, toCents } from '../../platform/money.js';
import {
  dropOfferFlightCard,
  type OfferWithProduct,
  offerFlightData,
  offerFlightPrice,
  refreshOfferFlights,
} from '../catalog/offers.js';
import { loadExchangeRates } from '../catalog/supply.js';
import {
  defaultRoomType,
  marketingRoundCents,
  nonStandardBasePrice,
  STEP_AFTER,
  selectionHotelCostCents,
} from '../checkout/rules.js';
import { loadHotelRates, loadStays } from '../checkout/supply.js';
import type { MarketScope } from '../markets/rules.js';
import {
  type BusinessFareMeta,
  cardOfSegment,
  domesticLegsOf,
  type EconomyFareMeta,
  economyOptions,
  type FlightOption,
  legsWithInternational,
  type OfferFlightCache,
  optionOf,
  parseFlightCache,
} from './cache.js';
import type { CheckoutSessions, FlightSession, FlightSessionState } from './checkout-session.js';
import { type CabinClass, type Fare, type FlightProvider, FlightProviderError } from './provider.js';
import { flightProvider } from './providers.js';
import {
  applyMargin,
  businessPricing,
  domesticLeg,
  domesticSearch,
  type FlightLeg,
  type FlightSegment,
  hasBothLegs,
  internationalLeg,
  internationalSearch,
  legTotalCents,
  perPerson,
  pickFare,
  sameFlights,
  segmentOf,
  selectedSegment,
  topFares,
} from './rules.js';

const n = centsToNumber;
/** business fares kept in the session's legs_metadata (the cards a visitor can choose) */
const MAX_BUSINESS_FARES = 20;

export interface FlightSelectionInput {
  cabin_class: CabinClass;
  outbound?: Partial<FlightSegment> | null;
  inbound?: Partial<FlightSegment> | null;
  business_extra_price_per_person?: number | null;
  fare_id?: string | null;
  advance?: boolean;
}

interface Land {
  landCents: number;
  /** per-pax marketing rounding times pax */
  round: (cents: number) => number;
}

export class FlightCheckoutService {
  private readonly provider: FlightProvider;

  constructor(
    private readonly ctx: AppContext,
    private readonly sessions: CheckoutSessions,
  ) {
    this.provider = flightProvider(ctx);
  }

  private get db() {
    return this.ctx.database.db;
  }

  private get checkout() {
    return this.sessions.checkout;
  }

  /** Land price for the party: the offer's land_base_price, or recalculated for non-standard pax. */
  private async land(offer: OfferWithProduct, state: FlightSessionState | null): Promise<Land> {
    // one marketing rounding for every written price: per person, times the passengers
    const roundFor = (pax: number) => (cents: number) => marketingRoundCents(Math.ceil(cents / pax)) * pax;
    if (!state?.isNonStandardPax) return { landCents: toCents(offer.landBasePrice), round: roundFor(offer.paxCount) };
    const pax = state.actualPaxCount;
    const { stays } = await loadStays(this.db, offer.templateId);
    const selection = stays.filter((s) => s.tier === 'selection');
    let defaultCost = 0;
    let roomCost = 0;
    if (selection.length > 0) {
      const rates = await loadHotelRates(this.db, [...new Set(selection.map((s) => s.hotelId))]);
      const exchange = await loadExchangeRates(this.db);
      const cost = (rt: string) =>
        selectionHotelCostCents(stays, (id) => rates.get(id)?.get(rt), state.currency.code, exchange);
      const d = cost(defaultRoomType(offer.paxCount));
      const r = cost(state.actualRoomType);
      if (d === null || r === null) throw new AppError(422, 'room_type_not_available', 'The room cannot be priced.');
      defaultCost = d;
      roomCost = r;
    }
    const { landCents } = nonStandardBasePrice({
      landBaseCents: toCents(offer.landBasePrice),
      offerPax: offer.paxCount,
      actualPax: pax,
      defaultRoomHotelCents: defaultCost,
      roomTypeHotelCents: roomCost,
      flightPerPersonCents: 0,
      marginPercent: '0',
    });
    return { landCents, round: roundFor(pax) };
  }

  private async cacheOf(offerId: number): Promise<OfferFlightCache | null> {
    return parseFlightCache(await offerFlightData(this.db, offerId));
  }

  /** Domestic legs searched one-way; a failed or empty search keeps the cached leg and price. */
  private async domesticLegs(
    cache: OfferFlightCache,
    cabin: CabinClass,
    pax: number,
    currency: string,
  ): Promise<{ legs: FlightLeg[]; cents: number }> {
    const legs: FlightLeg[] = [];
    let cents = 0;
    for (const [i, cached] of domesticLegsOf(cache).entries()) {
      const legIndex = i + 1;
      let fare: Fare | undefined;
      try {
        fare = pickFare((await this.provider.search(domesticSearch(cached, cabin, pax, currency))).fares);
      } catch (err) {
        if (!(err instanceof FlightProviderError)) throw err;
        this.ctx.log.warn({ err: err.message, leg: cached.route }, 'domestic flight search failed; cached price kept');
      }
      if (fare) {
        legs.push(domesticLeg(fare, pax, legIndex));
        cents += fare.totalCents;
      } else {
        legs.push({ ...cached, leg_index: legIndex, cabin_class: 'ECONOMY' });
        cents += legTotalCents(cached, pax);
      }
    }
    return { legs, cents };
  }

  async searchEconomy(scope: MarketScope, offerId: number, session: FlightSession | null) {
    return (await this.repriceEconomy(scope, offerId, session)).data;
  }

  /**
   * The live economy re-pricing for the session's party. `keep`: a card's flight numbers that
   * must stay among the session's cards when the search still has them (a card chosen from the
   * cached list). `state` is the session after the search (null without a session of this offer).
   */
  private async repriceEconomy(
    scope: MarketScope,
    offerId: number,
    session: FlightSession | null,
    keep?: { outbound: string[]; inbound: string[] },
  ) {
    const offer = await this.checkout.offerFor(scope, offerId, 'read');
    const own = session?.state.offerId === offer.id ? session : null;
    const cache = await this.cacheOf(offer.id);
    const oldFinal = toCents(offer.finalPrice);
    let state: FlightSessionState | null = null;
    if (!cache)
      return {
        data: { has_flights: false, price_changed: false, original_price: n(oldFinal), new_price: n(oldFinal) },
        state,
      };
    const nonStandard = own?.state.isNonStandardPax === true;
    const pax = nonStandard ? own!.state.actualPaxCount : offer.paxCount;
    const currency = scope.market.currency.code;

    let flowId: string;
    let fares: Fare[];
    try {
      ({ flowId, fares } = await this.provider.search(
        internationalSearch(cache.outbound, cache.inbound, 'ECONOMY', pax, currency),
      ));
    } catch (err) {
      if (!(err instanceof FlightProviderError)) throw err;
      this.ctx.log.warn(
        { err: err.message, kind: err.kind, offerId: offer.id },
        'economy re-pricing fell back to cache',
      );
      return { data: { has_flights: true, fallback: true as const, price_changed: false }, state };
    }
    const fare = pickFare(fares.filter(hasBothLegs));
    if (!fare) return { data: { has_flights: false, fallback: true as const, price_changed: false }, state };
    const domestic = await this.domesticLegs(cache, 'ECONOMY', pax, currency);
    const legs = [internationalLeg(fare, pax, 0), ...domestic.legs];
    const flightCents = fare.totalCents + domestic.cents;
    const outbound = segmentOf(fare.legs[0]);
    const inbound = segmentOf(fare.legs[1]);
    const searchedAt = this.ctx.clock.now().toISOString();

    let original = oldFinal;
    // the price of the tour with a given international fare: the same rule for every card
    const land = await this.land(offer, nonStandard ? own!.state : null);
    if (nonStandard) original = own!.state.baseCents;
    const priceWith = (fareCents: number) =>
      land.round(applyMargin(land.landCents + fareCents + domestic.cents, offer.marginPercent));
    const next = priceWith(fare.totalCents);
    // a card dearer than the priced fare adds the difference; a cheaper one keeps the price
    const extraOf = (f: Fare) => Math.max(0, priceWith(f.totalCents) - next);
    const cards = topFares(fares.filter(hasBothLegs));
    if (!cards.some((f) => f.id === fare.id)) cards.push(fare);
    const kept = keep ? fares.find((f) => hasBothLegs(f) && sameFlights(f, keep)) : undefined;
    if (kept && !cards.some((f) => f.id === kept.id)) cards.push(kept);
    const economyFares: Record<string, EconomyFareMeta> = {};
    for (const f of cards) {
      economyFares[f.id] = {
        outbound: segmentOf(f.legs[0]),
        inbound: segmentOf(f.legs[1]),
        international: internationalLeg(f, pax, 0),
        extra_per_person_cents: perPerson(extraOf(f), pax),
        baggage_included: f.baggageIncluded,
      };
    }
    if (!nonStandard) {
      const options = economyOptions(cards, extraOf);
      await refreshOfferFlights(this.db, offer.id, {
        flightPrice: formatCents(perPerson(flightCents, pax)),
        finalPrice: formatCents(next),
        pricePerPerson: formatCents(perPerson(next, pax)),
        flightData: {
          ...cache,
          outbound,
          inbound,
          legs,
          outbound_options: options.outbound,
          inbound_options: options.inbound,
          searched_at: searchedAt,
          flow_id: flowId,
        },
      });
      this.ctx.events.emit('offers:changed'); // the catalog shows the new price at once
    }
    if (own) {
      state = await this.sessions.save(own, {
        economySearch: {
          searched_at: searchedAt,
          flow_id: flowId,
          pax,
          outbound,
          inbound,
          legs,
          flight_cents: flightCents,
          fares: economyFares,
        },
        ...(nonStandard ? { baseCents: next } : {}),
      });
    }
    return {
      data: { has_flights: true, price_changed: next !== original, original_price: n(original), new_price: n(next) },
      state,
    };
  }

  async searchBusiness(scope: MarketScope, offerId: number, session: FlightSession) {
    const offer = await this.checkout.offerFor(scope, offerId, 'read');
    if (session.state.offerId !== offer.id) {
      throw new AppError(400, 'no_checkout_session', 'No active checkout session for this offer.');
    }
    const pax = session.state.actualPaxCount;
    const originalFinal = session.state.isNonStandardPax ? session.state.baseCents : toCents(offer.finalPrice);
    const base = {
      offer_id: offer.id,
      tour_name: offer.localizedTitle,
      cabinClass: 'BUSINESS' as const,
      source_type: 'live_search' as const,
      original_final_price: n(originalFinal),
      pax_count: pax,
    };
    const empty = { ...base, outbound_options: [], inbound_options: [], has_flights: false, apihubflowid: '' };
    const cache = await this.cacheOf(offer.id);
    if (!cache) return empty;
    const currency = scope.market.currency.code;
    let flowId: string;
    let fares: Fare[];
    try {
      ({ flowId, fares } = await this.provider.search(
        internationalSearch(cache.outbound, cache.inbound, 'BUSINESS', pax, currency),
      ));
    } catch (err) {
      if (!(err instanceof FlightProviderError)) throw err;
      this.ctx.log.warn({ err: err.message, kind: err.kind, offerId: offer.id }, 'business search failed');
      return { ...empty, fallback: true };
    }
    const usable = topFares(fares.filter(hasBothLegs), MAX_BUSINESS_FARES);
    const domestic = usable.length
      ? await this.domesticLegs(cache, 'BUSINESS', pax, currency)
      : { legs: [] as FlightLeg[], cents: 0 };
    const land = await this.land(offer, session.state);

    const metadata: Record<string, BusinessFareMeta> = {};
    const outbound: FlightOption[] = [];
    const inbound: FlightOption[] = [];
    for (const fare of usable) {
      const price = businessPricing({
        flightCents: fare.totalCents + domestic.cents,
        landBaseCents: land.landCents,
        marginPercent: offer.marginPercent,
        originalFinalCents: originalFinal,
        round: land.round,
      });
      metadata[fare.id] = {
        outbound: segmentOf(fare.legs[0]),
        inbound: segmentOf(fare.legs[1]),
        legs: [internationalLeg(fare, pax, 0), ...domestic.legs],
        final_cents: price.finalCents,
        extra_cents: price.extraCents,
        extra_per_person_cents: perPerson(Math.max(0, price.extraCents), pax),
      };
      const prices = { finalPrice: n(price.finalCents), extraPrice: n(price.extraCents) };
      outbound.push({ ...optionOf(fare, fare.legs[0], 'out'), ...prices });
      inbound.push({ ...optionOf(fare, fare.legs[1], 'in'), ...prices });
    }
    await this.sessions.save(session, {
      businessSearch: {
        searched_at: this.ctx.clock.now().toISOString(),
        flow_id: flowId,
        pax,
        legs_metadata: metadata,
      },
    });
    return {
      ...base,
      outbound_options: outbound,
      inbound_options: inbound,
      has_flights: usable.length > 0,
      apihubflowid: flowId,
    };
  }

  /**
   * The flight cards a customer can choose. A party other than the offer's 2 adults whose live
   * search priced its booking sees that search's cards (priced for the party): the cache's are
   * another party's fares. Everyone else sees the offer's cached cards.
   */
  async cachedOptions(scope: MarketScope, offerId: number, session: FlightSession | null = null) {
    const offer = await this.checkout.offerFor(scope, offerId, 'read');
    const state = session?.state.offerId === offer.id ? session.state : null;
    const search =
      state?.isNonStandardPax && state.economySearch?.pax === state.actualPaxCount ? state.economySearch : null;
    if (search?.fares && Object.keys(search.fares).length > 0) {
      const cards = Object.entries(search.fares);
      const card = (id: string, f: EconomyFareMeta, dir: 'out' | 'in'): FlightOption => ({
        ...cardOfSegment(dir === 'out' ? f.outbound : f.inbound, id, dir, f.baggage_included ?? false),
        price: n(legTotalCents(f.international, search.pax)),
        extraPrice: n(f.extra_per_person_cents * search.pax),
      });
      return {
        offer_id: offer.id,
        tour_name: offer.localizedTitle,
        final_price: n(state!.baseCents),
        cabinClass: 'ECONOMY' as const,
        source_type: 'cache' as const,
        has_flights: true,
        outbound_options: cards.map(([id, f]) => card(id, f, 'out')),
        inbound_options: cards.map(([id, f]) => card(id, f, 'in')),
      };
    }
    const cache = await this.cacheOf(offer.id);
    const fallbackOption = (s: FlightSegment, dir: 'out' | 'in'): FlightOption => cardOfSegment(s, 'cache', dir);
    return {
      offer_id: offer.id,
      tour_name: offer.localizedTitle,
      final_price: n(toCents(offer.finalPrice)),
      cabinClass: 'ECONOMY' as const,
      source_type: 'cache' as const,
      has_flights: cache !== null,
      outbound_options: cache ? (cache.outbound_options ?? [fallbackOption(cache.outbound, 'out')]) : [],
      inbound_options: cache ? (cache.inbound_options ?? [fallbackOption(cache.inbound, 'in')]) : [],
    };
  }

  async selectFlights(scope: MarketScope, session: FlightSession, input: FlightSelectionInput) {
    let state = session.state;
    let selection: Record<string, unknown> & {
      cabin_class: CabinClass;
      business_extra_price_per_person: number | null;
    };
    if (input.cabin_class === 'BUSINESS') {
      if (!input.fare_id) {
        throw validationError({ fare_id: ['The fare_id field is required when cabin_class is BUSINESS.'] }, 400);
      }
      const meta = state.businessSearch?.legs_metadata?.[input.fare_id];
      if (!meta || state.businessSearch?.pax !== state.actualPaxCount) {
        throw new AppError(422, 'fare_not_found', 'The business fare is not in the last search; search again.');
      }
      selection = {
        cabin_class: 'BUSINESS',
        fare_id: input.fare_id,
        business_extra_price_per_person: n(meta.extra_per_person_cents),
        // the fare's own segments: the client names the card by fare_id, not by its fields
        outbound: selectedSegment(meta.outbound, input.outbound),
        inbound: selectedSegment(meta.inbound, input.inbound),
        legs: meta.legs,
        flow_id: state.businessSearch.flow_id,
      };
    } else {
      const chosen = await this.economySelection(scope, session, input);
      selection = chosen.selection;
      state = chosen.state;
    }
    const next = await this.sessions.save({ ...session, state }, { flightSelection: selection });
    if (input.advance !== false) await this.checkout.recordStep(state.bookingId, STEP_AFTER.flights);
    return this.checkout.view(next);
  }

  /**
   * A card GET /flights listed from the offer's cache that this session's search does not hold
   * (another visitor's search found it): searched again live for this session's party, priced
   * like every card, and chosen when its flights are still sold. Gone: 422 fare_not_found, and
   * the card leaves the cached list. A provider failure answers 502: nothing is chosen unchecked.
   */
  private async recheckCachedCard(scope: MarketScope, session: FlightSession, input: FlightSelectionInput) {
    const state = session.state;
    const fareId = input.fare_id ?? '';
    const cache = await this.cacheOf(state.offerId);
    const out = cache?.outbound_options?.find((o) => o.fareId === fareId);
    const back = cache?.inbound_options?.find((o) => o.fareId === fareId);
    // a newer search may have renewed the cached ids since the list was shown: the card's own
    // flight numbers, as the client sends them, still name it
    const keep =
      out && back
        ? { outbound: out.flight_numbers, inbound: back.flight_numbers }
        : input.outbound?.flight_numbers?.length && input.inbound?.flight_numbers?.length
          ? { outbound: input.outbound.flight_numbers, inbound: input.inbound.flight_numbers }
          : null;
    if (!keep) return null;
    const { data, state: after } = await this.repriceEconomy(scope, state.offerId, session, keep);
    if ('fallback' in data && data.fallback && data.has_flights) {
      throw new AppError(502, 'flight_provider_error', 'The flight provider could not re-check the fare; try again.');
    }
    const search = after?.economySearch;
    const found = Object.entries(search?.fares ?? {}).find(([, f]) =>
      sameFlights(
        { legs: [{ flightNumbers: f.outbound.flight_numbers }, { flightNumbers: f.inbound.flight_numbers }] },
        keep,
      ),
    );
    if (!found || !after) {
      await dropOfferFlightCard(this.db, state.offerId, fareId);
      return null;
    }
    return { fareId: found[0], state: after };
  }

  /**
   * The ECONOMY selection the customer chose: a card of the session's live economy search by
   * fare_id, a card of the cached list (re-checked live for the party), the cached route card
   * (fare_id "cache"), or without fare_id the fare the price was built on. An unknown or expired
   * fare_id answers 422 fare_not_found, never a substitute.
   */
  private async economySelection(
    scope: MarketScope,
    session: FlightSession,
    input: FlightSelectionInput,
  ): Promise<{
    selection: Record<string, unknown> & { cabin_class: CabinClass; business_extra_price_per_person: null };
    state: FlightSessionState;
  }> {
    let state = session.state;
    let fareId = input.fare_id;
    const wantsCache = fareId === 'cache';
    const searchOf = (s: FlightSessionState) => (s.economySearch?.pax === s.actualPaxCount ? s.economySearch : null);
    if (fareId && !wantsCache && !searchOf(state)?.fares?.[fareId]) {
      const rechecked = await this.recheckCachedCard(scope, session, input);
      if (!rechecked) {
        throw new AppError(422, 'fare_not_found', 'The economy fare is not in the last search; search again.');
      }
      ({ fareId, state } = rechecked);
    }
    const search = searchOf(state);
    const chosen = fareId && !wantsCache ? search?.fares?.[fareId] : undefined;
    if (chosen && search) {
      const domestic = search.legs.filter((l) => l.type !== 'international');
      const extra = chosen.extra_per_person_cents;
      const selection = {
        cabin_class: 'ECONOMY' as const,
        fare_id: fareId!,
        business_extra_price_per_person: null,
        extra_price_per_person: extra > 0 ? n(extra) : null,
        // the card's own segments and flight numbers: the admin job books exactly these
        outbound: chosen.outbound,
        inbound: chosen.inbound,
        legs: [chosen.international, ...domestic],
        flow_id: search.flow_id,
      };
      return { selection, state };
    }
    const live = wantsCache ? null : search;
    const cache = live ? null : await this.cacheOf(state.offerId);
    const source = live ?? cache;
    if (!source)
      throw new AppError(422, wantsCache ? 'fare_not_found' : 'no_flights', 'This offer has no flights to select.');
    const legs = live
      ? live.legs
      : legsWithInternational(cache!, n(toCents((await offerFlightPrice(this.db, state.offerId)) ?? '0')));
    const selection = {
      cabin_class: 'ECONOMY' as const,
      fare_id: wantsCache ? 'cache' : null,
      business_extra_price_per_person: null,
      outbound: selectedSegment(source.outbound, input.outbound),
      inbound: selectedSegment(source.inbound, input.inbound),
      legs,
      flow_id: live?.flow_id ?? null,
    };
    return { selection, state };
  }
}
