// The machine's PostgreSQL for tests: every database a test creates is named itinera_test_*, so a
// shared server's own databases are never touched and a crashed run's leftovers are easy to find.
import { randomBytes } from 'node:crypto';
import { connectPostgres } from '../../src/db/database.js';

/** DATABASE_URL's server, or the local default (tests that always need PostgreSQL) */
export const TEST_DATABASE_SERVER = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** the one prefix of every test database */
export const TEST_DATABASE_PREFIX = 'itinera_test_';

/** a fresh name under the prefix, e.g. itinera_test_compose_1a2b3c4d */
export function testDatabaseName(purpose: string): string {
  return `${TEST_DATABASE_PREFIX}${purpose}_${randomBytes(4).toString('hex')}`;
}

/** null when PostgreSQL answers, else the reason it did not */
export async function postgresUnavailable(server = TEST_DATABASE_SERVER): Promise<string | null> {
  const admin = connectPostgres(server, 1);
  try {
    await admin.exec('SELECT 1');
    return null;
  } catch (err) {
    return `no PostgreSQL at ${server}: ${(err as Error).message}`;
  } finally {
    await admin.close().catch(() => {});
  }
}
