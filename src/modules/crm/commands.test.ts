// The CRM commands against the real pg-boss queue (dispatch only) and the fake Pipedrive.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakePipedrive, startFakePipedrive } from '../../../test/fakes/pipedrive.js';
import { addLead, addSubscriber, crmDeps } from '../../../test/support/crm.js';
import { createTestDatabase } from '../../../test/support/db.js';
import type { Database } from '../../db/database.js';
import { crmSyncRecords } from '../../db/schema/index.js';
import { type CliContext, parseArgs } from '../../platform/cli.js';
import { crmCommands } from './commands.js';
import { findRecord } from './repository.js';

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
beforeEach(async () => {
  fake.reset();
  fake.persons.clear();
  await database.exec(
    'DELETE FROM crm_sync_records; DELETE FROM newsletter_subscribers; DELETE FROM leads; DELETE FROM pgboss.job;',
  );
});

async function cli(argv: string[], env: Record<string, string> = {}) {
  const { deps } = crmDeps(database, fake, env);
  const out: string[] = [];
  const err: string[] = [];
  const ctx: CliContext = {
    config: deps.config,
    database,
    log: deps.log,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  };
  const commands = crmCommands({ deps: { crmTimeoutMs: deps.crmTimeoutMs, fieldCache: deps.fieldCache } });
  const [name, ...rest] = argv;
  const code = await commands[name].run(parseArgs(commands[name], rest), ctx);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function queued() {
  const { rows } = await database.query<{ data: { job: string; payload: Record<string, unknown> } }>(
    "SELECT data FROM pgboss.job WHERE name = 'crm-sync' ORDER BY created_on, id",
  );
  return rows.map((r) => r.data);
}

async function track(modelType: 'newsletter_subscriber' | 'lead', modelId: number, status: string, remoteId?: string) {
  await database.db
    .insert(crmSyncRecords)
    .values({ modelType, modelId, status: status as 'Pending', remoteId: remoteId ?? null });
}

describe('usage', () => {
  it('exits 2 with the usage line on a missing or unknown model or status', async () => {
    for (const argv of [
      ['crm:retry-failed'],
      ['crm:retry-failed', '--model=client'],
      ['crm:retry-failed', '--model=lead', '--status=ignored'],
      ['crm:sync-all', '--model=orders'],
      ['crm:reconcile', '--model=lead'],
    ]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(/usage: crm:/);
    }
    expect(await queued()).toEqual([]);
  });

  it('exits 1 without dispatching when the CRM token is blank', async () => {
    const sub = await addSubscriber(database);
    await track('newsletter_subscriber', sub.id, 'Failed');
    const r = await cli(['crm:retry-failed', '--model=newsletter_subscriber'], { CRM_API_TOKEN: '' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/CRM_API_TOKEN is not set/);
    expect(await queued()).toEqual([]);
  });
});

describe('crm:retry-failed', () => {
  it('re-dispatches Failed rows by default, Pending with --status=pending, both with all; never Ignored', async () => {
    const ids: Record<string, number> = {};
    for (const status of ['Failed', 'Pending', 'Synced', 'Ignored']) {
      const s = await addSubscriber(database);
      ids[status] = s.id;
      await track('newsletter_subscriber', s.id, status);
    }
    const failed = await cli(['crm:retry-failed', '--model=newsletter_subscriber']);
    expect(failed.code).toBe(0);
    expect(failed.out).toBe('crm:retry-failed newsletter_subscriber (Failed): 1 dispatched, 0 already queued.');
    expect(await queued()).toEqual([
      { job: 'newsletter.crm-sync', payload: { subscriberId: ids.Failed, phoneOnly: false } },
    ]);

    const pending = await cli(['crm:retry-failed', '--model=newsletter_subscriber', '--status=pending']);
    expect(pending.out).toMatch(/\(Pending\): 1 dispatched/);

    // both are inside their unique window now
    const all = await cli(['crm:retry-failed', '--model=newsletter_subscriber', '--status=all']);
    expect(all.out).toBe('crm:retry-failed newsletter_subscriber (Failed, Pending): 0 dispatched, 2 already queued.');
    const payloads = (await queued()).map((j) => j.payload.subscriberId);
    expect(payloads.sort()).toEqual([ids.Failed, ids.Pending].sort());
    // the records themselves are not touched by a re-dispatch
    expect((await findRecord(database.db, 'newsletter_subscriber', ids.Failed))?.status).toBe('Failed');
  });

  it('re-dispatches failed leads with the lead job', async () => {
    const lead = await addLead(database);
    await track('lead', lead.id, 'Failed');
    const r = await cli(['crm:retry-failed', '--model=lead']);
    expect(r.code).toBe(0);
    expect(await queued()).toEqual([{ job: 'lead.crm-push', payload: { leadId: lead.id } }]);
  });

  it('crm:retry-failed --force says it is refused for subscribers and leads, and carries on', async () => {
    const failed = await addSubscriber(database);
    await track('newsletter_subscriber', failed.id, 'Failed');
    const r = await cli(['crm:retry-failed', '--model=newsletter_subscriber', '--force']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--force is refused for newsletter_subscriber/);
    expect(r.out).toMatch(/1 dispatched/);
    const l = await cli(['crm:retry-failed', '--model=lead', '--force']);
    expect(l.code).toBe(0);
    expect(l.out).toMatch(/--force is refused for lead/);
  });
});

describe('crm:sync-all', () => {
  it('dispatches every row that is neither Synced nor Ignored, untracked rows included', async () => {
    const untracked = await addSubscriber(database);
    const pending = await addSubscriber(database);
    const failed = await addSubscriber(database);
    const synced = await addSubscriber(database);
    const ignored = await addSubscriber(database);
    await track('newsletter_subscriber', pending.id, 'Pending');
    await track('newsletter_subscriber', failed.id, 'Failed');
    await track('newsletter_subscriber', synced.id, 'Synced', '1');
    await track('newsletter_subscriber', ignored.id, 'Ignored', '2');
    const r = await cli(['crm:sync-all', '--model=newsletter_subscriber']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      'crm:sync-all newsletter_subscriber: 3 dispatched, 0 already queued; skipped 1 Synced and 1 Ignored.',
    );
    expect((await queued()).map((j) => j.payload.subscriberId)).toEqual([untracked.id, pending.id, failed.id]);
  });

  it('refuses --force for subscribers and leads with a notice, and carries on without it', async () => {
    const synced = await addSubscriber(database);
    await track('newsletter_subscriber', synced.id, 'Synced', '9');
    const r = await cli(['crm:sync-all', '--model=newsletter_subscriber', '--force']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--force is refused for newsletter_subscriber/);
    expect(await queued()).toEqual([]);

    const lead = await addLead(database);
    const l = await cli(['crm:sync-all', '--model=lead', '--force']);
    expect(l.out).toMatch(/--force is refused for lead/);
    expect(await queued()).toEqual([{ job: 'lead.crm-push', payload: { leadId: lead.id } }]);
  });
});

describe('crm:reconcile', () => {
  it('links persons found by email, marks missing rows Pending, Ignores deleted ones, leaves Ignored alone', async () => {
    const inSync = await addSubscriber(database);
    const p1 = fake.addPerson({ name: 'A', email: inSync.email });
    await track('newsletter_subscriber', inSync.id, 'Synced', String(p1.id));

    const deleted = await addSubscriber(database);
    const p2 = fake.addPerson({ name: 'B', email: deleted.email });
    await track('newsletter_subscriber', deleted.id, 'Synced', String(p2.id));
    fake.deletePerson(p2.id, 'soft');

    const findable = await addSubscriber(database);
    const p3 = fake.addPerson({ name: 'C', email: findable.email });
    await track('newsletter_subscriber', findable.id, 'Failed');

    const missing = await addSubscriber(database);

    const ignored = await addSubscriber(database);
    fake.addPerson({ name: 'E', email: ignored.email });
    await track('newsletter_subscriber', ignored.id, 'Ignored');

    const r = await cli(['crm:reconcile']);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`subscriber ${deleted.id}: CRM person ${p2.id} is deleted -> Ignored`);
    expect(r.out).toContain(`subscriber ${findable.id}: linked to CRM person ${p3.id} found by email (Failed)`);
    expect(r.out).toContain(`subscriber ${missing.id}: not in the CRM (Pending, record created)`);
    expect(r.out).toContain(
      'crm:reconcile newsletter_subscriber: 1 in sync, 1 linked by email, 1 missing from the CRM, ' +
        '1 deleted in the CRM (now Ignored), 1 Ignored left alone.',
    );
    expect(r.out).toContain('Run crm:sync-all --model=newsletter_subscriber');

    expect(await findRecord(database.db, 'newsletter_subscriber', deleted.id)).toMatchObject({ status: 'Ignored' });
    expect(await findRecord(database.db, 'newsletter_subscriber', findable.id)).toMatchObject({
      status: 'Failed',
      remoteId: String(p3.id),
    });
    expect(await findRecord(database.db, 'newsletter_subscriber', missing.id)).toMatchObject({ status: 'Pending' });
    expect(await findRecord(database.db, 'newsletter_subscriber', ignored.id)).toMatchObject({
      status: 'Ignored',
      remoteId: null,
    });
    // the Ignored row was not even looked up, and nothing was written to the CRM
    expect(fake.requests.some((q) => q.query.term === ignored.email)).toBe(false);
    expect(fake.requests.every((q) => q.method === 'GET')).toBe(true);
    expect(await queued()).toEqual([]);
  });

  it('waits out a 429 and carries on', async () => {
    const sub = await addSubscriber(database);
    fake.fail({ path: '/api/v2/persons/search' }, { status: 429, retryAfter: '1' });
    const r = await cli(['crm:reconcile']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('rate limited by the CRM, waiting 1 s');
    expect(r.out).toContain(`subscriber ${sub.id}: not in the CRM`);
  });

  it('stops with exit 1 when the CRM refuses the token', async () => {
    await addSubscriber(database);
    const r = await cli(['crm:reconcile'], { CRM_API_TOKEN: 'wrong' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/crm:reconcile stopped: GET \/api\/v2\/persons\/search: HTTP 401/);
    expect(r.err).not.toContain('wrong');
  });
});

describe('monitor commands', () => {
  async function recordOf(subscriberId: number) {
    return (await findRecord(database.db, 'newsletter_subscriber', subscriberId))!;
  }

  it('crm:records lists a model by status, latest change first, with attempts and the last error', async () => {
    const failed = await addSubscriber(database);
    const ignored = await addSubscriber(database);
    const lead = await addLead(database);
    await track('newsletter_subscriber', failed.id, 'Failed');
    await track('newsletter_subscriber', ignored.id, 'Ignored', '77');
    await track('lead', lead.id, 'Failed');
    await database.exec(`UPDATE crm_sync_records SET attempts = 3, last_error = 'HTTP 500' WHERE status = 'Failed'`);

    const all = await cli(['crm:records', '--model=newsletter_subscriber']);
    expect(all.code).toBe(0);
    const lines = all.out.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^#\\d+ newsletter_subscriber ${ignored.id} Ignored attempts=0 updated=`));
    expect(lines[1]).toMatch(
      new RegExp(`^#\\d+ newsletter_subscriber ${failed.id} Failed attempts=3 updated=\\S+ error: HTTP 500$`),
    );
    expect(lines[2]).toBe('2 record(s) of newsletter_subscriber (Pending, Synced, Failed, Ignored).');

    const onlyFailed = await cli(['crm:records', '--model=newsletter_subscriber', '--status=failed']);
    expect(onlyFailed.out.split('\n')).toHaveLength(2);
    expect(onlyFailed.out).toContain(`newsletter_subscriber ${failed.id} Failed`);

    expect(await cli(['crm:records', '--model=lead', '--status=synced'])).toMatchObject({
      code: 0,
      out: '0 record(s) of lead (Synced).',
    });
    expect((await cli(['crm:records', '--model=lead', '--status=lost'])).code).toBe(2);
    expect((await cli(['crm:records', '--model=lead', '--limit=0'])).code).toBe(2);
    expect((await cli(['crm:records'])).code).toBe(2);
  });

  it('crm:retry-record moves Failed to Pending with attempts reset and dispatches nothing', async () => {
    const sub = await addSubscriber(database);
    await track('newsletter_subscriber', sub.id, 'Failed');
    await database.exec(`UPDATE crm_sync_records SET attempts = 3, last_error = 'HTTP 500'`);
    const rec = await recordOf(sub.id);

    const res = await cli(['crm:retry-record', String(rec.id)]);
    expect(res.code).toBe(0);
    expect(res.out).toContain(`#${rec.id} newsletter_subscriber ${sub.id} Pending attempts=0`);
    expect(res.out).toContain('crm:retry-failed --model=newsletter_subscriber --status=pending');
    expect(await recordOf(sub.id)).toMatchObject({ status: 'Pending', attempts: 0 });
    expect(await queued()).toEqual([]);
    expect(fake.requests).toHaveLength(0);

    // only a Failed record moves; an unknown id or a missing one says so
    expect(await cli(['crm:retry-record', String(rec.id)])).toMatchObject({
      code: 1,
      err: 'Only a Failed record can be moved; this one is Pending.',
    });
    expect(await cli(['crm:retry-record', '9999999'])).toMatchObject({
      code: 1,
      err: 'Sync record 9999999 not found.',
    });
    expect((await cli(['crm:retry-record'])).code).toBe(2);
    expect((await cli(['crm:retry-record', 'abc'])).code).toBe(2);
  });

  it('crm:reactivate-record moves Ignored to Pending and nothing else', async () => {
    const sub = await addSubscriber(database);
    await track('newsletter_subscriber', sub.id, 'Ignored', '77');
    const rec = await recordOf(sub.id);
    const res = await cli(['crm:reactivate-record', String(rec.id)]);
    expect(res.code).toBe(0);
    expect(await recordOf(sub.id)).toMatchObject({ status: 'Pending', remoteId: '77' });
    expect(await cli(['crm:reactivate-record', String(rec.id)])).toMatchObject({
      code: 1,
      err: 'Only an Ignored record can be moved; this one is Pending.',
    });
  });
});
