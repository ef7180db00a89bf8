// The OpenAPI document as committed in packages/client (the typed client is generated from it):
// served by an app built with fixed settings, so the copy only changes when the API does.
import type { FastifyInstance } from 'fastify';

export const CLIENT_DOCUMENT = 'packages/client/openapi.json';

/** settings the committed document is built with (its `servers` entry) */
export const CLIENT_DOCUMENT_ENV = { APP_URL: 'http://localhost:3000' };

export async function servedDocument(app: FastifyInstance): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  return `${JSON.stringify(res.json(), null, 2)}\n`;
}
