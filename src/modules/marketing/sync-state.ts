// The marketing mirror's outcome per subscriber, written after every try of the sync job, so
// operators see failures in the console (the CRM has its sync records; this is the same idea for
// ActiveCampaign, without the monitor actions: a failed marketing sync is retried by dispatching).
import { eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import type { DbOrTx } from '../../db/database.js';
import { marketingSyncStates } from '../../db/schema/index.js';
import type { JobDefinition, JobOutcome } from '../../platform/queue.js';
import type { MirrorPayload } from '../newsletter/rules.js';

export type MarketingSyncState = typeof marketingSyncStates.$inferSelect;

/** The state an outcome leaves: retried and released tries stay Pending with their error. */
export function stateOf(result: JobOutcome): { status: string; error: string | null } {
  switch (result.kind) {
    case 'done':
      return { status: 'Synced', error: null };
    case 'ignore':
      return { status: 'Ignored', error: result.reason };
    case 'fail':
      return { status: 'Failed', error: result.error };
    case 'retry':
      return { status: 'Pending', error: result.error };
    case 'release':
      return { status: 'Pending', error: result.error ?? null };
  }
}

export async function saveSyncState(
  db: DbOrTx,
  subscriberId: number,
  state: { status: string; error: string | null },
  attempt: number,
  at: Date,
): Promise<void> {
  const values = {
    status: state.status,
    attempts: attempt,
    lastError: state.error?.slice(0, 2000) ?? null,
    updatedAt: at,
  };
  // the subscriber may be gone (deleted meanwhile): nothing to record then
  await db
    .insert(marketingSyncStates)
    .select(
      sql`SELECT ${subscriberId}, ${values.status}, ${values.attempts}, ${values.lastError}, ${values.updatedAt.toISOString()}::timestamptz
          WHERE EXISTS (SELECT 1 FROM newsletter_subscribers WHERE id = ${subscriberId})`,
    )
    .onConflictDoUpdate({ target: marketingSyncStates.subscriberId, set: values });
}

export async function syncStateOf(db: DbOrTx, subscriberId: number): Promise<MarketingSyncState | null> {
  const rows = await db.select().from(marketingSyncStates).where(eq(marketingSyncStates.subscriberId, subscriberId));
  return rows[0] ?? null;
}

/** The sync job, recording the outcome of each try (and Failed when the tries are used up). */
export function recordingOutcomes(
  deps: Pick<AppContext, 'database' | 'log' | 'clock'>,
  def: JobDefinition<MirrorPayload>,
): JobDefinition<MirrorPayload> {
  const save = (payload: MirrorPayload, state: { status: string; error: string | null }, attempt: number) =>
    saveSyncState(deps.database.db, payload.subscriberId, state, attempt, deps.clock.now()).catch((err) =>
      deps.log.error({ err, subscriberId: payload.subscriberId }, 'marketing sync state not saved'),
    );
  return {
    ...def,
    async handler(payload, job) {
      try {
        const result = await def.handler(payload, job);
        await save(payload, stateOf(result), job.attempt);
        return result;
      } catch (err) {
        await save(
          payload,
          { status: 'Pending', error: err instanceof Error ? err.message : String(err) },
          job.attempt,
        );
        throw err;
      }
    },
    async onExhausted(payload, job, error) {
      await def.onExhausted?.(payload, job, error);
      await save(payload, { status: 'Failed', error }, job.attempt);
    },
  };
}

/** The states of these subscribers, by subscriber id. */
export async function syncStatesFor(db: DbOrTx, subscriberIds: number[]): Promise<Map<number, MarketingSyncState>> {
  if (!subscriberIds.length) return new Map();
  const rows = await db
    .select()
    .from(marketingSyncStates)
    .where(inArray(marketingSyncStates.subscriberId, subscriberIds));
  return new Map(rows.map((r) => [r.subscriberId, r]));
}

/** Subscribers whose marketing sync is in `status`, latest change first (the sync monitor). */
export async function latestSyncStates(db: DbOrTx, status: string, limit: number): Promise<MarketingSyncState[]> {
  return db
    .select()
    .from(marketingSyncStates)
    .where(eq(marketingSyncStates.status, status))
    .orderBy(sql`${marketingSyncStates.updatedAt} DESC`)
    .limit(limit);
}
