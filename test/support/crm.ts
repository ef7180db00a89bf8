// Shared set-up for CRM mirror tests: the real job dependencies pointed at a fake Pipedrive
// server, a logger whose lines the test can read, and row factories.
import { pino } from 'pino';
import type { Database } from '../../src/db/database.js';
import { leads, newsletterSubscribers } from '../../src/db/schema/index.js';
import { FieldKeyCache } from '../../src/modules/crm/pipedrive.js';
import type { CrmDeps } from '../../src/modules/crm/service.js';
import { fixedClock } from '../../src/platform/clock.js';
import type { FakePipedrive } from '../fakes/pipedrive.js';
import { TEST_NOW, testConfig } from './app.js';

export interface LogLine {
  level: number;
  msg: string;
  [k: string]: unknown;
}

export function capturingLogger() {
  const lines: LogLine[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines, errors: () => lines.filter((l) => l.level >= 50) };
}

export function crmDeps(database: Database, fake: FakePipedrive | null, env: Record<string, string> = {}) {
  const logger = capturingLogger();
  const deps: CrmDeps = {
    config: testConfig({
      CRM_API_URL: fake?.url ?? 'http://127.0.0.1:9',
      CRM_API_TOKEN: fake?.token ?? '',
      ...env,
    }),
    database,
    log: logger.log as unknown as CrmDeps['log'],
    clock: fixedClock(TEST_NOW),
    // long enough for a loaded test machine, short enough for the time-out cases
    crmTimeoutMs: 1500,
    fieldCache: new FieldKeyCache(),
  };
  return { deps, logger };
}

let seq = 0;

export async function addSubscriber(
  database: Database,
  values: Partial<typeof newsletterSubscribers.$inferInsert> = {},
): Promise<typeof newsletterSubscribers.$inferSelect> {
  seq++;
  const [row] = await database.db
    .insert(newsletterSubscribers)
    .values({
      email: `sub${seq}-${Date.now()}@example.com`,
      name: `Subscriber ${seq}`,
      consentGivenAt: new Date('2026-06-01T08:30:00Z'),
      privacyPolicyVersion: 'v1.0',
      consentIp: '203.0.113.7',
      market: 'es',
      ...values,
    })
    .returning();
  return row;
}

export async function addLead(
  database: Database,
  values: Partial<typeof leads.$inferInsert> = {},
): Promise<typeof leads.$inferSelect> {
  seq++;
  const [row] = await database.db
    .insert(leads)
    .values({
      name: `Lead ${seq}`,
      email: `lead${seq}-${Date.now()}@example.com`,
      source: 'website',
      consentGivenAt: new Date('2026-06-02T09:00:00Z'),
      privacyPolicyVersion: 'v1.0',
      consentIp: '198.51.100.4',
      ...values,
    })
    .returning();
  return row;
}
