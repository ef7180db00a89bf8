// Pure rules of offer generation: which dates a departure rule gives, and a departure's price.
import { formatCents } from '../../platform/money.js';
import { applyMargin, marketingRoundCents } from '../checkout/rules.js';

export interface DepartureRule {
  /** ISO weekdays, 1 Monday ... 7 Sunday */
  weekdays: number[];
  /** single dates YYYY-MM-DD */
  dates: string[];
  seasonStart: string;
  seasonEnd: string;
}

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const ms = (date: string) => Date.parse(`${date}T00:00:00Z`);

export function addDays(date: string, days: number): string {
  return iso(ms(date) + days * DAY_MS);
}

/**
 * The rule's departure dates from `from` to `to` (inclusive, YYYY-MM-DD) inside its season: every
 * listed weekday and every listed date, in order, each once.
 */
export function departureDates(rule: DepartureRule, from: string, to: string): string[] {
  const start = Math.max(ms(from), ms(rule.seasonStart));
  const end = Math.min(ms(to), ms(rule.seasonEnd));
  const out = new Set<string>();
  if (rule.weekdays.length) {
    for (let t = start; t <= end; t += DAY_MS) {
      const weekday = ((new Date(t).getUTCDay() + 6) % 7) + 1;
      if (rule.weekdays.includes(weekday)) out.add(iso(t));
    }
  }
  for (const d of rule.dates) if (ms(d) >= start && ms(d) <= end) out.add(d);
  return [...out].sort();
}

export interface DeparturePrice {
  status: 'Active' | 'Draft';
  /** per person */
  flightPrice: string;
  finalPrice: string;
  pricePerPerson: string;
}

/**
 * land (for pax) + flight (per person x pax), with the margin, rounded per person by the marketing
 * rule (checkout's marketingRoundCents); without a fare the departure is a Draft priced on land.
 */
export function priceDeparture(input: {
  landCents: number;
  flightPerPersonCents: number | null;
  pax: number;
  marginPercent: string;
}): DeparturePrice {
  const flight = input.flightPerPersonCents ?? 0;
  const raw = applyMargin(input.landCents + flight * input.pax, input.marginPercent);
  const perPerson = marketingRoundCents(Math.ceil(raw / input.pax));
  return {
    status: input.flightPerPersonCents === null ? 'Draft' : 'Active',
    flightPrice: formatCents(flight),
    finalPrice: formatCents(perPerson * input.pax),
    pricePerPerson: formatCents(perPerson),
  };
}

/** What the generator wrote, to tell later whether someone else changed the offer. */
export function fingerprintOf(o: {
  status: string;
  finalPrice: string;
  flightPrice: string;
  allotment: number;
  paxCount: number;
}): string {
  const n = (s: string) => Number(s).toFixed(2);
  return [o.status, n(o.finalPrice), n(o.flightPrice), o.allotment, o.paxCount].join('|');
}
