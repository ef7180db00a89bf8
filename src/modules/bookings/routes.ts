// Admin endpoints: "Book All Flights / Retry" for a paid booking, and the booking view it acts on.
// Bearer token with the ability admin:bookings (or *), created with `npm run token:create`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ErrorBody } from '../../platform/http-shapes.js';
import { audit } from '../admin/service.js';
import type { CheckoutSessions } from '../flights/checkout-session.js';
import { amendExtras, amendTravelers, type ExtrasChange, type TravelerChange } from './amendments.js';
import { cancellationRoutes } from './cancellation-routes.js';
import { bookAllFlights } from './flight-booking.js';
import { rebookLeg, searchLegFares } from './rebooking.js';
import { findBooking } from './repository.js';
import { bookingView } from './view.js';

export const ADMIN_BOOKINGS_ABILITY = 'admin:bookings';

function legIndexOf(request: FastifyRequest): number {
  const raw = (request.params as { leg: string }).leg;
  if (!/^\d{1,3}$/.test(raw)) throw new AppError(404, 'leg_not_found', `Flight leg ${raw.slice(0, 10)} not found.`);
  return Number(raw);
}

const Segment = Type.Object({}, { additionalProperties: true });

function bookingIdOf(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new AppError(404, 'booking_not_found', `Booking ${raw.slice(0, 40)} not found.`);
  }
  return Number(raw);
}

export async function bookingAdminRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  sessions: CheckoutSessions,
): Promise<void> {
  const adminOnly = async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    const abilities = m ? await sessions.checkout.tokenAbilities(m[1]) : null;
    if (!abilities) throw new AppError(401, 'unauthenticated', 'A valid bearer token is required.');
    if (!abilities.includes(ADMIN_BOOKINGS_ABILITY) && !abilities.includes('*')) {
      throw new AppError(403, 'forbidden', `The token lacks the ${ADMIN_BOOKINGS_ABILITY} ability.`);
    }
  };

  app.post(
    '/api/internal/bookings/:id/book-flights',
    {
      schema: {
        tags: ['ops'],
        summary: 'Book All Flights / Retry: one job per unbooked leg (bearer token with admin:bookings)',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ id: Type.String() }),
        response: {
          202: Type.Object({
            success: Type.Literal(true),
            data: Type.Object({
              booking_id: Type.Integer(),
              booking_reference: Type.String(),
              status: Type.String(),
              queued_legs: Type.Array(Type.Integer()),
              booked_legs: Type.Array(Type.Integer()),
            }),
          }),
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          422: ErrorBody,
        },
      },
      onRequest: adminOnly,
    },
    async (request, reply) => {
      const data = await bookAllFlights(ctx, bookingIdOf(request));
      return reply.status(202).send({ success: true, data });
    },
  );

  app.post(
    '/api/internal/bookings/:id/legs/:leg/search',
    {
      schema: {
        tags: ['ops'],
        summary:
          'Re-booking, step 1: search the flight provider again for one unbooked leg (a leg that could not be ' +
          'matched); the fares found are kept for step 2 (bearer token with admin:bookings)',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ id: Type.String(), leg: Type.String() }),
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Object({
              booking_id: Type.Integer(),
              leg_index: Type.Integer(),
              leg: Type.Object({}, { additionalProperties: true }),
              flow_id: Type.String(),
              searched_at: Type.String(),
              fares: Type.Array(
                Type.Object({
                  fare_id: Type.String(),
                  total_price: Type.Number(),
                  price_per_person: Type.Number(),
                  currency: Type.String(),
                  price_difference: Type.Number({
                    description: 'this fare total minus what the visitor paid for the leg (all passengers)',
                  }),
                  baggage_included: Type.Boolean(),
                  flights: Type.Array(Segment),
                }),
              ),
            }),
          }),
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          502: ErrorBody,
        },
      },
      onRequest: adminOnly,
    },
    async (request) => ({
      success: true,
      data: await searchLegFares(ctx, bookingIdOf(request), legIndexOf(request)),
    }),
  );

  app.post(
    '/api/internal/bookings/:id/legs/:leg/rebook',
    {
      schema: {
        tags: ['ops'],
        summary:
          'Re-booking, step 2: book one leg with a fare of the last search; the new fare and the price ' +
          'difference go into the status transition, the other unbooked legs get their jobs ' +
          '(bearer token with admin:bookings)',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ id: Type.String(), leg: Type.String() }),
        body: Type.Object({ fare_id: Type.String({ minLength: 1, maxLength: 2000 }) }),
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Object({
              booking_id: Type.Integer(),
              booking_reference: Type.String(),
              status: Type.String(),
              leg_index: Type.Integer(),
              fare_id: Type.String(),
              reservation_id: Type.String(),
              pnr: Type.Union([Type.String(), Type.Null()]),
              price_difference: Type.Number(),
              currency: Type.String(),
              queued_legs: Type.Array(Type.Integer()),
            }),
          }),
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          422: ErrorBody,
          502: ErrorBody,
        },
      },
      onRequest: adminOnly,
    },
    async (request) => {
      const { fare_id } = request.body as { fare_id: string };
      return { success: true, data: await rebookLeg(ctx, bookingIdOf(request), legIndexOf(request), fare_id) };
    },
  );

  const Name = Type.String({ minLength: 1, maxLength: 57, pattern: '^[A-Za-z][A-Za-z ]*$' });
  const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
  app.put(
    '/api/internal/bookings/:id/travelers',
    {
      schema: {
        tags: ['ops'],
        summary:
          'Amend travelers (names, passport data, birth dates): free before the flights are booked; after, the ' +
          'change is recorded and each booked leg gets an operator task (bearer token with admin:bookings)',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ id: Type.String() }),
        body: Type.Object(
          {
            travelers: Type.Array(
              Type.Object(
                {
                  position: Type.Integer({ minimum: 0, maximum: 9, description: '0: the lead traveler' }),
                  first_name: Type.Optional(Name),
                  last_name: Type.Optional(Name),
                  passport_number: Type.Optional(
                    Type.String({ minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9]+$' }),
                  ),
                  passport_expiry: Type.Optional(Day),
                  birth_date: Type.Optional(Day),
                },
                { additionalProperties: false },
              ),
              { minItems: 1, maxItems: 10 },
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Object({
              amendment_id: Type.Union([Type.Integer(), Type.Null()]),
              changes: Type.Array(Type.Object({}, { additionalProperties: true })),
              booked_legs: Type.Array(Type.Integer()),
              warning: Type.Union([Type.String(), Type.Null()]),
            }),
          }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          422: ErrorBody,
        },
      },
      onRequest: adminOnly,
    },
    async (request) => {
      const id = bookingIdOf(request);
      const booking = await findBooking(ctx.database.db, id);
      if (!booking) throw new AppError(404, 'booking_not_found', `Booking ${id} not found.`);
      const { travelers } = request.body as { travelers: TravelerChange[] };
      const data = await amendTravelers(ctx, booking, travelers, 'api');
      if (data.amendment_id !== null) {
        await audit(
          ctx,
          { email: 'api' },
          {
            action: 'booking.amend_travelers',
            resourceType: 'booking',
            resourceId: booking.reference,
            details: { amendment_id: data.amendment_id, changes: data.changes },
          },
        );
      }
      return { success: true, data };
    },
  );

  app.post(
    '/api/internal/bookings/:id/extras',
    {
      schema: {
        tags: ['ops'],
        summary:
          "Add or remove activities and transfers after the sale, priced by today's supplier rates as the checkout " +
          'prices them; the total and the balance move by the difference (bearer token with admin:bookings)',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ id: Type.String() }),
        body: Type.Object(
          {
            add: Type.Optional(
              Type.Array(
                Type.Object(
                  {
                    type: Type.Union([Type.Literal('activity'), Type.Literal('transfer')]),
                    id: Type.Integer({ minimum: 1 }),
                    day_number: Type.Integer({ minimum: 1, maximum: 60 }),
                  },
                  { additionalProperties: false },
                ),
                { maxItems: 20 },
              ),
            ),
            remove: Type.Optional(
              Type.Array(Type.Integer({ minimum: 1 }), {
                maxItems: 20,
                description: 'ids of the booking upsells (the booking view) to remove',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Object({
              amendment_id: Type.Integer(),
              refund: Type.Number({ description: 'the part of a decrease already paid, refunded to the card' }),
              price_difference: Type.Number(),
              total_price: Type.Number(),
              balance_due: Type.Number(),
              balance_due_date: Type.Union([Type.String(), Type.Null()]),
              pay_link_sent: Type.Boolean({ description: 'the balance was paid: the difference goes by pay link' }),
              currency: Type.String(),
            }),
          }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
          422: ErrorBody,
        },
      },
      onRequest: adminOnly,
    },
    async (request) => {
      const id = bookingIdOf(request);
      const booking = await findBooking(ctx.database.db, id);
      if (!booking) throw new AppError(404, 'booking_not_found', `Booking ${id} not found.`);
      const body = request.body as Partial<ExtrasChange>;
      const data = await amendExtras(ctx, booking, { add: body.add ?? [], remove: body.remove ?? [] }, 'api');
      await audit(
        ctx,
        { email: 'api' },
        {
          action: 'booking.amend_extras',
          resourceType: 'booking',
          resourceId: booking.reference,
          details: { amendment_id: data.amendment_id, price_difference: data.price_difference },
        },
      );
      return { success: true, data };
    },
  );

  app.get(
    '/api/internal/bookings/:id',
    {
      schema: {
        tags: ['ops'],
        summary:
          'The booking view: status, funnel steps, passengers, upsells, flight-booking records per leg, ' +
          'status transitions (with failure metadata) and admin notifications (bearer token with admin:bookings)',
        security: [{ bearerAuth: [] }],
        params: Type.Object({ id: Type.String() }),
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            data: Type.Object(
              { id: Type.Integer(), reference: Type.String(), status: Type.String() },
              { additionalProperties: true },
            ),
          }),
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
        },
      },
      onRequest: adminOnly,
    },
    async (request) => ({ success: true, data: await bookingView(ctx, bookingIdOf(request)) }),
  );

  await cancellationRoutes(app, ctx, adminOnly);
}
