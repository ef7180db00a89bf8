// Runs `npm run task -- ...` in a test, on a test app's context; returns the exit code and lines
// (errors prefixed "ERR ").
import { parseArgs } from '../../src/platform/cli.js';
import { taskCommand } from '../../src/tasks-command.js';
import type { TestApp } from './app.js';

export async function runTaskCommand(t: TestApp, argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const cli = {
    config: t.config,
    database: t.database,
    log: t.app.log,
    out: (l: string) => lines.push(l),
    err: (l: string) => lines.push(`ERR ${l}`),
    app: t.app.ctx,
  };
  return { code: await taskCommand.run(parseArgs(taskCommand, argv), cli as never), lines };
}
