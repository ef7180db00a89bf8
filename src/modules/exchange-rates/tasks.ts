// The exchange-rates.sync task for src/tasks.ts: daily at 16:30 UTC, after the ECB publishes
// (around 16:00 CET on working days); `npm run task -- exchange-rates.sync` runs it now.
import type { Task } from '../../platform/tasks.js';
import { syncExchangeRates } from './service.js';

export const EXCHANGE_RATES_CRON = '30 16 * * *';

export function tasks(): Task[] {
  return [
    {
      name: 'exchange-rates.sync',
      describe: 'load the ECB euro reference rates (EXCHANGE_RATES_URL) into the rates every conversion uses',
      cron: EXCHANGE_RATES_CRON,
      timeoutSeconds: 120,
      async run(ctx, run) {
        const result = await syncExchangeRates(ctx, run.asOf, undefined, run.signal);
        run.out(result.message);
        return { ok: result.ok, message: result.message };
      },
    },
  ];
}
