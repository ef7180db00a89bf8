// Admin endpoints: "Book All Flights / Retry" for a paid booking, and the booking view it acts on.
// Bearer token with the ability admin:bookings (or *), created with `npm run token:create`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { ref, ErrorBody as SharedErrorBody } from '../../platform/openapi.js';
import type { CheckoutSessions } from '../flights/checkout-session.js';
import { bookAllFlights } from './flight-booking.js';
import { bookingView } from './view.js';

export const ADMIN_BOOKINGS_ABILITY = 'admin:bookings';

const ErrorBody = ref(SharedErrorBody);

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
}
