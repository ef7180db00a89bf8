// compose.yaml boots, checked without a container runtime: every service built from this repo
// runs the image's ENTRYPOINT with its compose `command`, in exactly the environment a container
// would get (the Dockerfile's ENV, then the service's required env files, then its `environment`),
// from an empty working directory. Only the addresses of what compose would run beside it change:
// DATABASE_URL and REDIS_URL point at the CI's PostgreSQL and Redis, HOST/PORT at a free local
// port. The one-shot migrate must exit 0 and say what it applied, every API reach /readyz, the
// worker start its queues; a missing production secret exits 78 and fails here. Skipped (with the
// reason) without PostgreSQL and Redis; .ci/run's PostgreSQL pass runs it.
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { connectPostgres } from '../src/db/database.js';
import { migrationFiles } from '../src/db/migrate.js';
import { projectRoot } from '../src/platform/paths.js';
import { withDatabase } from './global-setup.js';
import { postgresUnavailable, TEST_DATABASE_SERVER, testDatabaseName } from './support/postgres.js';
import { redisUnavailable, TEST_REDIS_URL } from './support/redis.js';
import { freePort, spawnCaptured } from './support/server-process.js';
import { waitFor } from './support/wait.js';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  env_file?: string | (string | { path: string; required?: boolean })[];
  stop_grace_period?: string;
  healthcheck?: { disable?: boolean };
}

const compose = parse(readFileSync(join(projectRoot, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const appServices = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

/** the runtime stage's ENV and ENTRYPOINT (the Dockerfile's last FROM) */
function imageDefaults(): { env: Record<string, string>; entrypoint: string[] } {
  const text = readFileSync(join(projectRoot, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const lastStage = text.slice(text.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const line of lastStage.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const [, k, v] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[k] = v;
  }
  const entry = /^ENTRYPOINT (\[.*\])$/m.exec(lastStage);
  if (!entry) throw new Error('the Dockerfile runtime stage has no exec-form ENTRYPOINT');
  return { env, entrypoint: JSON.parse(entry[1]) as string[] };
}

/** what compose gives the container: the env files (required ones: a fresh clone has no optional file), then `environment` */
function serviceEnvironment(service: ComposeService): Record<string, string> {
  const env: Record<string, string> = {};
  const files = service.env_file === undefined ? [] : [service.env_file].flat();
  for (const f of files) {
    const file = typeof f === 'string' ? { path: f, required: true } : f;
    if (file.required === false) continue;
    Object.assign(env, parseEnv(readFileSync(join(projectRoot, file.path), 'utf8')));
  }
  const given = service.environment ?? {};
  const pairs = Array.isArray(given)
    ? given.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])
    : Object.entries(given).map(([k, v]) => [k, v === null ? '' : String(v)]);
  for (const [k, v] of pairs) {
    if (v.includes('${')) throw new Error(`${k}: compose.yaml interpolates ${v}; put the value in the env file`);
    env[k] = v;
  }
  return env;
}

const seconds = (d: string) => {
  const m = /^(\d+)(s|m)$/.exec(d);
  if (!m) throw new Error(`stop_grace_period ${d}: expected like 35s or 1m`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
};

describe('compose.yaml as written', () => {
  it('builds the migrate step, two APIs and a worker from this repo', () => {
    expect(appServices.map(([name, s]) => `${name}:${s.command?.join(' ')}`)).toEqual([
      'migrate:migrate',
      'api-1:serve',
      'api-2:serve',
      'worker:worker',
    ]);
  });

  it('writes no secret itself: passwords, keys and tokens come from the env files', () => {
    const secretName = /PASSWORD|SECRET|TOKEN|KEY$/;
    for (const [name, service] of Object.entries(compose.services)) {
      const given = service.environment && !Array.isArray(service.environment) ? service.environment : {};
      expect(
        Object.keys(given).filter((k) => secretName.test(k)),
        name,
      ).toEqual([]);
    }
    expect(compose.services.postgres.env_file).toBeDefined();
  });

  it('gives every process more stop time than SHUTDOWN_GRACE_SECONDS before Docker kills it', () => {
    for (const [name, service] of appServices) {
      const grace = Number(serviceEnvironment(service).SHUTDOWN_GRACE_SECONDS ?? 25);
      expect(service.stop_grace_period, name).toBeDefined();
      expect(seconds(service.stop_grace_period!), name).toBeGreaterThan(grace);
    }
  });
});

const unavailable = (await postgresUnavailable()) ?? (await redisUnavailable());
if (unavailable) console.warn(`compose boot check skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('every compose service boots with its compose environment', () => {
  const name = testDatabaseName('compose');
  const admin = connectPostgres(TEST_DATABASE_SERVER, 1);
  const workdir = mkdtempSync(join(tmpdir(), 'itinera-compose-'));
  const image = imageDefaults();
  const children: ChildProcess[] = [];

  function run(service: ComposeService, port: number) {
    const env = {
      PATH: process.env.PATH ?? '',
      ...image.env,
      ...serviceEnvironment(service),
      // the only changes: where PostgreSQL, Redis and this process's port are
      DATABASE_URL: withDatabase(TEST_DATABASE_SERVER, name),
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: `itinera-test:${name}:`,
      HOST: '127.0.0.1',
      PORT: String(port),
    };
    const [node, ...args] = image.entrypoint;
    expect(node).toBe('node');
    // the image runs from /app; here the bundle is the checkout's, the working directory empty
    const paths = args.map((a) => (a.startsWith('-') ? a : join(projectRoot, a)));
    const proc = spawnCaptured(process.execPath, [...paths, ...service.command!], { cwd: workdir, env });
    children.push(proc.child);
    return proc;
  }

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot });
    await admin.exec(`CREATE DATABASE ${name}`);
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.close();
    rmSync(workdir, { recursive: true, force: true });
  });

  it('migrates (reporting what it applied), then both APIs reach /readyz and the worker starts', async () => {
    const migrate = run(compose.services.migrate, await freePort());
    expect(await migrate.exited, migrate.output()).toBe(0);
    expect(migrate.output()).toContain(`applied ${migrationFiles().length} migration(s):`);
    // the trial placeholders are named at boot, never silently used
    expect(migrate.output()).toContain('APP_KEY still holds the replace-me placeholder');

    const apis = await Promise.all(
      ['api-1', 'api-2'].map(async (s) => {
        const port = await freePort();
        return { port, proc: run(compose.services[s], port) };
      }),
    );
    const worker = run(compose.services.worker, await freePort());
    for (const { port, proc } of apis) {
      await waitFor(
        async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200,
        90_000,
        250,
      ).catch(() => {
        throw new Error(`an API did not reach /readyz:\n${proc.output()}`);
      });
      const body = await (await fetch(`http://127.0.0.1:${port}/readyz`)).json();
      expect(body).toMatchObject({ status: 'ready' });
    }
    await waitFor(() => worker.output().includes('queue workers started'), 90_000, 100).catch(() => {
      throw new Error(`the worker did not start:\n${worker.output()}`);
    });

    // SIGTERM: each drains and exits 0 well inside the stop_grace_period
    for (const p of [...apis.map((a) => a.proc), worker]) {
      p.child.kill('SIGTERM');
      expect(await p.exited, p.output()).toBe(0);
    }
  }, 240_000);
});
