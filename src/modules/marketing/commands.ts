// Operator commands of the marketing module.
//   marketing:sync-subscribers [--limit=500] [--dry-run]
//     queues the marketing sync for subscribers without a marketing contact id, lowest id first,
//     one second apart. Guard order: dry run (report, exit 0); nothing pending (exit 0);
//     marketing unconfigured (error, exit 1, nothing queued).
import type { Command } from '../../platform/cli.js';
import { systemClock } from '../../platform/clock.js';
import { PgBossQueue } from '../../platform/queue-pgboss.js';
import { SubscriberRepository } from '../newsletter/api.js';
import { marketingConfigured, marketingSyncJob } from './jobs.js';

/** Rows read per query: memory stays flat however many subscribers wait. */
const BATCH = 500;

export const commands: Record<string, Command> = {
  'marketing:sync-subscribers': {
    describe: 'queue the marketing sync for subscribers without a marketing contact (one second apart)',
    usage: 'marketing:sync-subscribers [--limit=500] [--dry-run]',
    options: {
      limit: { type: 'string', describe: 'queue at most this many (default 500)' },
      'dry-run': { type: 'boolean', describe: 'only count the subscribers that would be queued' },
    },
    async run(args, cli) {
      const rawLimit = args.options.limit;
      const limit = rawLimit === undefined ? 500 : Number(rawLimit);
      if (!Number.isInteger(limit) || limit < 1 || rawLimit === true) {
        cli.err('--limit must be a whole number of at least 1');
        return 2;
      }
      const subscribers = new SubscriberRepository(cli.database.db);
      const pending = Math.min(limit, await subscribers.countWithoutMarketingContact());

      if (args.options['dry-run']) {
        cli.out(`Dry run: ${pending} subscriber(s) without a marketing contact would be queued (limit ${limit}).`);
        return 0;
      }
      if (pending === 0) {
        cli.out('No subscribers without a marketing contact: nothing to queue.');
        return 0;
      }
      if (!marketingConfigured(cli.config)) {
        cli.err('Marketing is not configured: set MARKETING_API_URL, MARKETING_API_TOKEN and MARKETING_LIST_ID.');
        return 1;
      }

      const deps = { config: cli.config, database: cli.database, log: cli.log, clock: systemClock };
      const job = marketingSyncJob(deps);
      const queue = new PgBossQueue({ database: cli.database, log: cli.log });
      queue.register(job);
      await queue.start({ workers: false });
      let queued = 0;
      try {
        let after = 0;
        while (queued < limit) {
          const ids = await subscribers.idsWithoutMarketingContact(after, Math.min(BATCH, limit - queued));
          if (!ids.length) break;
          // one statement per batch; the i-th job starts i seconds from now
          queued += await queue.dispatchMany(
            job,
            ids.map((id, i) => ({ payload: { subscriberId: id, phoneOnly: false }, delaySeconds: queued + i })),
          );
          after = ids[ids.length - 1];
        }
      } finally {
        await queue.stop();
      }
      cli.out(`Queued ${queued} marketing sync job(s), one second apart, lowest subscriber id first.`);
      return 0;
    },
  },
};
