// SQL of the ops module through Drizzle: deployments, health history and notification throttles.
import { and, desc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { deployments, healthCheckResults, opsCounters, opsNotificationThrottles } from '../../db/schema/index.js';
import type { DeploymentInput, HealthStatus } from './rules.js';

export interface DeploymentRecord extends DeploymentInput {
  id: number;
  recordedAt: Date;
}

export async function insertDeployment(db: Db, input: DeploymentInput, recordedAt: Date): Promise<DeploymentRecord> {
  const [row] = await db
    .insert(deployments)
    .values({ ...input, recordedAt })
    .returning();
  return toDeployment(row!);
}

export async function latestDeployments(db: Db, limit: number): Promise<DeploymentRecord[]> {
  const rows = await db
    .select()
    .from(deployments)
    .orderBy(desc(deployments.recordedAt), desc(deployments.id))
    .limit(limit);
  return rows.map(toDeployment);
}

function toDeployment(row: typeof deployments.$inferSelect): DeploymentRecord {
  return {
    id: row.id,
    environment: row.environment,
    version: row.version,
    commit: row.commit,
    buildDate: row.buildDate,
    buildId: row.buildId,
    recordedAt: row.recordedAt,
  };
}

export interface StoredCheckResult {
  batch: string;
  name: string;
  status: HealthStatus;
  message: string | null;
  meta: Record<string, unknown> | null;
  finishedAt: Date;
}

export async function insertHealthResults(db: Db, rows: StoredCheckResult[]): Promise<void> {
  if (rows.length > 0) await db.insert(healthCheckResults).values(rows);
}

/** results finished at or after `since`, newest run first, checks in their run order */
export async function healthResultsSince(db: Db, since: Date): Promise<StoredCheckResult[]> {
  const rows = await db
    .select()
    .from(healthCheckResults)
    .where(gte(healthCheckResults.finishedAt, since))
    .orderBy(desc(healthCheckResults.finishedAt), healthCheckResults.id);
  return rows.map((r) => ({
    batch: r.batch,
    name: r.name,
    status: r.status as HealthStatus,
    message: r.message,
    meta: r.meta,
    finishedAt: r.finishedAt,
  }));
}

/** deletes results finished before `before`; returns how many */
export async function deleteHealthResultsBefore(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(healthCheckResults)
    .where(lt(healthCheckResults.finishedAt, before))
    .returning({ id: healthCheckResults.id });
  return rows.length;
}

/**
 * Claims the right to send the notification `key` at `now` when none was sent after `notAfter`.
 * One atomic upsert, so of several processes racing only one wins.
 */
export async function claimThrottle(db: Db, key: string, now: Date, notAfter: Date): Promise<boolean> {
  const rows = await db
    .insert(opsNotificationThrottles)
    .values({ key, lastSentAt: now })
    .onConflictDoUpdate({
      target: opsNotificationThrottles.key,
      set: { lastSentAt: sql`excluded.last_sent_at` },
      setWhere: lte(opsNotificationThrottles.lastSentAt, notAfter),
    })
    .returning({ key: opsNotificationThrottles.key });
  return rows.length > 0;
}

/** gives a claim back (the send failed), so the next failing run tries again */
export async function releaseThrottle(db: Db, key: string, claimedAt: Date): Promise<void> {
  await db
    .delete(opsNotificationThrottles)
    .where(and(eq(opsNotificationThrottles.key, key), eq(opsNotificationThrottles.lastSentAt, claimedAt)));
}

export async function addToCounter(db: Db, name: string, labels: string, by: number): Promise<void> {
  await db
    .insert(opsCounters)
    .values({ name, labels, value: by })
    .onConflictDoUpdate({
      target: [opsCounters.name, opsCounters.labels],
      set: { value: sql`${opsCounters.value} + ${by}` },
    });
}

export async function countersNamed(db: Db, name: string): Promise<Array<{ labels: string; value: number }>> {
  return db
    .select({ labels: opsCounters.labels, value: opsCounters.value })
    .from(opsCounters)
    .where(eq(opsCounters.name, name));
}
