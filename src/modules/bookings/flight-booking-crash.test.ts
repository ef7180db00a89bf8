// A worker killed between "order created" and "record stored": a real child process runs the leg
// job against the fake Duffel and is killed (SIGKILL) while Duffel has created the order and not
// yet answered. The job run again (here, in this process, on the same database) finds that order
// through Duffel's order list and stores it; no second order is created. Slow (a second Node
// process builds the app): 180 s allowed for a loaded machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type FakeDuffel, startFakeDuffel } from '../../../test/fakes/duffel.js';
import { createTestApp } from '../../../test/support/app.js';
import { copyTemplateDatabase } from '../../../test/support/db.js';
import { insertPaidBooking, liveSelection } from '../../../test/support/flight-booking.js';
import { connectPostgres, type Database, openPglite, PGLITE_CONF } from '../../db/database.js';
import { projectPath } from '../../platform/paths.js';
import { DuffelFlightProvider } from '../flights/duffel.js';
import { flightJobs } from '../flights/jobs.js';
import * as flightRecords from '../flights/repository.js';

let fake: FakeDuffel;
let dir: string;
/** where the child finds the database: a PostgreSQL URL, or a PGlite data directory */
let where: { DATABASE_URL?: string; PGLITE_DIR?: string };
let dropDatabase = async () => {};

async function openShared(): Promise<Database> {
  return where.DATABASE_URL ? connectPostgres(where.DATABASE_URL, 2) : openPglite(where.PGLITE_DIR!);
}

beforeAll(async () => {
  fake = await startFakeDuffel();
  dir = mkdtempSync(join(tmpdir(), 'itinera-crash-'));
  const url = process.env.DATABASE_URL;
  if (url) {
    const copy = await copyTemplateDatabase(url);
    where = { DATABASE_URL: copy.url };
    dropDatabase = copy.drop;
  } else {
    // a PGlite data directory on disk, from the migrated template, shared by both processes in turn
    const pglite = await PGlite.create({
      dataDir: join(dir, 'pglite'),
      loadDataDir: new Blob([readFileSync(inject('pgliteDump'))]),
      postgresqlconf: PGLITE_CONF,
    });
    await pglite.close();
    where = { PGLITE_DIR: join(dir, 'pglite') };
  }
});
afterAll(async () => {
  await fake.close();
  await dropDatabase();
  rmSync(dir, { recursive: true, force: true });
});

describe('a worker killed between "order created" and "record stored"', () => {
  it('leaves an order at Duffel that the next run finds instead of booking again', async () => {
    const shared = await openShared();
    const b = await insertPaidBooking(shared, {
      status: 'flight_booking_in_progress',
      selection: await liveSelection(new DuffelFlightProvider({ baseUrl: fake.url, token: fake.token }), '2026-11-01'),
    });
    await shared.close();

    // Duffel creates the order and the answer never leaves: the child is killed while it waits
    fake.failNext('create_order', { afterCreate: true, never: true });
    const child = spawn(process.execPath, ['--import', 'tsx', projectPath('test', 'support', 'leg-job-child.ts')], {
      cwd: projectPath(),
      env: {
        ...process.env,
        ...where,
        DUFFEL_API_URL: fake.url,
        DUFFEL_API_TOKEN: fake.token,
        BOOKING_ID: String(b.id),
        LEG_INDEX: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    fake.onOrderCreated = () => child.kill('SIGKILL');
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    fake.onOrderCreated = undefined;
    expect(exit, output).toEqual({ code: null, signal: 'SIGKILL' });
    const mine = () => fake.orders.filter((o) => o.metadata.itinera_booking === b.reference);
    expect(mine()).toHaveLength(1);

    // the job runs again (the queue's retry, in another worker: here this process)
    const database = await openShared();
    const t = await createTestApp({
      database,
      env: { FLIGHTS_PROVIDER: 'duffel', DUFFEL_API_URL: fake.url, DUFFEL_API_TOKEN: fake.token },
    });
    try {
      expect(await flightRecords.flightBookingsOf(database.db, b.id)).toEqual([]);
      expect((await flightRecords.legAttempt(database.db, b.id, 0))?.bookingStartedAt).toBeInstanceOf(Date);
      const calls = fake.requests.length;
      const result = await flightJobs(t.app.ctx).bookLeg.handler(
        { bookingId: b.id, legIndex: 0 },
        { id: 'retry', name: 'flights.book-leg', queue: 'flights', attempt: 2, signal: new AbortController().signal },
      );
      expect(result).toEqual({ kind: 'done' });
      // (the reservation-details job queued after it may already fetch the order: get_order)
      expect(
        fake.requests
          .slice(calls)
          .map((r) => r.op)
          .filter((op) => op !== 'get_order'),
      ).toEqual(['list_orders']);
      expect(mine()).toHaveLength(1);
      const [record] = await flightRecords.flightBookingsOf(database.db, b.id);
      expect(record).toMatchObject({ legIndex: 0, reservationId: mine()[0].id, pnr: mine()[0].booking_reference });
    } finally {
      await t.close();
      await database.close();
    }
  }, 180_000);
});
