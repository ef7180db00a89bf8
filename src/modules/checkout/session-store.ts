// Server-side checkout sessions behind one interface: PostgreSQL (default) or Redis (when
// REDIS_URL is set). A visitor has at most one live session; starting again replaces it atomically.
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { Database, Db } from '../../db/database.js';
import { checkoutSessions } from '../../db/schema/index.js';
import { relaxedCommit } from './repository.js';
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

  async replace(s: StoredSession, now: Date): Promise<void> {
    const values = {
      id: s.id,
      visitorId: s.visitorId,
      bookingId: s.state.bookingId,
      offerId: s.state.offerId,
      marketCode: s.state.marketCode,
      data: s.state as unknown as Record<string, unknown>,
      expiresAt: s.expiresAt,
      createdAt: now,
      updatedAt: now,
    };
    // the unique visitor_id makes concurrent starts of one visitor serialize on one row
    await relaxedCommit(this.db, (tx) =>
      tx
        .insert(checkoutSessions)
        .values(values)
        .onConflictDoUpdate({
          target: checkoutSessions.visitorId,
          set: {
            id: sql`excluded.id`,
            bookingId: sql`excluded.booking_id`,
            offerId: sql`excluded.offer_id`,
            marketCode: sql`excluded.market_code`,
            data: sql`excluded.data`,
            expiresAt: sql`excluded.expires_at`,
            createdAt: sql`excluded.created_at`,
            updatedAt: sql`excluded.updated_at`,
          },
        }),
    );
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
    const rows = await relaxedCommit(this.db, (tx) =>
      tx
        .update(checkoutSessions)
        .set({
          data: sql`${checkoutSessions.data} || ${JSON.stringify(patch)}::jsonb`,
          expiresAt,
          updatedAt: now,
        })
        .where(and(eq(checkoutSessions.id, id), gt(checkoutSessions.expiresAt, now)))
        .returning({ id: checkoutSessions.id }),
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
    private readonly prefix = 'itinera:checkout:',
  ) {}

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
