// The daily exchange rate sync (spec 3 "exchange-rate sync daily"): the ECB's euro reference rates
// become the current rates every price conversion reads (exchange_rates), each date is kept in the
// history, and the caches holding converted prices are dropped when a rate changed (the catalog
// revision, which every process checks, and 'catalog:changed' in this one). A failed or malformed
// download changes nothing; when the rates in use are then older than 3 days the admins hear of it.
import type { AppContext } from '../../context.js';
import { bumpRevision } from '../catalog/import.js';
import { loadExchangeRates } from '../catalog/supply.js';
import { notifyAdmins } from '../ops/alerts.js';
import { FeedError, fetchEcbFeed } from './feed.js';
import { currentRatesWrittenAt, keepHistory, newestRateDate, setCurrentRates } from './repository.js';

/** Rates older than this (in days, against the run's date) raise an admin notification. */
export const STALE_AFTER_DAYS = 3;

export interface SyncOutcome {
  ok: boolean;
  message: string;
  /** currencies whose current rate changed */
  changed: number;
}

type Ctx = Pick<AppContext, 'config' | 'database' | 'log' | 'clock' | 'events'>;

export async function syncExchangeRates(
  ctx: Ctx,
  asOf: Date,
  timeoutMs?: number,
  signal?: AbortSignal,
): Promise<SyncOutcome> {
  const db = ctx.database.db;
  let feed: Awaited<ReturnType<typeof fetchEcbFeed>>;
  try {
    feed = await fetchEcbFeed(ctx.config.exchangeRates.url, timeoutMs, signal);
  } catch (err) {
    if (!(err instanceof FeedError)) throw err;
    ctx.log.error({ error: err.message }, 'exchange rates: the ECB feed could not be loaded; the last rates stay');
    const age = await ageInDays(ctx, asOf);
    const stale = age === null || age > STALE_AFTER_DAYS;
    if (stale) {
      await notifyAdmins(ctx, {
        key: 'exchange-rates:stale',
        subject: 'Exchange rates are out of date',
        text: [
          `The daily exchange rate sync could not load ${ctx.config.exchangeRates.url}: ${err.message}`,
          age === null
            ? 'No rates have been loaded yet.'
            : `The rates in use are ${age} days old; prices in other currencies are converted with them.`,
          '',
          'Check EXCHANGE_RATES_URL and the network, then run `npm run task -- exchange-rates.sync`.',
        ].join('\n'),
        intervalMs: 24 * 3600 * 1000,
      });
    }
    const kept = age === null ? 'no rates loaded yet' : `kept the rates of ${age} day(s) ago`;
    return { ok: false, message: `${err.message}; ${kept}${stale ? ' (admins notified)' : ''}`, changed: 0 };
  }

  const newest = await newestRateDate(db);
  if (newest && feed.date < newest) {
    return {
      ok: true,
      message: `the feed's ${feed.date} is older than the stored ${newest}; nothing changed`,
      changed: 0,
    };
  }
  const before = await loadExchangeRates(db);
  const changed = [...feed.rates].filter(([c, r]) => !before.has(c) || sameRate(before.get(c)!, r) === false).length;
  const now = ctx.clock.now();
  await db.transaction(async (tx) => {
    await keepHistory(tx, feed.date, feed.rates, 'ecb', now);
    await setCurrentRates(tx, feed.rates, now);
    // every process drops what it holds converted with the old rates
    if (changed > 0) await bumpRevision(tx);
  });
  if (changed > 0) ctx.events.emit('catalog:changed');
  ctx.log.info({ date: feed.date, rates: feed.rates.size, changed }, 'exchange rates loaded');
  return { ok: true, message: `loaded ${feed.rates.size} rates of ${feed.date} (${changed} changed)`, changed };
}

/** Whole days between the rates in use and `asOf` (UTC dates), or null when there are none. */
async function ageInDays(ctx: Ctx, asOf: Date): Promise<number | null> {
  const newest = await newestRateDate(ctx.database.db);
  const from = newest ? new Date(`${newest}T00:00:00Z`) : await currentRatesWrittenAt(ctx.database.db);
  if (!from) return null;
  const day = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  return Math.round((day(asOf) - day(from)) / 86_400_000);
}

/** '1.08660000' (the database) and '1.0866' (the feed) are the same rate. */
export function sameRate(a: string, b: string): boolean {
  const norm = (s: string) => {
    const [i, f = ''] = s.trim().split('.');
    return `${i.replace(/^0+(?=\d)/, '')}.${f.replace(/0+$/, '')}`;
  };
  return norm(a) === norm(b);
}
