// Runs one try of the flight leg job in its own process, on the database and fake Duffel the
// parent test names (env: DATABASE_URL or PGLITE_DIR, DUFFEL_API_URL, DUFFEL_API_TOKEN, BOOKING_ID,
// LEG_INDEX). The parent kills it with SIGKILL mid-booking: a worker that dies between "order
// created" and "record stored".
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { flightJobs } from '../../src/modules/flights/jobs.js';

const env = process.env;
const config = loadConfig({
  APP_ENV: 'test',
  LOG_LEVEL: 'silent',
  APP_URL: 'http://api.test',
  IN_PROCESS_WORKERS: 'false',
  FLIGHTS_PROVIDER: 'duffel',
  DUFFEL_API_URL: env.DUFFEL_API_URL ?? '',
  DUFFEL_API_TOKEN: env.DUFFEL_API_TOKEN ?? '',
});
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: env.PGLITE_DIR ?? 'memory' });
const app = await buildApp({ config, database });
process.stdout.write('ready\n');
const result = await flightJobs(app.ctx).bookLeg.handler(
  { bookingId: Number(env.BOOKING_ID), legIndex: Number(env.LEG_INDEX) },
  { id: 'child', name: 'flights.book-leg', queue: 'flights', attempt: 1, signal: new AbortController().signal },
);
process.stdout.write(`${JSON.stringify(result)}\n`);
await app.close();
await database.close();
