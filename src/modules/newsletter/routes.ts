// POST /api/newsletter/subscribe (public). The body schema documents the fields; the rules
// (with the Spanish messages the site shows) are checked in rules.ts, so a bad body is a 422
// and a value of the wrong type is refused rather than coerced.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { storableIp } from '../../platform/client-ip.js';
import { component, ref } from '../../platform/openapi.js';
import { rateLimit, TooManyRequestsBody } from '../../platform/rate-limit.js';
import { documentedOnly } from '../../platform/strict-body.js';
import { MailDomainCheck } from './mail-domain.js';
import { NEWSLETTER_MARKETS } from './rules.js';
import { NewsletterService } from './service.js';

const SubscribeBody = component(
  'NewsletterSubscription',
  Type.Object({
    name: Type.String({ maxLength: 255, description: 'Trimmed; required' }),
    email: Type.String({
      maxLength: 255,
      description: 'Trimmed; RFC-valid, and its domain must accept mail (MX, or A/AAAA without MX; null MX fails)',
    }),
    phone: Type.Optional(
      Type.Union([Type.String({ maxLength: 50 }), Type.Null()], {
        description: '7 to 15 digits, optional leading +, spaces, parentheses, dots, hyphens; blank means none',
      }),
    ),
    consent: Type.Optional(Type.Boolean({ description: 'Consent columns are stamped regardless of the value' })),
    market: Type.Optional(Type.Union([Type.Enum([...NEWSLETTER_MARKETS]), Type.Null()])),
  }),
  'A newsletter sign-up with its consent.',
);

const Success = component(
  'NewsletterSubscribed',
  Type.Object({ success: Type.Literal(true), message: Type.String() }),
  'The sign-up was taken (201 new, 200 already subscribed).',
);
const ValidationFailed = Type.Object({
  success: Type.Literal(false),
  error: Type.String(),
  message: Type.String(),
  errors: Type.Record(Type.String(), Type.Array(Type.String())),
});

export async function newsletterRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const mailDomains = new MailDomainCheck({
    servers: ctx.config.newsletter.dnsServers,
    timeoutMs: ctx.config.newsletter.dnsTimeoutMs,
  });
  const service = new NewsletterService(ctx, mailDomains);

  app.post(
    '/api/newsletter/subscribe',
    {
      schema: {
        tags: ['newsletter'],
        summary: 'Subscribe to the newsletter',
        description:
          '201 on the first subscription of an email, 200 when it already exists (a new phone fills an empty one). ' +
          'The subscriber is mirrored to the CRM and the marketing system by queued jobs.',
        body: ref(SubscribeBody),
        response: { 200: ref(Success), 201: ref(Success), 422: ValidationFailed, 429: TooManyRequestsBody },
      },
      // the rules (and their Spanish messages) are the service's, types included; see rules.ts
      validatorCompiler: documentedOnly,
      // for what the JSON parser itself refuses (a NUL character in a field, app.ts)
      config: { validationStatus: 422 },
      onRequest: rateLimit({ name: 'newsletter', max: 5, windowSeconds: 60 }),
    },
    async (request, reply) => {
      const result = await service.subscribe(request.body, storableIp(request.ip));
      return reply.status(result.created ? 201 : 200).send({ success: true, message: result.message });
    },
  );
}
