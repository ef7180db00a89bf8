// Amendments after the sale (issue 27 section 2): every change is a row (what changed, old and new
// values, price difference, who), with an admin notification and the customer's e-mail, in one
// transaction. Travelers: the customer (manage my booking) corrects passport data and birth dates;
// an operator (console or /api/internal) also names. Once flights are booked the change is still
// made, and each booked leg gets an operator task (an admin notification) to change it with the
// airline, which may charge.
import type { AppContext } from '../../context.js';
import { dateIn } from '../../platform/clock.js';
import { AppError, FieldErrorBag } from '../../platform/errors.js';
import { amountToNumber, centsToNumber, formatCents, toCents } from '../../platform/money.js';
import { amendBalance, mailCustomer } from '../balance/service.js';
import { offerTrip } from '../catalog/offers.js';
import { loadExchangeRates } from '../catalog/supply.js';
import { convertTo } from '../checkout/rules.js';
import { loadDayActivities, loadDayTransfers } from '../checkout/supply.js';
import { flightBookingsOf } from '../flights/api.js';
import * as notifications from '../notifications/service.js';
import { recordRefunds, sendRefunds } from '../payments/refunds.js';
import { paymentSettlementOf } from '../payments/settlement.js';
import * as repo from './repository.js';
import { landServices, maskPassport } from './rules.js';
import { confirmIfReady, createRequests } from './supplier-confirmations.js';

type Ctx = Pick<AppContext, 'config' | 'database' | 'clock' | 'log'>;

export interface TravelerChange {
  position: number;
  first_name?: string;
  last_name?: string;
  passport_number?: string;
  passport_expiry?: string;
  birth_date?: string;
}

const FIELDS = [
  ['first_name', 'firstName'],
  ['last_name', 'lastName'],
  ['passport_number', 'passportNumber'],
  ['passport_expiry', 'passportExpiry'],
  ['birth_date', 'birthDate'],
] as const;

export interface TravelerAmendment {
  amendment_id: number | null;
  changes: Record<string, unknown>[];
  /** legs already booked with the airline: the operator changes them there (the airline may charge) */
  booked_legs: number[];
  warning: string | null;
}

/**
 * Applies traveler changes to a booking and records them (actor: 'customer', 'api' or
 * 'admin:<e-mail>'). Dates are checked (birth date past, passport valid after the return); 422
 * with the fields otherwise. Nothing is written when nothing changes.
 */
export async function amendTravelers(
  ctx: Ctx,
  booking: repo.BookingRow,
  changes: TravelerChange[],
  actor: string,
): Promise<TravelerAmendment> {
  const db = ctx.database.db;
  const [trip, people, legs] = await Promise.all([
    offerTrip(db, booking.offerId),
    repo.passengersOf(db, booking.id),
    flightBookingsOf(db, booking.id),
  ]);
  const today = dateIn('UTC', ctx.clock.now());
  const returnDate = trip?.returnDate ?? trip?.departureDate ?? today;
  const bag = new FieldErrorBag();
  changes.forEach((c, i) => {
    const at = `travelers.${i}`;
    if (!people[c.position]) bag.add(`${at}.position`, `There is no traveler ${c.position}.`);
    if (changes.findIndex((o) => o.position === c.position) !== i) bag.add(`${at}.position`, 'Each traveler once.');
    for (const name of ['first_name', 'last_name'] as const) {
      if (c[name] !== undefined && !/^[A-Za-z][A-Za-z ]{0,56}$/.test(c[name]!)) {
        bag.add(`${at}.${name}`, 'Names as in the passport: ASCII letters and spaces, at most 57.');
      }
    }
    if (c.passport_number !== undefined && !/^[A-Za-z0-9]{1,50}$/.test(c.passport_number)) {
      bag.add(`${at}.passport_number`, 'A passport number is letters and digits, at most 50.');
    }
    if (c.birth_date !== undefined && !(validDate(c.birth_date) && c.birth_date < today)) {
      bag.add(`${at}.birth_date`, 'The birth date must be a past date (YYYY-MM-DD).');
    }
    if (c.passport_expiry !== undefined && !(validDate(c.passport_expiry) && c.passport_expiry > returnDate)) {
      bag.add(`${at}.passport_expiry`, `The passport must be valid after the return date (${returnDate}).`);
    }
  });
  bag.throwIfAny(422);
  const bookedLegs = legs.map((l) => l.legIndex).sort((a, b) => a - b);
  const warning = bookedLegs.length
    ? `Flights are booked (legs ${bookedLegs.join(', ')}): change the travelers with the airline, which may charge for it.`
    : null;
  const record: Record<string, unknown>[] = [];
  const lines: string[] = [];
  const amendmentId = await db.transaction(async (tx) => {
    for (const c of changes) {
      const p = people[c.position]!;
      const set: Record<string, string> = {};
      for (const [name, column] of FIELDS) {
        const next = c[name];
        const old = p[column];
        if (next === undefined || next === old) continue;
        set[column] = next;
        // passport numbers are recorded masked: the amendment log is no second copy of them
        const shown = (v: string) => (name === 'passport_number' ? maskPassport(v) : v);
        record.push({ traveler: c.position, field: name, old: shown(old), new: shown(next) });
        lines.push(`${p.firstName} ${p.lastName}: ${name.replaceAll('_', ' ')} ${shown(next)}`);
      }
      if (Object.keys(set).length) await repo.updatePassenger(tx, p.id, set);
    }
    if (record.length === 0) return null;
    const amendment = await repo.insertAmendment(tx, {
      bookingId: booking.id,
      kind: 'travelers',
      changes: { travelers: record, ...(bookedLegs.length ? { booked_legs: bookedLegs } : {}) },
      priceDifference: '0',
      currency: booking.currency,
      actor,
      createdAt: ctx.clock.now(),
    });
    await notifications.notifyAdmins(tx, {
      type: 'booking_amended',
      bookingId: booking.id,
      title: 'Traveler data changed',
      message: `Booking ${booking.reference}: ${record.length} traveler field(s) changed by ${actor}.`,
      data: { amendment_id: amendment.id, travelers: record },
    });
    for (const leg of bookedLegs) {
      await notifications.notifyAdmins(tx, {
        type: 'flight_traveler_change',
        bookingId: booking.id,
        title: 'Change travelers with the airline',
        message: `Booking ${booking.reference}, leg ${leg}: the travelers changed after the flights were booked; change the booking with the airline (it may charge).`,
        data: { amendment_id: amendment.id, leg_index: leg, travelers: record },
      });
    }
    await mailCustomer(tx, ctx, booking, 'booking_amended', `booking-amended:${amendment.id}`, { changes: lines });
    return amendment.id;
  });
  return { amendment_id: amendmentId, changes: record, booked_legs: bookedLegs, warning };
}

function validDate(v: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(v) &&
    !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) &&
    new Date(`${v}T00:00:00Z`).toISOString().startsWith(v)
  );
}

// ---------------------------------------------------------------------------------------------
// Extras: activities and transfers added or removed after the sale

export interface ExtrasChange {
  /** optional activities (per person) and upsell transfers (per trip) of the tour, by day */
  add: { type: 'activity' | 'transfer'; id: number; day_number: number }[];
  /** booking_upsells ids of activities or transfers to remove */
  remove: number[];
}

/**
 * Adds or removes extras priced by today's supplier rates exactly as the checkout prices them (the
 * rate converted to the booking's currency; activities times the travelers). The total and the
 * balance move by the difference (balance/service amendBalance: a paid balance is reopened and the
 * customer gets the pay link; the part of a decrease already paid is refunded to the card),
 * added services are requested of their suppliers and removed ones' requests cancelled.
 */
export async function amendExtras(ctx: Ctx, booking: repo.BookingRow, change: ExtrasChange, actor: string) {
  const db = ctx.database.db;
  const trip = await offerTrip(db, booking.offerId);
  if (!trip) throw new AppError(409, 'offer_not_found', 'The offer of this booking is gone: amend it by hand.');
  const [activities, transfers, exchange, upsells] = await Promise.all([
    loadDayActivities(db, trip.marketProductId),
    loadDayTransfers(db, trip.templateId),
    loadExchangeRates(db),
    repo.upsellsOf(db, booking.id),
  ]);
  const bag = new FieldErrorBag();
  const added: repo.NewUpsell[] = [];
  change.add.forEach((a, i) => {
    const row =
      a.type === 'activity'
        ? activities.find((r) => r.id === a.id && r.dayNumber === a.day_number && r.tier === 'extra')
        : transfers.find((r) => r.id === a.id && r.dayNumber === a.day_number && r.kind === 'upsell');
    const unit = row?.rate ? convertTo(row.rate.cents, row.rate.currency, booking.currency, exchange) : null;
    if (!row || unit === null) {
      bag.add(`add.${i}`, `${a.type} ${a.id} is not an optional ${a.type} of day ${a.day_number} with a price.`);
      return;
    }
    if (upsells.some((u) => u.type === a.type && u.itemId === a.id && u.dayNumber === a.day_number)) {
      bag.add(`add.${i}`, `${row.name} is already booked on day ${a.day_number}.`);
      return;
    }
    const quantity = a.type === 'activity' ? booking.actualPaxCount : 1;
    added.push({
      bookingId: booking.id,
      type: a.type,
      itemId: a.id,
      name: row.name,
      dayNumber: a.day_number,
      unitPrice: formatCents(unit),
      quantity,
      totalPrice: formatCents(unit * quantity),
      currency: booking.currency,
    });
  });
  const removed = change.remove.map((id, i) => {
    const u = upsells.find((x) => x.id === id && (x.type === 'activity' || x.type === 'transfer'));
    if (!u) bag.add(`remove.${i}`, `Extra ${id} is not an activity or transfer of this booking.`);
    return u!;
  });
  bag.throwIfAny(422);
  const delta =
    added.reduce((sum, u) => sum + toCents(u.totalPrice), 0) -
    removed.reduce((sum, u) => sum + toCents(u.totalPrice), 0);
  const lines = [
    ...added.map((u) => `+ ${u.name} (${u.type}, day ${u.dayNumber})`),
    ...removed.map((u) => `- ${u.name} (${u.type}, day ${u.dayNumber})`),
  ];
  const gateway = paymentSettlementOf(ctx as AppContext).gateway;
  const done = await db.transaction(async (tx) => {
    const balance = await amendBalance(tx, booking.id, delta);
    if (balance.refundCents > 0 && !gateway) {
      throw new AppError(503, 'payment_unavailable', 'Payments are not configured: the refund cannot be made.');
    }
    // the part of a decrease that was already paid goes back to the card (issue 25's refund path)
    const refunds =
      balance.refundCents > 0
        ? await recordRefunds(tx, {
            bookingId: booking.id,
            amountCents: balance.refundCents,
            kind: 'amendment',
            reason: lines.join('; ').slice(0, 500),
            requestedBy: actor,
            at: ctx.clock.now(),
          })
        : [];
    await repo.insertUpsells(tx, added);
    await repo.deleteUpsells(
      tx,
      removed.map((u) => u.id),
    );
    await repo.setTotalPrice(tx, booking.id, formatCents(toCents(booking.totalPrice) + delta));
    const services = landServices({
      baseStays: [],
      upgrades: [],
      activities: added
        .filter((u) => u.type === 'activity')
        .map((u) => ({ id: u.itemId!, name: u.name!, day: u.dayNumber! })),
      transfers: added
        .filter((u) => u.type === 'transfer')
        .map((u) => ({ id: u.itemId!, name: u.name!, day: u.dayNumber! })),
    });
    await createRequests(tx, ctx, booking, trip.departureDate, services);
    for (const u of removed) await repo.cancelSupplierConfirmations(tx, booking.id, u.type, u.itemId!, u.dayNumber!);
    const amendment = await repo.insertAmendment(tx, {
      bookingId: booking.id,
      kind: 'extras',
      changes: {
        added: added.map((u) => ({
          type: u.type,
          item_id: u.itemId,
          name: u.name,
          day_number: u.dayNumber,
          total_price: amountToNumber(u.totalPrice),
        })),
        removed: removed.map((u) => ({
          type: u.type,
          item_id: u.itemId,
          name: u.name,
          day_number: u.dayNumber,
          total_price: amountToNumber(u.totalPrice),
        })),
        old_total: amountToNumber(booking.totalPrice),
        new_total: centsToNumber(balance.totalCents),
      },
      priceDifference: formatCents(delta),
      currency: booking.currency,
      actor,
      createdAt: ctx.clock.now(),
    });
    await notifications.notifyAdmins(tx, {
      type: 'booking_amended',
      bookingId: booking.id,
      title: 'Extras changed',
      message: `Booking ${booking.reference}: ${lines.join('; ')} (${formatCents(delta)} ${booking.currency}) by ${actor}.`,
      data: { amendment_id: amendment.id },
    });
    const fresh = (await repo.findBooking(tx, booking.id))!;
    await mailCustomer(tx, ctx, fresh, 'booking_amended', `booking-amended:${amendment.id}`, {
      changes: lines,
      priceDifferenceCents: delta,
    });
    await confirmIfReady(tx, booking.id, { amendment_id: amendment.id });
    return {
      refunds,
      amendment_id: amendment.id,
      refund: centsToNumber(balance.refundCents),
      price_difference: centsToNumber(delta),
      total_price: centsToNumber(balance.totalCents),
      balance_due: centsToNumber(balance.remainingCents),
      balance_due_date: balance.remainingCents > 0 ? balance.dueDate : null,
      pay_link_sent: balance.reopened,
      currency: booking.currency,
    };
  });
  // after the commit: the refunds are sent to the gateway (a failure is retried by the reconciliation)
  const { refunds, ...answer } = done;
  if (refunds.length && gateway) await sendRefunds(ctx, gateway, refunds);
  return answer;
}
