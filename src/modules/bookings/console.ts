// Console routes of the bookings module: the list, one booking (by reference) and its
// "Book All Flights" / "Retry" action with a confirmation step. The action calls the same
// bookAllFlights use case as the API and writes the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { choiceField, dateField, type FilterErrors, rangeOrder } from '../../console/filters.js';
import { field, guard, pageOf, sendPage } from '../../console/http.js';
import { allows, assertAllowed } from '../../console/permissions.js';
import { confirmPage } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { type AdminActor, audit } from '../admin/service.js';
import { balanceSummary, mailCustomer } from '../balance/service.js';
import type { TravelerChange } from './amendments.js';
import { cancellationConsoleRoutes } from './cancellation-console.js';
import { bookingPage, bookingPanel, bookingsPage } from './console-views.js';
import { bookAllFlights } from './flight-booking.js';
import { addNote, amendTravelersAsAdmin, recordAnswerAsAdmin } from './operator.js';
import { findBooking, findBookingByReference } from './repository.js';
import { FLIGHT_BOOKABLE_STATUSES } from './rules.js';
import { type BookingFilter, listBookings, SORTS, type SortName } from './search.js';
import { answerOfForm } from './supplier-confirmations.js';
import { bookingView } from './view.js';

const STATUSES = [
  'checkout',
  'abandoned',
  'pending_flight_booking',
  'flight_booking_in_progress',
  'flights_confirmed',
  'flight_booking_failed',
  'pending_land_confirmation',
  'confirmed',
  'fully_paid',
  'balance_overdue',
  'completed',
  'cancelled',
] as const;

/**
 * The list's filters from the query string, each checked as the form offers it: a value the form
 * cannot hold (2027-02-30, an unknown status or market) is a sentence in `errors` and filters
 * nothing, so the page answers with the form and its problems, never a database error.
 */
export function filterOf(
  query: Record<string, string | undefined>,
  opts: { today?: string } = {},
): { filter: BookingFilter; errors: FilterErrors } {
  const errors: FilterErrors = {};
  const text = (v: string | undefined, max: number) => (v?.trim() ? v.trim().slice(0, max) : undefined);
  const filter: BookingFilter = {
    q: text(query.q, 100),
    status: choiceField(query.status, 'status', 'Status', STATUSES, errors),
    market: marketField(query.market, errors),
    departureFrom: dateField(query.from, 'from', 'Departure from', errors),
    departureTo: dateField(query.to, 'to', 'Departure to', errors),
    createdFrom: dateField(query.created_from, 'created_from', 'Booked from', errors),
    createdTo: dateField(query.created_to, 'created_to', 'Booked to', errors),
    paidFrom: dateField(query.paid_from, 'paid_from', 'Paid from', errors),
    paidTo: dateField(query.paid_to, 'paid_to', 'Paid to', errors),
    refundedFrom: dateField(query.refunded_from, 'refunded_from', 'Refunded from', errors),
    refundedTo: dateField(query.refunded_to, 'refunded_to', 'Refunded to', errors),
    stage: choiceField(query.stage, 'stage', 'Stage', ['sold'] as const, errors),
    balance: choiceField(query.balance, 'balance', 'Balance', ['due_7', 'overdue'] as const, errors),
    supplier: choiceField(query.supplier, 'supplier', 'Supplier', ['pending', 'declined'] as const, errors),
    today: opts.today,
    sort: (query.sort && query.sort in SORTS ? query.sort : 'newest') as SortName,
    page: Math.max(1, Math.min(1000, Number.parseInt(query.page ?? '1', 10) || 1)),
  };
  if (query.offer?.trim()) {
    if (/^\d{1,9}$/.test(query.offer.trim())) filter.offer = Number(query.offer.trim());
    else errors.offer = 'Departure: give the number of an offer.';
  }
  rangeOrder(filter.departureFrom, filter.departureTo, 'to', 'Departure to', errors);
  rangeOrder(filter.createdFrom, filter.createdTo, 'created_to', 'Booked to', errors);
  rangeOrder(filter.paidFrom, filter.paidTo, 'paid_to', 'Paid to', errors);
  rangeOrder(filter.refundedFrom, filter.refundedTo, 'refunded_to', 'Refunded to', errors);
  return { filter, errors };
}

/** A market code as markets are written (es, de, uk): a market without bookings simply lists none. */
function marketField(raw: string | undefined, errors: FilterErrors): string | undefined {
  const v = raw?.trim();
  if (!v) return undefined;
  if (/^[a-z]{2,3}$/.test(v)) return v;
  errors.market = 'Market: use the market code of two or three lowercase letters, e.g. es.';
  return undefined;
}

/** The query string of a filter (without the page), as the list's links and its export use it. */
export function filterQuery(f: BookingFilter): URLSearchParams {
  const q = new URLSearchParams();
  if (f.q) q.set('q', f.q);
  if (f.status) q.set('status', f.status);
  if (f.market) q.set('market', f.market);
  if (f.departureFrom) q.set('from', f.departureFrom);
  if (f.departureTo) q.set('to', f.departureTo);
  if (f.createdFrom) q.set('created_from', f.createdFrom);
  if (f.createdTo) q.set('created_to', f.createdTo);
  if (f.paidFrom) q.set('paid_from', f.paidFrom);
  if (f.paidTo) q.set('paid_to', f.paidTo);
  if (f.refundedFrom) q.set('refunded_from', f.refundedFrom);
  if (f.refundedTo) q.set('refunded_to', f.refundedTo);
  if (f.stage) q.set('stage', f.stage);
  if (f.balance) q.set('balance', f.balance);
  if (f.offer !== undefined) q.set('offer', String(f.offer));
  if (f.sort !== 'newest') q.set('sort', f.sort);
  return q;
}

function hrefOf(f: BookingFilter, page: number): string {
  const q = filterQuery(f);
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return s ? `/admin/bookings?${s}` : '/admin/bookings';
}

async function bookingOf(ctx: AppContext, request: FastifyRequest) {
  const ref = (request.params as { reference: string }).reference.slice(0, 20).toUpperCase();
  const row = await findBookingByReference(ctx.database.db, ref);
  if (!row) throw new AppError(404, 'booking_not_found', `No booking with the reference ${ref}.`);
  return bookingView(ctx, row.id);
}

/** Book All Flights / Retry as an admin: the permission again, the one use case, the audit row. */
export async function bookFlightsAsAdmin(ctx: AppContext, actor: AdminActor, bookingId: number, reference: string) {
  assertAllowed(actor.grant, 'book_flights_booking');
  try {
    const result = await bookAllFlights(ctx, bookingId, `admin:${actor.email}`);
    await audit(ctx, actor, {
      action: 'booking.book_flights',
      resourceType: 'booking',
      resourceId: reference,
      details: { status: result.status, queued_legs: result.queued_legs, booked_legs: result.booked_legs },
    });
    return result;
  } catch (err) {
    if (err instanceof AppError) {
      await audit(ctx, actor, {
        action: 'booking.book_flights.refused',
        resourceType: 'booking',
        resourceId: reference,
        details: { error: err.code, message: err.message },
      });
    }
    throw err;
  }
}

const DONE: Record<string, string> = {
  queued: 'Flight booking started: one job per unbooked leg.',
  resent: 'The confirmation e-mail is in the outbox again; it goes out with the next delivery run.',
  noted: 'Note added.',
  answered: "The supplier's answer is recorded.",
  amended: 'The travelers are changed; the customer gets an e-mail.',
  amended_flights:
    'The travelers are changed. The flights are booked: change them with the airline too (it may charge); a task is in the notifications.',
  cancelled: 'The booking is cancelled: the refund is on its way to the card and the customer is told.',
  refunded: 'The refund is on its way to the card.',
};

/** "Resend confirmation e-mail" as an admin: a new outbox row of the booking's confirmation. */
export async function resendConfirmationAsAdmin(
  ctx: AppContext,
  actor: AdminActor,
  bookingId: number,
  reference: string,
) {
  assertAllowed(actor.grant, 'resend_confirmation_booking');
  const queued = await ctx.database.db.transaction(async (tx) => {
    const booking = await findBooking(tx, bookingId);
    if (!booking || !(await balanceSummary(tx, bookingId))) return false;
    // a key of its own per resend: the outbox writes each key once
    await mailCustomer(
      tx,
      ctx,
      booking,
      'booking_confirmation',
      `booking-confirmation:${bookingId}:resend:${ctx.clock.now().getTime()}`,
    );
    return true;
  });
  if (!queued) {
    throw new AppError(
      409,
      'booking_not_confirmed',
      `Booking ${reference} has no confirmation to send (not paid yet).`,
    );
  }
  await audit(ctx, actor, { action: 'booking.resend_confirmation', resourceType: 'booking', resourceId: reference });
}

export async function bookingConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const view = { schema: { hide: true }, preHandler: guard(ctx, 'view_booking') };
  const act = { schema: { hide: true }, preHandler: guard(ctx, 'book_flights_booking') };
  const canBook = (request: FastifyRequest) => allows(pageOf(request).actor.grant, 'book_flights_booking');

  app.get('/admin/bookings', view, async (request, reply) => {
    const markets = [...(await ctx.markets.all()).keys()].sort();
    const today = ctx.clock.now().toISOString().slice(0, 10);
    const { filter: f, errors } = filterOf(request.query as Record<string, string>, { today });
    const failed = Object.keys(errors).length > 0;
    // a refused filter lists nothing: the rows would not be what the form says
    const data = failed ? { rows: [], hasNext: false } : await listBookings(ctx.database, f);
    const p = pageOf(request);
    const exportHref = allows(p.actor.grant, 'export_booking')
      ? `/admin/bookings/export.csv${filterQuery(f).size ? `?${filterQuery(f)}` : ''}`
      : undefined;
    return sendPage(
      reply,
      bookingsPage(p, f, markets, data, (n) => hrefOf(f, n), { errors, exportHref, statuses: STATUSES }),
      failed ? 422 : 200,
    );
  });

  app.get('/admin/bookings/:reference', view, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    const done = DONE[(request.query as { done?: string }).done ?? ''];
    return sendPage(
      reply,
      bookingPage(pageOf(request), b, canBook(request), FLIGHT_BOOKABLE_STATUSES.includes(b.status), done),
    );
  });

  app.get('/admin/bookings/:reference/panel', view, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    return sendPage(
      reply,
      bookingPanel(pageOf(request), b, canBook(request), FLIGHT_BOOKABLE_STATUSES.includes(b.status)).text,
    );
  });

  app.get('/admin/bookings/:reference/book-flights', act, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    const retry = b.status === 'flight_booking_failed';
    const legs = b.flight_bookings.length;
    const total = ((b.flight_selection as { legs?: unknown[] } | null)?.legs ?? []).length;
    return sendPage(
      reply,
      confirmPage(pageOf(request), {
        title: retry ? `Retry flights of ${b.reference}` : `Book all flights of ${b.reference}`,
        message: `This books ${total - legs} unbooked leg(s) of ${total} with the flight provider (one job per leg); legs already booked are skipped. The booking is ${b.status.replaceAll('_', ' ')}.`,
        action: `/admin/bookings/${b.reference}/book-flights`,
        button: retry ? 'Retry' : 'Book All Flights',
        back: `/admin/bookings/${b.reference}`,
      }),
    );
  });

  const resend = { schema: { hide: true }, preHandler: guard(ctx, 'resend_confirmation_booking') };
  app.get('/admin/bookings/:reference/resend-confirmation', resend, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    return sendPage(
      reply,
      confirmPage(pageOf(request), {
        title: `Resend the confirmation of ${b.reference}`,
        message: `This puts the booking confirmation e-mail, in the booking's language, in the outbox again for ${b.contact?.email ?? 'the booking contact'}.`,
        action: `/admin/bookings/${b.reference}/resend-confirmation`,
        button: 'Resend confirmation e-mail',
        back: `/admin/bookings/${b.reference}`,
      }),
    );
  });

  app.post('/admin/bookings/:reference/resend-confirmation', resend, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    await resendConfirmationAsAdmin(ctx, pageOf(request).actor, b.id, b.reference);
    return reply.redirect(`/admin/bookings/${b.reference}?done=resent`, 303);
  });

  const update = { schema: { hide: true }, preHandler: guard(ctx, 'update_booking') };
  app.post('/admin/bookings/:reference/notes', update, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    await addNote(ctx, pageOf(request).actor, b.id, b.reference, field(request.body, 'body'));
    return reply.redirect(`/admin/bookings/${b.reference}?done=noted#notes`, 303);
  });

  app.post('/admin/bookings/:reference/travelers/:position', update, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    const raw = (request.params as { position: string }).position;
    const position = /^\d$/.test(raw) ? Number(raw) : -1;
    const change: TravelerChange = { position };
    for (const name of ['first_name', 'last_name', 'passport_number', 'passport_expiry', 'birth_date'] as const) {
      const value = field(request.body, name).trim();
      if (value) change[name] = value.slice(0, 57);
    }
    const result = await amendTravelersAsAdmin(ctx, pageOf(request).actor, b.id, change);
    return reply.redirect(
      `/admin/bookings/${b.reference}?done=${result.warning ? 'amended_flights' : 'amended'}#amendments`,
      303,
    );
  });

  app.post('/admin/bookings/:reference/confirmations/:id', update, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    const raw = (request.params as { id: string }).id;
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    await recordAnswerAsAdmin(
      ctx,
      pageOf(request).actor,
      b.id,
      b.reference,
      id,
      answerOfForm({
        answer: field(request.body, 'answer'),
        reference: field(request.body, 'reference'),
        reason: field(request.body, 'reason'),
      }),
    );
    return reply.redirect(`/admin/bookings/${b.reference}?done=answered#suppliers`, 303);
  });

  app.post('/admin/bookings/:reference/book-flights', act, async (request, reply) => {
    const b = await bookingOf(ctx, request);
    await bookFlightsAsAdmin(ctx, pageOf(request).actor, b.id, b.reference);
    return reply.redirect(`/admin/bookings/${b.reference}?done=queued`, 303);
  });

  await cancellationConsoleRoutes(app, ctx);
}
