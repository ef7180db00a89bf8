// Pure rules of the catalog editor: form values <-> one import-document record (the importer's
// problems go back to their fields through admin/forms.ts), the publishing rule and the status
// actions of a product.
// A form field is named after the record's path in the import document, with dots:
// `title`, `itinerary.2.title`, `currency.code`. What the user typed is passed to the importer as
// typed wherever it can be, so the importer's own rules (JSON Schema, references) judge it.
import type { ImportProblem } from '../../import/section.js';
import * as lifecycle from '../admin/lifecycle.js';

/** Field name -> the text the form holds (checkbox: '1' when ticked; repeated fields joined by ','). */
export type Values = Record<string, string>;

// ------------------------------------------------------------------------------------ publishing

/** edit_catalog changes drafts; every other product status needs publish_catalog as well. */
export const permissionToChange = (status: string) => lifecycle.permissionToChange(status, 'catalog');
export { actionsFrom, isStatusAction, STATUS_ACTIONS, type StatusAction } from '../admin/lifecycle.js';

// ------------------------------------------------------------------------------------ form values

/** A form body (urlencoded, repeated names as arrays) as Values; the CSRF token is left out. */
export function valuesOf(body: unknown): Values {
  const out: Values = {};
  for (const [k, v] of Object.entries((body ?? {}) as Record<string, string | string[]>)) {
    if (k === '_csrf') continue;
    out[k] = Array.isArray(v) ? v.join(',') : String(v);
  }
  return out;
}

const text = (v: Values, k: string) => (v[k] ?? '').replace(/\r\n/g, '\n').trim();
/** An integer as a number; anything else as typed (the schema then says what is wrong). */
const int = (s: string): number | string => (/^-?\d{1,9}$/.test(s) ? Number(s) : s);
/** A list typed as words separated by commas, spaces or lines. */
const words = (s: string, upper = false) =>
  s
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((w) => (upper ? w.toUpperCase() : w));
const lines = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
const ticked = (v: Values, k: string) => v[k] === '1' || v[k] === 'on';

/** The row numbers a list field of the form holds (`itinerary.3.title` -> 3), in order. */
export function rowsOf(v: Values, list: string): number[] {
  const rows = new Set<number>();
  const re = new RegExp(`^${list}\\.(\\d{1,3})\\.`);
  for (const k of Object.keys(v)) {
    const m = re.exec(k);
    if (m) rows.add(Number(m[1]));
  }
  return [...rows].sort((a, b) => a - b);
}

/** A record of the document plus, per list, the form row each list item came from. */
export interface Fragment {
  record: Record<string, unknown>;
  rows: Record<string, number[]>;
}

function listOf(
  v: Values,
  list: string,
  empty: (row: number) => boolean,
  build: (row: number) => Record<string, unknown>,
) {
  const items: Record<string, unknown>[] = [];
  const rows: number[] = [];
  for (const row of rowsOf(v, list)) {
    if (ticked(v, `${list}.${row}.remove`) || empty(row)) continue;
    items.push(build(row));
    rows.push(row);
  }
  return { items, rows };
}

/** The texts, airports and itinerary of a market product. */
export function productRecord(v: Values): Fragment {
  const days = listOf(
    v,
    'itinerary',
    (r) => !text(v, `itinerary.${r}.day`) && !text(v, `itinerary.${r}.title`),
    (r) => {
      const at = (f: string) => text(v, `itinerary.${r}.${f}`);
      return {
        day: int(at('day')),
        title: at('title'),
        description: at('description'),
        city: at('city') || null,
        country: at('country') || null,
        activities: lines(at('activities')).map((l) => {
          const [activity = '', tier = ''] = l.split(/\s+/);
          return { activity, tier };
        }),
      };
    },
  );
  return {
    record: {
      title: text(v, 'title'),
      subtitle: text(v, 'subtitle'),
      short_description: text(v, 'short_description'),
      long_description: text(v, 'long_description'),
      highlights: lines(text(v, 'highlights')),
      destination_info: text(v, 'destination_info'),
      url_slug: text(v, 'url_slug'),
      country_name: text(v, 'country_name'),
      hero_image: text(v, 'hero_image') || null,
      cancellation_policy: policyOf(text(v, 'cancellation_policy')),
      sort_order: int(text(v, 'sort_order') || '0'),
      departure_airports: words(text(v, 'departure_airports'), true),
      itinerary: days.items,
    },
    rows: { itinerary: days.rows },
  };
}

/**
 * "60:10" lines (days before departure : fee percent) -> the import's steps; empty: null (the
 * configured default). A line that is not `days:percent` becomes a step the import refuses, so the
 * field shows the problem.
 */
export function policyOf(value: string): { days_before_departure: number; fee_percent: number }[] | null {
  const steps = lines(value).map((l) => {
    const m = /^\s*(\d+)\s*:\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(l);
    return m
      ? { days_before_departure: Number(m[1]), fee_percent: Number(m[2]) }
      : { days_before_departure: -1, fee_percent: -1 };
  });
  return steps.length ? steps : null;
}

/** The stored steps as the form's lines. */
export function policyText(steps: { days_before_departure: number; fee_percent: number }[] | null): string {
  return (steps ?? []).map((s) => `${s.days_before_departure}:${s.fee_percent}`).join('\n');
}

/** A new market product: its natural key and the fields a new one must name; always a draft. */
export function newProductRecord(v: Values): Fragment {
  return {
    record: {
      template: text(v, 'template'),
      market: text(v, 'market'),
      language: text(v, 'language'),
      status: 'draft',
      title: text(v, 'title'),
      url_slug: text(v, 'url_slug'),
      country_name: text(v, 'country_name'),
      departure_airports: words(text(v, 'departure_airports'), true),
    },
    rows: {},
  };
}

/** The shared part of a tour (its template): hero image, hotel stays by tier, transfers by day. */
export function templateRecord(v: Values): Fragment {
  const stays = listOf(
    v,
    'accommodations',
    (r) => !text(v, `accommodations.${r}.hotel`),
    (r) => ({
      hotel: text(v, `accommodations.${r}.hotel`),
      tier: text(v, `accommodations.${r}.tier`),
      day_start: int(text(v, `accommodations.${r}.day_start`)),
      day_end: int(text(v, `accommodations.${r}.day_end`)),
    }),
  );
  const moves = listOf(
    v,
    'day_transfers',
    (r) => !text(v, `day_transfers.${r}.transfer`),
    (r) => ({
      day: int(text(v, `day_transfers.${r}.day`)),
      transfer: text(v, `day_transfers.${r}.transfer`),
      kind: text(v, `day_transfers.${r}.kind`),
    }),
  );
  return {
    record: { hero_image: text(v, 'hero_image') || null, accommodations: stays.items, day_transfers: moves.items },
    rows: { accommodations: stays.rows, day_transfers: moves.rows },
  };
}

export const OFFER_FIELDS = [
  'departure_airport',
  'departure_date',
  'return_date',
  'status',
  'pax_count',
  'allotment',
  'land_base_price',
  'flight_price',
  'margin_percent',
  'final_price',
  'price_per_person',
] as const;

/** An offer's prices, seats, dates and status (allotment_used is the bookings' count: not edited). */
export function offerRecord(v: Values, isNew: boolean): Fragment {
  const record: Record<string, unknown> = isNew ? { code: text(v, 'code') } : {};
  for (const f of OFFER_FIELDS) record[f] = text(v, f);
  record.return_date = text(v, 'return_date') || null;
  record.pax_count = int(text(v, 'pax_count'));
  record.allotment = int(text(v, 'allotment'));
  return { record, rows: {} };
}

/** A market: the default language goes first in `languages` (that is how the import names it). */
export function marketRecord(v: Values, isNew: boolean): { fragment: Fragment; problems: ImportProblem[] } {
  const languages = words(text(v, 'languages'));
  const preferred = text(v, 'default_language');
  const problems: ImportProblem[] = [];
  if (preferred && !languages.includes(preferred)) {
    problems.push({ path: '/default_language', reason: `'${preferred}' is not among the languages` });
  }
  const ordered =
    preferred && languages.includes(preferred) ? [preferred, ...languages.filter((l) => l !== preferred)] : languages;
  const slugs: Record<string, string> = {};
  for (const k of Object.keys(v)) {
    const m = /^tour_path_slugs\.([a-z]{2})$/.exec(k);
    if (m && text(v, k)) slugs[m[1]!] = text(v, k);
  }
  return {
    fragment: {
      record: {
        ...(isNew ? { code: text(v, 'code') } : {}),
        name: text(v, 'name'),
        is_active: ticked(v, 'is_active'),
        languages: ordered,
        tour_path_slugs: slugs,
        currency: {
          code: text(v, 'currency.code'),
          name: text(v, 'currency.name'),
          symbol: text(v, 'currency.symbol'),
        },
        timezone: text(v, 'timezone'),
        airports: words(text(v, 'airports'), true),
      },
      rows: {},
    },
    problems,
  };
}

/** A departure rule (the offer_rules section takes whole records). */
export function ruleRecord(v: Values, product: { template: string; market: string; language: string }): Fragment {
  const record: Record<string, unknown> = {
    code: text(v, 'code'),
    product,
    departure_airport: text(v, 'departure_airport').toUpperCase(),
    weekdays: words(text(v, 'weekdays')).map(int),
    dates: words(text(v, 'dates')),
    season_start: text(v, 'season_start'),
    season_end: text(v, 'season_end'),
    pax_count: int(text(v, 'pax_count') || '2'),
    seats: int(text(v, 'seats')),
    margin_percent: text(v, 'margin_percent') || '0',
    active: ticked(v, 'active'),
  };
  if (text(v, 'fallback_flight_price')) record.fallback_flight_price = text(v, 'fallback_flight_price');
  return { record, rows: {} };
}
