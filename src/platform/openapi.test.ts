// The served OpenAPI document is good input for a client generator: named components for shared
// shapes, every operation and response described, the checkout cookie declared where required,
// typed request bodies; and the copy committed in packages/client is the served one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { CLIENT_DOCUMENT, CLIENT_DOCUMENT_ENV, servedDocument } from './openapi-document.js';
import { projectRoot } from './paths.js';

type Operation = {
  description?: string;
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};

let t: TestApp;
let doc: {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};
beforeAll(async () => {
  t = await createTestApp({ env: CLIENT_DOCUMENT_ENV });
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(() => t.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([m, op]) => ({ id: `${m} ${path}`, op })),
  );

describe('the OpenAPI document', () => {
  it('names the shared shapes as components', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'ErrorBody',
        'ValidationErrorBody',
        'Currency',
        'Money',
        'OfferSummary',
        'CheckoutSession',
        'FlightCard',
        'ContactInput',
        'TravelerInput',
        // the storefront's bodies (issue 30): one named type per shape
        'Product',
        'ProductSummary',
        'ProductListing',
        'Configurator',
        'LeadingPrice',
        'MarketConfig',
        'Region',
        'Country',
        'AboutUs',
        'Home',
        'CheckoutStart',
        'HotelOptions',
        'PaymentIntent',
        'NewsletterSubscription',
        'LeadInput',
      ]),
    );
    const text = JSON.stringify(doc);
    expect(text).toContain('"$ref":"#/components/schemas/ErrorBody"');
    expect(text).not.toMatch(/def-\d+/);
  });

  it('describes every operation and every response', () => {
    const undescribed = operations()
      .filter(({ op }) => !op.description)
      .map(({ id }) => id);
    expect(undescribed).toEqual([]);
    const defaults = operations().flatMap(({ id, op }) =>
      Object.entries(op.responses)
        .filter(([, r]) => !r.description || r.description === 'Default Response')
        .map(([status]) => `${id} ${status}`),
    );
    expect(defaults).toEqual([]);
  });

  it('declares the checkout cookie and header and requires one where the session is needed', () => {
    expect(doc.components.securitySchemes.checkoutSession).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'itinera_checkout',
    });
    expect(doc.components.securitySchemes.checkoutSessionHeader).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Checkout-Session',
    });
    const checkout = '/api/{market}/{lang}/checkout';
    for (const [method, path] of [
      ['get', checkout],
      ['put', `${checkout}/contact`],
      ['put', `${checkout}/travelers`],
      ['put', `${checkout}/flights`],
      ['post', `${checkout}/payment/intent`],
      ['post', `${checkout}/payment/confirm`],
    ]) {
      expect({ op: `${method} ${path}`, security: doc.paths[path][method].security }).toEqual({
        op: `${method} ${path}`,
        security: [{ checkoutSession: [] }, { checkoutSessionHeader: [] }],
      });
    }
    expect(doc.paths[`${checkout}/{offerId}`].post.security).toEqual([]); // it starts one
  });

  it('types the contact and traveler bodies and the flight selection answer', () => {
    const checkout = '/api/{market}/{lang}/checkout';
    const body = (path: string) => JSON.stringify(doc.paths[path].put.requestBody?.content['application/json'].schema);
    expect(body(`${checkout}/contact`)).toBe('{"$ref":"#/components/schemas/ContactStepInput"}');
    expect(JSON.stringify(doc.components.schemas.ContactStepInput)).toContain('#/components/schemas/ContactInput');
    expect(body(`${checkout}/travelers`)).toBe('{"$ref":"#/components/schemas/TravelersStepInput"}');
    expect(JSON.stringify(doc.components.schemas.TravelersStepInput)).toContain('#/components/schemas/TravelerInput');
    expect(JSON.stringify(doc.paths[`${checkout}/flights`].put.responses['200'])).toContain(
      '#/components/schemas/CheckoutSession',
    );
  });

  it('says on every operation which scheme it needs, [] for the public ones', () => {
    expect(
      operations()
        .filter(({ op }) => !Array.isArray(op.security))
        .map(({ id }) => id),
    ).toEqual([]);
    expect(doc.paths['/api/{market}/{lang}/products'].get.security).toEqual([]);
    expect(doc.paths['/api/deployments'].post.security).toEqual([{ deploymentToken: [] }]);
    expect(doc.paths['/api/internal/bookings/{id}'].get.security).toEqual([{ bearerAuth: [] }]);
  });

  it('leaves out the console pages and names the storage path parameter', () => {
    const paths = Object.keys(doc.paths);
    // the dashboards' data stays documented, behind the console sign-in
    expect(paths.filter((p) => /^\/(health-dashboard|pulse|telescope|admin)/.test(p))).toEqual([
      '/health-dashboard.json',
      '/pulse/deployments.json',
    ]);
    expect(doc.paths['/pulse/deployments.json'].get.security).toEqual([{ consoleSession: [] }]);
    expect(paths.filter((p) => p.startsWith('/storage'))).toEqual(['/storage/{path}']);
    expect(JSON.stringify(doc.paths['/storage/{path}'].get)).toContain('"name":"path"');
  });

  it('names every body of the storefront operations (catalog, content, checkout, payments, newsletter, leads)', () => {
    const storefront = /^\/api\/(\{market\}\/(config|\{lang\}\/(products|cms|checkout|balance))|newsletter|leads)/;
    const isRef = (schema: unknown): boolean => {
      const s = schema as { $ref?: string; type?: string; items?: unknown; properties?: { data?: unknown } };
      if (!s) return true;
      if (s.$ref) return true;
      if (s.type === 'array') return isRef(s.items);
      // the envelope {success, data}: data is the named body
      if (s.properties?.data) return isRef(s.properties.data);
      return false;
    };
    const unnamed = Object.entries(doc.paths)
      .filter(([path]) => storefront.test(path))
      .flatMap(([path, ops]) =>
        Object.entries(ops).flatMap(([m, op]) => [
          ...(op.requestBody && !isRef(op.requestBody.content['application/json']?.schema)
            ? [`${m} ${path} request`]
            : []),
          ...Object.entries(op.responses)
            .filter(([status, r]) => /^2/.test(status) && r.content?.['application/json'])
            .filter(([, r]) => !isRef(r.content?.['application/json'].schema))
            .map(([status]) => `${m} ${path} ${status}`),
        ]),
      );
    expect(unnamed).toEqual([]);
  });

  it('gives a schema to every request body', () => {
    const untyped = operations()
      .filter(({ op }) => op.requestBody)
      .filter(({ op }) => {
        const schema = op.requestBody?.content['application/json']?.schema;
        return !schema || (schema.type === 'object' && !schema.properties && !schema.$ref);
      })
      .map(({ id }) => id);
    expect(untyped).toEqual([]);
  });

  it('is the document committed in packages/client (run npm run client:generate after an API change)', async () => {
    const committed = readFileSync(join(projectRoot, CLIENT_DOCUMENT), 'utf8');
    expect(committed).toBe(await servedDocument(t.app));
  });
});
