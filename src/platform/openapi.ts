// The OpenAPI document's shared shapes and defaults. A shape used by more than one route is a
// named component: declared once with component(NAME, schema), used in routes as ref(schema), and
// added to the app (app.addSchema) by registerComponents before the routes, so the document says
// `$ref: '#/components/schemas/NAME'` and a generated client gets one named type for it.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';

const registry = new Map<string, TSchema>();

/** Declares a named component (its $id is its name); returns the schema. */
export function component<T extends TSchema>(name: string, schema: T, description?: string): T {
  const named = { ...schema, $id: name, title: name, ...(description ? { description } : {}) } as T;
  registry.set(name, named);
  return named;
}

/** A reference to a component, typed as the component. */
export function ref<T extends TSchema>(schema: T): ReturnType<typeof Type.Unsafe<Static<T>>> {
  const id = (schema as { $id?: string }).$id;
  if (!id) throw new Error('ref() needs a schema declared with component()');
  return Type.Unsafe<Static<T>>({ $ref: id });
}

export function registerComponents(app: FastifyInstance): void {
  for (const schema of registry.values()) app.addSchema(schema);
}

/**
 * A wildcard route (`/storage/*`) as the document shows it: `/storage/{path}` with a `path`
 * parameter, since OpenAPI has no `{*}` (the route itself still takes any depth).
 */
export function namedWildcard<S extends { params?: unknown }>(route: {
  schema: S;
  url: string;
}): { schema: S; url: string } {
  if (!route.url.endsWith('*')) return route;
  const params = route.schema.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  const { '*': wildcard, ...others } = params?.properties ?? {};
  return {
    url: `${route.url.slice(0, -1)}:path`,
    schema: {
      ...route.schema,
      params: {
        ...params,
        properties: { ...others, path: wildcard ?? { type: 'string' } },
        required: [...(params?.required ?? []).filter((r) => r !== '*'), 'path'],
      },
    },
  };
}

/** `$ref`s in the document name their component (the default would be def-0, def-1, ...) */
export const refResolver = {
  buildLocalReference(json: { $id?: string }, _baseUri: unknown, _fragment: unknown, i: number): string {
    return json.$id ?? `def-${i}`;
  },
};

/** `security` of an operation behind the console sign-in (its session cookie, a view_dashboard permission) */
export const CONSOLE_SESSION: { [scheme: string]: string[] }[] = [{ consoleSession: [] }];

/** `security` of an operation that needs the checkout session: its cookie or its X-Checkout-Session header */
export const SESSION_REQUIRED: { [scheme: string]: string[] }[] = [
  { checkoutSession: [] },
  { checkoutSessionHeader: [] },
];

// ---- shapes shared by every module ----

export const ErrorBody = component(
  'ErrorBody',
  Type.Object({
    success: Type.Literal(false),
    error: Type.String({ description: 'machine-readable code, e.g. offer_not_found' }),
    message: Type.String({ description: 'a sentence for people' }),
    errors: Type.Optional(
      Type.Record(Type.String(), Type.Array(Type.String()), { description: 'messages per field (validation)' }),
    ),
  }),
  'The error envelope of every failed request.',
);

export const ValidationErrorBody = component(
  'ValidationErrorBody',
  Type.Object({
    success: Type.Literal(false),
    error: Type.Literal('validation_failed'),
    message: Type.String({ description: 'the first problem' }),
    errors: Type.Record(Type.String(), Type.Array(Type.String()), { description: 'messages per field' }),
  }),
  'A request whose body or parameters failed validation.',
);

export const Currency = component(
  'Currency',
  Type.Object({ code: Type.String({ description: 'ISO 4217, e.g. EUR' }), symbol: Type.String() }),
  "The market's currency.",
);

export const Money = component(
  'Money',
  Type.Number({ description: 'an amount in the currency given next to it, in major units (e.g. 1234.5)' }),
  'An amount of money in major units.',
);

// ---- defaults that keep every operation and response described ----

const STATUS_TEXT: Record<string, string> = {
  '200': 'Success.',
  '201': 'Created.',
  '202': 'Accepted: the work runs in the background.',
  '204': 'No content.',
  '304': 'Not modified (ETag matched).',
  '400': 'The request is malformed or a parameter is invalid.',
  '401': 'Missing or wrong credentials.',
  '402': 'The payment was declined.',
  '403': 'Not allowed (for example a market that is not public, or a missing ability).',
  '404': 'Not found.',
  '409': 'Conflicts with the current state.',
  '410': 'Gone: no longer available.',
  '413': 'The body is too large.',
  '422': 'Validation failed.',
  '429': 'Too many requests: wait for Retry-After seconds.',
  '500': 'Server error.',
  '502': 'An outside service answered with an error.',
  '503': 'Unavailable (a check failed, or an outside service is not configured or not reachable).',
};

/** onRoute hook: a response without a description gets its status's; an operation its summary. */
export function describeRoute(route: RouteOptions): void {
  const schema = route.schema as
    | {
        hide?: boolean;
        summary?: string;
        description?: string;
        security?: unknown[];
        response?: Record<string, unknown>;
      }
    | undefined;
  if (!schema || schema.hide) return;
  if (!schema.description && schema.summary) schema.description = `${schema.summary}.`;
  // an operation that names no scheme is public: said explicitly, as OpenAPI linters expect
  schema.security ??= [];
  // a page without a response schema (HTML): an empty schema accepts anything, and a string
  // payload is sent as it is, so this only names the answer in the document
  schema.response ??= { 200: {} };
  for (const [status, response] of Object.entries(schema.response ?? {})) {
    if (response && typeof response === 'object' && !(response as { description?: string }).description) {
      const text = STATUS_TEXT[status] ?? 'Response.';
      (schema.response as Record<string, unknown>)[status] = { ...response, description: text };
    }
  }
}
