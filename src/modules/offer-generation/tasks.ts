// The offers.generate task for src/tasks.ts: every 15 minutes; `npm run task -- offers.generate`
// runs it now (--as-of=YYYY-MM-DD sets its "today").
import type { Task } from '../../platform/tasks.js';
import { generateOffers } from './service.js';

export const OFFERS_GENERATE_CRON = '*/15 * * * *';

export function tasks(): Task[] {
  return [
    {
      name: 'offers.generate',
      describe: 'create the missing departures of the departure rules for the next OFFER_HORIZON_DAYS',
      cron: OFFERS_GENERATE_CRON,
      timeoutSeconds: 600,
      async run(ctx, run) {
        const s = await generateOffers(ctx, run.asOf, run.signal);
        for (const why of s.skipped) run.out(`skipped ${why}`);
        const message = `${s.created} departure(s) created (${s.drafts} Draft without a fare), ${s.priced} Draft(s) priced`;
        return {
          ok: s.skipped.length === 0,
          message: s.skipped.length ? `${message}; ${s.skipped.length} rule(s) skipped` : message,
        };
      },
    },
  ];
}
