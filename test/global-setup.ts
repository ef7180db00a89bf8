// Migrates one template database per test run; every test file then gets its own copy
// (a PGlite data-dir dump, or a PostgreSQL database created from the template).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectPostgres, openPglite } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { projectRoot } from '../src/platform/paths.js';
import { installQueueSchema } from '../src/platform/queue-pgboss.js';
import { TALLY_FILE, tallyLine } from './support/fault-tally.js';
import { testDatabaseName } from './support/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    pgTemplate: string;
  }
}

/** The fault and fuzz suite's totals (test/support/fault-tally.ts): the run's closing line. */
function faultTotals(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'itinera-tally-'));
  project.provide('faultTallyDir', dir);
  return () => {
    const file = join(dir, TALLY_FILE);
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
    if (lines.some((l) => l.trim())) console.log(`\n${tallyLine(lines)}`);
    rmSync(dir, { recursive: true, force: true });
  };
}

export default async function setup(project: TestProject) {
  const printTotals = faultTotals(project);
  // the tests import packages/client as built (dist/), as its users do
  execFileSync(process.execPath, ['scripts/build-client.mjs', '--if-stale'], { cwd: projectRoot, stdio: 'inherit' });
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = testDatabaseName('template');
    const admin = connectPostgres(url, 1);
    await admin.exec(`CREATE DATABASE ${template}`);
    const db = connectPostgres(withDatabase(url, template), 1);
    await migrate(db);
    await installQueueSchema(db);
    await db.close();
    project.provide('pgTemplate', template);
    project.provide('pgliteDump', '');
    return async () => {
      printTotals();
      await admin.exec(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => {});
      await admin.close();
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'itinera-test-'));
  const database = await openPglite('memory');
  await migrate(database);
  // pg-boss's schema too, so each test app's queue starts in milliseconds rather than a second
  await installQueueSchema(database);
  const dump = await database.pglite!.dumpDataDir('none');
  const file = join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('pgliteDump', file);
  project.provide('pgTemplate', '');
  return () => {
    printTotals();
    rmSync(dir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
