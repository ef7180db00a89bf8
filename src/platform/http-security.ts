// Browser-facing headers: CORS for the storefront's origins (credentialed: the checkout rides on
// cookies) and security headers on every response, with a CSP that allows our own scripts only
// (the console is server-rendered with htmx from this origin; /docs loads swagger-ui from here).
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/** how long a browser may reuse a preflight answer (seconds; Chromium caps it at 7200) */
export const PREFLIGHT_MAX_AGE_S = 600;

export async function registerHttpSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const allowed = new Set(config.corsOrigins);
  await app.register(cors, {
    // a refused origin gets no Access-Control-* header at all: the browser then blocks the read
    origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: ['x-request-id', 'retry-after'],
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
