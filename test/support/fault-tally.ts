// The fault and fuzz suite's totals. Each of its test files adds what it did (probes: requests
// or cases tried; faults: connections stalled, cut or terminated, processes killed, disks filled;
// failures: its failed tests) to a file of the run; test/global-setup.ts prints the sum as the
// run's closing line, so CI's output (.ci/run) shows it on every change.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    faultTallyDir: string;
  }
}

export interface Tally {
  probes: number;
  faults: number;
  failures: number;
}

/** the file the global setup reads; one JSON line per test file */
export const TALLY_FILE = 'fault-tally.jsonl';

/**
 * Counts this test file into the suite's totals: call once at the top level of the file; add
 * probes and faults to the returned tally as they happen. Failed tests are counted by themselves.
 */
export function faultTally(suite: string): Tally {
  const tally: Tally = { probes: 0, faults: 0, failures: 0 };
  beforeEach(({ onTestFailed }) => {
    onTestFailed(() => {
      tally.failures += 1;
    });
  });
  afterAll(() => {
    const dir = inject('faultTallyDir');
    if (dir) appendFileSync(join(dir, TALLY_FILE), `${JSON.stringify({ suite, ...tally })}\n`);
  });
  return tally;
}

/** the suite's closing line, from the files' lines */
export function tallyLine(lines: string[]): string {
  const sum: Tally & { files: number } = { probes: 0, faults: 0, failures: 0, files: 0 };
  for (const line of lines) {
    if (!line.trim()) continue;
    const t = JSON.parse(line) as Tally;
    sum.files += 1;
    sum.probes += t.probes;
    sum.faults += t.faults;
    sum.failures += t.failures;
  }
  return `fault and fuzz suite: ${sum.probes} probes, ${sum.faults} faults injected, ${sum.failures} failures (${sum.files} files)`;
}
