// Browser-facing headers: CORS for the storefront's origins (credentialed: the checkout rides on
// cookies or the X-Checkout-Session header) and security headers on every response, with a CSP that allows our own scripts only
// (the console is server-rendered with htmx from this origin; /docs loads swagger-ui from here).
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/**
 * The site of a host (what SameSite compares): an IP address or a single label as it is, else the
 * registrable domain, approximated as the last two labels, or three under a two-letter country code
 * whose second level is a public one (example.co.uk, example.com.au). Not the public suffix list:
 * hosting suffixes such as github.io count as a registrable domain.
 */
export function siteOf(url: string): string {
  const { protocol, hostname } = new URL(url);
  const labels = hostname.split('.');
  if (/^[\d.]+$|:/.test(hostname) || labels.length <= 2) return `${protocol}//${hostname}`;
  const publicSecondLevel =
    /^(co|com|net|org|gov|edu|ac|or|ne|go)$/.test(labels.at(-2) ?? '') && (labels.at(-1) ?? '').length === 2;
  return `${protocol}//${labels.slice(publicSecondLevel ? -3 : -2).join('.')}`;
}

/** the allowed origins on another site than the API's (APP_URL): their fetches are cross-site */
export function crossSiteOrigins(appUrl: string, origins: string[]): string[] {
  const own = siteOf(appUrl);
  return origins.filter((o) => siteOf(o) !== own);
}

/** how long a browser may reuse a preflight answer (seconds; Chromium caps it at 7200) */
export const PREFLIGHT_MAX_AGE_S = 600;

export async function registerHttpSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const allowed = new Set(config.corsOrigins);
  await app.register(cors, {
    // a refused origin gets no Access-Control-* header at all: the browser then blocks the read
    origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // request headers: whatever the preflight asks for is allowed (no allowedHeaders list), among
    // them X-Checkout-Session, the checkout session of a storefront on another site; the start
    // answers it as a response header too, so it is exposed
    exposedHeaders: ['x-request-id', 'retry-after', 'x-checkout-session'],
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        // helmet's defaults ('self' scripts, no inline script attributes, no plugins) minus the
        // upgrade to https, which would break the console on http://localhost; TLS is the proxy's job
        'upgrade-insecure-requests': null,
      },
    },
    // the API's JSON and images are fetched by storefronts on other origins
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
}
