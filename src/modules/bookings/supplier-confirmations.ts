// Land services confirmed with their suppliers (issue 27 section 1). Finalization requests one
// confirmation per booked land service and e-mails each supplier a signed link; the supplier (on
// that link) or an operator (in the console) confirms with their reference or declines with a
// reason. A booking whose flights are booked (or has none) and whose suppliers have all confirmed
// becomes `confirmed`; a decline notifies the admins. Two scheduled tasks remind suppliers who have
// not answered after 48 h and complete confirmed trips whose return date has passed.
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { addDays, dateIn } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { urlSignature, verifyUrlSignature } from '../../platform/signed-url.js';
import { offerReturnDates, offerTrip } from '../catalog/offers.js';
import { loadDayActivities, loadDayTransfers, loadStays, supplierContacts } from '../catalog/supply.js';
import { groupStays, type Stay, type Tier } from '../checkout/rules.js';
import { flightBookingsOf } from '../flights/api.js';
import { queueSupplierMail } from '../mail/service.js';
import type { SupplierMailKind } from '../mail/supplier-templates.js';
import * as notifications from '../notifications/service.js';
import * as repo from './repository.js';
import {
  BookingStatus,
  CONFIRMABLE_STATUSES,
  SupplierConfirmationStatus as CS,
  isConfirmed,
  isTripOver,
  landServices,
  SUPPLIER_REMINDER_HOURS,
} from './rules.js';
import { transition } from './status.js';

type Ctx = Pick<AppContext, 'config' | 'database' | 'clock' | 'log'>;

// ---------------------------------------------------------------------------------------------
// The signed link of one confirmation request (platform/signed-url: `?expires&signature`)

const linkMessage = (id: number) => `supplier-confirmation:${id}`;

/** The link expires at the end of the service's last day: after it nothing is left to confirm. */
function linkExpiry(c: Pick<repo.SupplierConfirmationRow, 'serviceDate' | 'endDate'>): number {
  return Math.floor(Date.parse(`${addDays(c.endDate ?? c.serviceDate, 1)}T00:00:00Z`) / 1000);
}

export function supplierLink(config: Ctx['config'], c: repo.SupplierConfirmationRow): string {
  const expires = linkExpiry(c);
  const signature = urlSignature(config.appKey, linkMessage(c.id), expires);
  return `${config.appUrl}/supplier/confirmations/${c.id}?expires=${expires}&signature=${signature}`;
}

/** The confirmation a signed link names; 403 invalid_signature for a missing, forged or expired one. */
export async function linkedConfirmation(ctx: Ctx, id: string, expires?: string, signature?: string) {
  const n = /^\d{1,9}$/.test(id) ? Number(id) : 0;
  if (!n || !verifyUrlSignature(ctx.config.appKey, linkMessage(n), expires, signature, ctx.clock.now())) {
    throw new AppError(403, 'invalid_signature', 'This link is not valid or has expired.');
  }
  const row = await repo.findSupplierConfirmation(ctx.database.db, n);
  if (!row) throw new AppError(404, 'supplier_confirmation_not_found', `Confirmation request ${n} not found.`);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Requests

async function mailSupplier(
  tx: DbOrTx,
  ctx: Ctx,
  c: repo.SupplierConfirmationRow,
  kind: SupplierMailKind,
  key: string,
) {
  if (!c.supplierEmail) return false;
  const booking = await repo.findBooking(tx, c.bookingId);
  if (!booking) return false;
  const people = await repo.passengersOf(tx, c.bookingId);
  return queueSupplierMail(tx, {
    key,
    kind,
    bookingId: c.bookingId,
    to: c.supplierEmail,
    at: ctx.clock.now(),
    facts: {
      supplierName: c.supplierName,
      reference: booking.reference,
      serviceType: c.serviceType,
      serviceName: c.serviceName,
      serviceDate: c.serviceDate,
      endDate: c.endDate,
      roomType: c.roomType,
      passengers: people.map((p) => `${p.firstName} ${p.lastName}`),
      answerLink: supplierLink(ctx.config, c),
    },
  });
}

/**
 * Creates the booking's supplier confirmations (status requested), one per land service booked,
 * and writes each supplier's request e-mail, in `tx` (the finalization's). Returns the rows.
 */
export async function requestSupplierConfirmations(tx: DbOrTx, ctx: Ctx, bookingId: number) {
  const booking = await repo.findBooking(tx, bookingId);
  if (!booking) return [];
  const trip = await offerTrip(tx, booking.offerId);
  if (!trip) return [];
  const services = await bookedLandServices(tx, booking.id, trip);
  await repo.markLandRequested(tx, booking.id, ctx.clock.now());
  return createRequests(tx, ctx, booking, trip.departureDate, services);
}

/** Rows and e-mails for `services` of a booking (a finalization, or extras an amendment adds). */
export async function createRequests(
  tx: DbOrTx,
  ctx: Ctx,
  booking: repo.BookingRow,
  departureDate: string,
  services: ReturnType<typeof landServices>,
) {
  const contacts = await supplierContacts(tx, {
    hotels: services.filter((s) => s.serviceType === 'hotel').map((s) => s.serviceId),
    activities: services.filter((s) => s.serviceType === 'activity').map((s) => s.serviceId),
    transfers: services.filter((s) => s.serviceType === 'transfer').map((s) => s.serviceId),
  });
  const now = ctx.clock.now();
  const rows = await repo.insertSupplierConfirmations(
    tx,
    services.map((s) => {
      const contact = contacts[s.serviceType].get(s.serviceId);
      return {
        bookingId: booking.id,
        serviceType: s.serviceType,
        serviceId: s.serviceId,
        serviceName: s.serviceName,
        dayStart: s.dayStart,
        dayEnd: s.dayEnd,
        serviceDate: addDays(departureDate, s.dayStart - 1),
        // hotels: check-out the morning after the last night
        endDate: s.serviceType === 'hotel' ? addDays(departureDate, s.dayEnd) : null,
        roomType: s.serviceType === 'hotel' ? booking.actualRoomType : null,
        tier: s.tier,
        supplierEmail: contact?.email ?? null,
        supplierName: contact?.name ?? null,
        status: CS.requested,
        requestedAt: now,
      };
    }),
  );
  // a service without a supplier e-mail waits for the operator's answer on the booking page
  for (const c of rows) await mailSupplier(tx, ctx, c, 'supplier_request', `supplier-request:${c.id}`);
  return rows;
}

/** The land services a booking has booked: the tour's base hotels, included items and its extras. */
export async function bookedLandServices(
  db: DbOrTx,
  bookingId: number,
  trip: { templateId: number; marketProductId: number },
) {
  const [stayRows, dayActivities, dayTransfers, upsells] = await Promise.all([
    loadStays(db, trip.templateId),
    loadDayActivities(db, trip.marketProductId),
    loadDayTransfers(db, trip.templateId),
    repo.upsellsOf(db, bookingId),
  ]);
  const stays: Stay[] = stayRows.map((r) => ({
    hotelId: r.hotelId,
    tier: r.tier.replace(' ', '_') as Tier,
    dayStart: r.dayStart,
    dayEnd: r.dayEnd,
  }));
  const hotelName = new Map(stayRows.map((r) => [r.hotelId, r.name]));
  return landServices({
    baseStays: groupStays(stays).map((g) => ({
      hotelId: g.selection.hotelId,
      name: hotelName.get(g.selection.hotelId) ?? '',
      dayStart: g.selection.dayStart,
      dayEnd: g.selection.dayEnd,
    })),
    upgrades: upsells
      .filter((u) => u.type === 'hotel_upgrade' && u.itemId !== null)
      .map((u) => ({
        hotelId: u.itemId!,
        name: u.name ?? hotelName.get(u.itemId!) ?? '',
        tier: stays.find((s) => s.hotelId === u.itemId && s.tier !== 'selection')?.tier ?? null,
        dayStart: u.nightsStart ?? 1,
        dayEnd: u.nightsEnd ?? u.nightsStart ?? 1,
      })),
    activities: [
      ...dayActivities.filter((a) => a.tier === 'included').map((a) => ({ id: a.id, name: a.name, day: a.dayNumber })),
      ...upsells
        .filter((u) => u.type === 'activity' && u.itemId !== null)
        .map((u) => ({ id: u.itemId!, name: u.name ?? '', day: u.dayNumber ?? 1 })),
    ],
    transfers: [
      ...dayTransfers.filter((t) => t.kind === 'included').map((t) => ({ id: t.id, name: t.name, day: t.dayNumber })),
      ...upsells
        .filter((u) => u.type === 'transfer' && u.itemId !== null)
        .map((u) => ({ id: u.itemId!, name: u.name ?? '', day: u.dayNumber ?? 1 })),
    ],
  });
}

// ---------------------------------------------------------------------------------------------
// Answers

export type SupplierAnswer = { answer: 'confirm'; reference: string } | { answer: 'decline'; reason: string };

/** The answer of a Confirm or Decline form (the supplier's page or the console): 400 when incomplete. */
export function answerOfForm(form: { answer: string; reference: string; reason: string }): SupplierAnswer {
  const reference = form.reference.trim().slice(0, 100);
  const reason = form.reason.trim().slice(0, 1000);
  if (form.answer === 'confirm' && reference) return { answer: 'confirm', reference };
  if (form.answer === 'decline' && reason) return { answer: 'decline', reason };
  const message =
    form.answer === 'confirm'
      ? "Enter the supplier's reference to confirm."
      : form.answer === 'decline'
        ? 'Enter a reason to decline.'
        : 'Choose Confirm or Decline.';
  throw new AppError(400, 'validation_failed', message);
}

/**
 * Records a supplier's answer (by: 'supplier' through the link, 'admin:<e-mail>' in the console).
 * Through the link an answered request cannot change (409 supplier_confirmation_answered), the same
 * answer again is accepted as is; an operator may record any answer. A decline notifies the admins;
 * a confirmation may confirm the booking.
 */
export async function recordSupplierAnswer(ctx: Ctx, id: number, answer: SupplierAnswer, by: string) {
  return ctx.database.db.transaction(async (tx) => {
    const c = await repo.lockSupplierConfirmation(tx, id);
    if (!c) throw new AppError(404, 'supplier_confirmation_not_found', `Confirmation request ${id} not found.`);
    const status = answer.answer === 'confirm' ? CS.confirmed : CS.declined;
    if (c.status === CS.cancelled) {
      throw new AppError(409, 'supplier_confirmation_cancelled', 'This service was removed from the booking.');
    }
    if (by === 'supplier' && c.status !== CS.requested) {
      if (c.status === status) return c;
      throw new AppError(
        409,
        'supplier_confirmation_answered',
        `This request was already answered (${c.status}); contact us to change it.`,
      );
    }
    const now = ctx.clock.now();
    const set =
      answer.answer === 'confirm'
        ? { status, supplierReference: answer.reference, declineReason: null, answeredBy: by, answeredAt: now }
        : { status, declineReason: answer.reason, answeredBy: by, answeredAt: now };
    await repo.updateSupplierConfirmation(tx, id, set);
    const booking = await repo.findBooking(tx, c.bookingId);
    if (status === CS.declined && booking) {
      await notifications.notifyAdmins(tx, {
        type: 'supplier_declined',
        bookingId: c.bookingId,
        title: 'Supplier declined a service',
        message: `Booking ${booking.reference}: ${c.serviceName} (${c.serviceDate}) was declined: ${answer.answer === 'decline' ? answer.reason : ''}`,
        data: { confirmation_id: c.id, service_type: c.serviceType, service_id: c.serviceId, by },
      });
    }
    if (status === CS.confirmed) await confirmIfReady(tx, c.bookingId, { confirmation_id: c.id, by });
    return { ...c, ...set };
  });
}

/**
 * Moves the booking to `confirmed` when its flights are all booked (or it has none) and every
 * supplier confirmation is confirmed; does nothing otherwise. Called after each event that can
 * complete it: a supplier's confirmation, the last flight leg booked, the finalization, a paid
 * overdue balance.
 */
export async function confirmIfReady(tx: DbOrTx, bookingId: number, metadata: Record<string, unknown> = {}) {
  const booking = await repo.findBooking(tx, bookingId);
  // a booking whose suppliers were never asked (finalized before supplier confirmations existed)
  // is left to the operator
  if (!booking?.landRequestedAt || !CONFIRMABLE_STATUSES.includes(booking.status)) return false;
  const legs = ((booking.flightSelection as { legs?: unknown[] } | null)?.legs ?? []).length;
  const [booked, confirmations] = await Promise.all([
    flightBookingsOf(tx, bookingId),
    repo.supplierConfirmationsOf(tx, bookingId),
  ]);
  const statuses = confirmations.map((c) => c.status);
  if (!isConfirmed(legs, booked.length, statuses)) return false;
  return transition(tx, bookingId, [booking.status], BookingStatus.confirmed, {
    ...metadata,
    legs_booked: booked.length,
    supplier_confirmations: confirmations.filter((c) => c.status === CS.confirmed).length,
  });
}

// ---------------------------------------------------------------------------------------------
// Scheduled tasks

/** Reminds each supplier whose request is unanswered 48 h after the request (or the last reminder). */
export async function remindSuppliers(ctx: Ctx, asOf: Date) {
  const due = await repo.unansweredSince(
    ctx.database.db,
    new Date(asOf.getTime() - SUPPLIER_REMINDER_HOURS * 3_600_000),
  );
  let reminded = 0;
  for (const c of due) {
    await ctx.database.db.transaction(async (tx) => {
      const locked = await repo.lockSupplierConfirmation(tx, c.id);
      if (!locked || locked.status !== CS.requested) return;
      // one reminder per request and hour: a second run in the same hour writes nothing
      const key = `supplier-reminder:${c.id}:${asOf.toISOString().slice(0, 13)}`;
      if (await mailSupplier(tx, ctx, locked, 'supplier_reminder', key)) reminded++;
      await repo.updateSupplierConfirmation(tx, c.id, { remindedAt: asOf });
    });
  }
  return { reminded };
}

/** Moves confirmed bookings whose return date is before `asOf`'s day (UTC) to completed. */
export async function completeTrips(ctx: Ctx, asOf: Date) {
  const today = dateIn('UTC', asOf);
  const confirmed = await repo.bookingsIn(ctx.database.db, BookingStatus.confirmed);
  const returns = await offerReturnDates(ctx.database.db, [...new Set(confirmed.map((b) => b.offerId))]);
  let completed = 0;
  for (const b of confirmed) {
    const back = returns.get(b.offerId) ?? null;
    if (!isTripOver(back, today)) continue;
    const moved = await transition(ctx.database.db, b.id, [BookingStatus.confirmed], BookingStatus.completed, {
      return_date: back,
      as_of: today,
    });
    if (moved) completed++;
  }
  return { completed };
}
