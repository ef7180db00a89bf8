// The admin's booking view (GET /api/internal/bookings/{id}): what the flight-booking admin acts on
// and what the checkout recorded, read-only. Passport numbers are masked (the provider gets them
// from the jobs); the trip, supplier confirmations, internal notes and amendments complete it.
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { centsToNumber, amountToNumber as money } from '../../platform/money.js';
import { balanceView } from '../balance/service.js';
import { offerTrip } from '../catalog/offers.js';
import { findClient, stepVisitsOf } from '../checkout/api.js';
import * as flights from '../flights/api.js';
import * as notifications from '../notifications/service.js';
import * as paymentRecords from '../payments/api.js';
import { moneyOf, refundsView } from '../payments/refunds.js';
import { BOOKING_CANCELLED } from './cancellation-rules.js';
import * as repo from './repository.js';
import { travelerView } from './rules.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Paid, refunded, the cancellation fee (when cancelled) and net: what the booking came to. */
async function moneyView(
  ctx: AppContext,
  id: number,
  currency: string,
  moves: { toStatus: string; metadata: unknown }[],
) {
  const m = await moneyOf(ctx.database.db, id);
  const cancelled = moves.filter((x) => x.toStatus === BOOKING_CANCELLED).at(-1);
  const fee = (cancelled?.metadata as { fee?: number } | undefined)?.fee ?? null;
  return {
    paid: centsToNumber(m.paidCents),
    refunded: centsToNumber(m.refundedCents),
    fee,
    net: centsToNumber(m.netCents),
    currency,
  };
}

export async function bookingView(ctx: AppContext, id: number) {
  const db = ctx.database.db;
  const booking = await repo.findBooking(db, id);
  if (!booking) throw new AppError(404, 'booking_not_found', `Booking ${id} not found.`);
  const [trip, confirmations, internalNotes, amendments] = await Promise.all([
    offerTrip(db, booking.offerId),
    repo.supplierConfirmationsOf(db, id),
    repo.notesOf(db, id),
    repo.amendmentsOf(db, id),
  ]);
  const [visits, people, upsells, legs, moves, notes, payments, attempts, client, balance] = await Promise.all([
    stepVisitsOf(db, id),
    repo.passengersOf(db, id),
    repo.upsellsOf(db, id),
    flights.flightBookingsOf(db, id),
    repo.transitionsOf(db, id),
    notifications.notificationsOf(db, id),
    paymentRecords.paymentsOf(db, id),
    flights.legAttemptsOf(db, id),
    booking.clientId ? findClient(db, booking.clientId) : null,
    balanceView(db, id),
  ]);
  return {
    id: booking.id,
    reference: booking.reference,
    status: booking.status,
    offer_id: booking.offerId,
    tour_name: trip?.tourName ?? null,
    departure_date: trip?.departureDate ?? null,
    return_date: trip?.returnDate ?? null,
    market: booking.marketCode,
    language: booking.language,
    pax_count: booking.paxCount,
    actual_pax_count: booking.actualPaxCount,
    actual_room_type: booking.actualRoomType,
    is_non_standard_pax: booking.isNonStandardPax,
    total_price: money(booking.totalPrice),
    currency: booking.currency,
    checkout_step: booking.checkoutStep,
    current_step: booking.currentStep,
    step_visits: visits.map((v) => ({ step: v.step, first_visited_at: iso(v.firstVisitedAt) })),
    balance,
    payment_method_code: booking.paymentMethodCode,
    payment_gateway_code: booking.paymentGatewayCode,
    flight_selection: booking.flightSelection,
    passengers: people.map((p, i) => ({ title: p.title, gender: p.gender, ...travelerView(p, i) })),
    supplier_confirmations: confirmations.map((c) => ({
      id: c.id,
      service_type: c.serviceType,
      service_name: c.serviceName,
      service_date: c.serviceDate,
      end_date: c.endDate,
      room_type: c.roomType,
      supplier_email: c.supplierEmail,
      supplier_name: c.supplierName,
      status: c.status,
      supplier_reference: c.supplierReference,
      decline_reason: c.declineReason,
      answered_by: c.answeredBy,
      answered_at: iso(c.answeredAt),
      requested_at: iso(c.requestedAt),
      reminded_at: iso(c.remindedAt),
    })),
    internal_notes: internalNotes.map((n) => ({ id: n.id, author: n.author, body: n.body, at: iso(n.createdAt) })),
    amendments: amendments.map((a) => ({
      id: a.id,
      kind: a.kind,
      changes: a.changes,
      price_difference: money(a.priceDifference),
      currency: a.currency,
      actor: a.actor,
      at: iso(a.createdAt),
    })),
    upsells: upsells.map((u) => ({
      id: u.id,
      type: u.type,
      item_id: u.itemId,
      name: u.name,
      day_number: u.dayNumber,
      nights_start: u.nightsStart,
      nights_end: u.nightsEnd,
      unit_price: money(u.unitPrice),
      quantity: u.quantity,
      total_price: money(u.totalPrice),
      currency: u.currency,
      details: u.details ?? null,
    })),
    flight_bookings: legs.map((l) => ({
      leg_index: l.legIndex,
      flight_type: l.flightType,
      cabin_class: l.cabinClass,
      status: l.status,
      pnr: l.pnr,
      reservation_id: l.reservationId,
      fare_id: l.fareId,
      flight_numbers: l.flightNumbers,
      total_price: money(l.totalPrice),
      currency: l.currency,
    })),
    status_transitions: moves.map((m) => ({
      from: m.fromStatus,
      to: m.toStatus,
      metadata: m.metadata,
      at: iso(m.createdAt),
    })),
    contact: client
      ? { first_name: client.firstName, last_name: client.lastName, email: client.email, phone: client.phone }
      : null,
    payments: payments.map((p) => ({
      intent_id: p.intentId,
      gateway_code: p.gatewayCode,
      method_code: p.methodCode,
      amount: money(p.amount),
      total_price: money(p.totalPrice),
      currency: p.currency,
      status: p.status,
      at: iso(p.createdAt),
    })),
    leg_attempts: attempts.map((a) => ({
      leg_index: a.legIndex,
      no_match_count: a.noMatchCount,
      last_error: a.lastError ?? null,
      at: iso(a.updatedAt),
    })),
    created_at: iso(booking.createdAt),
    money: await moneyView(ctx, id, booking.currency, moves),
    refunds: await refundsView(db, id),
    notifications: notes.map((n) => ({
      type: n.type,
      title: n.title,
      message: n.message,
      data: n.data,
      at: iso(n.createdAt),
    })),
  };
}
