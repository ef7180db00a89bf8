// Newsletter bench: `npx tsx bench/newsletter.ts` (PGlite in memory) or with DATABASE_URL set
// (a fresh PostgreSQL database made for the run and dropped after).
//  1. POST /api/newsletter/subscribe latency (p50/p99) on the real server, every request a new
//     email (the 201 path: insert + job dispatch), the DNS answer cached, against a fake DNS.
//  2. Time for the queue workers to complete 1,000 ready marketing-sync jobs against the fake
//     ActiveCampaign server (target: under 60 s).
//  3. The backfill over 10,000 subscribers: time and heap growth (reads in batches by id).
// Settings: BENCH_DURATION (s, default 5), BENCH_CONNECTIONS (default 10), BENCH_CONCURRENCY
// (workers per queue, default 10), BENCH_JOBS (default 1000), BENCH_BACKFILL (default 10000).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connectPostgres, type Database, openPglite } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { commands } from '../src/modules/marketing/commands.js';
import { marketingSyncJob } from '../src/modules/marketing/jobs.js';
import { parseArgs } from '../src/platform/cli.js';
import { systemClock } from '../src/platform/clock.js';
import { PgBossQueue } from '../src/platform/queue-pgboss.js';
import { FakeActiveCampaign } from '../test/fakes/activecampaign.js';
import { startFakeDns } from '../test/fakes/dns.js';

interface AutocannonResult {
  latency: { p50: number; p99: number; average: number; max: number };
  requests: { average: number; total: number };
  errors: number;
  non2xx: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon ships no types; the part used here is typed above
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10);
const jobCount = Number(process.env.BENCH_JOBS ?? 1000);
const backfillCount = Number(process.env.BENCH_BACKFILL ?? 10_000);
const log = pino({ level: 'warn' });

async function openBenchDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openPglite('memory');
    await migrate(database);
    return { database, drop: () => database.close() };
  }
  const name = `itinera_bench_${randomBytes(4).toString('hex')}`;
  const admin = connectPostgres(url, 1);
  await admin.exec(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const database = connectPostgres(u.toString(), 10);
  await migrate(database);
  return {
    database,
    drop: async () => {
      await database.close();
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}

async function main() {
  const { database, drop } = await openBenchDatabase();
  const dns = await startFakeDns({ 'bench.test': { mx: [[10, 'mx.bench.test']] } });
  const ac = await FakeActiveCampaign.start();
  const kind = database.kind;
  console.log(`newsletter bench on ${kind}`);
  try {
    // 1. subscribe latency
    const config = loadConfig({
      APP_ENV: 'development',
      LOG_LEVEL: 'warn',
      DNS_SERVERS: dns.server,
      // each simulated client comes through a trusted local proxy with an address of its own
      TRUSTED_PROXIES: '127.0.0.1',
      IN_PROCESS_WORKERS: 'false',
      MARKETING_API_URL: ac.url,
      MARKETING_API_TOKEN: ac.token,
      MARKETING_LIST_ID: '1',
    });
    const app = await buildApp({ config, database });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address() as { port: number };
    const url = `http://127.0.0.1:${address.port}`;
    const warm = await fetch(`${url}/api/newsletter/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Warm Up', email: 'warm@bench.test' }),
    });
    if (warm.status !== 201) throw new Error(`warm-up answered ${warm.status}`);
    let n = 0;
    // each request from its own client address (RFC 2544 benchmarking range, a header only: the
    // server trusts 127.0.0.1 as a proxy), so the 5/min per-IP limit does not answer instead
    const client = (i: number) => `198.18.${(i >> 8) & 255}.${i & 255}`;
    const r = await autocannon({
      url,
      connections,
      duration,
      requests: [
        {
          method: 'POST',
          path: '/api/newsletter/subscribe',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req: Record<string, unknown>) => {
            const i = n++;
            return {
              ...req,
              headers: { ...(req.headers as object), 'x-forwarded-for': client(i) },
              body: JSON.stringify({ name: 'Bench User', email: `user${i}@bench.test`, market: 'es' }),
            };
          },
        },
      ],
    });
    console.log(
      `subscribe (201, DNS cached): ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, ` +
        `p99 ${r.latency.p99} ms, max ${r.latency.max} ms, ${r.requests.total} requests, non-2xx ${r.non2xx}, errors ${r.errors}`,
    );
    const repeat = await autocannon({
      url,
      connections,
      duration,
      requests: [
        {
          method: 'POST',
          path: '/api/newsletter/subscribe',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Warm Up', email: 'warm@bench.test' }),
          setupRequest: (req: Record<string, unknown>) => ({
            ...req,
            headers: { ...(req.headers as object), 'x-forwarded-for': client(n++) },
          }),
        },
      ],
    });
    console.log(
      `subscribe (200 repeat): ${Math.round(repeat.requests.average)} req/s, p50 ${repeat.latency.p50} ms, ` +
        `p99 ${repeat.latency.p99} ms, non-2xx ${repeat.non2xx}`,
    );
    await app.close();
    await database.exec('DELETE FROM newsletter_subscribers; DELETE FROM pgboss.job;');

    // 2. workers: 1,000 ready marketing jobs against the fake ActiveCampaign
    await database.query(
      `INSERT INTO newsletter_subscribers (email, name, market, consent_given_at, privacy_policy_version, consent_ip)
       SELECT 'w' || g || '@bench.test', 'Worker ' || g, (ARRAY['es','de','us','uk','ca'])[1 + g % 5], now(), 'v1.0', '203.0.113.1'
         FROM generate_series(1, $1) g`,
      [jobCount],
    );
    const deps = { config, database, log, clock: systemClock };
    const job = marketingSyncJob(deps);
    const producer = new PgBossQueue({ database, log });
    producer.register(job);
    await producer.start({ workers: false });
    const ids = (await database.query<{ id: number }>('SELECT id FROM newsletter_subscribers ORDER BY id')).rows;
    for (const { id } of ids) await producer.dispatch(job, { subscriberId: id, phoneOnly: false });
    await producer.stop();

    const workers = new PgBossQueue({ database, log, concurrency, pollingIntervalSeconds: 0.5 });
    workers.register(job);
    const started = Date.now();
    await workers.start({ workers: true });
    for (;;) {
      const c = await workers.counts(job.queue);
      if (c.completed + c.failed >= jobCount) break;
      if (Date.now() - started > 300_000) throw new Error(`workers did not finish: ${JSON.stringify(c)}`);
      await new Promise((res) => setTimeout(res, 100));
    }
    const seconds = (Date.now() - started) / 1000;
    await workers.stop();
    const done = (
      await database.query<{ n: string }>(
        'SELECT count(*) AS n FROM newsletter_subscribers WHERE marketing_contact_id IS NOT NULL',
      )
    ).rows[0].n;
    console.log(
      `workers: ${jobCount} marketing jobs in ${seconds.toFixed(1)} s (${Math.round(jobCount / seconds)} jobs/s, ` +
        `${concurrency} workers, ${ac.requests.length} API calls, ${done} contacts stored) ` +
        `${seconds < 60 ? 'under' : 'OVER'} the 60 s target`,
    );

    // 3. backfill over many subscribers
    await database.exec('DELETE FROM pgboss.job; UPDATE newsletter_subscribers SET marketing_contact_id = NULL;');
    await database.query(
      `INSERT INTO newsletter_subscribers (email, name, consent_given_at, privacy_policy_version)
       SELECT 'b' || g || '@bench.test', 'Backfill ' || g, now(), 'v1.0' FROM generate_series(1, $1) g`,
      [Math.max(0, backfillCount - jobCount)],
    );
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let peak = heapBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 50);
    const t0 = Date.now();
    const out: string[] = [];
    const backfill = commands['marketing:sync-subscribers'];
    const code = await backfill.run(parseArgs(backfill, [`--limit=${backfillCount}`]), {
      config,
      database,
      log,
      out: (l) => out.push(l),
      err: (l) => out.push(l),
    });
    clearInterval(sampler);
    console.log(
      `backfill: exit ${code} in ${((Date.now() - t0) / 1000).toFixed(1)} s, heap growth peak ` +
        `${((peak - heapBefore) / 1048576).toFixed(1)} MB — ${out.join(' ')}`,
    );
  } finally {
    await ac.close();
    await dns.close();
    await drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
