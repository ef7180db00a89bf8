// Property-based fuzz pass (issue 20, item 7) over every request body of the OpenAPI document
// (/openapi.json of the built app): bodies shaped after each schema, bodies of any JSON, and
// hostile strings (lone surrogates, NUL, prototype keys, deep nesting, long text). The property:
// never a 5xx, and every answer that is not 2xx is the error envelope {success:false, error, message}.
// Runs are bounded (FUZZ_RUNS per endpoint, default 40) so the pass takes a few seconds.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../src/modules/checkout/service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { type CheckoutCatalog, seedCheckoutCatalog } from '../support/checkout-fixture.js';
import { faultTally } from '../support/fault-tally.js';

const tally = faultTally('fuzz');

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const DEPLOYMENT_TOKEN = 'fuzz-deployment-token';

type Schema = Record<string, any>;

const hostileString = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '\ud800',
      'a\udc00b',
      'x\u0000y',
      '💥',
      '',
      ' ',
      '__proto__',
      '%00',
      '<script>',
      "' OR 1=1 --",
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.constant('a'.repeat(5_000)) },
);

const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** values shaped after a JSON schema (what a client that read the document would send), mixed with hostile ones */
function fromSchema(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return anyJson;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.oneof(fc.constantFrom(...schema.enum), hostileString);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return fc.oneof(...branches.map((b: Schema) => fromSchema(b, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((t: string) => fromSchema({ ...schema, type: t }, depth + 1)));
  switch (type[0]) {
    case 'object': {
      const props: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries<Schema>(schema.properties ?? {})) props[k] = fromSchema(v, depth + 1);
      const shaped = fc.record(props, { requiredKeys: [] });
      return fc.oneof({ weight: 4, arbitrary: shaped }, { weight: 1, arbitrary: anyJson });
    }
    case 'array':
      return fc.oneof(
        { weight: 4, arbitrary: fc.array(fromSchema(schema.items, depth + 1), { maxLength: 4 }) },
        { weight: 1, arbitrary: anyJson },
      );
    case 'string':
      return fc.oneof(
        fc.string({ maxLength: schema.maxLength ?? 40 }),
        fc.emailAddress(),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
        hostileString,
      );
    case 'integer':
      return fc.oneof(fc.integer({ min: -5, max: 1_000 }), fc.integer(), fc.constantFrom(0, -1, 2 ** 31, 1e308));
    case 'number':
      return fc.oneof(fc.double(), fc.integer());
    case 'boolean':
      return fc.oneof(fc.boolean(), anyJson);
    case 'null':
      return fc.constant(null);
    default:
      return anyJson;
  }
}

/** raw bodies no schema describes: broken JSON, deep nesting, invalid UTF-8 */
const rawBodies = fc.oneof(
  fc.constantFrom(
    '{"a":',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    `${'['.repeat(100)}${']'.repeat(100)}`,
    '"\\ud800"',
    'null',
    '[]',
    '1e999',
  ),
  fc
    .uint8Array({ maxLength: 40 })
    .map((b) => Buffer.concat([Buffer.from('{"x":"'), Buffer.from(b), Buffer.from('"}')])),
);

/** valid bodies of the endpoints whose rules check the body in code: the fuzz changes one field of them */
const traveler = (first: string) => ({
  first_name: first,
  last_name: 'Garcia Lopez',
  nationality: 'ES',
  passport_number: 'PAA123456',
  passport_expiry: '2031-03-01',
  birth_date: '1985-02-11',
  phone: '+34 600 111 222',
  email: `${first.toLowerCase()}@example.com`,
});
const EXAMPLES: Record<string, unknown> = {
  'PUT /api/{market}/{lang}/checkout/contact': {
    client: { first_name: 'Ana', last_name: 'Garcia', email: 'ana@example.com', phone: '+34 600 111 222' },
  },
  'PUT /api/{market}/{lang}/checkout/travelers': { travelers: [traveler('Ana'), traveler('Luis')] },
  'POST /api/leads': { name: 'Ana Garcia', email: 'ana@example.com', phone: '+34 600 111 222', consent: true },
};

type Leaf = { path: (string | number)[] };

function leavesOf(value: unknown, path: (string | number)[] = []): Leaf[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leavesOf(v, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leavesOf(v, [...path, k]));
  return [{ path }];
}

function withLeaf(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  copy[path[0]!] = withLeaf(copy[path[0]!], path.slice(1), replacement);
  return copy;
}

/** the example with one field replaced by a hostile string or any JSON value */
function mutated(example: unknown): fc.Arbitrary<unknown> {
  const leaves = leavesOf(example);
  return fc
    .tuple(
      fc.constantFrom(...leaves),
      fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 1, arbitrary: anyJson }),
    )
    .map(([leaf, replacement]) => withLeaf(example, leaf.path, replacement));
}

let t: TestApp;
let c: CheckoutCatalog;
let cookie = '';
let adminToken = '';

beforeAll(async () => {
  // a resolver that refuses at once: the newsletter's mail-domain check must not wait on the network
  t = await createTestApp({ env: { DEPLOYMENT_TOKEN, DNS_SERVERS: '127.0.0.1:9', DNS_TIMEOUT_MS: '200' } });
  c = await seedCheckoutCatalog(t.database);
  adminToken = (await createApiToken(t.database.db, 'fuzz', ['*'])).token;
  const start = await t.app.inject({ method: 'POST', url: `/api/es/es/checkout/${c.offers.active}` });
  cookie = (start.cookies as { name: string; value: string }[]).map((k) => `${k.name}=${k.value}`).join('; ');
});
afterAll(() => t.close());

interface Endpoint {
  method: string;
  path: string;
  schema: Schema | undefined;
}

function concrete(path: string, id: number): string {
  return path
    .replace('{market}', 'es')
    .replace('{lang}', 'es')
    .replace('{offerId}', String(c.offers.active))
    .replace('{id}', String(id))
    .replace(/\{[^}]+\}/g, 'x');
}

function headersFor(method: string, path: string): Record<string, string> {
  const h: Record<string, string> = { 'content-type': 'application/json' };
  // a start with the visitor's cookie replaces its session: starts go without, the steps with it
  if (!(method === 'POST' && path === '/api/{market}/{lang}/checkout/{offerId}')) h.cookie = cookie;
  if (path.startsWith('/api/internal/')) h.authorization = `Bearer ${adminToken}`;
  if (path === '/api/deployments') h.authorization = `Bearer ${DEPLOYMENT_TOKEN}`;
  return h;
}

const totals = { endpoints: 0, cases: 0, failures: 0 };
const statuses: Record<number, number> = {};

describe('fuzz: every request body of the OpenAPI document', () => {
  it('never answers 5xx, and every non-2xx answer is the error envelope', async () => {
    const doc = (await t.app.inject('/openapi.json')).json();
    const endpoints: Endpoint[] = [];
    for (const [path, ops] of Object.entries<Record<string, Schema>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!op.requestBody) continue;
        endpoints.push({
          method: method.toUpperCase(),
          path,
          schema: op.requestBody.content?.['application/json']?.schema,
        });
      }
    }
    // every write of spec 1-3 has a body in the document
    expect(endpoints.length).toBeGreaterThanOrEqual(12);
    totals.endpoints = endpoints.length;

    const failures: string[] = [];
    for (const e of endpoints) {
      const example = EXAMPLES[`${e.method} ${e.path}`];
      const shaped = example
        ? fc.oneof({ weight: 3, arbitrary: mutated(example) }, { weight: 1, arbitrary: fromSchema(e.schema) })
        : fromSchema(e.schema);
      const body = fc.oneof(
        { weight: 6, arbitrary: shaped.map((v) => JSON.stringify(v) ?? 'null') },
        { weight: 1, arbitrary: rawBodies },
      );
      await fc
        .assert(
          fc.asyncProperty(body, fc.integer({ min: 1, max: 5 }), async (payload, id) => {
            totals.cases += 1;
            const url = concrete(e.path, id);
            const res = await t.app.inject({
              method: e.method as 'POST',
              url,
              headers: headersFor(e.method, e.path),
              payload,
              remoteAddress: `10.0.${totals.cases % 250}.${(totals.cases >> 8) % 250}`,
            });
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            const ok = res.statusCode < 500 && (res.statusCode < 300 || isEnvelope(res.body));
            if (!ok) {
              totals.failures += 1;
              failures.push(
                `${e.method} ${url} ${res.statusCode} ${res.body.slice(0, 200)} <- ${String(payload).slice(0, 200)}`,
              );
            }
            return ok;
          }),
          { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20_261_124), endOnFailure: true },
        )
        .catch(() => {});
    }
    tally.probes += totals.cases;
    console.log(
      `fuzz: ${totals.endpoints} endpoints, ${totals.cases} cases, ${totals.failures} failures; statuses ${JSON.stringify(statuses)}`,
    );
    expect(failures).toEqual([]);
  }, 120_000);
});

function isEnvelope(text: string): boolean {
  try {
    const b = JSON.parse(text);
    return b.success === false && typeof b.error === 'string' && b.error !== '' && typeof b.message === 'string';
  } catch {
    return false;
  }
}
