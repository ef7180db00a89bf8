// Shared by test/start.test.ts and bench/run.ts, which both start the built server as `npm start` does.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { projectRoot } from '../../src/platform/paths.js';

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

/** The node arguments of package.json's start script (`node ARGS...`), so callers run what `npm start` runs. */
export function npmStartArgs(): string[] {
  const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.trim().split(/\s+/).slice(1);
}
