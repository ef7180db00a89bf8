// What an operator does on a booking after the sale, from the console: internal notes and the
// answers of suppliers who replied by phone or e-mail. Each is audit-logged.

import { assertAllowed } from '../../console/permissions.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { type AdminActor, audit } from '../admin/service.js';
import { amendTravelers, type TravelerChange } from './amendments.js';
import * as repo from './repository.js';
import { recordSupplierAnswer, type SupplierAnswer } from './supplier-confirmations.js';

export const NOTE_MAX = 4000;

/** Adds an internal note (author and time recorded) to the booking. */
export async function addNote(ctx: AppContext, actor: AdminActor, bookingId: number, reference: string, body: string) {
  assertAllowed(actor.grant, 'update_booking');
  const text = body.trim();
  if (!text) throw new AppError(400, 'validation_failed', 'Write the note first.');
  if (text.length > NOTE_MAX)
    throw new AppError(400, 'validation_failed', `A note has at most ${NOTE_MAX} characters.`);
  const note = await repo.insertNote(ctx.database.db, {
    bookingId,
    author: actor.email,
    body: text,
    createdAt: ctx.clock.now(),
  });
  await audit(ctx, actor, {
    action: 'booking.note',
    resourceType: 'booking',
    resourceId: reference,
    details: { note_id: note.id },
  });
  return note;
}

/** Records a supplier's answer for one of the booking's confirmation requests. */
export async function recordAnswerAsAdmin(
  ctx: AppContext,
  actor: AdminActor,
  bookingId: number,
  reference: string,
  confirmationId: number,
  answer: SupplierAnswer,
) {
  assertAllowed(actor.grant, 'update_booking');
  const c = await repo.findSupplierConfirmation(ctx.database.db, confirmationId);
  if (!c || c.bookingId !== bookingId) {
    throw new AppError(404, 'supplier_confirmation_not_found', `Confirmation request ${confirmationId} not found.`);
  }
  const after = await recordSupplierAnswer(ctx, confirmationId, answer, `admin:${actor.email}`);
  await audit(ctx, actor, {
    action: `booking.supplier_${answer.answer === 'confirm' ? 'confirmed' : 'declined'}`,
    resourceType: 'booking',
    resourceId: reference,
    details: {
      confirmation_id: confirmationId,
      service: c.serviceName,
      old: c.status,
      new: after.status,
      ...(answer.answer === 'confirm' ? { reference: answer.reference } : { reason: answer.reason }),
    },
  });
  return after;
}

/** Changes one traveler as an operator: the amendment, and the audit row with what changed. */
export async function amendTravelersAsAdmin(
  ctx: AppContext,
  actor: AdminActor,
  bookingId: number,
  change: TravelerChange,
) {
  assertAllowed(actor.grant, 'update_booking');
  const booking = await repo.findBooking(ctx.database.db, bookingId);
  if (!booking) throw new AppError(404, 'booking_not_found', `Booking ${bookingId} not found.`);
  const result = await amendTravelers(ctx, booking, [change], `admin:${actor.email}`);
  if (result.amendment_id !== null) {
    await audit(ctx, actor, {
      action: 'booking.amend_travelers',
      resourceType: 'booking',
      resourceId: booking.reference,
      details: { amendment_id: result.amendment_id, changes: result.changes },
    });
  }
  return result;
}
