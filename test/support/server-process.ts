// Shared by test/start.test.ts and bench/run.ts, which both start the built server as `npm start` does.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { projectRoot } from '../../src/platform/paths.js';

/** A child process whose stdout and stderr are collected together. */
export interface CapturedProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** spawn(), keeping everything the process writes (both streams, in order) for assertions and failures */
export function spawnCaptured(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): CapturedProcess {
  const child = spawn(command, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** The node arguments of package.json's start script (`exec node ARGS...`), so callers run what `npm start` runs. */
export function npmStartArgs(): string[] {
  const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start
    .trim()
    .replace(/^exec\s+/, '')
    .split(/\s+/)
    .slice(1);
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  /** what the process wrote to stderr so far */
  stderr(): string;
  /** resolves true once GET /livez-or-health answers 200, false when the process exits first or `ms` pass */
  healthy(ms?: number): Promise<boolean>;
  /** the exit code (or signal name), waiting up to `ms`; null when it still runs then */
  exited(ms?: number): Promise<number | string | null>;
  /** SIGKILL when still running (cleanup) */
  kill(): Promise<void>;
}

/**
 * Starts `node dist/main.js COMMAND` (the built bundle, as `npm start` runs it; build it first;
 * a list is a command with its arguments, e.g. `['task', 'balance.collect']`)
 * with the test's settings over a quiet development environment. `command: 'npm'` runs `npm start`
 * itself (in its own process group, so the test can find the whole tree).
 */
export async function startServer(
  env: Record<string, string>,
  opts: { command?: 'serve' | 'worker' | 'npm' | string[]; port?: number } = {},
): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const fullEnv = {
    ...process.env,
    APP_ENV: 'development',
    NODE_ENV: '',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    // the tests and the bench play a local proxy that sets X-Forwarded-For (the default trusts none)
    TRUSTED_PROXIES: '127.0.0.1,::1',
    PORT: String(port),
    LOAD_DEMO_DATA: 'false',
    REDIS_URL: '',
    DATABASE_URL: '',
    ...env,
  };
  const child =
    opts.command === 'npm'
      ? spawn('npm', ['start', '--silent'], {
          cwd: projectRoot,
          env: fullEnv,
          stdio: ['ignore', 'ignore', 'pipe'],
          detached: true,
        })
      : spawn(process.execPath, [...npmStartArgs().slice(0, -1), ...[opts.command ?? 'serve'].flat()], {
          cwd: projectRoot,
          env: fullEnv,
          stdio: ['ignore', 'ignore', 'pipe'],
        });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const exit = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const base = `http://127.0.0.1:${port}`;
  const within = <T>(p: Promise<T>, ms: number, fallback: T) =>
    Promise.race([p, new Promise<T>((r) => setTimeout(() => r(fallback), ms).unref())]);
  return {
    child,
    port,
    base,
    stderr: () => stderr,
    async healthy(ms = 60_000) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
        const ok = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5_000) }).then(
          () => true,
          () => false,
        );
        if (ok) return true;
        await new Promise((r) => setTimeout(r, 250));
      }
      return false;
    },
    exited: (ms = 30_000) => within<number | string | null>(exit, ms, null),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
}
