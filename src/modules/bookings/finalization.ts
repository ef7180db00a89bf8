// Finalization after a Succeeded payment, in one transaction: the client from client_data,
// passengers from traveler_data (first is lead), the flight selection enriched with airport
// data and a per-leg breakdown, upsell records, the status transition and the allotment.
// A booking that already has passengers is not finalized again.
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { centsToNumber, formatCents, toCents } from '../../platform/money.js';
import { consumeAllotment } from '../catalog/offers.js';
import { airportNames } from '../catalog/repository.js';
import * as checkout from '../checkout/repository.js';
import type { FlightSessionState } from '../flights/checkout-session.js';
import * as flights from '../flights/repository.js';
import type { FlightLeg, FlightSegment } from '../flights/rules.js';
import { BookingStatus, statusAfterPayment } from './rules.js';
import { transition } from './status.js';

export interface PaymentFacts {
  intentId: string;
  methodCode: string;
  gatewayCode: string;
  amountCents: number;
  totalCents: number;
}

export interface FinalizationResult {
  bookingId: number;
  reference: string;
  status: string;
  /** false when the booking already had passengers (finalized before) */
  finalized: boolean;
}

type Selection = Record<string, unknown> & {
  cabin_class?: string;
  outbound?: FlightSegment;
  inbound?: FlightSegment;
  legs?: FlightLeg[];
  fare_id?: string | null;
  flow_id?: string | null;
  business_extra_price_per_person?: number | null;
};

/** flight_selection as stored on the booking: airports named, each leg with its total. */
async function enrichSelection(ctx: AppContext, s: Selection | null, pax: number) {
  if (!s?.cabin_class) return null;
  const legs = s.legs ?? [];
  const codes = [
    s.outbound?.departure_airport,
    s.outbound?.arrival_airport,
    s.inbound?.departure_airport,
    s.inbound?.arrival_airport,
    ...legs.flatMap((l) => [l.origin, l.destination]),
  ].filter((c): c is string => typeof c === 'string');
  const names = await airportNames(ctx.database.db, codes);
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
      total_price: centsToNumber(toCents(l.fare_price) * pax),
    })),
  };
}

export async function finalizeBooking(
  ctx: AppContext,
  state: FlightSessionState,
  payment: PaymentFacts,
): Promise<FinalizationResult> {
  if (!state.clientData) throw new AppError(400, 'client_data_required', 'Enter the booking contact first.');
  if (!state.travelerData?.length) throw new AppError(400, 'traveler_data_required', 'Enter the travelers first.');
  const client = state.clientData;
  const travelers = state.travelerData;
  const pax = state.actualPaxCount;
  const currency = state.currency.code;
  const selection = state.flightSelection as Selection | null;
  const enriched = await enrichSelection(ctx, selection, pax);

  const done = await ctx.database.db.transaction(async (tx) => {
    const booking = await checkout.lockBooking(tx, state.bookingId);
    if (!booking) throw new AppError(404, 'booking_not_found', 'Booking not found.');
    const result = { bookingId: booking.id, reference: booking.reference };
    if (await flights.hasPassengers(tx, booking.id)) return { ...result, status: booking.status, finalized: false };

    const clientId = await checkout.upsertClient(tx, client);
    await flights.attachPassengers(
      tx,
      booking.id,
      travelers.map((t) => ({
        clientId,
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

    const upsells: flights.NewUpsell[] = [];
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
    await flights.insertUpsells(tx, upsells);

    await checkout.updateFinalizedBooking(tx, booking.id, {
      clientId,
      flightSelection: enriched as Record<string, unknown> | null,
      paymentMethodCode: payment.methodCode,
      paymentGatewayCode: payment.gatewayCode,
      totalPrice: formatCents(payment.totalCents),
    });
    const next = statusAfterPayment(selection?.cabin_class);
    // a payment that succeeds after the session expired still finalizes its booking
    await transition(tx, booking.id, [BookingStatus.checkout, BookingStatus.abandoned], next, {
      payment_intent_id: payment.intentId,
      payment_status: 'Succeeded',
      amount_paid: centsToNumber(payment.amountCents),
      total_price: centsToNumber(payment.totalCents),
      currency,
    });
    if (!(await consumeAllotment(tx, booking.offerId))) {
      // paid already: keep the booking, tell the admins the departure is over-sold
      await flights.notifyAdmins(tx, {
        type: 'allotment_exceeded',
        bookingId: booking.id,
        title: 'Allotment exceeded',
        message: `Booking ${booking.reference} was paid after offer ${booking.offerId} ran out of allotment.`,
        data: { offer_id: booking.offerId },
      });
    }
    return { ...result, status: next, finalized: true };
  });
  // after the commit: the catalog's configurator shows the allotment this booking used at once
  if (done.finalized) ctx.events.emit('offers:changed');
  return done;
}
