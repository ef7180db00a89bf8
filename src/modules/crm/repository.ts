// SQL of the CRM mirror: sync records, and the two newsletter subscriber columns the mirror
// reads and writes (crm_person_id is the CRM mirror's column by the schema's own note).
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import {
  type CrmModelType,
  type CrmSyncStatus,
  clients,
  crmSyncRecords,
  leads,
  newsletterSubscribers,
} from '../../db/schema/index.js';
import type { SyncState } from './rules.js';

export type SyncRecord = typeof crmSyncRecords.$inferSelect;
export type Subscriber = typeof newsletterSubscribers.$inferSelect;

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

export async function countByStatus(db: DbOrTx, modelType: CrmModelType): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: crmSyncRecords.status, n: sql<number>`count(*)::int` })
    .from(crmSyncRecords)
    .where(eq(crmSyncRecords.modelType, modelType))
    .groupBy(crmSyncRecords.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Ids of model rows that are neither Synced nor Ignored (no record counts as not synced). */
export async function unsyncedModelIds(
  db: DbOrTx,
  modelType: 'newsletter_subscriber' | 'lead',
  afterId: number,
  limit: number,
): Promise<number[]> {
  const table = modelType === 'lead' ? leads : newsletterSubscribers;
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .leftJoin(crmSyncRecords, and(eq(crmSyncRecords.modelType, modelType), eq(crmSyncRecords.modelId, table.id)))
    .where(
      and(gt(table.id, afterId), or(isNull(crmSyncRecords.id), inArray(crmSyncRecords.status, ['Pending', 'Failed']))),
    )
    .orderBy(asc(table.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function getSubscriber(db: DbOrTx, id: number): Promise<Subscriber | null> {
  const rows = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.id, id));
  return rows[0] ?? null;
}

export async function subscribersAfter(db: DbOrTx, afterId: number, limit: number): Promise<Subscriber[]> {
  return db
    .select()
    .from(newsletterSubscribers)
    .where(gt(newsletterSubscribers.id, afterId))
    .orderBy(asc(newsletterSubscribers.id))
    .limit(limit);
}

export async function linkSubscriber(db: DbOrTx, id: number, personId: number, now: Date): Promise<void> {
  await db
    .update(newsletterSubscribers)
    .set({ crmPersonId: personId, updatedAt: now })
    .where(eq(newsletterSubscribers.id, id));
}

/** The CRM person of a synced local client (checkout's `clients`) with this email, through the client sync records. */
export async function syncedClientPersonId(db: DbOrTx, email: string): Promise<number | null> {
  const [row] = await db
    .select({ remoteId: crmSyncRecords.remoteId })
    .from(crmSyncRecords)
    .innerJoin(clients, eq(clients.id, crmSyncRecords.modelId))
    .where(
      and(
        eq(crmSyncRecords.modelType, 'client'),
        eq(crmSyncRecords.status, 'Synced'),
        isNotNull(crmSyncRecords.remoteId),
        sql`lower(${clients.email}) = lower(${email})`,
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
