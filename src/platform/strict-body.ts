// Body validation without type coercion, for the routes of spec 3 whose contract types every
// field (newsletter, leads, deployments). Fastify's Ajv coerces scalars (coerceTypes 'array', which
// query strings need), so a JSON `"name": 123` passed as the string "123" and `"version": 2.4` as
// "2.4": stored, though the contract says string. These routes validate their body with TypeBox's
// compiler instead, which checks types as sent, and report its errors in Ajv's shape so the error
// handler (platform/http-errors.ts) words them like every other schema failure.
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** TypeBox names every missing property in one `required` error; Ajv names one per error. */
function ajvShaped(errors: readonly SchemaError[]): SchemaError[] {
  return errors.flatMap((e) => {
    const missing = e.params.requiredProperties;
    if (e.keyword !== 'required' || !Array.isArray(missing)) return [e];
    return missing.map((p) => ({ ...e, params: { missingProperty: p } }));
  });
}

/**
 * PostgreSQL stores no U+0000 in text or jsonb: such a value made the insert fail with a 500. Every
 * string of the body is looked at, so the caller gets a 422 naming the field instead.
 */
export function nulErrors(data: unknown, path = ''): SchemaError[] {
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

/** A route's `validatorCompiler`: the body as sent, never coerced. Only body schemas are expected. */
export const strictBody: FastifySchemaCompiler<FastifySchema> = ({ schema }) => {
  const check = Compile(schema as TSchema);
  return (data: unknown) => {
    const errors = [...(check.Check(data) ? [] : ajvShaped(check.Errors(data))), ...nulErrors(data)];
    return errors.length ? { error: errors as never } : { value: data };
  };
};

/** For routes whose rules module validates the whole body itself: the schema only documents it. */
export const documentedOnly: FastifySchemaCompiler<FastifySchema> = () => (data: unknown) => ({ value: data });
