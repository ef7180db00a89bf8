// Departures: every offer with its seats (sold, held, free), bookings and revenue, and one
// departure's people and services: its bookings with their payment state, the passenger manifest,
// the rooming list per hotel and night group (upgrades included) and the activities and transfers
// of each day with their participants. Tour structure comes from the catalog module's supply
// functions (English texts); bookings, passengers and payments are read here (read model).
import type { Database } from '../../db/database.js';
import { addDays } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { formatCents, toCents } from '../../platform/money.js';
import { UNSOLD_STATUSES } from '../bookings/search.js';
import { loadDayActivities, loadDayTransfers } from '../catalog/supply.js';
import { groupStays } from '../checkout/rules.js';
import { loadStays } from '../checkout/supply.js';

const SOLD = (alias: string) => `${alias}.status NOT IN (${UNSOLD_STATUSES.map((s) => `'${s}'`).join(', ')})`;
export const DEPARTURES_PAGE_SIZE = 50;

export interface DepartureFilter {
  product?: string;
  market?: string;
  from?: string;
  to?: string;
  page: number;
}

export interface DepartureRow {
  id: number;
  code: string;
  departure_date: string;
  return_date: string | null;
  departure_airport: string;
  status: string;
  product: string;
  template: string;
  market: string;
  currency: string;
  allotment: number;
  sold: number;
  held: number;
  bookings: number;
  revenue: string;
}

/** free seats: what the allotment leaves after sold and held seats, never below 0 */
export const freeSeats = (d: Pick<DepartureRow, 'allotment' | 'sold' | 'held'>) =>
  Math.max(0, d.allotment - d.sold - d.held);

const DEPARTURE_COLUMNS = `o.id, o.code, o.departure_date::text AS departure_date, o.return_date::text AS return_date,
       o.departure_airport, o.status,
       -- named in the console's language: the tour's English title (this market's first), else this product's
       coalesce((SELECT e.title FROM market_products e WHERE e.template_id = mp.template_id AND e.language = 'en'
                  ORDER BY (e.market_id = mp.market_id) DESC, e.id LIMIT 1), mp.title) AS product, pt.code AS template, m.code AS market,
       m.currency_code AS currency, o.allotment, o.allotment_used AS sold,
       coalesce((SELECT sum(seats) FROM seat_holds h WHERE h.offer_id = o.id), 0)::int AS held,
       s.bookings, coalesce(s.revenue, 0)::numeric(14, 2)::text AS revenue`;
// per offer: the sold bookings and their value (an index-only scan of bookings_offer_sold, migration 1200)
const SOLD_OF_OFFER = `LEFT JOIN LATERAL (SELECT count(*)::int AS bookings, sum(b.total_price) AS revenue
                 FROM bookings b WHERE b.offer_id = o.id AND ${SOLD('b')}) s ON true`;

/** One page of departures by date (then id), with LIMIT page+1 to know whether a next page exists. */
export async function listDepartures(
  database: Database,
  f: DepartureFilter,
): Promise<{ rows: DepartureRow[]; hasNext: boolean }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  if (f.product) where.push(`pt.code = ${p(f.product)}`);
  if (f.market) where.push(`m.code = ${p(f.market)}`);
  if (f.from) where.push(`o.departure_date >= ${p(f.from)}::date`);
  if (f.to) where.push(`o.departure_date <= ${p(f.to)}::date`);
  const { rows } = await database.query<DepartureRow>(
    `SELECT ${DEPARTURE_COLUMNS}
       FROM offers o
       JOIN market_products mp ON mp.id = o.market_product_id
       JOIN product_templates pt ON pt.id = mp.template_id
       JOIN markets m ON m.id = mp.market_id
       ${SOLD_OF_OFFER}
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY o.departure_date, o.id
      LIMIT ${DEPARTURES_PAGE_SIZE + 1} OFFSET ${(f.page - 1) * DEPARTURES_PAGE_SIZE}`,
    params,
  );
  return { rows: rows.slice(0, DEPARTURES_PAGE_SIZE), hasNext: rows.length > DEPARTURES_PAGE_SIZE };
}

/** The product templates offers are made from (the product filter's choices). */
export async function departureProducts(database: Database): Promise<{ code: string; title: string }[]> {
  const { rows } = await database.query<{ code: string; title: string }>(
    'SELECT code, title FROM product_templates ORDER BY title, code',
  );
  return rows;
}

export interface DepartureBooking {
  id: number;
  reference: string;
  status: string;
  pax: number;
  room_type: string;
  total_price: string;
  currency: string;
  contact_name: string | null;
  contact_phone: string | null;
  paid: string;
  balance_status: string | null;
  balance_due: string | null;
  remaining: string | null;
}

export interface ManifestRow {
  booking: string;
  booking_status: string;
  position: number;
  lead: boolean;
  title: string | null;
  first_name: string;
  last_name: string;
  nationality: string;
  birth_date: string;
  passport_expiry: string;
  phone: string;
}

export interface RoomingGroup {
  /** tour days of the stay: night of day `start` to the morning of day `end + 1` */
  start: number;
  end: number;
  checkIn: string;
  checkOut: string;
  hotels: {
    hotel: string;
    tier: string;
    rooms: { booking: string; roomType: string; guests: string[]; upgrade: boolean }[];
  }[];
}

export interface DayServices {
  day: number;
  date: string;
  services: {
    kind: 'activity' | 'transfer';
    name: string;
    /** included in the tour, or bought as an extra by the bookings listed */
    included: boolean;
    participants: { booking: string; names: string[] }[];
  }[];
}

export interface Departure {
  offer: DepartureRow;
  templateId: number;
  bookings: DepartureBooking[];
  unfinishedCheckouts: number;
  manifest: ManifestRow[];
  rooming: RoomingGroup[];
  days: DayServices[];
}

export async function departure(database: Database, offerId: number): Promise<Departure> {
  const { rows: offers } = await database.query<DepartureRow & { template_id: number; market_product_id: number }>(
    `SELECT ${DEPARTURE_COLUMNS}, pt.id AS template_id, mp.id AS market_product_id
       FROM offers o
       JOIN market_products mp ON mp.id = o.market_product_id
       JOIN product_templates pt ON pt.id = mp.template_id
       JOIN markets m ON m.id = mp.market_id
       ${SOLD_OF_OFFER}
      WHERE o.id = $1`,
    [offerId],
  );
  const offer = offers[0];
  if (!offer) throw new AppError(404, 'departure_not_found', `There is no departure (offer) ${offerId}.`);
  const db = database.db;
  const [bookingRows, unfinished, people, extras, stays, dayActivities, dayTransfers] = await Promise.all([
    database.query<DepartureBooking>(
      `SELECT b.id, b.reference, b.status, b.actual_pax_count AS pax, b.actual_room_type AS room_type,
              b.total_price::text AS total_price, b.currency,
              c.first_name || ' ' || c.last_name AS contact_name, c.phone AS contact_phone,
              coalesce((SELECT sum(amount) FROM booking_payments bp WHERE bp.booking_id = b.id AND bp.status = 'Succeeded'), 0)::numeric(14, 2)::text AS paid,
              bb.status AS balance_status, bb.due_date::text AS balance_due, bb.remaining_price::text AS remaining
         FROM bookings b
         LEFT JOIN clients c ON c.id = b.client_id
         LEFT JOIN booking_balances bb ON bb.booking_id = b.id
        WHERE b.offer_id = $1 AND ${SOLD('b')}
        ORDER BY b.reference`,
      [offerId],
    ),
    database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM bookings WHERE offer_id = $1 AND status = 'checkout'`,
      [offerId],
    ),
    database.query<ManifestRow & { booking_id: number }>(
      `SELECT b.id AS booking_id, b.reference AS booking, b.status AS booking_status, bp.position, bp.is_lead AS lead,
              p.title, p.first_name, p.last_name, p.nationality, p.birth_date::text AS birth_date,
              p.passport_expiry::text AS passport_expiry, p.phone
         FROM bookings b
         JOIN booking_passengers bp ON bp.booking_id = b.id
         JOIN passengers p ON p.id = bp.passenger_id
        WHERE b.offer_id = $1 AND ${SOLD('b')}
        ORDER BY b.reference, bp.position`,
      [offerId],
    ),
    database.query<{
      booking_id: number;
      type: string;
      item_id: number | null;
      name: string | null;
      day_number: number | null;
      nights_start: number | null;
      nights_end: number | null;
    }>(
      `SELECT u.booking_id, u.type, u.item_id, u.name, u.day_number, u.nights_start, u.nights_end
         FROM booking_upsells u JOIN bookings b ON b.id = u.booking_id
        WHERE b.offer_id = $1 AND ${SOLD('b')} AND u.type IN ('hotel_upgrade', 'activity', 'transfer')
        ORDER BY u.id`,
      [offerId],
    ),
    loadStays(db, offer.template_id),
    loadDayActivities(db, offer.market_product_id),
    loadDayTransfers(db, offer.template_id),
  ]);
  const sold = bookingRows.rows;
  const refOf = new Map(sold.map((b) => [b.id, b.reference]));
  const namesOf = new Map<number, string[]>();
  for (const p of people.rows) {
    namesOf.set(p.booking_id, [...(namesOf.get(p.booking_id) ?? []), `${p.first_name} ${p.last_name}`]);
  }
  const dateOfDay = (day: number) => addDays(offer.departure_date, day - 1);

  // rooming: each night group of the base (selection) stays, as the checkout offers them; a
  // booking with an upgrade for (part of) that group sleeps in the upgrade hotel
  const upgrades = extras.rows.filter((u) => u.type === 'hotel_upgrade');
  const rooming: RoomingGroup[] = groupStays(stays.stays).map(({ selection: g, upgrades: options }) => {
    const hotels = new Map<number, RoomingGroup['hotels'][number]>();
    for (const b of sold) {
      const up = upgrades.find(
        (u) => u.booking_id === b.id && (u.nights_start ?? 0) <= g.dayEnd && (u.nights_end ?? 0) >= g.dayStart,
      );
      const hotelId = up?.item_id ?? g.hotelId;
      const tier = up ? (options.find((o) => o.hotelId === hotelId)?.tier ?? 'upgrade') : 'selection';
      const entry = hotels.get(hotelId) ?? {
        hotel: stays.hotels.get(hotelId)?.name ?? up?.name ?? `Hotel ${hotelId}`,
        tier,
        rooms: [],
      };
      entry.rooms.push({
        booking: b.reference,
        roomType: b.room_type,
        guests: namesOf.get(b.id) ?? [],
        upgrade: Boolean(up),
      });
      hotels.set(hotelId, entry);
    }
    return {
      start: g.dayStart,
      end: g.dayEnd,
      checkIn: dateOfDay(g.dayStart),
      checkOut: dateOfDay(g.dayEnd + 1),
      hotels: [...hotels.values()],
    };
  });

  // services per day: the included ones for everybody, the extras for the bookings that bought them
  const everybody = sold.map((b) => ({ booking: b.reference, names: namesOf.get(b.id) ?? [] }));
  const byDay = new Map<number, DayServices['services']>();
  const add = (day: number, service: DayServices['services'][number]) =>
    byDay.set(day, [...(byDay.get(day) ?? []), service]);
  for (const a of dayActivities.filter((x) => x.tier === 'included')) {
    add(a.dayNumber, { kind: 'activity', name: a.name, included: true, participants: everybody });
  }
  for (const t of dayTransfers.filter((x) => x.kind === 'included')) {
    add(t.dayNumber, { kind: 'transfer', name: t.name, included: true, participants: everybody });
  }
  const extraNames = new Map<string, string>([
    ...dayActivities.map((a) => [`activity:${a.id}`, a.name] as const),
    ...dayTransfers.map((t) => [`transfer:${t.id}`, t.name] as const),
  ]);
  const bought = new Map<string, DayServices['services'][number] & { day: number }>();
  for (const u of extras.rows.filter((x) => (x.type === 'activity' || x.type === 'transfer') && x.day_number)) {
    const key = `${u.type}:${u.item_id}:${u.day_number}`;
    const entry = bought.get(key) ?? {
      day: u.day_number!,
      kind: u.type as 'activity' | 'transfer',
      name: extraNames.get(`${u.type}:${u.item_id}`) ?? u.name ?? `${u.type} ${u.item_id}`,
      included: false,
      participants: [],
    };
    entry.participants.push({ booking: refOf.get(u.booking_id) ?? '', names: namesOf.get(u.booking_id) ?? [] });
    bought.set(key, entry);
  }
  for (const { day, ...service } of bought.values()) add(day, service);
  const days = [...byDay.keys()]
    .sort((a, b) => a - b)
    .map((day) => ({ day, date: dateOfDay(day), services: byDay.get(day)! }));

  return {
    offer,
    templateId: offer.template_id,
    bookings: sold,
    unfinishedCheckouts: unfinished.rows[0]?.n ?? 0,
    manifest: people.rows.map(({ booking_id: _, ...m }) => m),
    rooming,
    days,
  };
}

/** What a booking still owes: its total less what was paid, as text in its currency. */
export function owed(b: Pick<DepartureBooking, 'total_price' | 'paid'>): string {
  return formatCents(Math.max(0, toCents(b.total_price) - toCents(b.paid)));
}
