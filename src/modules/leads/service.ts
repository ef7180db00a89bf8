// Lead capture: store the lead with its consent audit columns, then queue the CRM push. The
// request makes no CRM call; a dispatch failure is logged and swallowed so the lead is kept.
import type { AppContext } from '../../context.js';
import { crmConfigured, forgetSyncRecords, syncRecordFor } from '../crm/service.js';
import { LEAD_CRM_JOB, leadCrmDispatchOptions, leadCrmPushJob } from './jobs.js';
import { deleteLeads as deleteLeadRows, findLead, insertLead, type Lead, listLeads } from './repository.js';
import type { LeadInput } from './rules.js';

/** Where a lead came from: the public website form is the only entry point of this service. */
export const LEAD_SOURCE = 'website';

export async function captureLead(ctx: AppContext, input: LeadInput, ip: string | null): Promise<Lead> {
  const now = ctx.clock.now();
  const lead = await insertLead(ctx.database.db, {
    name: input.name,
    email: input.email,
    phone: input.phone,
    region: input.region,
    destinations: input.destinations,
    preferredCallTime: input.preferredCallTime,
    source: LEAD_SOURCE,
    consentGivenAt: now,
    privacyPolicyVersion: ctx.config.newsletter.privacyPolicyVersion,
    consentIp: ip,
    createdAt: now,
    updatedAt: now,
  });
  await queueCrmPush(ctx, lead.id);
  return lead;
}

/** Queues the CRM push unless the CRM is unconfigured (then nothing is dispatched, silently). */
export async function queueCrmPush(ctx: AppContext, leadId: number): Promise<void> {
  if (!crmConfigured(ctx.config)) return;
  try {
    await syncRecordFor(ctx, 'lead', leadId);
    const payload = { leadId };
    await ctx.queue.dispatch(leadCrmPushJob(ctx), payload, leadCrmDispatchOptions(payload));
  } catch (err) {
    ctx.log.error({ leadId, job: LEAD_CRM_JOB, err }, 'lead CRM push could not be queued');
  }
}

/** Admin list (permission view_lead): newest first, optionally searched by name, e-mail or phone. */
export function leadPage(ctx: AppContext, page = 1, perPage = 25, q?: string) {
  return listLeads(ctx.database.db, Math.max(1, page), Math.min(Math.max(1, perPage), 100), q);
}

/** One lead for the admin view (permission view_lead). */
export function leadById(ctx: AppContext, id: number): Promise<Lead | null> {
  return findLead(ctx.database.db, id);
}

/** Admin bulk delete (permission delete_lead): the leads and their sync records, in one transaction. */
export async function deleteLeads(ctx: AppContext, ids: number[]): Promise<number> {
  return ctx.database.db.transaction(async (tx) => {
    const deleted = await deleteLeadRows(tx, ids);
    await forgetSyncRecords(ctx, 'lead', deleted, tx);
    return deleted.length;
  });
}
