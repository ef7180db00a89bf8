// The newsletter CRM job on the real pg-boss workers (in-process) against the fake Pipedrive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePipedrive, startFakePipedrive } from '../../../test/fakes/pipedrive.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { addSubscriber } from '../../../test/support/crm.js';
import { waitFor } from '../../../test/support/wait.js';
import { dispatchNewsletterCrmSync } from './jobs.js';
import { findRecord } from './repository.js';

let fake: FakePipedrive;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakePipedrive();
  t = await createTestApp({ env: { CRM_API_URL: fake.url, CRM_API_TOKEN: fake.token, IN_PROCESS_WORKERS: 'true' } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const record = (id: number) => findRecord(t.database.db, 'newsletter_subscriber', id);

describe('newsletter CRM mirror on the queue', () => {
  it('creates the person, then a phone-only job fills the phone; unique keys keep the two apart', async () => {
    const sub = await addSubscriber(t.database, { phone: null });
    const ctx = t.app.ctx;
    const first = await dispatchNewsletterCrmSync(ctx.queue, ctx, { subscriberId: sub.id, phoneOnly: false });
    expect(first).not.toBeNull();
    // a second initial dispatch inside the 600 s window is dropped
    expect(await dispatchNewsletterCrmSync(ctx.queue, ctx, { subscriberId: sub.id, phoneOnly: false })).toBeNull();
    await waitFor(async () => (await record(sub.id))?.status === 'Synced', 15_000);
    const personId = Number((await record(sub.id))!.remoteId);
    expect(fake.persons.get(personId)?.phones).toEqual([]);

    await t.database.query('UPDATE newsletter_subscribers SET phone = $1 WHERE id = $2', ['+34 600 700 800', sub.id]);
    const phone = await dispatchNewsletterCrmSync(ctx.queue, ctx, { subscriberId: sub.id, phoneOnly: true });
    expect(phone).not.toBeNull();
    await waitFor(() => fake.persons.get(personId)?.phones[0]?.value === '+34 600 700 800', 15_000);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/persons')).toHaveLength(1);
  });

  it('a 429 releases the job without using a try; it completes after Retry-After', async () => {
    const sub = await addSubscriber(t.database);
    fake.fail({ path: '/api/v2/persons/search' }, { status: 429, retryAfter: '1' });
    const ctx = t.app.ctx;
    const id = await dispatchNewsletterCrmSync(ctx.queue, ctx, { subscriberId: sub.id, phoneOnly: false });
    await waitFor(async () => (await record(sub.id))?.status === 'Synced', 20_000);
    expect(await record(sub.id)).toMatchObject({ attempts: 1, lastError: null });
    // the record is written inside the handler; pg-boss marks the job completed just after it returns
    const job = async () =>
      (
        await t.database.query<{ retry_count: number; state: string }>(
          'SELECT retry_count, state::text AS state FROM pgboss.job WHERE id = $1',
          [id],
        )
      ).rows[0];
    await waitFor(async () => (await job())?.state !== 'active', 15_000);
    expect(await job()).toEqual({ retry_count: 0, state: 'completed' });
  });

  it('a 401 fails the job for good: record Failed, pg-boss job failed, no retry', async () => {
    const sub = await addSubscriber(t.database);
    fake.fail({ path: '/api/v2/persons/search' }, { status: 401 });
    const ctx = t.app.ctx;
    const id = await dispatchNewsletterCrmSync(ctx.queue, ctx, { subscriberId: sub.id, phoneOnly: false });
    const state = async () =>
      (await t.database.query<{ state: string }>('SELECT state::text AS state FROM pgboss.job WHERE id = $1', [id]))
        .rows[0]?.state;
    await waitFor(async () => (await state()) === 'failed', 15_000);
    expect(await record(sub.id)).toMatchObject({ status: 'Failed', attempts: 1 });
    expect(fake.requests.filter((r) => r.query.term === sub.email)).toHaveLength(1);
  });
});
