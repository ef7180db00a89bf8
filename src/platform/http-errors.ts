// The one error handler: AppError -> its status and code; schema validation -> 400 (or the
// route's config.validationStatus) with per-field messages; anything else -> 500 without details.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dependencyUnavailable } from './dependency-errors.js';
import { AppError, type FieldErrors } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** status for schema validation failures on this route (default 400) */
    validationStatus?: number;
  }
}

interface AjvError {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

function fieldOf(e: AjvError): string {
  const path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (e.keyword === 'required') {
    const missing = String(e.params.missingProperty);
    return path ? `${path}.${missing}` : missing;
  }
  if (e.keyword === 'additionalProperties') {
    const extra = String(e.params.additionalProperty);
    return path ? `${path}.${extra}` : extra;
  }
  return path || 'body';
}

function messageOf(e: AjvError, field: string): string {
  // the last path segment names the field; a list item is named with its list (hotel_selections.0)
  const parts = field.split('.');
  const name = parts.length > 1 && /^\d+$/.test(parts[parts.length - 1]) ? parts.slice(-2).join('.') : parts.at(-1)!;
  switch (e.keyword) {
    case 'required':
      return `The ${name} field is required.`;
    case 'maxLength':
      return `The ${name} field must not be greater than ${e.params.limit} characters.`;
    case 'minLength':
      return Number(e.params.limit) <= 1
        ? `The ${name} field is required.`
        : `The ${name} field must be at least ${e.params.limit} characters.`;
    case 'type': {
      // a nullable field's types read "string,null" (Ajv) or ["string","null"] (TypeBox)
      const given = e.params.type;
      const types = Array.isArray(given) ? given.map(String) : String(given).split(',');
      return `The ${name} field must be of type ${types.join(' or ')}.`;
    }
    case 'enum':
      return `The selected ${name} is invalid.`;
    case 'format':
      return `The ${name} field must be a valid ${e.params.format}.`;
    case 'maxItems':
      return `The ${name} field must not have more than ${e.params.limit} items.`;
    case 'minimum':
      return `The ${name} field must be at least ${e.params.limit}.`;
    case 'maximum':
      return `The ${name} field must not be greater than ${e.params.limit}.`;
    default:
      return `The ${name} field is invalid${e.message ? `: ${e.message}` : ''}.`;
  }
}

/**
 * A nullable or union value (anyOf) reports every branch's failure. When a branch got past its type
 * check (its errors name the fields inside), only those errors say what is wrong; when none did,
 * the branch types become one message ("must be of type object or null").
 */
function withoutUnionNoise(list: AjvError[]): AjvError[] {
  let out = list;
  for (const union of list.filter((e) => e.keyword === 'anyOf')) {
    const at = union.instancePath;
    const isBranchType = (e: AjvError) => e.instancePath === at && e.keyword === 'type';
    const inside = (e: AjvError) => e.instancePath === at || e.instancePath.startsWith(`${at}/`);
    const types = out.filter(isBranchType).map((e) => String(e.params.type));
    const specific = out.some((e) => e !== union && inside(e) && !isBranchType(e));
    out = out.filter((e) => e !== union && !isBranchType(e));
    if (!specific) out.push({ instancePath: at, keyword: 'type', params: { type: types.join(' or ') } });
  }
  return out;
}

export function validationErrors(list: AjvError[]): FieldErrors {
  const out: FieldErrors = {};
  for (const e of withoutUnionNoise(list)) {
    const field = fieldOf(e);
    out[field] = [...(out[field] ?? []), messageOf(e, field)];
  }
  return out;
}

/** The code of a refusal made by the framework or Node's HTTP layer, by status (or Fastify's code). */
export function frameworkCode(status: number, fastifyCode?: string): string {
  if (fastifyCode === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return 'invalid_content_length';
  switch (status) {
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 408:
      return 'request_timeout';
    case 413:
      return 'payload_too_large';
    case 414:
      return 'uri_too_long';
    case 415:
      return 'unsupported_media_type';
    case 431:
      return 'header_fields_too_large';
    default:
      return 'bad_request';
  }
}

/**
 * Router errors raised before any route matches (a malformed %-escape in the path, an over-long
 * path parameter) bypass the error handler; this gives them the common envelope too.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  const message = status === 400 ? 'The request path is not valid (a malformed %-escape?).' : err.message;
  reply.status(status).send({ success: false, error: frameworkCode(status, err.code), message });
}

/** the raw HTTP answer for a refusal written straight to the socket (no request object exists yet) */
function rawEnvelope(status: number, code: string, message: string): string {
  const body = JSON.stringify({ success: false, error: code, message });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before a request exists (headers
 * and URL too large, a request time-out, bytes that are not HTTP) answered with the common envelope.
 */
export function clientErrors(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let answer: string;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    answer = rawEnvelope(408, 'request_timeout', 'The request was not received in time.');
  } else if (err.code === 'HPE_HEADER_OVERFLOW') {
    answer = rawEnvelope(431, 'header_fields_too_large', 'The request headers are too large.');
  } else {
    answer = rawEnvelope(400, 'bad_request', 'The request is not valid HTTP.');
  }
  this.log.debug({ code: err.code }, 'client error');
  if (socket.writable) socket.write(answer);
  socket.destroy(err);
}

/**
 * While the server drains (after close() began), a request that still arrives on an open
 * connection gets 503 `shutting_down` with Retry-After, in the envelope (Fastify's own 503 is
 * a bare body; the app sets return503OnClosing: false and uses this hook, registered first).
 */
export function refuseWhileClosing(app: FastifyInstance, retryAfterSeconds = 5): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('connection', 'close');
    done(
      new AppError(503, 'shutting_down', 'The server is shutting down; please try again.', undefined, {
        'retry-after': String(retryAfterSeconds),
      }),
    );
  });
}

/**
 * A NUL (%00) decoded from a path or query reaches parameters and, through them, PostgreSQL, which
 * refuses it (a 500). No route takes one, so the request is refused before routing.
 */
function refuseNulInUrl(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.includes('%00')) return done();
    done(new AppError(400, 'invalid_url', 'The URL must not contain a NUL character (%00).'));
  });
}

export function registerErrorHandling(app: FastifyInstance): void {
  refuseNulInUrl(app);
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    const unavailable = err instanceof AppError ? null : dependencyUnavailable(err);
    if (unavailable) {
      request.log.warn({ err }, 'dependency unavailable; answered 503');
      err = unavailable;
    }
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      const body: Record<string, unknown> = { success: false, error: err.code, message: err.message };
      if (err.errors) body.errors = err.errors;
      if (err.extra) Object.assign(body, err.extra);
      return reply.status(err.status).send(body);
    }
    const fe = err as FastifyError;
    if (fe.validation) {
      const status = request.routeOptions.config?.validationStatus ?? 400;
      const errors = validationErrors(fe.validation as AjvError[]);
      const message = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
      return reply.status(status).send({ success: false, error: 'validation_failed', message, errors });
    }
    const status = fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500 ? fe.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err }, 'unhandled error');
      return reply.status(500).send({ success: false, error: 'server_error', message: 'Internal server error.' });
    }
    // framework 4xx: body too large, unsupported media type, bad content length
    return reply.status(status).send({ success: false, error: frameworkCode(status, fe.code), message: fe.message });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      success: false,
      error: 'not_found',
      message: `Route ${request.method} ${request.url.split('?')[0]} not found.`,
    });
  });
}
