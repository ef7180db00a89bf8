// Amendments after the sale (issue 27 section 2): every change is a row (what changed, old and new
// values, price difference, who), with an admin notification and the customer's e-mail, in one
// transaction. Travelers: the customer (manage my booking) corrects passport data and birth dates;
// an operator (console or /api/internal) also names. Once flights are booked the change is still
// made, and each booked leg gets an operator task (an admin notification) to change it with the
// airline, which may charge.
import type { AppContext } from '../../context.js';
import { dateIn } from '../../platform/clock.js';
import { FieldErrorBag } from '../../platform/errors.js';
import { mailCustomer } from '../balance/service.js';
import { offerTrip } from '../catalog/offers.js';
import { flightBookingsOf } from '../flights/repository.js';
import * as notifications from '../notifications/service.js';
import * as repo from './repository.js';
import { maskPassport } from './rules.js';

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
