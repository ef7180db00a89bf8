// The lead's CRM push (spec 3, "CRM push"): create-only. Resolves a person (a synced local
// client's, else one found by exact email, else a new one with the consent fields), then creates
// a lead in the Pipedrive Leads Inbox and keeps its UUID as the sync record's remote id.

import type { DispatchOptions, JobDefinition, JobOutcome } from '../../platform/queue.js';
import { outcome } from '../../platform/queue.js';
import { consentValues, crmSyncJobSettings } from '../crm/jobs.js';
import { CONSENT_FIELDS, LEAD_FIELDS } from '../crm/pipedrive.js';
import { leadTitle } from '../crm/rules.js';
import {
  applyEvent,
  type CrmDeps,
  crmConfigured,
  currentRecord,
  failureOutcome,
  markExhausted,
  pipedriveFor,
  syncedClientPerson,
  syncRecordFor,
  withPersonLock,
} from '../crm/service.js';
import { findLead, type Lead, setLeadPerson } from './repository.js';

export interface LeadCrmPayload {
  leadId: number;
}

export const LEAD_CRM_JOB = 'lead.crm-push';

export function leadCrmPushJob(deps: CrmDeps): JobDefinition<LeadCrmPayload> {
  return {
    name: LEAD_CRM_JOB,
    ...crmSyncJobSettings(deps),
    handler: (payload, job) => pushLead(deps, payload, job.signal),
    onExhausted: (payload, _job, error) => markExhausted(deps, 'lead', payload.leadId, error),
  };
}

export function leadCrmDispatchOptions(payload: LeadCrmPayload): DispatchOptions {
  return { uniqueKey: `lead-crm:${payload.leadId}` };
}

/** The four lead fields, keyed by their names in the deal field schema. */
export function leadFieldValues(lead: Lead): Record<string, string> {
  const values: Record<string, string> = {
    [LEAD_FIELDS.leadId.name]: String(lead.id),
    [LEAD_FIELDS.source.name]: lead.source,
  };
  const labels = lead.destinations.map((d) => d.label).filter(Boolean);
  if (labels.length) values[LEAD_FIELDS.destinations.name] = labels.join(', ');
  if (lead.preferredCallTime) values[LEAD_FIELDS.preferredCallTime.name] = lead.preferredCallTime;
  return values;
}

export async function pushLead(deps: CrmDeps, payload: LeadCrmPayload, signal?: AbortSignal): Promise<JobOutcome> {
  const { log } = deps;
  const db = deps.database.db;
  const ctx = { leadId: payload.leadId };
  const lead = await findLead(db, payload.leadId);
  if (!lead) {
    log.info(ctx, 'CRM lead push: lead deleted, nothing to do');
    return outcome.ignore('lead deleted');
  }
  if (!crmConfigured(deps.config)) {
    log.info(ctx, 'CRM lead push: CRM token blank, skipped');
    return outcome.ignore('CRM token blank');
  }
  let record = await syncRecordFor(deps, 'lead', lead.id);
  if (record.status === 'Ignored') return outcome.ignore('sync record is Ignored');
  if (record.remoteId) {
    // create-only: the CRM lead exists already
    if (record.status !== 'Synced') await applyEvent(deps, record, { type: 'delivered', remoteId: record.remoteId });
    return outcome.done();
  }

  const client = pipedriveFor(deps, signal);
  try {
    let personId = lead.crmPersonId;
    if (!personId) {
      // one person per e-mail: a newsletter or client mirror of the same e-mail waits its turn
      personId = await withPersonLock(deps, lead.email, signal, async () => {
        let id = await syncedClientPerson(deps, lead.email);
        if (!id) id = (await client.findPersonByEmail(lead.email))?.id ?? null;
        if (!id) {
          const created = await client.createPerson(
            { name: lead.name, email: lead.email, phone: lead.phone, custom: consentValues(lead) },
            Object.values(CONSENT_FIELDS),
          );
          id = created.id;
          log.info({ ...ctx, personId: id }, 'CRM lead push: person created');
        }
        // kept so a retry after a failed lead creation does not create the person again
        await setLeadPerson(db, lead.id, id, deps.clock?.now() ?? new Date());
        return id;
      });
    }
    const title = leadTitle(
      lead.name,
      lead.destinations.map((d) => d.label),
    );
    const uuid = await client.createLead(
      { title, personId, custom: leadFieldValues(lead) },
      Object.values(LEAD_FIELDS),
    );
    await applyEvent(deps, record, { type: 'delivered', remoteId: uuid });
    log.info({ ...ctx, personId, crmLeadId: uuid }, 'CRM lead push: lead created');
    return outcome.done();
  } catch (err) {
    record = await currentRecord(deps, record);
    return failureOutcome(deps, record, err);
  }
}

/** The leads module's jobs, for src/jobs.ts. */
export function jobs(deps: CrmDeps): JobDefinition<any>[] {
  return [leadCrmPushJob(deps)];
}
