// Console routes of the operations module: the home (the day at a glance), departures with their
// manifest and rooming list, the revenue and funnel reports, and the CSV exports.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { guard, pageOf, sendPage } from '../admin/console.js';
import { homeFigures } from './home.js';
import { homePage } from './home-page.js';

export async function operationsConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const signedIn = { schema: { hide: true }, preHandler: guard(ctx) };

  app.get('/admin', signedIn, async (request, reply) => {
    const p = pageOf(request);
    return sendPage(reply, homePage(p, await homeFigures(ctx, p.actor.grant)));
  });
}
