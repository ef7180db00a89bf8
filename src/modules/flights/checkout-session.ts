// Access to the checkout session from the flights and payment routes: the same session token
// (header or signed cookie) and store as the checkout module, through its CheckoutService. Extra state this module
// keeps in the session (search metadata) lives under its own top-level keys.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { type CheckoutService, checkoutServiceOf } from '../checkout/service.js';
import type { SessionState, StoredSession } from '../checkout/session-store.js';
import { sessionTokenOf } from '../checkout/session-transport.js';
import type { MarketScope } from '../markets/rules.js';
import type { BusinessSearchMeta, EconomySearchMeta } from './cache.js';

/** The session state with the flight search metadata this module adds. */
export type FlightSessionState = SessionState & {
  economySearch?: EconomySearchMeta | null;
  businessSearch?: BusinessSearchMeta | null;
};

export interface FlightSession extends StoredSession {
  state: FlightSessionState;
}

const byContext = new WeakMap<AppContext, CheckoutSessions>();

export class CheckoutSessions {
  readonly checkout: CheckoutService;

  private constructor(private readonly ctx: AppContext) {
    // the checkout module's own service and store: one session store (one Redis connection) per app
    this.checkout = checkoutServiceOf(ctx);
  }

  static of(ctx: AppContext): CheckoutSessions {
    let s = byContext.get(ctx);
    if (!s) {
      s = new CheckoutSessions(ctx);
      byContext.set(ctx, s);
    }
    return s;
  }

  /** The session token: the X-Checkout-Session header, else the signed cookie. */
  token(request: FastifyRequest): string | undefined {
    return sessionTokenOf(request);
  }

  async find(scope: MarketScope, request: FastifyRequest): Promise<FlightSession | null> {
    return (await this.checkout.currentSession(scope, this.token(request))) as FlightSession | null;
  }

  /** Session-bound writes and payments answer 400 no_checkout_session without one. */
  async require(scope: MarketScope, request: FastifyRequest): Promise<FlightSession> {
    const s = await this.find(scope, request);
    if (!s) throw new AppError(400, 'no_checkout_session', 'No active checkout session.');
    return s;
  }

  private expiry(): Date {
    return new Date(this.ctx.clock.now().getTime() + this.ctx.config.checkout.sessionTtlMinutes * 60_000);
  }

  async save(s: FlightSession, patch: Partial<FlightSessionState>): Promise<FlightSessionState> {
    const ok = await this.checkout.store.patch(
      s.id,
      patch as Partial<SessionState>,
      this.expiry(),
      this.ctx.clock.now(),
    );
    if (!ok) throw new AppError(400, 'no_checkout_session', 'No active checkout session.');
    return { ...s.state, ...patch };
  }

  /** Ends the session (after payment): it expires now, so every reader treats it as gone. */
  async clear(s: FlightSession): Promise<void> {
    await this.endById(s.id);
  }

  /** Ends a session by its id (a finalization by the webhook or the reconciliation, no request). */
  async endById(id: string): Promise<void> {
    const now = this.ctx.clock.now();
    await this.checkout.store.patch(id, {}, new Date(now.getTime() - 1), now);
  }
}
