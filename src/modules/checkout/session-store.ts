// Server-side checkout sessions behind one interface: PostgreSQL (default) or Redis (when
// REDIS_URL is set). A visitor has at most one live session; starting again replaces it atomically.
import { lt } from 'drizzle-orm';
import { Redis } from 'ioredis';
import type { AppContext } from '../../context.js';
import type { Database, Db } from '../../db/database.js';
import { RELAXED_CTE } from '../../db/relaxed-commit.js';
import { checkoutSessions } from '../../db/schema/index.js';
import { inTransaction } from '../../db/transaction.js';
import { bookingParams, INSERT_BOOKING_CTE, type NewBooking } from '../bookings/service.js';
import type { ClientData, TravelerData } from './rules.js';

export interface HotelSelection {
  upsell_hotel_id: number;
  nights_start: number;
  nights_end: number;
  tier: string;
  price_difference_cents: number;
  hotel_name: string;
  location: string | null;
}

export interface ActivitySelection {
  activity_id: number;
  day_number: number;
  price_cents: number;
  activity_name: string;
  location: string | null;
}

export interface TransferSelection {
  transfer_id: number;
  day_number: number;
  price_cents: number;
  transfer_name: string;
  location: string | null;
}

/**
 * The flight selection as the flights step stores it (spec fields); pricing reads
 * business_extra_price_per_person.
 */
export type FlightSelection = Record<string, unknown> & {
  cabin_class: 'ECONOMY' | 'BUSINESS';
  business_extra_price_per_person?: number | null;
  /** ECONOMY: a chosen fare dearer than the one the price was built on adds this per person */
  extra_price_per_person?: number | null;
};

/** What a checkout session holds (the `data` column). Money in integer cents of `currency`. */
export interface SessionState {
  offerId: number;
  bookingId: number;
  bookingReference: string;
  startedAt: string;
  marketCode: string;
  lang: string;
  currency: { code: string; symbol: string };
  paxCount: number;
  actualPaxCount: number;
  actualRoomType: string;
  isNonStandardPax: boolean;
  baseCents: number;
  /** the offer's final_price when base_price was last taken from it (refresh detection) */
  offerFinalCents: number;
  flightSelection: FlightSelection | null;
  hotelSelections: HotelSelection[];
  activitySelections: ActivitySelection[];
  transferSelections: TransferSelection[];
  clientData: ClientData | null;
  travelerData: TravelerData[] | null;
}

export interface StoredSession {
  id: string;
  visitorId: string;
  state: SessionState;
  expiresAt: Date;
  /**
   * The offer's current final_price when the store can read it in the same round trip (database
   * store); undefined otherwise, null when the offer is gone.
   */
  offerFinalPrice?: string | null;
}

export interface SessionStore {
  /** Stores a new session and discards the visitor's previous one in the same step. */
  replace(session: StoredSession, now: Date): Promise<void>;
  /**
   * Inserts the booking and replaces the visitor's session with `session` (its state's bookingId
   * and bookingReference taken from the new booking) together: both are stored or neither (a
   * failed start leaves no booking behind). Null, and nothing stored, when the reference is taken.
   */
  startWithBooking(
    booking: NewBooking,
    session: StoredSession,
    now: Date,
  ): Promise<{ id: number; reference: string } | null>;
  /** The live (unexpired) session with this id. */
  find(id: string, now: Date): Promise<StoredSession | null>;
  /** Merges top-level state keys and extends the expiry; false when the session is gone. */
  patch(id: string, patch: Partial<SessionState>, expiresAt: Date, now: Date): Promise<boolean>;
  /** Deletes expired sessions; returns how many. */
  prune(now: Date): Promise<number>;
}

export class DbSessionStore implements SessionStore {
  private readonly db: Db;
  constructor(private readonly database: Database) {
    this.db = database.db;
  }

  // the unique visitor_id makes concurrent starts of one visitor serialize on one row
  private static readonly UPSERT = `ON CONFLICT (visitor_id) DO UPDATE SET id = excluded.id,
    booking_id = excluded.booking_id, offer_id = excluded.offer_id, market_code = excluded.market_code,
    data = excluded.data, expires_at = excluded.expires_at, created_at = excluded.created_at,
    updated_at = excluded.updated_at`;

  async replace(s: StoredSession, now: Date): Promise<void> {
    await this.database.query(
      `WITH ${RELAXED_CTE}
       INSERT INTO checkout_sessions (id, visitor_id, booking_id, offer_id, market_code, data, expires_at, created_at, updated_at)
       SELECT $1::varchar, $2::varchar, $3::int, $4::int, $5::varchar, $6::jsonb, $7::timestamptz, $8::timestamptz,
              $8::timestamptz FROM relaxed
       ${DbSessionStore.UPSERT}`,
      [
        s.id,
        s.visitorId,
        s.state.bookingId,
        s.state.offerId,
        s.state.marketCode,
        JSON.stringify(s.state),
        s.expiresAt.toISOString(),
        now.toISOString(),
      ],
      'checkout_replace_session',
    );
  }

  // start: booking and session in one statement and one relaxed commit (the session row references
  // the booking inserted by the CTE before it; its data gets the new booking id and reference)
  async startWithBooking(
    booking: NewBooking,
    s: StoredSession,
    now: Date,
  ): Promise<{ id: number; reference: string } | null> {
    const { rows } = await this.database.query<{ id: number; reference: string }>(
      `${INSERT_BOOKING_CTE},
       session AS (
         INSERT INTO checkout_sessions (id, visitor_id, booking_id, offer_id, market_code, data, expires_at, created_at, updated_at)
         SELECT $11::varchar, $12::varchar, i.id, $2::int, $3::varchar,
                $13::jsonb || jsonb_build_object('bookingId', i.id, 'bookingReference', i.reference),
                $14::timestamptz, $15::timestamptz, $15::timestamptz
           FROM inserted i
         ${DbSessionStore.UPSERT}
       )
       SELECT id, reference FROM inserted`,
      [
        ...bookingParams(booking),
        s.id,
        s.visitorId,
        JSON.stringify(s.state),
        s.expiresAt.toISOString(),
        now.toISOString(),
      ],
      'checkout_start',
    );
    return rows[0] ?? null;
  }

  async find(id: string, now: Date): Promise<StoredSession | null> {
    // the hot path of GET session: one round trip that also brings the offer's current price
    const { rows } = await this.database.query<{
      id: string;
      visitor_id: string;
      data: SessionState;
      expires_at: Date;
      final_price: string | null;
    }>(
      `SELECT s.id, s.visitor_id, s.data, s.expires_at, o.final_price
         FROM checkout_sessions s LEFT JOIN offers o ON o.id = s.offer_id
        WHERE s.id = $1 AND s.expires_at > $2`,
      [id, now.toISOString()],
      'checkout_find_session',
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id,
      visitorId: r.visitor_id,
      state: typeof r.data === 'string' ? JSON.parse(r.data) : r.data,
      expiresAt: new Date(r.expires_at),
      offerFinalPrice: r.final_price === null ? null : String(r.final_price),
    };
  }

  async patch(id: string, patch: Partial<SessionState>, expiresAt: Date, now: Date): Promise<boolean> {
    const { rows } = await this.database.query(
      `WITH ${RELAXED_CTE}
       UPDATE checkout_sessions SET data = data || $1::jsonb, expires_at = $2::timestamptz, updated_at = $3::timestamptz
         FROM relaxed
        WHERE id = $4 AND expires_at > $3::timestamptz
       RETURNING id`,
      [JSON.stringify(patch), expiresAt.toISOString(), now.toISOString(), id],
      'checkout_patch_session',
    );
    return rows.length > 0;
  }

  async prune(now: Date): Promise<number> {
    const rows = await this.db
      .delete(checkoutSessions)
      .where(lt(checkoutSessions.expiresAt, now))
      .returning({ id: checkoutSessions.id });
    return rows.length;
  }
}

// Redis layout: a hash per session (one JSON field per state key, so a patch touches only its keys)
// and a string per visitor naming the live session; both expire with the session.
// KEYS: session, visitor; ARGV: session key prefix, ttl ms, new id, field, value, ...
const REPLACE = `
local old = redis.call('GET', KEYS[2])
if old then redis.call('DEL', ARGV[1] .. old) end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
return 1`;

// KEYS: session, visitor key prefix; ARGV: ttl ms, field, value, ...
const PATCH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
local visitor = redis.call('HGET', KEYS[1], '__visitor')
if visitor then redis.call('PEXPIRE', KEYS[2] .. cjson.decode(visitor), ARGV[1]) end
return 1`;

export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly database: Database,
    private readonly prefix = 'itinera:checkout:',
  ) {}

  // the booking's transaction stays open while Redis stores the session (bounded by the command
  // time-out): a Redis that fails or stalls rolls the booking back, so no booking is left without a session
  async startWithBooking(
    booking: NewBooking,
    s: StoredSession,
    now: Date,
  ): Promise<{ id: number; reference: string } | null> {
    return inTransaction(this.database, async (tx) => {
      const { rows } = await tx.executeSql(
        `${INSERT_BOOKING_CTE} SELECT id, reference FROM inserted`,
        bookingParams(booking),
      );
      const row = rows[0] as { id: number; reference: string } | undefined;
      if (!row) return null;
      await this.replace({ ...s, state: { ...s.state, bookingId: row.id, bookingReference: row.reference } }, now);
      return row;
    });
  }

  private sessionKey(id: string): string {
    return `${this.prefix}s:${id}`;
  }

  private visitorKey(visitorId: string): string {
    return `${this.prefix}v:${visitorId}`;
  }

  private static fields(obj: Record<string, unknown>): string[] {
    return Object.entries(obj).flatMap(([k, v]) => [k, JSON.stringify(v ?? null)]);
  }

  async replace(s: StoredSession, now: Date): Promise<void> {
    const ttl = Math.max(1, s.expiresAt.getTime() - now.getTime());
    const fields = RedisSessionStore.fields({
      ...(s.state as unknown as Record<string, unknown>),
      __visitor: s.visitorId,
      __expires: s.expiresAt.toISOString(),
    });
    await this.redis.eval(
      REPLACE,
      2,
      this.sessionKey(s.id),
      this.visitorKey(s.visitorId),
      `${this.prefix}s:`,
      String(ttl),
      s.id,
      ...fields,
    );
  }

  async find(id: string, now: Date): Promise<StoredSession | null> {
    const raw = await this.redis.hgetall(this.sessionKey(id));
    if (!raw.__visitor) return null;
    const expiresAt = new Date(JSON.parse(raw.__expires));
    if (expiresAt <= now) return null;
    const state: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) if (!k.startsWith('__')) state[k] = JSON.parse(v);
    return { id, visitorId: JSON.parse(raw.__visitor), state: state as unknown as SessionState, expiresAt };
  }

  async patch(id: string, patch: Partial<SessionState>, expiresAt: Date, now: Date): Promise<boolean> {
    const ttl = Math.max(1, expiresAt.getTime() - now.getTime());
    const fields = RedisSessionStore.fields({
      ...(patch as Record<string, unknown>),
      __expires: expiresAt.toISOString(),
    });
    const done = await this.redis.eval(PATCH, 2, this.sessionKey(id), `${this.prefix}v:`, String(ttl), ...fields);
    return done === 1;
  }

  async prune(): Promise<number> {
    // keys expire by themselves
    return 0;
  }
}

/** Redis when REDIS_URL is set (sessions shared by every process, expiring on their own), else the database. */
export function createSessionStore(ctx: AppContext): { store: SessionStore; close(): Promise<void> } {
  if (!ctx.config.redisUrl) return { store: new DbSessionStore(ctx.database), close: async () => {} };
  // every command has a deadline (queued ones too, while connecting): a Redis that refuses or never
  // answers fails the request fast (503 service_unavailable) instead of hanging it
  const redis = new Redis(ctx.config.redisUrl, {
    maxRetriesPerRequest: 1,
    connectTimeout: ctx.config.limits.redisConnectTimeoutMs,
    commandTimeout: ctx.config.limits.redisCommandTimeoutMs,
  });
  // connection errors surface on the next command; log them instead of crashing on the event
  redis.on('error', (err) => ctx.log.warn({ err }, 'checkout session store: redis error'));
  return {
    store: new RedisSessionStore(redis, ctx.database, `${ctx.config.redisKeyPrefix}checkout:`),
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
