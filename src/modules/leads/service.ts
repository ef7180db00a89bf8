// Lead capture: the lead with its consent audit columns, its CRM sync record and the CRM push job
// are written in one transaction: all of them or none (a failed dispatch fails the request, so no
// lead is ever kept without its sync). The request makes no CRM call.
import type { AppContext } from '../../context.js';
import { type Tx, txExecutor } from '../../db/database.js';
import { crmConfigured, forgetSyncRecords, syncRecordFor } from '../crm/service.js';
import { leadCrmDispatchOptions, leadCrmPushJob } from './jobs.js';
import { deleteLeads as deleteLeadRows, findLead, insertLead, type Lead, listLeads } from './repository.js';
import type { LeadInput } from './rules.js';

/** Where a lead came from: the public website form is the only entry point of this service. */
export const LEAD_SOURCE = 'website';

export async function captureLead(ctx: AppContext, input: LeadInput, ip: string | null): Promise<Lead> {
  const now = ctx.clock.now();
  return ctx.database.db.transaction(async (tx) => {
    const lead = await insertLead(tx, {
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
    await queueCrmPush(ctx, lead.id, tx);
    return lead;
  });
}

/** Queues the CRM push in `tx`, unless the CRM is unconfigured (then nothing is dispatched, silently). */
async function queueCrmPush(ctx: AppContext, leadId: number, tx: Tx): Promise<void> {
  if (!crmConfigured(ctx.config)) return;
  await syncRecordFor(ctx, 'lead', leadId, tx);
  const payload = { leadId };
  await ctx.queue.dispatch(leadCrmPushJob(ctx), payload, {
    ...leadCrmDispatchOptions(payload),
    transaction: txExecutor(tx),
  });
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
