// The supplier's side of a confirmation request, on the signed link of the request e-mail (no
// login): an HTML page with a Confirm form (their reference) and a Decline form (a reason), and the
// same as JSON under /api/supplier/confirmations/{id}. Rate limited per IP like every signed link.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { field, formBodies } from '../../console/http.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { html, trusted } from '../../platform/html.js';
import { ErrorBody, ok } from '../../platform/http-shapes.js';
import { rateLimit, TooManyRequestsBody } from '../../platform/rate-limit.js';
import { findBooking, type SupplierConfirmationRow } from './repository.js';
import {
  answerOfForm,
  linkedConfirmation,
  recordSupplierAnswer,
  type SupplierAnswer,
} from './supplier-confirmations.js';

const Signed = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 12 })),
  signature: Type.Optional(Type.String({ maxLength: 64 })),
});
const Params = Type.Object({ id: Type.String({ maxLength: 12 }) });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const Confirmation = Type.Object({
  id: Type.Integer(),
  booking_reference: Type.String(),
  service_type: Type.String({ description: 'hotel, activity or transfer' }),
  service_name: Type.String(),
  service_date: Type.String({ description: 'check-in, or the day of the service' }),
  end_date: Nullable(Type.String({ description: 'check-out (hotels)' })),
  room_type: Nullable(Type.String()),
  status: Type.String({ description: 'requested, confirmed, declined or cancelled' }),
  supplier_reference: Nullable(Type.String()),
  decline_reason: Nullable(Type.String()),
});
const Reference = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Reason = Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' });

function viewOf(c: SupplierConfirmationRow, reference: string) {
  return {
    id: c.id,
    booking_reference: reference,
    service_type: c.serviceType,
    service_name: c.serviceName,
    service_date: c.serviceDate,
    end_date: c.endDate,
    room_type: c.roomType,
    status: c.status,
    supplier_reference: c.supplierReference,
    decline_reason: c.declineReason,
  };
}

function page(title: string, body: ReturnType<typeof html>): string {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${trusted('body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:.5rem 0 .25rem}input,textarea{width:100%;padding:.4rem}form{margin:1.5rem 0;padding:1rem;border:1px solid #ccc;border-radius:6px}dt{font-weight:600}')}</style></head>
<body><main>${body}</main></body></html>`.text;
}

export async function supplierConfirmationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const limited = rateLimit({
    name: 'signed-links',
    max: ctx.config.writeLimits.signedLinksPerMinute,
    windowSeconds: 60,
  });
  const load = async (request: FastifyRequest) => {
    const { id } = request.params as { id: string };
    const { expires, signature } = request.query as { expires?: string; signature?: string };
    const c = await linkedConfirmation(ctx, id, expires, signature);
    const booking = await findBooking(ctx.database.db, c.bookingId);
    return { c, reference: booking?.reference ?? '' };
  };
  const answerWith = async (request: FastifyRequest, answer: SupplierAnswer) => {
    const { c, reference } = await load(request);
    return viewOf(await recordSupplierAnswer(ctx, c.id, answer, 'supplier'), reference);
  };
  const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: TooManyRequestsBody };
  const tags = ['suppliers'];

  app.get(
    '/api/supplier/confirmations/:id',
    {
      schema: {
        tags,
        summary: 'A confirmation request as its supplier sees it (signed link of the request e-mail)',
        params: Params,
        querystring: Signed,
        response: { 200: ok(Confirmation), ...errors },
      },
      onRequest: limited,
    },
    async (request) => {
      const { c, reference } = await load(request);
      return { success: true, data: viewOf(c, reference) };
    },
  );
  app.post(
    '/api/supplier/confirmations/:id/confirm',
    {
      schema: {
        tags,
        summary: "Confirm the booked service with the supplier's own reference (signed link)",
        params: Params,
        querystring: Signed,
        body: Type.Object({ reference: Reference }, { additionalProperties: false }),
        response: { 200: ok(Confirmation), ...errors },
      },
      onRequest: limited,
    },
    async (request) => {
      const { reference } = request.body as { reference: string };
      return { success: true, data: await answerWith(request, { answer: 'confirm', reference: reference.trim() }) };
    },
  );
  app.post(
    '/api/supplier/confirmations/:id/decline',
    {
      schema: {
        tags,
        summary: 'Decline the booked service with a reason (signed link)',
        params: Params,
        querystring: Signed,
        body: Type.Object({ reason: Reason }, { additionalProperties: false }),
        response: { 200: ok(Confirmation), ...errors },
      },
      onRequest: limited,
    },
    async (request) => {
      const { reason } = request.body as { reason: string };
      return { success: true, data: await answerWith(request, { answer: 'decline', reason: reason.trim() }) };
    },
  );

  // the HTML page of the e-mail's link and its two forms
  await app.register(async (scope) => {
    formBodies(scope);
    const htmlPage = { schema: { hide: true, params: Params, querystring: Signed }, onRequest: limited };
    const render = (reply: FastifyReply, status: number, text: string) =>
      reply.status(status).type('text/html; charset=utf-8').send(text);
    const failure = (reply: FastifyReply, err: unknown) => {
      if (!(err instanceof AppError)) throw err;
      return render(
        reply,
        err.status,
        page('Confirmation request', html`<h1>This request cannot be answered</h1><p>${err.message}</p>`),
      );
    };
    const show = (request: FastifyRequest, c: SupplierConfirmationRow, reference: string, notice?: string) => {
      const action = request.url;
      const facts = html`<dl><dt>Our booking reference</dt><dd>${reference}</dd><dt>Service</dt><dd>${c.serviceName} (${c.serviceType})</dd>
<dt>${c.endDate ? 'Check-in' : 'Date'}</dt><dd>${c.serviceDate}</dd>${c.endDate ? html`<dt>Check-out</dt><dd>${c.endDate}</dd>` : ''}
${c.roomType ? html`<dt>Room type</dt><dd>${c.roomType}</dd>` : ''}<dt>Status</dt><dd>${c.status}</dd>
${c.supplierReference ? html`<dt>Your reference</dt><dd>${c.supplierReference}</dd>` : ''}${c.declineReason ? html`<dt>Reason</dt><dd>${c.declineReason}</dd>` : ''}</dl>`;
      const forms =
        c.status === 'requested'
          ? html`<form method="post" action="${action}" aria-label="Confirm"><input type="hidden" name="answer" value="confirm">
<label for="reference">Your reference</label><input id="reference" name="reference" required maxlength="100">
<p><button type="submit">Confirm</button></p></form>
<form method="post" action="${action}" aria-label="Decline"><input type="hidden" name="answer" value="decline">
<label for="reason">Reason</label><textarea id="reason" name="reason" required maxlength="1000"></textarea>
<p><button type="submit">Decline</button></p></form>`
          : html`<p>Thank you: this request is answered. Contact us to change it.</p>`;
      return page(
        `Booking ${reference}: ${c.serviceName}`,
        html`<h1>Booking ${reference}: ${c.serviceName}</h1>${notice ? html`<p role="status">${notice}</p>` : ''}${facts}${forms}`,
      );
    };
    scope.get('/supplier/confirmations/:id', htmlPage, async (request, reply) => {
      try {
        const { c, reference } = await load(request);
        return render(reply, 200, show(request, c, reference));
      } catch (err) {
        return failure(reply, err);
      }
    });
    scope.post('/supplier/confirmations/:id', htmlPage, async (request, reply) => {
      try {
        const { c, reference: ours } = await load(request);
        const answer = answerOfForm({
          answer: field(request.body, 'answer'),
          reference: field(request.body, 'reference'),
          reason: field(request.body, 'reason'),
        });
        const after = await recordSupplierAnswer(ctx, c.id, answer, 'supplier');
        return render(
          reply,
          200,
          show(
            request,
            after,
            ours,
            answer.answer === 'confirm'
              ? 'Thank you: the service is confirmed.'
              : 'Thank you: the service is declined.',
          ),
        );
      } catch (err) {
        return failure(reply, err);
      }
    });
  });
}
