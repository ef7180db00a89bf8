// Console actions of the booking after the sale: "Cancel booking" (the quote, then a confirmation
// step with the reason; permission cancel_booking) and "Refund" (an amount and a reason;
// permission refund_booking). Both call the same use cases as the API and write the audit log
// with the signed-in admin as the actor.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { field, guard, pageOf, sendPage } from '../../console/http.js';
import { assertAllowed } from '../../console/permissions.js';
import { csrfField, layout } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { html } from '../../platform/html.js';
import { refundableCents } from '../payments/refund-rules.js';
import { refundablePayments, refundBooking } from '../payments/refunds.js';
import { paymentSettlementOf } from '../payments/settlement.js';
import { cancelBooking, cancellationQuote } from './cancellation.js';
import type { CancelledBy } from './cancellation-rules.js';
import { findBookingByReference } from './repository.js';

async function bookingOf(ctx: AppContext, request: FastifyRequest) {
  const ref = (request.params as { reference: string }).reference.slice(0, 20).toUpperCase();
  const row = await findBookingByReference(ctx.database.db, ref);
  if (!row) throw new AppError(404, 'booking_not_found', `No booking with the reference ${ref}.`);
  return row;
}

const byOf = (value: unknown): CancelledBy => (value === 'organiser' ? 'organiser' : 'traveller');

function actorOf(request: FastifyRequest) {
  const { actor } = pageOf(request);
  return { email: actor.email, userId: actor.userId, ip: request.ip };
}

export async function cancellationConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const cancel = { schema: { hide: true }, preHandler: guard(ctx, 'cancel_booking') };
  const refund = { schema: { hide: true }, preHandler: guard(ctx, 'refund_booking') };

  app.get('/admin/bookings/:reference/cancel', cancel, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    const by = byOf((request.query as { by?: string }).by);
    const q = await cancellationQuote(ctx, b.id, by);
    const p = pageOf(request);
    const step = q.policy_step
      ? `${q.policy_step.fee_percent} % of the total (${q.days_before_departure} days before departure, step from ${q.policy_step.days_before_departure} days)`
      : 'none: cancelled by the organiser';
    return sendPage(
      reply,
      layout(
        p,
        `Cancel booking ${b.reference}`,
        html`<h1>Cancel booking ${b.reference}</h1>
<nav class="tabs" aria-label="Cancelled by"><a href="?by=traveller"${by === 'traveller' ? html` aria-current="page"` : ''}>By the traveller</a><a href="?by=organiser"${by === 'organiser' ? html` aria-current="page"` : ''}>By the organiser</a></nav>
<div class="card"><dl class="facts" aria-label="Cancellation quote"><dt>Paid</dt><dd>${q.paid} ${q.currency}</dd><dt>Fee</dt><dd>${q.fee} ${q.currency}</dd>
<dt>Refund to the card</dt><dd>${q.refund} ${q.currency}</dd><dt>Policy</dt><dd>${step}</dd></dl>
<p>Cancelling returns the seats, stops the balance, cancels booked flights at the provider and e-mails the customer. It cannot be undone.</p>
<form method="post" action="/admin/bookings/${b.reference}/cancel">${csrfField(p.csrfToken)}<input type="hidden" name="by" value="${by}">
<div class="field"><label for="cancel-reason">Reason</label><textarea id="cancel-reason" name="reason" required maxlength="500"></textarea></div>
<div class="actions"><button type="submit">Confirm cancellation</button><a class="button secondary" href="/admin/bookings/${b.reference}">Back</a></div></form></div>`,
      ),
    );
  });

  app.post('/admin/bookings/:reference/cancel', cancel, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    assertAllowed(pageOf(request).actor.grant, 'cancel_booking');
    const reason = field(request.body, 'reason').trim().slice(0, 500);
    if (!reason) throw new AppError(422, 'validation_failed', 'Give the reason of the cancellation.');
    await cancelBooking(ctx, paymentSettlementOf(ctx).gateway, {
      bookingId: b.id,
      by: byOf(field(request.body, 'by')),
      reason,
      actor: actorOf(request),
    });
    return reply.redirect(`/admin/bookings/${b.reference}?done=cancelled`, 303);
  });

  app.get('/admin/bookings/:reference/refund', refund, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    const left = refundableCents(await refundablePayments(ctx.database.db, b.id)) / 100;
    const p = pageOf(request);
    return sendPage(
      reply,
      layout(
        p,
        `Refund on booking ${b.reference}`,
        html`<h1>Refund on booking ${b.reference}</h1><div class="card">
<p>Up to ${left} ${b.currency} can be refunded (paid less what was refunded already). The money goes back to the card, deposit first.</p>
<form method="post" action="/admin/bookings/${b.reference}/refund">${csrfField(p.csrfToken)}
<div class="field"><label for="refund-amount">Amount (${b.currency})</label><input id="refund-amount" name="amount" type="number" step="0.01" min="0.01" required></div>
<div class="field"><label for="refund-reason">Reason</label><textarea id="refund-reason" name="reason" required maxlength="500"></textarea></div>
<div class="actions"><button type="submit">Refund</button><a class="button secondary" href="/admin/bookings/${b.reference}">Back</a></div></form></div>`,
      ),
    );
  });

  app.post('/admin/bookings/:reference/refund', refund, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    assertAllowed(pageOf(request).actor.grant, 'refund_booking');
    const amount = field(request.body, 'amount').trim();
    const reason = field(request.body, 'reason').trim().slice(0, 500);
    if (!/^\d+(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0 || !reason) {
      throw new AppError(422, 'validation_failed', 'Give a positive amount (two decimals at most) and a reason.');
    }
    await refundBooking(ctx, paymentSettlementOf(ctx).gateway, {
      bookingId: b.id,
      amountCents: Math.round(Number(amount) * 100),
      reason,
      actor: actorOf(request),
    });
    return reply.redirect(`/admin/bookings/${b.reference}?done=refunded`, 303);
  });
}
