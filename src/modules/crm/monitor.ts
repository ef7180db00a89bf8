// The sync monitor's dispatching (spec 3): send the CRM job again for the records of a model in
// some statuses. Shared by `crm:retry-failed` and the console's "Dispatch pending".

import type { CrmSyncStatus } from '../../db/schema/crm.js';
import type { Queue } from '../../platform/queue.js';
import { leadCrmDispatchOptions, leadCrmPushJob } from '../leads/jobs.js';
import { newsletterCrmDispatchOptions, newsletterCrmSyncJob } from './jobs.js';
import { recordsIn } from './repository.js';
import type { CrmDeps } from './service.js';

export type SyncModel = 'newsletter_subscriber' | 'lead';
const BATCH = 500;

/** Dispatches the model's CRM job for one row; null when a job for it is already queued. */
export function dispatcher(model: SyncModel, deps: CrmDeps, queue: Queue): (id: number) => Promise<string | null> {
  if (model === 'lead') {
    const def = leadCrmPushJob(deps);
    return (leadId) => queue.dispatch(def, { leadId }, leadCrmDispatchOptions({ leadId }));
  }
  const def = newsletterCrmSyncJob(deps);
  return (subscriberId) => {
    const payload = { subscriberId, phoneOnly: false };
    return queue.dispatch(def, payload, newsletterCrmDispatchOptions(payload));
  };
}

/** Dispatches every record of `model` in `statuses` (never Ignored ones: callers pass statuses). */
export async function dispatchRecords(
  deps: CrmDeps,
  queue: Queue,
  model: SyncModel,
  statuses: CrmSyncStatus[],
): Promise<{ queued: number; already: number }> {
  const dispatch = dispatcher(model, deps, queue);
  let queued = 0;
  let already = 0;
  let after = 0;
  for (;;) {
    const rows = await recordsIn(deps.database.db, model, statuses, after, BATCH);
    if (!rows.length) break;
    for (const r of rows) {
      if ((await dispatch(r.modelId)) === null) already++;
      else queued++;
    }
    after = rows[rows.length - 1].id;
  }
  return { queued, already };
}
