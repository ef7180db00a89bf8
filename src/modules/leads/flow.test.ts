// End to end: the public endpoint, the real pg-boss worker in-process, the fake Pipedrive.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakePipedrive, startFakePipedrive } from '../../../test/fakes/pipedrive.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { waitFor } from '../../../test/support/wait.js';

let fake: FakePipedrive;
let t: TestApp;
beforeAll(async () => {
  fake = await startFakePipedrive();
  t = await createTestApp({
    env: { CRM_API_URL: fake.url, CRM_API_TOKEN: fake.token, IN_PROCESS_WORKERS: 'true' },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

it('a submitted lead reaches the CRM leads inbox and its sync record ends Synced with the lead UUID', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/leads',
    payload: {
      name: 'Carla',
      email: 'carla@example.com',
      destinations: [{ type: 'country', id: 'pe', label: 'Peru' }],
      consent: true,
    },
  });
  expect(res.statusCode).toBe(201);
  const status = async () =>
    (
      await t.database.query<{ status: string; remote_id: string | null }>(
        "SELECT status, remote_id FROM crm_sync_records WHERE model_type = 'lead'",
      )
    ).rows[0];
  await waitFor(async () => (await status())?.status === 'Synced', 15_000);
  expect(fake.leads).toHaveLength(1);
  expect(fake.leads[0]).toMatchObject({ title: 'Carla - Peru' });
  expect((await status()).remote_id).toBe(fake.leads[0].id);
});
