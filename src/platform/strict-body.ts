// Request bodies are validated as sent, never coerced. Fastify's Ajv coerces scalars
// (coerceTypes 'array'), which path parameters and query strings need, as they arrive as text; in a
// JSON body it let `"name": 123` through as the string "123", `"actual_pax_count": true` as 1 and
// `["3"]` as 3. Bodies are checked with TypeBox's compiler instead, and its errors are reported in
// Ajv's shape so the error handler (platform/http-errors.ts) words them like every other schema
// failure. Parameters, query strings and headers keep Fastify's own Ajv.
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifySchema, FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
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

/** A body schema's validator: the body as sent, never coerced; `$ref`s name shared schemas by $id. */
export function strictBodyWith(shared: Record<string, TSchema> = {}): FastifySchemaCompiler<FastifySchema> {
  return ({ schema }) => {
    const check = Compile(shared, schema as TSchema);
    return (data: unknown) => (check.Check(data) ? { value: data } : { error: ajvShaped(check.Errors(data)) as never });
  };
}

export const strictBody: FastifySchemaCompiler<FastifySchema> = strictBodyWith();

type ValidatorFactory = (externalSchemas: unknown, options: unknown) => FastifySchemaCompiler<FastifySchema>;
type BuildValidator = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;

/**
 * Fastify's `schemaController.compilersFactory.buildValidator`: bodies through `strictBody`, every
 * other part of the request through Fastify's default Ajv compiler with the app's Ajv options.
 * (Fastify accepts both result styles: Ajv's boolean with `.errors`, and `{ value } | { error }`.)
 */
export function bodiesAsSent(): BuildValidator {
  const ajv = AjvCompiler() as unknown as ValidatorFactory;
  const factory: ValidatorFactory = (externalSchemas, options) => {
    const coercing = ajv(externalSchemas, options);
    const body = strictBodyWith((externalSchemas ?? {}) as Record<string, TSchema>);
    return (route) => (route.httpPart === 'body' ? body(route) : coercing(route));
  };
  return factory as unknown as BuildValidator;
}

/** For routes whose rules module validates the whole body itself: the schema only documents it. */
export const documentedOnly: FastifySchemaCompiler<FastifySchema> = () => (data: unknown) => ({ value: data });
