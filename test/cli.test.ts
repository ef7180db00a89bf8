// The operator CLI as run from a shell: `--help` on every command prints its usage and exits 0
// without touching anything; an unknown option is refused with exit 2; `--help` lists commands.
// The commands run against a database URL nothing listens on, so any command that went past its
// argument parsing would fail to connect (exit 1) instead of passing quietly.
import { execFile, execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/platform/paths.js';

const run = promisify(execFile);
const NOWHERE = 'postgres://postgres@127.0.0.1:9/nowhere';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/main.js', ...args], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: NOWHERE, REDIS_URL: '', PGLITE_DIR: '/nonexistent/itinera' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout: string; stderr: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout, stderr: e.stderr };
  }
}

/** command names from the top-level help: the test covers commands added later too */
function commandNames(help: string): string[] {
  const start = help.indexOf('commands:\n');
  return help
    .slice(start + 'commands:\n'.length)
    .split('\n')
    .filter((l) => /^ {2}\S/.test(l))
    .map((l) => l.trim().split(/\s+/)[0]);
}

describe('the CLI', () => {
  // the bundle production runs (`node dist/main.js`): it also starts in a second, where tsx takes many
  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: projectRoot });
  });

  it('lists its commands on --help (exit 0)', async () => {
    for (const flag of ['--help', '-h']) {
      const res = await cli([flag]);
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^usage: npm run cli -- COMMAND \[options\]/);
      expect(commandNames(res.stdout)).toEqual(
        expect.arrayContaining(['serve', 'worker', 'migrate', 'task', 'import']),
      );
    }
  });

  it('prints the usage of every command on --help and does nothing else', async () => {
    const schemaFile = join(projectRoot, 'docs/import-format.schema.json');
    const before = statSync(schemaFile).mtimeMs;
    const names = commandNames((await cli(['--help'])).stdout);
    expect(names.length).toBeGreaterThan(10);
    // a few at a time: each is a node process with tsx
    for (let i = 0; i < names.length; i += 4) {
      const batch = names.slice(i, i + 4);
      const results = await Promise.all(batch.map((name) => cli([name, '--help'])));
      results.forEach((res, j) => {
        expect({ name: batch[j], code: res.code, stderr: res.stderr }).toEqual({ name: batch[j], code: 0, stderr: '' });
        expect(res.stdout).toContain(`usage: npm run cli -- ${batch[j]}`);
        expect(res.stdout).toContain('--help');
      });
    }
    expect(statSync(schemaFile).mtimeMs).toBe(before); // import:schema did not write
  }, 240_000);

  it('takes --help after other arguments too', async () => {
    const res = await cli(['token:create', 'frontend', '--ability', 'internal:read', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('--ability=VALUE');
  });

  it('refuses an unknown option with exit 2 before opening anything', async () => {
    const res = await cli(['migrate', '--dry']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("migrate: Unknown option '--dry'");
    const missing = await cli(['crm:records', '--model']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Option '--model <value>' argument missing");
  });

  it('refuses an unknown command with exit 2', async () => {
    const res = await cli(['no-such-command']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown command: no-such-command');
  });

  it('really reaches the database after the arguments (the test would notice a quiet no-op)', async () => {
    const res = await cli(['migrate']);
    // a connection failure (its exit code is the boot-error handling's business), not a usage error
    expect(res.code).not.toBe(0);
    expect(res.code).not.toBe(2);
  });
});
