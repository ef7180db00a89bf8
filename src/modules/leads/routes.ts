// POST /api/leads: the homepage contact form (public, 5 requests per minute per IP).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { storableIp } from '../../platform/client-ip.js';
import { component, ref } from '../../platform/openapi.js';
import { rateLimit, TooManyRequestsBody } from '../../platform/rate-limit.js';
import { type LeadBody, validateLead } from './rules.js';
import { captureLead } from './service.js';

const nullableString = (maxLength: number, description?: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength, ...(description ? { description } : {}) });

const Destination = Type.Object({
  type: Type.Unsafe<'region' | 'country'>({ type: 'string', enum: ['region', 'country'] }),
  id: Type.Optional(nullableString(100)),
  label: Type.String({ minLength: 1, maxLength: 100 }),
});

const LeadRequest = component(
  'LeadInput',
  Type.Object({
    name: Type.String({ maxLength: 255 }),
    email: Type.String({ maxLength: 255, description: 'a valid email address' }),
    phone: Type.Optional(nullableString(50)),
    region: Type.Optional(nullableString(255, 'legacy free text')),
    destinations: Type.Optional(
      Type.Unsafe<LeadBody['destinations']>({ type: ['array', 'null'], maxItems: 100, items: Destination }),
    ),
    preferred_call_time: Type.Optional(nullableString(255)),
    consent: Type.Boolean({ description: 'must be true' }),
  }),
  'A lead: contact details, consent and the trip asked about.',
);

const Created = component(
  'LeadCreated',
  Type.Object({ success: Type.Literal(true), message: Type.String() }),
  'The lead was taken.',
);
const ValidationFailed = Type.Object({
  success: Type.Literal(false),
  error: Type.String(),
  message: Type.String(),
  errors: Type.Record(Type.String(), Type.Array(Type.String())),
});

export async function leadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post(
    '/api/leads',
    {
      config: { validationStatus: 422 },
      onRequest: rateLimit({ name: 'leads', max: 5, windowSeconds: 60 }),
      schema: {
        tags: ['leads'],
        summary: 'Capture a contact-form lead',
        description:
          'Stores the lead with its consent audit data and queues the push to the sales CRM leads inbox. ' +
          'Limited to 5 requests per minute per IP.',
        body: ref(LeadRequest),
        response: { 201: ref(Created), 422: ValidationFailed, 429: TooManyRequestsBody },
      },
    },
    async (request, reply) => {
      const input = validateLead(request.body as LeadBody);
      await captureLead(ctx, input, storableIp(request.ip));
      return reply.status(201).send({ success: true, message: 'Lead received successfully.' });
    },
  );
}
