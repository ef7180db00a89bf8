// offers.generate (spec 3 "automatic offer generation from flight cache every 15 minutes"): for
// every active departure rule, the departures missing over the next OFFER_HORIZON_DAYS are created,
// priced from the tour's land services (selection hotels in the party's default room, included
// activities and transfers, in the market's currency at the current exchange rates) and the fare
// a live search cached for that route and date (an offer of the same tour from the same airport on
// that day), else the rule's fallback fare, with the rule's margin and the marketing rounding.
// Without any fare the departure stays Draft; a later run prices it once a fare is cached.
// Runs are idempotent and safe side by side: offers are keyed by `<rule code>-<YYYYMMDD>`
// (insert ... on conflict do nothing), and a generated offer is only re-priced while its row
// still matches what the generator wrote and nobody booked it.
import type { AppContext } from '../../context.js';
import { toCents } from '../../platform/money.js';
import { bumpRevision } from '../catalog/import.js';
import { loadExchangeRates } from '../catalog/supply.js';
import { convertTo, defaultRoomType, type RatesPerEur, selectionHotelCostCents } from '../checkout/rules.js';
import { loadDayActivities, loadDayTransfers, loadHotelRates, loadStays } from '../checkout/supply.js';
import {
  activeRules,
  cachedFares,
  existingDepartures,
  generatedDrafts,
  insertGeneratedOffer,
  type RuleRow,
  repriceGeneratedOffer,
} from './repository.js';
import { addDays, departureDates, fingerprintOf, priceDeparture } from './rules.js';

type Ctx = Pick<AppContext, 'config' | 'database' | 'log' | 'clock' | 'events'>;

export interface GenerationSummary {
  created: number;
  priced: number;
  drafts: number;
  skipped: string[];
}

export async function generateOffers(ctx: Ctx, asOf: Date, signal?: AbortSignal): Promise<GenerationSummary> {
  const db = ctx.database.db;
  const today = asOf.toISOString().slice(0, 10);
  const from = addDays(today, 1);
  const to = addDays(today, ctx.config.offers.horizonDays);
  const exchange = await loadExchangeRates(db);
  const summary: GenerationSummary = { created: 0, priced: 0, drafts: 0, skipped: [] };
  for (const rule of await activeRules(db)) {
    // the task's time-out: stop between rules (each rule's writes are one transaction)
    if (signal?.aborted) {
      summary.skipped.push(`${rule.code}: not reached before the time-out`);
      continue;
    }
    const land = await landCents(ctx, rule, exchange);
    if (land.cents === null) {
      summary.skipped.push(`${rule.code}: ${land.why}`);
      continue;
    }
    const dates = departureDates(rule, from, to);
    if (!dates.length) continue;
    const taken = await existingDepartures(db, rule, dates);
    const fares = await cachedFares(db, rule, dates);
    const fareOf = (date: string): number | null => {
      const cached = fares.get(date);
      if (cached) {
        const c = convertTo(toCents(cached.flightPrice), cached.currency, rule.currency, exchange);
        if (c !== null) return c;
      }
      return rule.fallbackFlightPrice === null ? null : toCents(rule.fallbackFlightPrice);
    };
    const priced = (date: string) =>
      priceDeparture({
        landCents: land.cents!,
        flightPerPersonCents: fareOf(date),
        pax: rule.paxCount,
        marginPercent: rule.marginPercent,
      });

    let changed = 0;
    await db.transaction(async (tx) => {
      for (const date of dates.filter((d) => !taken.has(d))) {
        const price = priced(date);
        const made = await insertGeneratedOffer(tx, rule, {
          code: `${rule.code}-${date.replaceAll('-', '')}`,
          departureDate: date,
          returnDate: addDays(date, Math.max(rule.tripDays - 1, 0)),
          landBaseCents: land.cents!,
          ...price,
          flightData: fares.get(date)?.flightData ?? null,
          fingerprint: fingerprintOf({ ...price, allotment: rule.seats, paxCount: rule.paxCount }),
        });
        if (made) {
          changed++;
          summary.created++;
          if (price.status === 'Draft') summary.drafts++;
        }
      }
      // Drafts made earlier: priced once a fare is there, unless someone changed or booked them
      for (const draft of await generatedDrafts(tx, rule.id, from)) {
        const price = priced(draft.departureDate);
        if (price.status === 'Draft') continue;
        const done = await repriceGeneratedOffer(tx, draft, {
          ...price,
          flightData: fares.get(draft.departureDate)?.flightData ?? null,
          fingerprint: fingerprintOf({ ...price, allotment: draft.allotment, paxCount: draft.paxCount }),
        });
        if (done) {
          changed++;
          summary.priced++;
        }
      }
      // every process's catalog cache drops the old calendar
      if (changed) await bumpRevision(tx);
    });
    if (changed) ctx.events.emit('catalog:changed');
  }
  return summary;
}

/** The land services of the tour for the rule's party, in the market's currency, and its days. */
async function landCents(
  ctx: Ctx,
  rule: RuleRow,
  exchange: RatesPerEur,
): Promise<{ cents: number | null; why?: string }> {
  const db = ctx.database.db;
  const { stays } = await loadStays(db, rule.templateId);
  const selection = stays.filter((s) => s.tier === 'selection');
  const rates = await loadHotelRates(db, [...new Set(selection.map((s) => s.hotelId))]);
  const room = defaultRoomType(rule.paxCount);
  const hotels = selectionHotelCostCents(stays, (id) => rates.get(id)?.get(room), rule.currency, exchange);
  if (hotels === null) return { cents: null, why: `the selection hotels have no ${room} rate in ${rule.currency}` };
  let total = hotels;
  const activities = (await loadDayActivities(db, rule.marketProductId)).filter((a) => a.tier === 'included');
  const transfers = (await loadDayTransfers(db, rule.templateId)).filter((t) => t.kind === 'included');
  for (const [rate, times] of [
    ...activities.map((a) => [a.rate, rule.paxCount] as const),
    ...transfers.map((t) => [t.rate, 1] as const),
  ]) {
    if (!rate) continue;
    const c = convertTo(rate.cents * times, rate.currency, rule.currency, exchange);
    if (c === null) return { cents: null, why: `no exchange rate for ${rate.currency}` };
    total += c;
  }
  return { cents: total };
}
