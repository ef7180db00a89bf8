// marketing:sync-subscribers: guard order, exit codes, output, order and spacing of the jobs.
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/app.js';
import { createTestDatabase } from '../../../test/support/db.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { type CliContext, parseArgs } from '../../platform/cli.js';
import { commands } from './commands.js';
import { MARKETING_JOB, MARKETING_QUEUE } from './jobs.js';

let database: Database;
const configured = testConfig({
  MARKETING_API_URL: 'http://127.0.0.1:1',
  MARKETING_API_TOKEN: 'token',
  MARKETING_LIST_ID: '3',
});

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await database.exec('DELETE FROM newsletter_subscribers; DELETE FROM pgboss.job;');
});

async function backfill(argv: string[], config: Config = configured) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliContext = {
    config,
    database,
    log: pino({ level: 'silent' }),
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  };
  const code = await commands['marketing:sync-subscribers'].run(
    parseArgs(commands['marketing:sync-subscribers'], argv),
    cli,
  );
  return { code, out, err };
}

async function seed(n: number, synced: number[] = []) {
  await database.query(
    `INSERT INTO newsletter_subscribers (email, name, consent_given_at, privacy_policy_version, marketing_contact_id)
     SELECT 's' || g || '@viajes.test', 'S ' || g, now(), 'v1.0', CASE WHEN g = ANY($2::int[]) THEN 1000 + g END
       FROM generate_series(1, $1) g`,
    [n, synced],
  );
  return (
    await database.query<{ id: number; email: string }>('SELECT id, email FROM newsletter_subscribers ORDER BY id')
  ).rows;
}

async function queued() {
  return (
    await database.query<{ data: any; delay: number }>(
      `SELECT data, round(extract(epoch FROM start_after - created_on))::int AS delay
         FROM pgboss.job WHERE name = $1 ORDER BY start_after, (data->'payload'->>'subscriberId')::int`,
      [MARKETING_QUEUE],
    )
  ).rows;
}

describe('marketing:sync-subscribers', () => {
  it('dry run reports and queues nothing, even when marketing is unconfigured', async () => {
    await seed(3, [2]);
    const r = await backfill(['--dry-run'], testConfig());
    expect(r).toEqual({
      code: 0,
      out: ['Dry run: 2 subscriber(s) without a marketing contact would be queued (limit 500).'],
      err: [],
    });
    expect(await queued()).toEqual([]);
  });

  it('exits 0 when nothing is pending, before checking the configuration', async () => {
    await seed(2, [1, 2]);
    const r = await backfill([], testConfig());
    expect(r).toEqual({ code: 0, out: ['No subscribers without a marketing contact: nothing to queue.'], err: [] });
  });

  it('exits 1 without queueing when the credentials are missing', async () => {
    await seed(2);
    const r = await backfill([], testConfig({ MARKETING_API_URL: 'http://127.0.0.1:1', MARKETING_API_TOKEN: 't' }));
    expect(r).toEqual({
      code: 1,
      out: [],
      err: ['Marketing is not configured: set MARKETING_API_URL, MARKETING_API_TOKEN and MARKETING_LIST_ID.'],
    });
    expect(await queued()).toEqual([]);
  });

  it('queues subscribers without a contact id, lowest id first, one second apart, up to the limit', async () => {
    const subs = await seed(6, [2]);
    const r = await backfill(['--limit=4']);
    expect(r).toEqual({
      code: 0,
      out: ['Queued 4 marketing sync job(s), one second apart, lowest subscriber id first.'],
      err: [],
    });
    const jobs = await queued();
    const expected = [subs[0], subs[2], subs[3], subs[4]].map((s) => s.id);
    expect(jobs.map((j) => j.data)).toEqual(
      expected.map((id) => ({ job: MARKETING_JOB, payload: { subscriberId: id, phoneOnly: false } })),
    );
    expect(jobs.map((j) => j.delay)).toEqual([0, 1, 2, 3]);
  });

  it('reads past one batch of 500 by id', async () => {
    await seed(1203, [1, 600]);
    const r = await backfill(['--limit=1201']);
    expect(r.code).toBe(0);
    const jobs = await queued();
    expect(jobs).toHaveLength(1201);
    expect(jobs.at(-1)?.delay).toBe(1200);
    const ids = jobs.map((j) => j.data.payload.subscriberId);
    expect(new Set(ids).size).toBe(1201);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
  });

  it('refuses a bad --limit', async () => {
    const r = await backfill(['--limit=abc']);
    expect(r).toEqual({ code: 2, out: [], err: ['--limit must be a whole number of at least 1'] });
  });
});
