// The catalog's supply of a tour in the checkout's pricing terms: stays by tier with their
// hotels, rates in integer cents. The rows come from the catalog (catalog/supply.ts).
import type { DbOrTx } from '../../db/database.js';
import { toCents } from '../../platform/money.js';
import type {
  DayActivitySupplyRow,
  DayTransferSupplyRow,
  HotelRateRow,
  StoredRate,
  TourStayRow,
} from '../catalog/supply.js';
import * as catalog from '../catalog/supply.js';
import { type Rate, type Stay, TIERS, type Tier } from './rules.js';

export interface HotelInfo {
  id: number;
  name: string;
  city: string | null;
  country: string | null;
  description: string | null;
  images: string[];
}

export interface TourStays {
  stays: Stay[];
  hotels: Map<number, HotelInfo>;
}

export function tourStays(rows: TourStayRow[]): TourStays {
  const hotelMap = new Map<number, HotelInfo>();
  const stays: Stay[] = [];
  for (const r of rows) {
    // the import spells the top tier grand_luxury; tolerate "grand luxury" as well
    const tier = r.tier.replace(' ', '_') as Tier;
    if (!TIERS.includes(tier)) continue;
    stays.push({ hotelId: r.hotelId, tier, dayStart: r.dayStart, dayEnd: r.dayEnd });
    hotelMap.set(r.hotelId, {
      id: r.hotelId,
      name: r.name,
      city: r.city,
      country: r.country,
      description: r.description,
      images: r.images,
    });
  }
  return { stays, hotels: hotelMap };
}

/** hotelId -> roomType -> rate */
export function ratesByHotel(rows: HotelRateRow[]): Map<number, Map<string, Rate>> {
  const out = new Map<number, Map<string, Rate>>();
  for (const r of rows) {
    const m = out.get(r.hotelId) ?? new Map<string, Rate>();
    m.set(r.roomType, { cents: toCents(r.pricePerNight), currency: r.currency });
    out.set(r.hotelId, m);
  }
  return out;
}

/** A supply row with its rate in cents (null when it has none) in place of the stored price. */
export type Priced<T extends StoredRate> = Omit<T, keyof StoredRate> & { rate: Rate | null };

export function withRate<T extends StoredRate>({ price, currency, ...r }: T): Priced<T> {
  return { ...r, rate: price !== null && currency !== null ? { cents: toCents(price), currency } : null };
}

/** `languages`: where the texts are looked up (catalog textLanguages); pricing ignores them. */
export async function loadStays(db: DbOrTx, templateId: number, languages?: string[]): Promise<TourStays> {
  return tourStays(await catalog.loadStays(db, templateId, languages));
}

export async function loadHotelRates(db: DbOrTx, hotelIds: number[]): Promise<Map<number, Map<string, Rate>>> {
  return ratesByHotel(await catalog.loadHotelRates(db, hotelIds));
}

export async function loadDayActivities(
  db: DbOrTx,
  marketProductId: number,
  languages?: string[],
): Promise<Priced<DayActivitySupplyRow>[]> {
  return (await catalog.loadDayActivities(db, marketProductId, languages)).map((r) => withRate(r));
}

export async function loadDayTransfers(
  db: DbOrTx,
  templateId: number,
  languages?: string[],
): Promise<Priced<DayTransferSupplyRow>[]> {
  return (await catalog.loadDayTransfers(db, templateId, languages)).map((r) => withRate(r));
}
