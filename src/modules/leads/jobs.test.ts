import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakePipedrive, startFakePipedrive } from '../../../test/fakes/pipedrive.js';
import { addLead, crmDeps } from '../../../test/support/crm.js';
import { createTestDatabase } from '../../../test/support/db.js';
import type { Database } from '../../db/database.js';
import { clients, crmSyncRecords, leads } from '../../db/schema/index.js';
import { findRecord } from '../crm/repository.js';
import { leadCrmDispatchOptions, leadCrmPushJob } from './jobs.js';

let database: Database;
let fake: FakePipedrive;
beforeAll(async () => {
  database = await createTestDatabase();
  fake = await startFakePipedrive();
});
afterAll(async () => {
  await fake.close();
  await database.close();
});
beforeEach(() => fake.reset());

const info = { id: 'j1', name: 'lead.crm-push', queue: 'crm-sync', attempt: 1, signal: new AbortController().signal };

async function run(leadId: number, env: Record<string, string> = {}) {
  const { deps, logger } = crmDeps(database, fake, env);
  const result = await leadCrmPushJob(deps).handler({ leadId }, info);
  const record = await findRecord(database.db, 'lead', leadId);
  const [lead] = await database.db.select().from(leads).where(eq(leads.id, leadId));
  return { result, record, lead, logger };
}

const paths = () => fake.calls().map((r) => `${r.method} ${r.path}`);

describe('lead CRM push job', () => {
  it('is create-only on crm-sync with 3 tries, backoff 30/60/180 and a 600 s unique window per lead', () => {
    const { deps } = crmDeps(database, fake);
    expect(leadCrmPushJob(deps)).toMatchObject({
      name: 'lead.crm-push',
      queue: 'crm-sync',
      tries: 3,
      timeoutSeconds: 120,
      backoffSeconds: [30, 60, 180],
      uniqueSeconds: 600,
    });
    expect(leadCrmDispatchOptions({ leadId: 12 })).toEqual({ uniqueKey: 'lead-crm:12' });
  });

  it('creates a person with the consent fields, then the lead with its title and four fields', async () => {
    const lead = await addLead(database, {
      name: 'Ana',
      phone: '+34 600 123 123',
      destinations: [
        { type: 'country', id: 'jp', label: 'Japan' },
        { type: 'region', label: 'Kyoto' },
      ],
      preferredCallTime: 'after 6 pm',
    });
    const { result, record, lead: after } = await run(lead.id);
    expect(result).toEqual({ kind: 'done' });
    expect(paths()).toEqual(['GET /api/v2/persons/search', 'POST /api/v2/persons', 'POST /v1/leads']);

    const person = fake.persons.get(after.crmPersonId!)!;
    expect(person).toMatchObject({
      name: 'Ana',
      emails: [{ value: lead.email, primary: true }],
      phones: [{ value: '+34 600 123 123', primary: true }],
    });
    expect(fake.personCustom(person, 'Consent Given At')).toBe('2026-06-02');
    expect(fake.personCustom(person, 'Privacy Policy Version')).toBe('v1.0');
    expect(fake.personCustom(person, 'Consent IP')).toBe('198.51.100.4');

    const crmLead = fake.leads.at(-1)!;
    expect(crmLead).toMatchObject({ title: 'Ana - Japan, Kyoto', person_id: person.id });
    expect(fake.leadCustom(crmLead, 'Website Lead ID')).toBe(String(lead.id));
    expect(fake.leadCustom(crmLead, 'Lead Source')).toBe('website');
    expect(fake.leadCustom(crmLead, 'Destinations')).toBe('Japan, Kyoto');
    expect(fake.leadCustom(crmLead, 'Preferred Call Time')).toBe('after 6 pm');
    // the lead fields live in the deal field schema
    expect(fake.dealFields.map((f) => f.field_name)).toEqual(
      expect.arrayContaining(['Website Lead ID', 'Lead Source', 'Destinations', 'Preferred Call Time']),
    );

    expect(record).toMatchObject({ status: 'Synced', remoteId: crmLead.id });
  });

  it('titles a lead without destinations "Web inquiry from {name}"', async () => {
    const lead = await addLead(database, { name: 'Bo', destinations: [] });
    await run(lead.id);
    expect(fake.leads.at(-1)?.title).toBe('Web inquiry from Bo');
    expect(fake.leadCustom(fake.leads.at(-1)!, 'Destinations')).toBeUndefined();
  });

  it('reuses a person found by exact email and never patches consent onto it', async () => {
    const lead = await addLead(database);
    const existing = fake.addPerson({ name: 'Known', email: lead.email });
    const { result, record } = await run(lead.id);
    expect(result).toEqual({ kind: 'done' });
    expect(paths()).toEqual(['GET /api/v2/persons/search', 'POST /v1/leads']);
    expect(fake.leads.at(-1)?.person_id).toBe(existing.id);
    expect(fake.personCustom(existing, 'Consent IP')).toBeUndefined();
    expect(record?.status).toBe('Synced');
  });

  it('reuses the person of a synced local client with the same email, without searching', async () => {
    const lead = await addLead(database);
    const person = fake.addPerson({ name: 'Client', email: 'billing@example.com' });
    const [client] = await database.db
      .insert(clients)
      .values({ firstName: 'Client', lastName: 'Billing', email: lead.email.toUpperCase(), phone: '+34600000000' })
      .returning();
    await database.db
      .insert(crmSyncRecords)
      .values({ modelType: 'client', modelId: client.id, remoteId: String(person.id), status: 'Synced' });
    await run(lead.id);
    expect(paths()).toEqual(['POST /v1/leads']);
    expect(fake.leads.at(-1)?.person_id).toBe(person.id);
  });

  it('short-circuits when the record has a remote id (create-only)', async () => {
    const lead = await addLead(database);
    await database.db
      .insert(crmSyncRecords)
      .values({ modelType: 'lead', modelId: lead.id, remoteId: 'abc-uuid', status: 'Pending' });
    const { result, record } = await run(lead.id);
    expect(result).toEqual({ kind: 'done' });
    expect(fake.requests).toHaveLength(0);
    expect(record).toMatchObject({ status: 'Synced', remoteId: 'abc-uuid' });
  });

  it('stops without a CRM call when the token is blank or the lead is gone', async () => {
    const lead = await addLead(database);
    expect((await run(lead.id, { CRM_API_TOKEN: '' })).result.kind).toBe('ignore');
    expect((await run(9_999_999)).result.kind).toBe('ignore');
    expect(fake.requests).toHaveLength(0);
  });

  it('a failed lead creation keeps the new person, so the retry does not create another', async () => {
    const lead = await addLead(database);
    fake.fail({ method: 'POST', path: '/v1/leads' }, { hang: true });
    const first = await run(lead.id);
    expect(first.result.kind).toBe('retry');
    expect(first.record?.status).toBe('Failed');
    expect(first.lead.crmPersonId).not.toBeNull();

    fake.reset();
    const second = await run(lead.id);
    expect(second.result).toEqual({ kind: 'done' });
    expect(paths()).toEqual(['POST /v1/leads']);
    expect(second.record).toMatchObject({ status: 'Synced', attempts: 2 });
  });

  it('429: released for Retry-After, record Pending with the error', async () => {
    const lead = await addLead(database);
    fake.fail({ method: 'POST', path: '/v1/leads' }, { status: 429, retryAfter: '7' });
    const { result, record } = await run(lead.id);
    expect(result).toMatchObject({ kind: 'release', seconds: 7 });
    expect(record).toMatchObject({ status: 'Pending', attempts: 0 });
  });

  it('422 from the CRM: Failed, not retried, reported', async () => {
    const lead = await addLead(database);
    fake.fail({ method: 'POST', path: '/v1/leads' }, { status: 422 });
    const { result, record, logger } = await run(lead.id);
    expect(result.kind).toBe('fail');
    expect(record?.status).toBe('Failed');
    expect(logger.errors()).toHaveLength(1);
  });
});
