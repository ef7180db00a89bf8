// SQL of the CRM mirror's sync records. The mirrored rows (subscribers, leads, clients) are read
// and linked through their own modules' functions.
import { and, asc, desc, eq, gt, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { type CrmModelType, type CrmSyncStatus, crmSyncRecords } from '../../db/schema/index.js';
import type { SyncState } from './rules.js';

export type SyncRecord = typeof crmSyncRecords.$inferSelect;

export async function findRecord(db: DbOrTx, modelType: CrmModelType, modelId: number): Promise<SyncRecord | null> {
  const rows = await db
    .select()
    .from(crmSyncRecords)
    .where(and(eq(crmSyncRecords.modelType, modelType), eq(crmSyncRecords.modelId, modelId)));
  return rows[0] ?? null;
}

export async function findRecordById(db: DbOrTx, id: number): Promise<SyncRecord | null> {
  const rows = await db.select().from(crmSyncRecords).where(eq(crmSyncRecords.id, id));
  return rows[0] ?? null;
}

/** The record of a model row, created Pending when it does not exist yet (safe under races). */
export async function ensureRecord(db: DbOrTx, modelType: CrmModelType, modelId: number): Promise<SyncRecord> {
  await db.insert(crmSyncRecords).values({ modelType, modelId, status: 'Pending' }).onConflictDoNothing();
  return (await findRecord(db, modelType, modelId))!;
}

/** Writes a new state if the row still holds `expected` status (a concurrent monitor action wins). */
export async function saveState(
  db: DbOrTx,
  record: SyncRecord,
  to: SyncState,
  now: Date,
  expected: CrmSyncStatus = record.status,
): Promise<boolean> {
  const rows = await db
    .update(crmSyncRecords)
    .set({
      status: to.status,
      remoteId: to.remoteId,
      attempts: to.attempts,
      lastError: to.lastError,
      syncedAt: to.status === 'Synced' && record.status !== 'Synced' ? now : record.syncedAt,
      updatedAt: now,
    })
    .where(and(eq(crmSyncRecords.id, record.id), eq(crmSyncRecords.status, expected)))
    .returning({ id: crmSyncRecords.id });
  return rows.length > 0;
}

/** Records of one model in the given statuses, by id, one batch at a time. */
export async function recordsIn(
  db: DbOrTx,
  modelType: CrmModelType,
  statuses: CrmSyncStatus[],
  afterId: number,
  limit: number,
): Promise<SyncRecord[]> {
  return db
    .select()
    .from(crmSyncRecords)
    .where(
      and(
        eq(crmSyncRecords.modelType, modelType),
        inArray(crmSyncRecords.status, statuses),
        gt(crmSyncRecords.id, afterId),
      ),
    )
    .orderBy(asc(crmSyncRecords.id))
    .limit(limit);
}

/** The monitor's list: records of one model in the given statuses, most recently changed first. */
export async function latestRecords(
  db: DbOrTx,
  modelType: CrmModelType,
  statuses: CrmSyncStatus[],
  limit: number,
): Promise<SyncRecord[]> {
  return db
    .select()
    .from(crmSyncRecords)
    .where(and(eq(crmSyncRecords.modelType, modelType), inArray(crmSyncRecords.status, statuses)))
    .orderBy(desc(crmSyncRecords.updatedAt), desc(crmSyncRecords.id))
    .limit(limit);
}

export async function countByStatus(db: DbOrTx, modelType: CrmModelType): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: crmSyncRecords.status, n: sql<number>`count(*)::int` })
    .from(crmSyncRecords)
    .where(eq(crmSyncRecords.modelType, modelType))
    .groupBy(crmSyncRecords.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/**
 * Of these model ids, in their order, those whose row is neither Synced nor Ignored (no record
 * counts as not synced). The ids come from the model's own module.
 */
export async function unsyncedAmong(
  db: DbOrTx,
  modelType: 'newsletter_subscriber' | 'lead',
  ids: number[],
): Promise<number[]> {
  if (!ids.length) return [];
  const settled = await db
    .select({ id: crmSyncRecords.modelId })
    .from(crmSyncRecords)
    .where(
      and(
        eq(crmSyncRecords.modelType, modelType),
        inArray(crmSyncRecords.modelId, ids),
        notInArray(crmSyncRecords.status, ['Pending', 'Failed']),
      ),
    );
  const skip = new Set(settled.map((r) => r.id));
  return ids.filter((id) => !skip.has(id));
}

/** The CRM person of the last synced of these local clients (checkout's `clients`), through their sync records. */
export async function syncedClientPersonId(db: DbOrTx, clientIds: number[]): Promise<number | null> {
  if (!clientIds.length) return null;
  const [row] = await db
    .select({ remoteId: crmSyncRecords.remoteId })
    .from(crmSyncRecords)
    .where(
      and(
        eq(crmSyncRecords.modelType, 'client'),
        eq(crmSyncRecords.status, 'Synced'),
        isNotNull(crmSyncRecords.remoteId),
        inArray(crmSyncRecords.modelId, clientIds),
      ),
    )
    .orderBy(desc(crmSyncRecords.updatedAt))
    .limit(1);
  const id = row ? Number(row.remoteId) : Number.NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

export async function deleteRecords(db: DbOrTx, modelType: CrmModelType, modelIds: number[]): Promise<void> {
  if (!modelIds.length) return;
  await db
    .delete(crmSyncRecords)
    .where(and(eq(crmSyncRecords.modelType, modelType), inArray(crmSyncRecords.modelId, modelIds)));
}

/** The records of these rows of a model, by model id (rows without a record are left out). */
export async function recordsFor(
  db: DbOrTx,
  modelType: CrmModelType,
  modelIds: number[],
): Promise<Map<number, SyncRecord>> {
  if (!modelIds.length) return new Map();
  const rows = await db
    .select()
    .from(crmSyncRecords)
    .where(and(eq(crmSyncRecords.modelType, modelType), inArray(crmSyncRecords.modelId, modelIds)));
  return new Map(rows.map((r) => [r.modelId, r]));
}
