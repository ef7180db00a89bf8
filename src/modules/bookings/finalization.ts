// Finalization of a Succeeded payment, in one transaction under the payment's row lock: the client
// from the quote's client_data, passengers from its traveler_data (first is lead), the flight
// selection enriched with airport data and a per-leg breakdown, upsell records, the status
// transition, the held seats turned into allotment_used, and the confirm answer stored on the
// payment. Confirm, webhook and reconciliation all call this one function with the intent id; the
// first one finalizes, the others get the stored answer.
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { AppError } from '../../platform/errors.js';
import { centsToNumber, formatCents, toCents } from '../../platform/money.js';
import { scheduleBalance } from '../balance/service.js';
import { airportNames } from '../catalog/api.js';
import { takeSeats } from '../catalog/offers.js';
import { textLanguages } from '../catalog/rules.js';
import * as checkout from '../checkout/api.js';
import type { FlightSessionState } from '../flights/checkout-session.js';
import { type FlightLeg, type FlightSegment, legTotalCents } from '../flights/rules.js';
import { marketDefaultLanguage } from '../markets/api.js';
import * as notifications from '../notifications/service.js';
import * as payments from '../payments/api.js';
import { type RefundRow, recordRefunds } from '../payments/refunds.js';
import type { Quote } from '../payments/rules.js';
import { manageLinkOf } from './manage-link.js';
import * as repo from './repository.js';
import { BookingStatus, statusAfterPayment } from './rules.js';
import { transition } from './status.js';
import { confirmIfReady, requestSupplierConfirmations } from './supplier-confirmations.js';

export interface PaymentFacts {
  intentId: string;
  /** what the gateway reports as paid, in minor units */
  amountCents: number;
  /** the payment method the gateway saved with the payment, for later off-session charges */
  paymentMethodId?: string | null;
  /** who finished it: for the transition record */
  source: 'confirm' | 'webhook' | 'reconciliation';
}

/** The body of a confirm, stored on the payment by the finalization that paid the booking. */
export interface Confirmation {
  booking_reference: string;
  status: string;
  payment_status: 'Succeeded';
  amount_paid: number;
  currency: { code: string; symbol: string };
  confirmation_url: string;
  /** the signed "manage my booking" URL, valid until the return date (null: no return date known) */
  manage_url: string | null;
}

export interface FinalizationResult {
  bookingId: number;
  reference: string;
  status: string;
  /** false when the payment was finalized before (by another path) */
  finalized: boolean;
  confirmation: Confirmation;
  /** refunds recorded by this finalization (a duplicate payment), for the caller to send after the commit */
  refunds: RefundRow[];
}

type Selection = Record<string, unknown> & {
  cabin_class?: string;
  outbound?: FlightSegment;
  inbound?: FlightSegment;
  legs?: FlightLeg[];
  fare_id?: string | null;
  flow_id?: string | null;
  business_extra_price_per_person?: number | null;
  extra_price_per_person?: number | null;
};

/**
 * flight_selection as stored on the booking: airports named in `languages` (the booking's language,
 * the market's default language, English: catalog textLanguages), each leg with its total.
 */
async function enrichSelection(db: DbOrTx, s: Selection | null, pax: number, languages: string[]) {
  if (!s?.cabin_class) return null;
  const legs = s.legs ?? [];
  const codes = [
    s.outbound?.departure_airport,
    s.outbound?.arrival_airport,
    s.inbound?.departure_airport,
    s.inbound?.arrival_airport,
    ...legs.flatMap((l) => [l.origin, l.destination]),
  ].filter((c): c is string => typeof c === 'string');
  const names = await airportNames(db, codes, languages);
  const airport = (code: string | undefined) => (code ? { iata_code: code, ...(names.get(code) ?? {}) } : null);
  const segment = (seg: FlightSegment | undefined) =>
    seg
      ? {
          ...seg,
          departure_airport_info: airport(seg.departure_airport),
          arrival_airport_info: airport(seg.arrival_airport),
        }
      : null;
  return {
    ...s,
    outbound: segment(s.outbound),
    inbound: segment(s.inbound),
    pax_count: pax,
    legs: legs.map((l) => ({
      ...l,
      origin_airport: airport(l.origin),
      destination_airport: airport(l.destination),
      pax_count: pax,
      total_price: centsToNumber(legTotalCents(l, pax)),
    })),
  };
}

export async function finalizeBooking(ctx: AppContext, payment: PaymentFacts): Promise<FinalizationResult> {
  const done = await ctx.database.db.transaction(async (tx) => {
    const row = await payments.lockPayment(tx, payment.intentId);
    if (!row?.quote) throw new AppError(404, 'payment_intent_not_found', 'Payment intent not found.');
    const quote = row.quote as unknown as Quote<FlightSessionState>;
    if (row.finalizedAt && !row.confirmation) {
      // finalized before as a duplicate payment of a paid booking: recorded and refunded then
      throw new AppError(409, 'booking_already_paid', 'This booking was already paid through another payment.');
    }
    if (row.finalizedAt && row.confirmation) {
      const saved = row.confirmation as unknown as Omit<Confirmation, 'manage_url'> & { manage_url?: string | null };
      const stored: Confirmation = { ...saved, manage_url: saved.manage_url ?? null };
      return {
        bookingId: row.bookingId,
        reference: stored.booking_reference,
        status: stored.status,
        finalized: false,
        confirmation: stored,
        refunds: [],
      };
    }
    const state = quote.state;
    if (!state.clientData) throw new AppError(400, 'client_data_required', 'Enter the booking contact first.');
    if (!state.travelerData?.length) throw new AppError(400, 'traveler_data_required', 'Enter the travelers first.');
    const client = state.clientData;
    const travelers = state.travelerData;
    const pax = state.actualPaxCount;
    const currency = quote.currency;
    const selection = state.flightSelection as Selection | null;
    const market = await marketDefaultLanguage(tx, state.marketCode);
    const enriched = await enrichSelection(tx, selection, pax, textLanguages(state.lang, market));
    const booking = await repo.lockBooking(tx, state.bookingId);
    if (!booking) throw new AppError(404, 'booking_not_found', 'Booking not found.');
    const manageUrl = await manageLinkOf(tx, ctx.config, booking);
    const answer = (status: string): Confirmation => ({
      booking_reference: booking.reference,
      status,
      payment_status: 'Succeeded',
      amount_paid: centsToNumber(payment.amountCents),
      currency: state.currency,
      confirmation_url: `/api/${state.marketCode}/${state.lang}/checkout/confirmation/${booking.reference}`,
      manage_url: manageUrl,
    });
    /** `duplicate`: no confirmation is stored, so the intent can never answer as the booking's payment */
    const finish = async (status: string, duplicate = false) => {
      const confirmation = answer(status);
      await payments.markFinalized(tx, payment.intentId, {
        paymentMethodId: payment.paymentMethodId ?? null,
        confirmation: duplicate ? null : (confirmation as unknown as Record<string, unknown>),
        at: ctx.clock.now(),
      });
      return confirmation;
    };
    if (await repo.hasPassengers(tx, booking.id)) {
      // paid before through another intent (one the customer paid although it was replaced): the
      // money is recorded and refunded in full, never kept
      await notifications.notifyAdmins(tx, {
        type: 'payment_duplicate',
        bookingId: booking.id,
        title: 'Second payment for a booking',
        message: `Booking ${booking.reference} was already paid; intent ${payment.intentId} paid as well and is refunded automatically.`,
        data: { payment_intent_id: payment.intentId },
      });
      const confirmation = await finish(booking.status, true);
      const refunds = await recordRefunds(tx, {
        bookingId: booking.id,
        amountCents: payment.amountCents,
        kind: 'duplicate_payment',
        reason: `Second payment of the booking (${payment.intentId})`,
        requestedBy: 'system',
        paymentId: row.id,
        at: ctx.clock.now(),
      });
      return {
        bookingId: booking.id,
        reference: booking.reference,
        status: booking.status,
        finalized: false,
        confirmation,
        refunds,
      };
    }

    const clientId = await checkout.upsertClient(tx, client);
    await repo.attachPassengers(
      tx,
      booking.id,
      travelers.map((t) => ({
        clientId,
        title: t.title ?? null,
        gender: t.gender ?? null,
        firstName: t.first_name,
        lastName: t.last_name,
        nationality: t.nationality.toUpperCase(),
        passportNumber: t.passport_number,
        passportExpiry: t.passport_expiry,
        birthDate: t.birth_date,
        phone: t.phone,
        email: t.email,
      })),
    );

    const upsells: repo.NewUpsell[] = [];
    const base = { bookingId: booking.id, currency };
    for (const h of state.hotelSelections) {
      upsells.push({
        ...base,
        type: 'hotel_upgrade',
        itemId: h.upsell_hotel_id,
        name: h.hotel_name,
        nightsStart: h.nights_start,
        nightsEnd: h.nights_end,
        unitPrice: formatCents(h.price_difference_cents),
        quantity: 1,
        totalPrice: formatCents(h.price_difference_cents),
      });
    }
    for (const a of state.activitySelections) {
      upsells.push({
        ...base,
        type: 'activity',
        itemId: a.activity_id,
        name: a.activity_name,
        dayNumber: a.day_number,
        unitPrice: formatCents(a.price_cents),
        quantity: pax,
        totalPrice: formatCents(a.price_cents * pax),
      });
    }
    for (const t of state.transferSelections) {
      upsells.push({
        ...base,
        type: 'transfer',
        itemId: t.transfer_id,
        name: t.transfer_name,
        dayNumber: t.day_number,
        unitPrice: formatCents(t.price_cents),
        quantity: 1,
        totalPrice: formatCents(t.price_cents),
      });
    }
    if (selection?.cabin_class === 'BUSINESS' && typeof selection.business_extra_price_per_person === 'number') {
      const perPerson = toCents(selection.business_extra_price_per_person);
      upsells.push({
        ...base,
        type: 'flight_upgrade',
        name: 'Business class',
        unitPrice: formatCents(perPerson),
        quantity: pax,
        totalPrice: formatCents(perPerson * pax),
        details: {
          cabin_class: 'BUSINESS',
          fare_id: selection.fare_id ?? null,
          flow_id: selection.flow_id ?? null,
          pax_count: pax,
          trip_type:
            selection.outbound && selection.inbound
              ? selection.inbound.departure_airport === selection.outbound.arrival_airport
                ? 'ROUND_TRIP'
                : 'MULTI_CITY'
              : null,
          search_legs: [selection.outbound, selection.inbound]
            .filter((s): s is FlightSegment => !!s)
            .map((s) => ({ origin: s.departure_airport, destination: s.arrival_airport, date: s.departure_date })),
          domestic_legs: (selection.legs ?? [])
            .filter((l) => l.type === 'domestic')
            .map((l) => ({
              origin: l.origin,
              destination: l.destination,
              date: l.departure_date,
              cabin: l.cabin_class,
            })),
        },
      });
    }
    if (selection?.cabin_class === 'ECONOMY' && typeof selection.extra_price_per_person === 'number') {
      const perPerson = toCents(selection.extra_price_per_person);
      upsells.push({
        ...base,
        type: 'flight_fare',
        name: 'Economy fare chosen',
        unitPrice: formatCents(perPerson),
        quantity: pax,
        totalPrice: formatCents(perPerson * pax),
        details: { cabin_class: 'ECONOMY', fare_id: selection.fare_id ?? null, pax_count: pax },
      });
    }
    await repo.insertUpsells(tx, upsells);

    await repo.updateFinalizedBooking(tx, booking.id, {
      clientId,
      flightSelection: enriched as Record<string, unknown> | null,
      paymentMethodCode: row.methodCode,
      paymentGatewayCode: row.gatewayCode,
      totalPrice: formatCents(quote.totalCents),
    });
    const next = statusAfterPayment(selection?.cabin_class);
    // a payment that succeeds after the session expired still finalizes its booking
    await transition(tx, booking.id, [BookingStatus.checkout, BookingStatus.abandoned], next, {
      payment_intent_id: payment.intentId,
      payment_status: 'Succeeded',
      amount_paid: centsToNumber(payment.amountCents),
      total_price: centsToNumber(quote.totalCents),
      currency,
      source: payment.source,
    });
    // the balance (due date, what remains) and the confirmation e-mail, in this transaction
    await scheduleBalance(tx, ctx, booking.id, payment.amountCents);
    // the seats were held since the intent: they become the booking's, the hold goes
    await takeSeats(tx, booking.offerId, pax);
    await payments.releaseHold(tx, booking.id);
    // each booked land service asked of its supplier; a booking with nothing to confirm (no
    // flights, no land services) is confirmed at once
    await requestSupplierConfirmations(tx, ctx, booking.id);
    const status = (await confirmIfReady(tx, booking.id, { source: payment.source })) ? BookingStatus.confirmed : next;
    const confirmation = await finish(status);
    return {
      bookingId: booking.id,
      reference: booking.reference,
      status,
      finalized: true,
      confirmation,
      refunds: [] as RefundRow[],
    };
  });
  // after the commit: the catalog's configurator shows the allotment this booking used at once
  if (done.finalized) ctx.events.emit('offers:changed');
  return done;
}
