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

/** A route's `validatorCompiler`: the body as sent, never coerced. Only body schemas are expected. */
export const strictBody: FastifySchemaCompiler<FastifySchema> = ({ schema }) => {
  const check = Compile(schema as TSchema);
  return (data: unknown) => (check.Check(data) ? { value: data } : { error: ajvShaped(check.Errors(data)) as never });
};

/** For routes whose rules module validates the whole body itself: the schema only documents it. */
export const documentedOnly: FastifySchemaCompiler<FastifySchema> = () => (data: unknown) => ({ value: data });
