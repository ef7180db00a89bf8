// The JSON body parser of every route. It reads bytes, not text, so that a body that is not UTF-8
// is refused (decoding it would replace the bad bytes with U+FFFD and store a changed value), then
// walks the parsed value once: prototype keys, nesting deeper than MAX_BODY_DEPTH, and strings the
// database cannot hold or that are not Unicode (a NUL, a lone UTF-16 surrogate) each get their own
// error and code, so a client learns what to fix instead of "Body is not valid JSON".
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, validationError } from './errors.js';
import { validationErrors } from './http-errors.js';

/** levels of objects and arrays a body may nest (our deepest schema uses 4) */
export const MAX_BODY_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

interface FieldProblem {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

function stringProblem(value: string, path: string): FieldProblem | undefined {
  if (value.includes('\u0000')) {
    return { instancePath: path, keyword: 'nul', params: {}, message: 'it contains a NUL character' };
  }
  if (LONE_SURROGATE.test(value)) {
    return { instancePath: path, keyword: 'unicode', params: {}, message: 'it is not valid Unicode text' };
  }
  return undefined;
}

/** a JSON pointer segment for a key (keys may hold "/" or "~") */
function segment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/**
 * Walks a parsed body. Throws the first structural problem (a prototype key, too deep), returns
 * every string problem with the field it is in.
 */
export function bodyProblems(value: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const walk = (v: unknown, path: string, depth: number): void => {
    if (typeof v === 'string') {
      const p = stringProblem(v, path);
      if (p) problems.push(p);
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (depth >= MAX_BODY_DEPTH) {
      throw new AppError(
        400,
        'body_too_deep',
        `The body nests objects or lists more than ${MAX_BODY_DEPTH} levels deep (at ${path || 'the top'}).`,
      );
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], `${path}/${i}`, depth + 1);
      return;
    }
    for (const key of Object.keys(v)) {
      const at = `${path}/${segment(key)}`;
      const child = (v as Record<string, unknown>)[key];
      if (
        key === '__proto__' ||
        (key === 'constructor' && child && typeof child === 'object' && 'prototype' in child)
      ) {
        const name = key === '__proto__' ? '__proto__' : 'constructor.prototype';
        throw new AppError(
          400,
          'forbidden_key',
          `The body may not contain the key "${name}" (at ${at.slice(1).replaceAll('/', '.')}).`,
        );
      }
      const p = stringProblem(key, at);
      if (p) problems.push({ ...p, message: 'its name is not valid text' });
      walk(child, at, depth + 1);
    }
  };
  walk(value, '', 0);
  return problems;
}

function replacedFields(value: unknown, path = ''): FieldProblem[] {
  if (typeof value === 'string') {
    return value.includes('\uFFFD')
      ? [{ instancePath: path, keyword: 'utf8', params: {}, message: 'it is not valid UTF-8 text' }]
      : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => replacedFields(v, `${path}/${i}`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => replacedFields(v, `${path}/${segment(k)}`));
  }
  return [];
}

/** JSON.parse with the problems above turned into AppErrors; status of field errors per route */
export function parseJsonBody(raw: Buffer, validationStatus = 400): unknown {
  if (raw.length === 0) return undefined; // an empty application/json body counts as no body
  const utf8 = isUtf8(raw);
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    if (!utf8) throw new AppError(400, 'invalid_utf8', 'The body is not valid UTF-8 text.');
    // V8's message quotes part of the body; the client has the body, the log must not get it
    throw new AppError(400, 'invalid_json', 'The body is not valid JSON.');
  }
  if (!utf8) {
    // decoding replaced the bad bytes with U+FFFD: the fields holding one are the ones to fix
    const fields = replacedFields(value);
    if (fields.length === 0) throw new AppError(400, 'invalid_utf8', 'The body is not valid UTF-8 text.');
    throw validationError(validationErrors(fields), validationStatus);
  }
  const problems = bodyProblems(value);
  if (problems.length > 0) throw validationError(validationErrors(problems), validationStatus);
  return value;
}

/** Replaces Fastify's JSON parser with parseJsonBody for application/json (and +json types). */
export function registerJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    (request: FastifyRequest, body: Buffer, done: (err: Error | null, value?: unknown) => void) => {
      // an unknown route answers 404 whatever its body: the body is not read
      if (request.is404) return done(null, undefined);
      try {
        done(null, parseJsonBody(body, request.routeOptions.config?.validationStatus ?? 400));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
}
