// The checkout session for callers without a browser cookie jar (a server rendering the
// storefront, a script, a storefront on another site): the start answers a session token (the
// X-Checkout-Session response header, also data.session_token), and every later checkout call
// sends it back in the X-Checkout-Session request header.
import type { Middleware } from 'openapi-fetch';

export const CHECKOUT_SESSION_HEADER = 'X-Checkout-Session';

/** Middleware that keeps the checkout session token, plus the token itself for storing elsewhere. */
export type CheckoutSessionCarrier = Middleware & {
  /** the current session token (undefined before a start); store it where you keep the cart */
  readonly token: string | undefined;
  /** forget the session (e.g. after the confirmation), or resume a stored one */
  reset(token?: string): void;
};

/**
 * `client.use(carryCheckoutSession())`: from the next checkout start on, every request carries the
 * session in the X-Checkout-Session header. Pass a token stored earlier to resume a session (one
 * carrier per visitor: on a server, create a client and a carrier per request or per visitor).
 */
export function carryCheckoutSession(initial?: string): CheckoutSessionCarrier {
  let token = initial;
  const middleware: Middleware = {
    onRequest({ request }) {
      if (token) request.headers.set(CHECKOUT_SESSION_HEADER, token);
      return request;
    },
    onResponse({ response }) {
      const given = response.headers.get(CHECKOUT_SESSION_HEADER);
      if (given) token = given;
      return response;
    },
  };
  return {
    ...middleware,
    get token() {
      return token;
    },
    reset(next?: string) {
      token = next;
    },
  };
}
