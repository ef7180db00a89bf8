// The console's scope: form bodies, HTML error pages and the assets, then every module's pages
// (app.ts lists them). A module adds its pages as one ConsolePages function.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError } from '../platform/errors.js';
import { assetRoutes, formBodies, guard, htmlErrors } from './http.js';

/** A module's console pages: registered in the console's scope (form bodies, HTML error pages). */
export type ConsolePages = (scope: FastifyInstance, ctx: AppContext) => Promise<void>;

export async function consoleRoutes(app: FastifyInstance, ctx: AppContext, pages: ConsolePages[]): Promise<void> {
  await app.register(async (scope) => {
    formBodies(scope);
    htmlErrors(ctx, scope);
    assetRoutes(scope);
    for (const register of pages) await register(scope, ctx);
    // every other console address answers the 404 page in the console's layout (HTML, never JSON)
    scope.route({
      method: ['GET', 'POST'],
      url: '/admin/*',
      schema: { hide: true },
      preHandler: guard(ctx),
      handler: async () => {
        throw new AppError(404, 'not_found', 'There is no console page at this address. Use the navigation.');
      },
    });
  });
}
