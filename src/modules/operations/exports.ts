// CSV exports of personal data: the bookings list (with the list's filters), leads, subscribers,
// and a departure's manifest and rooming list. Lists are walked in keyset batches and written as
// the client reads them (a Readable over an async generator: the next batch is read only when the
// socket takes more), so 100,000 rows never sit in memory. Each export needs its permission
// (checked again here) and writes an audit row before the first byte.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { assertAllowed, type Permission } from '../../console/permissions.js';
import type { AppContext } from '../../context.js';
import { type AdminActor, audit } from '../admin/service.js';
import { type BookingFilter, bookingExportBatch } from '../bookings/search.js';
import type { Departure } from './departures.js';
import { csvLine } from './rules.js';

export const EXPORT_BATCH = 1000;

/** Rows of a keyset walk: `batch(afterId)` returns up to EXPORT_BATCH rows with ids above it. */
async function* walk<T extends { id: number }>(batch: (afterId: number) => Promise<T[]>): AsyncGenerator<T> {
  let after = 0;
  for (;;) {
    const rows = await batch(after);
    yield* rows;
    if (rows.length < EXPORT_BATCH) return;
    after = rows.at(-1)!.id;
  }
}

/** A CSV file: the header, then one line per row, produced as the client reads. */
async function* csv<T>(header: readonly string[], rows: AsyncIterable<T> | Iterable<T>, line: (r: T) => unknown[]) {
  // a BOM so spreadsheet programs read the names' accents as UTF-8
  yield `\uFEFF${csvLine(header)}`;
  let chunk = '';
  for await (const r of rows) {
    chunk += csvLine(line(r));
    if (chunk.length >= 16_384) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

function sendCsv(reply: FastifyReply, filename: string, body: AsyncIterable<string>): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(Readable.from(body));
}

async function startExport(
  ctx: AppContext,
  actor: AdminActor,
  permission: Permission,
  action: string,
  details: Record<string, unknown>,
) {
  assertAllowed(actor.grant, permission);
  await audit(ctx, actor, { action, resourceType: 'export', details });
}

export async function exportBookings(
  ctx: AppContext,
  actor: AdminActor,
  reply: FastifyReply,
  f: Omit<BookingFilter, 'sort' | 'page'>,
  filters: Record<string, string>,
): Promise<FastifyReply> {
  await startExport(ctx, actor, 'export_booking', 'booking.export', { filters });
  const rows = walk((after) => bookingExportBatch(ctx.database, f, after, EXPORT_BATCH));
  const header = [
    'reference',
    'status',
    'market',
    'language',
    'offer_id',
    'departure_date',
    'travellers',
    'room_type',
    'total_price',
    'currency',
    'created_at',
    'first_name',
    'last_name',
    'email',
    'phone',
  ];
  const stamp = ctx.clock.now().toISOString().slice(0, 10);
  return sendCsv(
    reply,
    `bookings-${stamp}.csv`,
    csv(header, rows, (b) => [
      b.reference,
      b.status,
      b.market_code,
      b.language,
      b.offer_id,
      b.departure_date,
      b.actual_pax_count,
      b.actual_room_type,
      b.total_price,
      b.currency,
      b.created_at,
      b.first_name,
      b.last_name,
      b.email,
      b.phone,
    ]),
  );
}

interface LeadRow {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  source: string;
  destinations: unknown;
  preferred_call_time: string | null;
  consent_given_at: Date;
  privacy_policy_version: string;
  created_at: Date;
}

export async function exportLeads(ctx: AppContext, actor: AdminActor, reply: FastifyReply): Promise<FastifyReply> {
  await startExport(ctx, actor, 'export_lead', 'lead.export', {});
  const rows = walk(async (after) => {
    const { rows } = await ctx.database.query<LeadRow>(
      `SELECT id, name, email, phone, source, destinations, preferred_call_time, consent_given_at, privacy_policy_version, created_at
         FROM leads WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, EXPORT_BATCH],
    );
    return rows;
  });
  const stamp = ctx.clock.now().toISOString().slice(0, 10);
  return sendCsv(
    reply,
    `leads-${stamp}.csv`,
    csv(
      [
        'id',
        'name',
        'email',
        'phone',
        'source',
        'destinations',
        'preferred_call_time',
        'consent_given_at',
        'privacy_policy_version',
        'created_at',
      ],
      rows,
      (l) => [
        l.id,
        l.name,
        l.email,
        l.phone,
        l.source,
        JSON.stringify(l.destinations ?? []),
        l.preferred_call_time,
        l.consent_given_at,
        l.privacy_policy_version,
        l.created_at,
      ],
    ),
  );
}

interface SubscriberRow {
  id: number;
  email: string;
  name: string | null;
  phone: string | null;
  market: string | null;
  consent_given_at: Date;
  privacy_policy_version: string;
  created_at: Date;
}

export async function exportSubscribers(
  ctx: AppContext,
  actor: AdminActor,
  reply: FastifyReply,
): Promise<FastifyReply> {
  await startExport(ctx, actor, 'export_subscriber', 'subscriber.export', {});
  const rows = walk(async (after) => {
    const { rows } = await ctx.database.query<SubscriberRow>(
      `SELECT id, email, name, phone, market, consent_given_at, privacy_policy_version, created_at
         FROM newsletter_subscribers WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, EXPORT_BATCH],
    );
    return rows;
  });
  const stamp = ctx.clock.now().toISOString().slice(0, 10);
  return sendCsv(
    reply,
    `subscribers-${stamp}.csv`,
    csv(
      ['id', 'email', 'name', 'phone', 'market', 'consent_given_at', 'privacy_policy_version', 'created_at'],
      rows,
      (s) => [s.id, s.email, s.name, s.phone, s.market, s.consent_given_at, s.privacy_policy_version, s.created_at],
    ),
  );
}

/** A departure's passenger manifest or rooming list (one departure: small, built at once). */
export async function exportDeparture(
  ctx: AppContext,
  actor: AdminActor,
  reply: FastifyReply,
  d: Departure,
  what: 'manifest' | 'rooming',
): Promise<FastifyReply> {
  await startExport(ctx, actor, 'export_booking', `departure.${what}.export`, { offer_id: d.offer.id });
  const name = `${what === 'manifest' ? 'manifest' : 'rooming-list'}-${d.offer.code}.csv`;
  if (what === 'manifest') {
    return sendCsv(
      reply,
      name,
      csv(
        [
          'booking',
          'booking_status',
          'lead',
          'title',
          'first_name',
          'last_name',
          'nationality',
          'birth_date',
          'passport_expiry',
          'contact_phone',
        ],
        d.manifest,
        (m) => [
          m.booking,
          m.booking_status,
          m.lead ? 'yes' : 'no',
          m.title,
          m.first_name,
          m.last_name,
          m.nationality,
          m.birth_date,
          m.passport_expiry,
          m.phone,
        ],
      ),
    );
  }
  const rooms = d.rooming.flatMap((g) => g.hotels.flatMap((h) => h.rooms.map((r) => ({ g, h, r }))));
  return sendCsv(
    reply,
    name,
    csv(
      ['nights_of_days', 'check_in', 'check_out', 'hotel', 'tier', 'booking', 'room_type', 'guests', 'upgrade'],
      rooms,
      ({ g, h, r }) => [
        `${g.start}-${g.end}`,
        g.checkIn,
        g.checkOut,
        h.hotel,
        h.tier,
        r.booking,
        r.roomType,
        r.guests.join('; '),
        r.upgrade ? 'yes' : 'no',
      ],
    ),
  );
}
