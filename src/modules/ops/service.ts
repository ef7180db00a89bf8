// Use cases of the ops module other than the health run itself: recording and listing
// deployments, reading and pruning the health history.
import type { AppContext } from '../../context.js';
import {
  type DeploymentRecord,
  deleteHealthResultsBefore,
  healthResultsSince,
  insertDeployment,
  latestDeployments,
  type StoredCheckResult,
} from './repository.js';
import { type DeploymentBody, deploymentInput } from './rules.js';
import { HEALTH_CHECK_TASK } from './tasks.js';

export type { DeploymentRecord } from './repository.js';

/** how many deployments the dashboard card lists */
export const RECENT_DEPLOYMENTS = 20;
/** health results are kept one day */
export const HEALTH_HISTORY_MS = 24 * 60 * 60 * 1000;

type Ctx = Pick<AppContext, 'database' | 'clock' | 'events' | 'log'>;

/**
 * Validates and stores a deployment, then emits 'deployment:completed' with the stored record
 * (a listener's failure is logged; the deployment stays recorded).
 */
export async function recordDeployment(ctx: Ctx, body: DeploymentBody): Promise<DeploymentRecord> {
  const input = deploymentInput(body);
  const record = await insertDeployment(ctx.database.db, input, ctx.clock.now());
  try {
    ctx.events.emit('deployment:completed', record);
  } catch (err) {
    ctx.log.error({ err, deploymentId: record.id }, 'a deployment:completed listener failed');
  }
  ctx.log.info(
    { deploymentId: record.id, environment: record.environment, version: record.version },
    'deployment recorded',
  );
  return record;
}

/** the latest deployments, newest first (the dashboard's deployments card) */
export function recentDeployments(ctx: Pick<AppContext, 'database'>, limit = RECENT_DEPLOYMENTS) {
  return latestDeployments(ctx.database.db, limit);
}

export interface HealthRun {
  batch: string;
  finishedAt: Date;
  checkResults: Omit<StoredCheckResult, 'batch' | 'finishedAt'>[];
}

/** the stored health runs of the last day, newest first (the health dashboard's history) */
export async function healthHistory(ctx: Pick<AppContext, 'database' | 'clock'>): Promise<HealthRun[]> {
  const since = new Date(ctx.clock.now().getTime() - HEALTH_HISTORY_MS);
  const runs = new Map<string, HealthRun>();
  for (const { batch, finishedAt, ...result } of await healthResultsSince(ctx.database.db, since)) {
    let run = runs.get(batch);
    if (!run) {
      run = { batch, finishedAt, checkResults: [] };
      runs.set(batch, run);
    }
    run.checkResults.push(result);
  }
  return [...runs.values()];
}

/** deletes health results older than one day; returns how many were deleted */
export async function pruneHealthHistory(ctx: Pick<AppContext, 'database' | 'clock'>): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - HEALTH_HISTORY_MS);
  // the every-minute health task's own run records (1,440 a day) are kept as long as its results
  await ctx.database.query('DELETE FROM task_runs WHERE name = $1 AND finished_at < $2', [HEALTH_CHECK_TASK, before]);
  return deleteHealthResultsBefore(ctx.database.db, before);
}
