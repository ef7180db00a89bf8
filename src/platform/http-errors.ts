// The one error handler: AppError -> its status and code; schema validation -> 400 (or the
// route's config.validationStatus) with per-field messages; anything else -> 500 without details.
import type { FastifyError, FastifyInstance } from 'fastify';
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
    case 'type':
      return `The ${name} field must be of type ${e.params.type}.`;
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
 * The path (client.first_name, travelers.0.email) of the first string holding a NUL character,
 * or null. PostgreSQL stores no NUL in text or jsonb, so such a value must be refused as input
 * (400) rather than fail in the database (500).
 */
export function nulPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || 'body' : null;
  if (!value || typeof value !== 'object') return null;
  for (const [key, v] of Object.entries(value)) {
    const found = nulPath(v, path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      const body: Record<string, unknown> = { success: false, error: err.code, message: err.message };
      if (err.errors) body.errors = err.errors;
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
