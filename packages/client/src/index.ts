// The typed itinera client: openapi-fetch over the types openapi-typescript generated from the
// API's OpenAPI document (openapi.json here; `npm run client:generate` at the root rebuilds both),
// built to dist/ (JavaScript and declarations) by `npm run build` in this package.
//
//   const api = createItineraClient({ baseUrl: 'https://api.example.com' });
//   const { data, error } = await api.POST('/api/{market}/{lang}/checkout/{offerId}', {
//     params: { path: { market: 'es', lang: 'es', offerId: '42' } },
//   });
//
// In a browser on the API's site the checkout cookies ride along (credentials: 'include'); on
// another site, or on a server, add carryCheckoutSession() (X-Checkout-Session header).
import createClient, { type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths };
export type Schemas = components['schemas'];
export type CheckoutSession = Schemas['CheckoutSession'];
export type CheckoutStart = Schemas['CheckoutStart'];
export type OfferSummary = Schemas['OfferSummary'];
export type FlightCard = Schemas['FlightCard'];
export type ErrorBody = Schemas['ErrorBody'];
export type { Middleware };
export { CHECKOUT_SESSION_HEADER, type CheckoutSessionCarrier, carryCheckoutSession } from './session.js';

export function createItineraClient(options: ClientOptions = {}) {
  return createClient<paths>({ credentials: 'include', ...options });
}

export type ItineraClient = ReturnType<typeof createItineraClient>;
