// Use cases of the CRM mirror shared by its jobs, commands and (coming) monitor screens: moving a
// sync record through the state machine, turning a CRM failure into a job outcome, and the
// monitor actions Retry and Reactivate.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, DbOrTx } from '../../db/database.js';
import type { CrmModelType } from '../../db/schema/crm.js';
import { type Clock, systemClock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import { type JobOutcome, outcome } from '../../platform/queue.js';
import { clientIdsByEmail } from '../checkout/api.js';
import { countEvent, notifyAdmins } from '../ops/alerts.js';
import { CrmError, type FieldKeyCache, PipedriveClient } from './pipedrive.js';
import {
  claimPersonLock,
  deleteRecords,
  ensureRecord,
  findRecord,
  findRecordById,
  releasePersonLock,
  type SyncRecord,
  saveState,
  syncedClientPersonId,
} from './repository.js';
import { type SyncEvent, transition } from './rules.js';

/** What the CRM jobs and commands need; an AppContext or a CLI context both provide it. */
export interface CrmDeps {
  config: Config;
  database: Database;
  log: FastifyBaseLogger;
  clock?: Clock;
  /** tests pass a short one; production uses 30 s */
  crmTimeoutMs?: number;
  fieldCache?: FieldKeyCache;
}

export function crmConfigured(config: Config): boolean {
  return config.crm.apiToken.trim() !== '';
}

/** The CRM client; `signal` (a job's time-out) stops every call it makes. */
export function pipedriveFor(deps: CrmDeps, signal?: AbortSignal): PipedriveClient {
  const clock = deps.clock ?? systemClock;
  return new PipedriveClient({
    signal,
    apiUrl: deps.config.crm.apiUrl,
    apiToken: deps.config.crm.apiToken,
    timeoutMs: deps.crmTimeoutMs,
    now: () => clock.now(),
    fieldCache: deps.fieldCache,
  });
}

/**
 * Applies `event` to the record; returns the updated record, or null when the state machine
 * refuses the move or the row changed under us (e.g. an operator reactivated it meanwhile).
 */
export async function applyEvent(deps: CrmDeps, record: SyncRecord, event: SyncEvent): Promise<SyncRecord | null> {
  const move = transition(
    { status: record.status, remoteId: record.remoteId, attempts: record.attempts, lastError: record.lastError },
    event,
  );
  if (!move) return null;
  const now = (deps.clock ?? systemClock).now();
  const saved = await saveState(deps.database.db, record, move.to, now);
  if (!saved) return null;
  const ctx = { syncRecordId: record.id, model: record.modelType, modelId: record.modelId, event: event.type };
  const message = 'error' in event ? event.error : 'reason' in event ? event.reason : undefined;
  if (move.report === 'error') deps.log.error({ ...ctx, error: message }, 'CRM sync failed');
  if (move.to.status === 'Failed' && (event.type === 'rejected' || event.type === 'exhausted')) {
    await raiseSyncFailed(deps, record, message ?? 'failed');
  } else if (move.report === 'info')
    deps.log.info({ ...ctx, detail: message }, `CRM sync record now ${move.to.status}`);
  return { ...record, ...move.to };
}

/**
 * A sync that ended Failed (refused by the CRM, or out of tries): counted in
 * crm_sync_failed_total{model} and told to the admins (at most one e-mail an hour), so an outage
 * does not wait for someone to run crm:retry-failed.
 */
async function raiseSyncFailed(deps: CrmDeps, record: SyncRecord, error: string): Promise<void> {
  try {
    await countEvent(deps, 'crm_sync_failed_total', { model: record.modelType });
    await notifyAdmins(deps, {
      key: 'crm:sync-failed',
      subject: `CRM sync failed (${record.modelType} ${record.modelId})`,
      text: [
        `The CRM mirror of ${record.modelType} ${record.modelId} ended Failed (sync record ${record.id}):`,
        error,
        '',
        'Run `npm run cli -- crm:retry-failed` once the cause is fixed. Further failures within the next 60 minutes are not e-mailed.',
      ].join('\n'),
    });
  } catch (err) {
    deps.log.error({ err, syncRecordId: record.id }, 'CRM failure notification failed');
  }
}

/** Maps a failure of a CRM call to the record's move and the job's outcome (spec 3 table). */
export async function failureOutcome(deps: CrmDeps, record: SyncRecord, err: unknown): Promise<JobOutcome> {
  if (!(err instanceof CrmError)) {
    // a bug or the database: let the queue's backoff run it again, the record says why
    const error = err instanceof Error ? err.message : String(err);
    await applyEvent(deps, record, { type: 'connection_error', error });
    return outcome.retry(error);
  }
  switch (err.kind) {
    case 'rate_limited':
      await applyEvent(deps, record, { type: 'rate_limited', error: err.message });
      return outcome.release(err.retryAfter ?? 10, err.message);
    case 'connection':
      await applyEvent(deps, record, { type: 'connection_error', error: err.message });
      return outcome.retry(err.message);
    case 'deleted':
      await applyEvent(deps, record, { type: 'deleted', reason: err.message });
      return outcome.ignore(err.message);
    case 'rejected':
      await applyEvent(deps, record, { type: 'rejected', error: err.message });
      return outcome.fail(err.message);
  }
}

/** The queue's "all retries exhausted": Failed, logged at error. */
export async function markExhausted(
  deps: CrmDeps,
  modelType: CrmModelType,
  modelId: number,
  error: string,
): Promise<void> {
  const record = await findRecord(deps.database.db, modelType, modelId);
  if (!record) return;
  const saved = await applyEvent(deps, record, { type: 'exhausted', error });
  if (!saved) deps.log.error({ syncRecordId: record.id, error }, 'CRM sync retries exhausted');
}

async function monitorAction(
  deps: CrmDeps,
  id: number,
  event: SyncEvent,
  from: 'Failed' | 'Ignored',
): Promise<SyncRecord> {
  const record = await findRecordById(deps.database.db, id);
  if (!record) throw new AppError(404, 'not_found', `Sync record ${id} not found.`);
  const saved = await applyEvent(deps, record, event);
  if (!saved) {
    const article = from === 'Ignored' ? 'an' : 'a';
    throw new AppError(
      409,
      'invalid_transition',
      `Only ${article} ${from} record can be moved; this one is ${record.status}.`,
    );
  }
  return saved;
}

/** Monitor action Retry: Failed -> Pending, reset only (a command re-dispatches). */
export function retrySyncRecord(deps: CrmDeps, id: number): Promise<SyncRecord> {
  return monitorAction(deps, id, { type: 'retry_action' }, 'Failed');
}

/** Monitor action Reactivate: Ignored -> Pending (the next sync returns it to Ignored if still deleted). */
export function reactivateSyncRecord(deps: CrmDeps, id: number): Promise<SyncRecord> {
  return monitorAction(deps, id, { type: 'reactivate' }, 'Ignored');
}

/** The sync record of a model row, created Pending on first use. */
export function syncRecordFor(
  deps: Pick<CrmDeps, 'database'>,
  modelType: CrmModelType,
  modelId: number,
  tx?: DbOrTx,
): Promise<SyncRecord> {
  return ensureRecord(tx ?? deps.database.db, modelType, modelId);
}

/** Re-reads a record after a move the database refused (another writer got there first). */
export async function currentRecord(deps: CrmDeps, record: SyncRecord): Promise<SyncRecord> {
  return (await findRecordById(deps.database.db, record.id)) ?? record;
}

/** The CRM person of a synced local client with this email, if any. */
export async function syncedClientPerson(deps: CrmDeps, email: string): Promise<number | null> {
  return syncedClientPersonId(deps.database.db, await clientIdsByEmail(deps.database.db, email));
}

/** Drops the sync records of deleted model rows (the CRM keeps its copies). */
export function forgetSyncRecords(
  deps: Pick<CrmDeps, 'database'>,
  modelType: CrmModelType,
  modelIds: number[],
  tx?: DbOrTx,
): Promise<void> {
  return deleteRecords(tx ?? deps.database.db, modelType, modelIds);
}

/** Longer than a CRM job's 120 s time-out: a lock outlives its holder only when the holder died. */
export const PERSON_LOCK_SECONDS = 150;
const PERSON_LOCK_POLL_MS = 100;

/**
 * Runs `work` while holding the CRM person lock of `email` (trimmed, lower-cased): the newsletter,
 * lead and client mirrors of one e-mail take turns between "look for the person" and "remember
 * the one created", in every process, so a sign-up and a lead sent together create one person.
 * A row in crm_person_locks rather than an advisory lock: it holds no connection during the CRM
 * calls and works the same on PGlite and PostgreSQL. Waiting stops with `signal` (the job's
 * time-out) as a connection error, so the job is retried.
 */
export async function withPersonLock<T>(
  deps: CrmDeps,
  email: string,
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const key = email.trim().toLowerCase();
  const holder = randomUUID();
  const db = deps.database.db;
  while (!(await claimPersonLock(db, key, holder, PERSON_LOCK_SECONDS))) {
    if (signal?.aborted) throw new CrmError('connection', `waiting for the CRM person lock of ${key}: stopped`);
    await new Promise((resolve) => setTimeout(resolve, PERSON_LOCK_POLL_MS));
  }
  try {
    return await work();
  } finally {
    await releasePersonLock(db, key, holder).catch((err: unknown) =>
      deps.log.warn({ err }, 'CRM person lock not released; it expires by itself'),
    );
  }
}
