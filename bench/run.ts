// npm run bench: starts the real server (`dist/main.js serve`, as `npm start` does) as a child
// process with the demo data, once on embedded PGlite and once on PostgreSQL when DATABASE_URL is
// set (a fresh database made for the run), and measures every target of bench/scenarios/*.ts with
// bench/load.ts (or autocannon or wrk, BENCH_TOOL) against the constant-JSON route of the same server:
// req/s, p99 latency, ratio to the constant route, server and load-generator CPU, and the server's
// RSS. Machines here are noisy; the ratios are what to compare, and each is measured in alternating
// slices of the constant route and the target so that both see the same machine.
// Settings: BENCH_DURATION (seconds per target, default 5), BENCH_SLICES (default 5: the constant
// route and the target alternate in slices of BENCH_DURATION / BENCH_SLICES s), BENCH_CONNECTIONS (default 50),
// BENCH_ONLY=pglite|postgres, BENCH_SCENARIOS=checkout,catalog (scenario names; default all),
// BENCH_TOOL=lean|autocannon|wrk for plain requests (default lean, bench/load.ts; request sequences
// always use autocannon; wrk must be installed, e.g. apt-get install wrk).
// The run fails (exit 1) when any measured route answered non-2xx: its numbers would time an error.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort, npmStartArgs } from '../test/support/server-process.js';
import { Latencies, runLoad } from './load.js';
import type { BenchScenario, BenchTarget } from './scenarios/types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const slices = Math.max(1, Number(process.env.BENCH_SLICES ?? 5));
/** % of a core from which the load generator is reported as saturated */
const SATURATED_CLIENT_CPU = 85;

interface Row {
  database: string;
  name: string;
  rps: number;
  p99: number;
  /** the issue's p99 target for this target, when it has one */
  p99TargetMs?: number;
  ratio: number;
  errors: number;
  non2xx: number;
  /** server process CPU over the run, in % of one core, and per request in µs */
  serverCpu?: number;
  serverUsPerRequest?: number;
  /** the load generator's CPU (bench/load.ts and autocannon run in this process), in % of one core */
  clientCpu?: number;
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system) the process has used, from /proc (Linux); undefined elsewhere. */
function cpuSeconds(pid: number): number | undefined {
  try {
    // fields after the parenthesised command name; utime and stime are the 12th and 13th of them
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

async function loadScenarios(): Promise<BenchScenario[]> {
  const dir = join(root, 'bench/scenarios');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && f !== 'types.ts' && !f.endsWith('.d.ts'))
    .sort();
  const only = process.env.BENCH_SCENARIOS?.split(',').map((s) => s.trim());
  const out: BenchScenario[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as { scenario?: BenchScenario };
    if (mod.scenario && (!only || only.includes(mod.scenario.name))) out.push(mod.scenario);
  }
  return out;
}

function peakRssMb(pid: number): { peak: number; current: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { peak: Math.round(kb('VmHWM') / 1024), current: Math.round(kb('VmRSS') / 1024) };
  } catch {
    return { peak: 0, current: 0 };
  }
}

const BENCH_LIMITS = {
  RATE_LIMIT_CHECKOUT_STARTS_PER_IP: '100000000',
  RATE_LIMIT_CHECKOUT_STARTS_PER_VISITOR: '100000000',
  RATE_LIMIT_PUBLIC_WRITES: '100000000',
};

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  // exactly what `npm start` runs (the bundle built in main(), node's flags): what users run
  const child = spawn(process.execPath, npmStartArgs(), {
    cwd: root,
    env: {
      ...process.env,
      APP_ENV: 'development',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOAD_DEMO_DATA: 'true',
      BENCH_ROUTES: 'true',
      // the per-minute write limits far above the load (one IP, tens of thousands of starts a
      // minute): with the defaults every checkout start answered 429 and the row timed the limiter
      ...BENCH_LIMITS,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/bench/constant`);
      if (res.ok) return { child, baseUrl };
    } catch {
      // not listening yet (the demo catalog loads first)
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  child.kill('SIGTERM');
  throw new Error('server did not start within 180 s');
}

/** CPU seconds of this process's finished children (cutime + cstime), from /proc (Linux). */
function childrenCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** What one load run reports, whichever tool made it. */
interface LoadResult {
  rps: number;
  p99: number;
  total: number;
  errors: number;
  non2xx: number;
}

/**
 * The load generator for plain requests: bench/load.ts by default (`lean`), in this process,
 * bodies counted but never decoded and every read into one reused buffer. Its readings agree with
 * wrk's (a C program), while autocannon, which appends every body to a string, saturated its own
 * core on the 13 kB catalog bodies and its p99 measured its own queueing (README, Benchmark).
 * BENCH_TOOL=autocannon or wrk measures with those instead. Request sequences (the checkout's)
 * always use autocannon. A constant-route baseline is measured with the tool of its target.
 */
type Tool = 'lean' | 'autocannon' | 'wrk';
const TOOLS: readonly Tool[] = ['lean', 'autocannon', 'wrk'];
const TOOL = (process.env.BENCH_TOOL || 'lean') as Tool;
if (!TOOLS.includes(TOOL)) {
  console.error(`BENCH_TOOL must be one of ${TOOLS.join(', ')} (got ${process.env.BENCH_TOOL})`);
  process.exit(2);
}

function toolFor(target: BenchTarget): Tool {
  return target.requests ? 'autocannon' : TOOL;
}

async function runAutocannon(
  url: string,
  target: BenchTarget,
  seconds: number,
  conns: number,
  onLatency?: (ms: number) => void,
) {
  // autocannon takes an undefined option as a value: pass only what the target sets
  const opts = Object.fromEntries(
    Object.entries({
      method: target.method,
      headers: target.headers,
      body: target.body,
      requests: target.requests,
    }).filter(([, v]) => v !== undefined),
  );
  const run = autocannon({ url, connections: conns, duration: seconds, ...opts });
  if (onLatency) run.on('response', (_client, _status, _bytes, ms) => onLatency(ms));
  const r = await run;
  return {
    rps: Math.round(r.requests.average),
    p99: r.latency.p99,
    total: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

function wrkMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

async function runWrk(url: string, target: BenchTarget, seconds: number, conns: number): Promise<LoadResult> {
  const args = ['-t1', `-c${conns}`, `-d${seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(target.headers ?? {})) args.push('-H', `${k}: ${v}`);
  let script: string | undefined;
  if (target.method || target.body) {
    script = join(mkdtempSync(join(tmpdir(), 'itinera-wrk-')), 'request.lua');
    writeFileSync(
      script,
      `wrk.method = ${JSON.stringify(target.method ?? 'GET')}\nwrk.body = ${JSON.stringify(target.body ?? '')}\n`,
    );
    args.push('-s', script);
  }
  args.push(url);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (d) => {
      text += d;
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
  });
  if (script) rmSync(dirname(script), { recursive: true, force: true });
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0)),
    p99: p99 ? Math.round(wrkMs(p99[1]!, p99[2]!) * 10) / 10 : 0,
    total: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    errors: socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
  };
}

/** One load run and what it cost each side. */
async function measure(
  baseUrl: string,
  target: BenchTarget,
  seconds: number,
  conns = target.connections ?? connections,
  serverPid?: number,
  tool: Tool = toolFor(target),
  onLatency?: (ms: number) => void,
) {
  const url = baseUrl + (target.path ?? '/');
  const serverBefore = serverPid ? cpuSeconds(serverPid) : undefined;
  const clientBefore = process.cpuUsage();
  const childrenBefore = childrenCpuSeconds();
  const startedAt = performance.now();
  const result =
    tool === 'wrk'
      ? await runWrk(url, target, seconds, conns)
      : tool === 'autocannon'
        ? await runAutocannon(url, target, seconds, conns, onLatency)
        : await runLoad({
            url,
            connections: conns,
            durationSeconds: seconds,
            method: target.method,
            headers: target.headers,
            body: target.body,
            onLatency,
          });
  const wall = (performance.now() - startedAt) / 1000;
  // autocannon and bench/load.ts run in this process; wrk is a child, counted once it has exited
  const own = process.cpuUsage(clientBefore);
  const clientSeconds = tool === 'wrk' ? childrenCpuSeconds() - childrenBefore : (own.user + own.system) / 1e6;
  const serverAfter = serverPid ? cpuSeconds(serverPid) : undefined;
  const serverSeconds =
    serverBefore !== undefined && serverAfter !== undefined ? serverAfter - serverBefore : undefined;
  return { result, wall, serverSeconds, clientSeconds };
}

/** What the slices of one side add up to. */
class Pooled {
  total = 0;
  errors = 0;
  non2xx = 0;
  wall = 0;
  server: number | undefined = 0;
  client = 0;
  /** every response's latency (autocannon, bench/load.ts); wrk reports only its run's p99 */
  latencies = new Latencies();
  sliceP99s: number[] = [];

  add(m: Awaited<ReturnType<typeof measure>>): void {
    this.total += m.result.total;
    this.errors += m.result.errors;
    this.non2xx += m.result.non2xx;
    this.wall += m.wall;
    this.server =
      this.server === undefined || m.serverSeconds === undefined ? undefined : this.server + m.serverSeconds;
    this.client += m.clientSeconds;
    this.sliceP99s.push(m.result.p99);
  }

  row(database: string, name: string): Row {
    // pooled latencies give the p99 of the whole measurement; wrk's single run gives its own
    const p99 = this.latencies.count ? this.latencies.p99() : Math.max(...this.sliceP99s);
    return {
      database,
      name,
      rps: Math.round(this.total / this.wall),
      p99,
      ratio: 0,
      errors: this.errors,
      non2xx: this.non2xx,
      // which side was the bottleneck: a load generator near 100 % of its core caps the req/s of big bodies
      serverCpu: this.server === undefined ? undefined : Math.round((this.server / this.wall) * 100),
      serverUsPerRequest:
        this.server === undefined || !this.total ? undefined : Math.round((this.server * 1e6) / this.total),
      clientCpu: Math.round((this.client / this.wall) * 100),
    };
  }
}

/**
 * The constant route and the target, in alternating slices (BENCH_SLICES, default 5, of
 * BENCH_DURATION / slices seconds each) pooled per side: on a machine whose speed drifts, both
 * sides see the same drift, so their ratio is the server's and not the moment's. (Measured one
 * after the other, 10 s each, single rows fell to 55-58 % when the machine slowed in between.)
 */
async function measurePair(
  baseUrl: string,
  constant: BenchTarget,
  target: BenchTarget,
  conns: number,
  serverPid: number,
): Promise<{ base: Pooled; pooled: Pooled }> {
  const base = new Pooled();
  const pooled = new Pooled();
  const tool = toolFor(target);
  // wrk reports a run's p99, not its latencies, and short wrk runs carry their start-up in it:
  // with wrk the two sides are one run each, constant route first
  const n = tool === 'wrk' ? 1 : slices;
  const seconds = Math.max(1, Math.round(duration / n));
  for (let i = 0; i < n; i++) {
    base.add(await measure(baseUrl, constant, seconds, conns, serverPid, tool, (ms) => base.latencies.add(ms)));
    pooled.add(await measure(baseUrl, target, seconds, conns, serverPid, tool, (ms) => pooled.latencies.add(ms)));
  }
  return { base, pooled };
}

async function runOn(database: string, env: Record<string, string>, scenarios: BenchScenario[]): Promise<Row[]> {
  console.log(`\n== ${database}: starting the server with the demo catalog`);
  const started = Date.now();
  const { child, baseUrl } = await startServer(env);
  const boot = peakRssMb(child.pid!);
  console.log(
    `   ready after ${((Date.now() - started) / 1000).toFixed(1)} s (RSS ${boot.current} MB, peak ${boot.peak} MB)`,
  );
  const rows: Row[] = [];
  try {
    const constant: BenchTarget = { name: 'constant JSON', path: '/bench/constant' };
    const targets: BenchTarget[] = [];
    for (const s of scenarios) targets.push(...(await s.targets(baseUrl, { database, env })));
    // warm-up pass over every route first: the first target measured right after boot came out
    // lower than the same route later in the run (JIT, the import's garbage, lazy caches)
    await measure(baseUrl, constant, 1);
    for (const target of targets) await measure(baseUrl, target, 1);
    const print = (row: Row) =>
      console.log(
        `   ${row.name.padEnd(34)} ${String(row.rps).padStart(7)} req/s  p99 ${String(row.p99).padStart(4)} ms  ` +
          (row.p99TargetMs ? `(target < ${row.p99TargetMs}: ${row.p99 < row.p99TargetMs ? 'met' : 'missed'})  ` : '') +
          `${row.ratio ? `${(row.ratio * 100).toFixed(0).padStart(4)} % of constant` : ''.padStart(17)}` +
          (row.serverCpu === undefined
            ? ''
            : `  server ${row.serverCpu} % (${row.serverUsPerRequest} µs/req), load generator ${row.clientCpu} %` +
              // a load generator near a full core queues responses itself: its p99 then says more
              // about the generator than about the server
              ((row.clientCpu ?? 0) >= SATURATED_CLIENT_CPU ? ' (saturated: its p99 includes its own queueing)' : '')) +
          `${row.errors || row.non2xx ? `  errors ${row.errors} non-2xx ${row.non2xx}` : ''}`,
      );
    for (const target of targets) {
      // the constant route is measured beside each target, in alternating slices (measurePair),
      // with the target's request headers (a browser's Accept-Encoding, a cookie): the constant route
      // ignores them, but parsing them is part of every request's cost
      const conns = target.connections ?? connections;
      await measure(baseUrl, target, 1); // warm-up: caches filled, JIT settled
      const { base, pooled } = await measurePair(
        baseUrl,
        { ...constant, headers: target.headers },
        target,
        conns,
        child.pid!,
      );
      const baseRow = base.row(database, `constant JSON (beside ${target.name}, ${conns} conn)`);
      // the issues set their p99 targets on PostgreSQL
      const p99TargetMs = database === 'postgres' ? target.p99TargetMs : undefined;
      const row = { ...pooled.row(database, target.name), p99TargetMs };
      row.ratio = baseRow.rps ? row.rps / baseRow.rps : 0;
      rows.push(baseRow, row);
      print(baseRow);
      print(row);
      const mem = peakRssMb(child.pid!);
      console.log(`   (server RSS ${mem.current} MB, peak so far ${mem.peak} MB)`);
    }
    const rss = peakRssMb(child.pid!);
    console.log(`   server RSS: peak ${rss.peak} MB (demo import included), now ${rss.current} MB`);
    rows.push({
      database,
      name: 'server peak RSS (MB)',
      rps: rss.peak,
      p99: rss.current,
      ratio: 0,
      errors: 0,
      non2xx: 0,
    });
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  return rows;
}

async function main() {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  const scenarios = await loadScenarios();
  console.log(
    `bench: ${scenarios.map((s) => s.name).join(', ')}; ${TOOL === 'autocannon' ? TOOL : `${TOOL === 'lean' ? 'bench/load.ts' : TOOL} (autocannon for request sequences)`}, ${connections} connections, ${duration} s per target (after 1 s warm-up)`,
  );
  const only = process.env.BENCH_ONLY;
  const rows: Row[] = [];

  if (!only || only === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'itinera-bench-'));
    try {
      rows.push(...(await runOn('pglite', { PGLITE_DIR: join(dir, 'pglite'), DATABASE_URL: '' }, scenarios)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  const url = process.env.DATABASE_URL;
  if (url && (!only || only === 'postgres')) {
    const name = `itinera_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const u = new URL(url);
      u.pathname = `/${name}`;
      rows.push(...(await runOn('postgres', { DATABASE_URL: u.toString() }, scenarios)));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  } else if (!url) {
    console.log('\n(DATABASE_URL is not set: PostgreSQL run skipped)');
  }

  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const file = join(root, 'bench/results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ connections, duration, rows }, null, 2));
  console.log(`\nresults: ${file}`);
  // a row of error answers times the error path, not the route: the run fails instead of reporting it
  const failed = rows.filter((row) => row.non2xx > 0);
  if (failed.length) {
    console.error(
      `\nbench FAILED: non-2xx answers in ${failed.map((row) => `${row.database} "${row.name}" (${row.non2xx})`).join(', ')}`,
    );
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
