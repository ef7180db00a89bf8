// Checkout use cases: start, session, options and selections (hotels, activities, transfers),
// contact and travelers, funnel tracking. Prices are always computed here, never taken from clients.
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { dateIn } from '../../platform/clock.js';
import { AppError, FieldErrorBag } from '../../platform/errors.js';
import { amountToNumber, centsToNumber, formatCents, toCents } from '../../platform/money.js';
import { assetUrl } from '../../platform/urls.js';
import type { NewBooking } from '../bookings/service.js';
import { findOffer, type OfferWithProduct, offerFinalPrice } from '../catalog/offers.js';
import { isInsideLeadTime } from '../catalog/rules.js';
import { loadExchangeRates } from '../catalog/supply.js';
import { flightProvider } from '../flights/providers.js';
import type { MarketScope } from '../markets/rules.js';
import { productPath } from '../markets/rules.js';
import { sha256 } from './api-tokens.js';
import {
  ACTIVITY_CHOICE,
  activityDays,
  chooseDayExtras,
  type OptionsContext,
  TRANSFER_CHOICE,
  transferDays,
} from './day-extras.js';
import { chooseHotels, hotelOptionsOf } from './hotel-options.js';
import * as repo from './repository.js';
import {
  checkClient,
  checkTravelers,
  defaultRoomType,
  bookingReference as drawReference,
  extrasCents,
  type FunnelStep,
  isNonStandardPax,
  nonStandardBasePrice,
  REFERENCE_LENGTH,
  roomTypeFits,
  STEP_AFTER,
  selectionHotelCostCents,
} from './rules.js';
import { createSessionStore, type SessionState, type SessionStore, type StoredSession } from './session-store.js';
import * as supply from './supply.js';

// the token use cases (api-tokens.ts), for the commands, the admin console and tests
export { createApiToken, listApiTokens, revokeApiToken } from './api-tokens.js';

/** What the chosen flight adds per person: a business upgrade, or an economy fare dearer than the priced one. */
export function flightExtraPerPersonCents(s: SessionState['flightSelection']): number | null {
  const extra = s?.business_extra_price_per_person ?? s?.extra_price_per_person;
  return typeof extra === 'number' ? toCents(extra) : null;
}

export interface StartInput {
  actual_pax_count?: number;
  actual_room_type?: string;
}

export interface SelectionInput<T> {
  advance?: boolean;
  items: T[];
}

export class CheckoutService {
  constructor(
    private readonly ctx: AppContext,
    readonly store: SessionStore,
  ) {}

  private get db() {
    return this.ctx.database.db;
  }

  private now(): Date {
    return this.ctx.clock.now();
  }

  private expiry(): Date {
    return new Date(this.now().getTime() + this.ctx.config.checkout.sessionTtlMinutes * 60_000);
  }

  assetUrl(path: string | null | undefined): string | null {
    return assetUrl(this.ctx.config.assetBaseUrl, path);
  }

  // -------------------------------------------------------------------------------------------
  // Offers

  /**
   * The offer of this market that a checkout may use. `start` answers 410 for an Active offer
   * inside the lead time; the other readers answer 404 for it. `session` only needs it to exist
   * in the market (a running checkout keeps working while the offer ages).
   */
  async offerFor(
    scope: MarketScope,
    offerId: number,
    purpose: 'start' | 'read' | 'session',
  ): Promise<OfferWithProduct> {
    const offer =
      Number.isSafeInteger(offerId) && offerId > 0 ? await findOffer(this.ctx.database, offerId, scope.lang) : null;
    const notFound = () => new AppError(404, 'offer_not_found', `Offer ${offerId} not found.`);
    if (!offer || offer.marketId !== scope.market.id) throw notFound();
    if (purpose === 'session') return offer;
    if (offer.productStatus !== 'active' || offer.status !== 'Active') throw notFound();
    if (isInsideLeadTime(offer, dateIn(scope.market.timezone, this.now()))) {
      if (purpose === 'start') {
        throw new AppError(410, 'offer_expired', `Offer ${offerId} departs too soon to be booked online.`);
      }
      throw notFound();
    }
    return offer;
  }

  private productUrl(scope: MarketScope, offer: OfferWithProduct): string | null {
    if (!offer.localizedSlug || offer.localizedStatus !== 'active') return null;
    return productPath(scope.market, scope.lang, offer.localizedSlug);
  }

  offerSummary(scope: MarketScope, offer: OfferWithProduct) {
    return {
      offer_id: offer.id,
      offer_sku: offer.sku,
      tour_name: offer.localizedTitle,
      product_url: this.productUrl(scope, offer),
      final_price: amountToNumber(offer.finalPrice),
      price_per_person: amountToNumber(offer.pricePerPerson),
      departure_date: offer.departureDate,
      return_date: offer.returnDate,
      pax_count: offer.paxCount,
      currency: { code: scope.market.currency.code, symbol: scope.market.currency.symbol },
    };
  }

  async summary(scope: MarketScope, offerId: number) {
    return this.offerSummary(scope, await this.offerFor(scope, offerId, 'read'));
  }

  // -------------------------------------------------------------------------------------------
  // Sessions

  /** The session view: stored state plus computed extras and totals, money as JSON numbers. */
  view(state: SessionState) {
    const extras = extrasCents(
      {
        businessExtraPerPersonCents: flightExtraPerPersonCents(state.flightSelection),
        hotelDifferencesCents: state.hotelSelections.map((h) => h.price_difference_cents),
        activityPerPersonCents: state.activitySelections.map((a) => a.price_cents),
        transferPerTripCents: state.transferSelections.map((t) => t.price_cents),
      },
      state.actualPaxCount,
    );
    return {
      offer_id: state.offerId,
      booking_id: state.bookingId,
      booking_reference: state.bookingReference,
      started_at: state.startedAt,
      flight_selection: state.flightSelection,
      hotel_selections: state.hotelSelections.map((h) => ({
        upsell_hotel_id: h.upsell_hotel_id,
        nights_start: h.nights_start,
        nights_end: h.nights_end,
        price_difference: centsToNumber(h.price_difference_cents),
        hotel_name: h.hotel_name,
        location: h.location,
      })),
      activity_selections: state.activitySelections.map((a) => ({
        activity_id: a.activity_id,
        day_number: a.day_number,
        price: centsToNumber(a.price_cents),
        activity_name: a.activity_name,
        location: a.location,
      })),
      transfer_selections: state.transferSelections.map((t) => ({
        transfer_id: t.transfer_id,
        day_number: t.day_number,
        price: centsToNumber(t.price_cents),
        transfer_name: t.transfer_name,
        location: t.location,
      })),
      client_data: state.clientData,
      traveler_data: state.travelerData,
      base_price: centsToNumber(state.baseCents),
      extras_price: centsToNumber(extras),
      total_price: centsToNumber(state.baseCents + extras),
      currency: state.currency,
      pax_count: state.paxCount,
      actual_pax_count: state.actualPaxCount,
      actual_room_type: state.actualRoomType,
      is_non_standard_pax: state.isNonStandardPax,
    };
  }

  /** The live session of a cookie token in this market, or null. */
  async findSession(scope: MarketScope, token: string | undefined): Promise<StoredSession | null> {
    if (!token) return null;
    const s = await this.store.find(sha256(token), this.now());
    return s && s.state.marketCode === scope.market.code ? s : null;
  }

  /**
   * The live session with a current base price: when the offer's final_price changed since the
   * session began (e.g. a live flight re-pricing), base and total follow it, except for
   * non-standard-pax sessions, whose base comes from start or the live flight refresh. Every
   * session read goes through here, so the GET, the PUT answers and the deposit agree.
   */
  async currentSession(scope: MarketScope, token: string | undefined): Promise<StoredSession | null> {
    const s = await this.findSession(scope, token);
    if (!s || s.state.isNonStandardPax) return s;
    const finalPrice =
      s.offerFinalPrice !== undefined ? s.offerFinalPrice : await offerFinalPrice(this.db, s.state.offerId);
    const cents = finalPrice === null ? null : toCents(finalPrice);
    if (cents === null || cents === s.state.offerFinalCents) return s;
    return { ...s, state: await this.save(s, { baseCents: cents, offerFinalCents: cents }) };
  }

  /** Session-bound writes answer 400 without a session. */
  private async requireSession(scope: MarketScope, token: string | undefined): Promise<StoredSession> {
    const s = await this.currentSession(scope, token);
    if (!s) throw new AppError(400, 'no_checkout_session', 'No active checkout session.');
    return s;
  }

  private async save(s: StoredSession, patch: Partial<SessionState>): Promise<SessionState> {
    const ok = await this.store.patch(s.id, patch, this.expiry(), this.now());
    if (!ok) throw new AppError(400, 'no_checkout_session', 'No active checkout session.');
    return { ...s.state, ...patch };
  }

  async start(
    scope: MarketScope,
    offerId: number,
    input: StartInput,
    visitorId: string | undefined,
  ): Promise<{ view: ReturnType<CheckoutService['view']>; token: string; visitorId: string }> {
    const offer = await this.offerFor(scope, offerId, 'start');
    const pax = input.actual_pax_count ?? offer.paxCount;
    const roomType = input.actual_room_type ?? defaultRoomType(pax);
    const currency = scope.market.currency.code;
    const unavailable = (why: string) =>
      new AppError(422, 'room_type_not_available', `Room type ${roomType} is not available for this tour: ${why}.`);
    if (!roomTypeFits(roomType, pax)) throw unavailable(`it does not sleep ${pax} traveler${pax === 1 ? '' : 's'}`);

    const nonStandard = isNonStandardPax(offer.paxCount, pax, roomType);
    let baseCents = toCents(offer.finalPrice);
    if (input.actual_room_type !== undefined || nonStandard) {
      const { stays } = await supply.loadStays(this.db, offer.templateId);
      const selection = stays.filter((s) => s.tier === 'selection');
      const rates = await supply.loadHotelRates(this.db, [...new Set(selection.map((s) => s.hotelId))]);
      const rateOf = (rt: string) => (hotelId: number) => rates.get(hotelId)?.get(rt);
      if (selection.length === 0) {
        // legacy package tour: no hotel rates to check; only the party's own room type
        if (roomType !== defaultRoomType(pax)) throw unavailable('the tour has no hotel room types');
      } else if (selection.some((s) => !rateOf(roomType)(s.hotelId))) {
        throw unavailable('the base hotels have no rate for it');
      }
      if (nonStandard) {
        const exchange = await loadExchangeRates(this.db);
        const hotelCost = (rt: string) =>
          selection.length === 0 ? 0 : selectionHotelCostCents(stays, rateOf(rt), currency, exchange);
        const defaultCost = hotelCost(defaultRoomType(offer.paxCount));
        const roomCost = hotelCost(roomType);
        if (defaultCost === null || roomCost === null) throw unavailable('the base hotels cannot be priced for it');
        baseCents = nonStandardBasePrice({
          landBaseCents: toCents(offer.landBasePrice),
          offerPax: offer.paxCount,
          actualPax: pax,
          defaultRoomHotelCents: defaultCost,
          roomTypeHotelCents: roomCost,
          flightPerPersonCents: toCents(offer.flightPrice),
          marginPercent: offer.marginPercent,
        }).baseCents;
      }
    }

    const now = this.now();
    const state: SessionState = {
      offerId: offer.id,
      bookingId: 0, // set from the inserted booking below
      bookingReference: '',
      startedAt: now.toISOString(),
      marketCode: scope.market.code,
      lang: scope.lang,
      currency: { code: currency, symbol: scope.market.currency.symbol },
      paxCount: offer.paxCount,
      actualPaxCount: pax,
      actualRoomType: roomType,
      isNonStandardPax: nonStandard,
      baseCents,
      offerFinalCents: toCents(offer.finalPrice),
      flightSelection: null,
      hotelSelections: [],
      activitySelections: [],
      transferSelections: [],
      clientData: null,
      travelerData: null,
    };
    const token = randomBytes(32).toString('base64url');
    const visitor = visitorId ?? randomBytes(18).toString('base64url');
    const session = { id: sha256(token), visitorId: visitor, state, expiresAt: this.expiry() };
    // a taken reference inserts nothing (ON CONFLICT DO NOTHING) and is redrawn
    for (let attempt = 0; attempt < 8; attempt++) {
      const booking: NewBooking = {
        reference: drawReference(randomBytes(REFERENCE_LENGTH)),
        offerId: offer.id,
        marketCode: scope.market.code,
        language: scope.lang,
        paxCount: offer.paxCount,
        actualPaxCount: pax,
        actualRoomType: roomType,
        isNonStandardPax: nonStandard,
        totalPrice: formatCents(baseCents),
        currency,
      };
      const row = await this.store.startWithBooking(booking, session, now);
      if (!row) continue;
      state.bookingId = row.id;
      state.bookingReference = row.reference;
      return { view: this.view(state), token, visitorId: visitor };
    }
    throw new Error('could not draw a free booking reference');
  }

  /** GET session (404 without one), with the price refresh of currentSession. */
  async session(scope: MarketScope, token: string | undefined) {
    const s = await this.currentSession(scope, token);
    if (!s) throw new AppError(404, 'no_checkout_session', 'No active checkout session.');
    return this.view(s.state);
  }

  private async advance(state: SessionState, step: FunnelStep, advance: boolean | undefined): Promise<void> {
    if (advance === false) return;
    await repo.recordFunnelStep(this.db, state.bookingId, step, this.now());
  }

  // -------------------------------------------------------------------------------------------
  // Hotels

  async hotelOptions(scope: MarketScope, offerId: number, roomTypeQuery: string | undefined, token?: string) {
    const offer = await this.offerFor(scope, offerId, 'read');
    let roomType = roomTypeQuery;
    if (!roomType) {
      const s = await this.findSession(scope, token);
      roomType = s && s.state.offerId === offer.id ? s.state.actualRoomType : '2A';
    }
    const hotels = await this.stepOptions(scope, offer, (c, o) => hotelOptionsOf(c, o, roomType));
    const summary = this.offerSummary(scope, offer);
    return {
      offer_id: summary.offer_id,
      offer_sku: summary.offer_sku,
      tour_name: summary.tour_name,
      final_price: summary.final_price,
      departure_date: summary.departure_date,
      return_date: summary.return_date,
      pax_count: summary.pax_count,
      currency: summary.currency,
      hotels: hotels.map(({ priceDifferenceCents: _, ...h }) => h),
    };
  }

  async selectHotels(
    scope: MarketScope,
    token: string | undefined,
    input: SelectionInput<{ upgrade_hotel_id: number; nights_start: number; nights_end: number }>,
  ) {
    const s = await this.requireSession(scope, token);
    const offer = await this.offerFor(scope, s.state.offerId, 'session');
    const options = await this.stepOptions(scope, offer, (c, o) => hotelOptionsOf(c, o, s.state.actualRoomType));
    const hotelSelections = chooseHotels(input.items, options, s.state.actualRoomType);
    const state = await this.save(s, { hotelSelections });
    await this.advance(state, STEP_AFTER.hotels, input.advance);
    return this.view(state);
  }

  // -------------------------------------------------------------------------------------------
  // Activities and transfers (day-extras.ts): the same options and choice, two shapes

  private async stepOptions<D>(
    scope: MarketScope,
    offer: OfferWithProduct,
    load: (c: OptionsContext, offer: OfferWithProduct) => Promise<D>,
  ): Promise<D> {
    return load({ db: this.db, scope, assetUrl: (path) => this.assetUrl(path) }, offer);
  }

  /** What both options answers say of the offer (the transfers' also name the product page). */
  private optionsSummary(scope: MarketScope, offer: OfferWithProduct) {
    const summary = this.offerSummary(scope, offer);
    return {
      offer_id: summary.offer_id,
      offer_sku: summary.offer_sku,
      tour_name: summary.tour_name,
      product_url: summary.product_url,
      final_price: summary.final_price,
      price_per_person: summary.price_per_person,
      departure_date: summary.departure_date,
      return_date: summary.return_date,
      pax_count: summary.pax_count,
      currency: summary.currency,
    };
  }

  async activityOptions(scope: MarketScope, offerId: number) {
    const offer = await this.offerFor(scope, offerId, 'read');
    const days = await this.stepOptions(scope, offer, activityDays);
    const { product_url: _, ...summary } = this.optionsSummary(scope, offer);
    return {
      ...summary,
      days: days.map((d) => ({
        ...d,
        available_activities: d.available_activities.map(({ priceCents: _, location: __, ...a }) => a),
      })),
    };
  }

  async transferOptions(scope: MarketScope, offerId: number) {
    const offer = await this.offerFor(scope, offerId, 'read');
    const days = await this.stepOptions(scope, offer, transferDays);
    return {
      ...this.optionsSummary(scope, offer),
      days: days.map((d) => ({
        ...d,
        available_transfers: d.available_transfers.map(({ priceCents: _, location: __, ...t }) => t),
      })),
    };
  }

  /** The session's offer's days of one kind of extra, with the session (for the selections). */
  private async sessionDayExtras<D>(
    scope: MarketScope,
    token: string | undefined,
    load: (c: OptionsContext, offer: OfferWithProduct) => Promise<D>,
  ) {
    const s = await this.requireSession(scope, token);
    const offer = await this.offerFor(scope, s.state.offerId, 'session');
    return { s, days: await this.stepOptions(scope, offer, load) };
  }

  async selectActivities(
    scope: MarketScope,
    token: string | undefined,
    input: SelectionInput<{ activity_id: number; day_number: number }>,
  ) {
    const { s, days } = await this.sessionDayExtras(scope, token, activityDays);
    const activitySelections = chooseDayExtras(
      input.items.map((i) => ({ id: i.activity_id, day: i.day_number })),
      (day) => days.find((d) => d.day_number === day)?.available_activities,
      ACTIVITY_CHOICE,
    ).map(({ id, day, option }) => ({
      activity_id: id,
      day_number: day,
      price_cents: option.priceCents,
      activity_name: option.name,
      location: option.location,
    }));
    const state = await this.save(s, { activitySelections });
    await this.advance(state, STEP_AFTER.activities, input.advance);
    return this.view(state);
  }

  async selectTransfers(
    scope: MarketScope,
    token: string | undefined,
    input: SelectionInput<{ transfer_id: number; day_number: number }>,
  ) {
    const { s, days } = await this.sessionDayExtras(scope, token, transferDays);
    const transferSelections = chooseDayExtras(
      input.items.map((i) => ({ id: i.transfer_id, day: i.day_number })),
      (day) => days.find((d) => d.day_number === day)?.available_transfers,
      TRANSFER_CHOICE,
    ).map(({ id, day, option }) => ({
      transfer_id: id,
      day_number: day,
      price_cents: option.priceCents,
      transfer_name: option.name,
      location: option.location,
    }));
    const state = await this.save(s, { transferSelections });
    await this.advance(state, STEP_AFTER.transfers, input.advance);
    return this.view(state);
  }

  // -------------------------------------------------------------------------------------------
  // Contact and travelers

  async saveContact(scope: MarketScope, token: string | undefined, client: Record<string, unknown>, advance?: boolean) {
    const s = await this.requireSession(scope, token);
    const bag = new FieldErrorBag();
    const clientData = checkClient(client, bag);
    bag.throwIfAny(400);
    const state = await this.save(s, { clientData });
    await this.advance(state, STEP_AFTER.contact, advance);
    return this.view(state);
  }

  async saveTravelers(scope: MarketScope, token: string | undefined, travelers: unknown[], advance?: boolean) {
    const s = await this.requireSession(scope, token);
    const today = dateIn(scope.market.timezone, this.now());
    // title, gender and an E.164 phone only when the flight provider books with them (Duffel);
    // a phone typed without country code is read as one of the market's country
    const extra = flightProvider(this.ctx).requiredTravelerFields;
    const travelerData = checkTravelers(travelers, s.state.actualPaxCount, today, extra, scope.market.code);
    const state = await this.save(s, { travelerData });
    await this.advance(state, STEP_AFTER.travelers, advance);
    return this.view(state);
  }

  // -------------------------------------------------------------------------------------------
  // Funnel and tokens

  async recordStep(bookingId: number, step: FunnelStep): Promise<void> {
    const ok =
      Number.isSafeInteger(bookingId) &&
      bookingId > 0 &&
      (await repo.recordFunnelStep(this.db, bookingId, step, this.now()));
    if (!ok) throw new AppError(404, 'booking_not_found', `Booking ${bookingId} not found.`);
  }

  /** The abilities of a bearer token, or null when it is unknown or revoked. */
  async tokenAbilities(token: string): Promise<string[] | null> {
    return repo.findTokenAbilities(this.db, sha256(token));
  }
}

const perContext = new WeakMap<AppContext, { service: CheckoutService; close(): Promise<void> }>();

/**
 * The one CheckoutService of an app (its session store: Redis when REDIS_URL is set, else the
 * database), shared by the checkout, flights and payment routes. `closeCheckoutService` ends it.
 */
export function checkoutServiceOf(ctx: AppContext): CheckoutService {
  let entry = perContext.get(ctx);
  if (!entry) {
    const { store, close } = createSessionStore(ctx);
    entry = { service: new CheckoutService(ctx, store), close };
    perContext.set(ctx, entry);
  }
  return entry.service;
}

export async function closeCheckoutService(ctx: AppContext): Promise<void> {
  const entry = perContext.get(ctx);
  perContext.delete(ctx);
  await entry?.close();
}
