// The one error handler: AppError -> its status and code; schema validation -> 400 (or the
// route's config.validationStatus) with per-field messages; anything else -> 500 without details.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/**
 * Router errors raised before any route matches (a malformed %-escape in the path, an over-long
 * path parameter) bypass the error handler; this gives them the common envelope too.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  reply.status(status).send({ success: false, error: 'bad_request', message: err.message });
}

/**
 * PostgreSQL stores no U+0000 in text or jsonb, so a body string holding one would fail in the
 * database (a 500). The JSON parser refuses such a body for every route, naming each field.
 */
export function nulErrors(data: unknown, path = ''): AjvError[] {
  if (typeof data === 'string') {
    return data.includes('\u0000')
      ? [{ instancePath: path, keyword: 'nul', params: {}, message: 'it contains a NUL character' }]
      : [];
  }
  if (Array.isArray(data)) return data.flatMap((v, i) => nulErrors(v, `${path}/${i}`));
  if (data && typeof data === 'object') {
    return Object.entries(data).flatMap(([k, v]) => nulErrors(v, `${path}/${k}`));
  }
  return [];
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
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
    // framework 4xx: malformed JSON, body too large, unsupported media type
    const code = fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'unsupported_media_type' : 'bad_request';
    return reply.status(status).send({ success: false, error: code, message: fe.message });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      success: false,
      error: 'not_found',
      message: `Route ${request.method} ${request.url.split('?')[0]} not found.`,
    });
  });
}
