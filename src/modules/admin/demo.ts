// The embedded demo's first admin: on the first start of a demo (LOAD_DEMO_DATA on, no admin user
// yet), admin@example.com gets a random password printed once. Never in production, where
// LOAD_DEMO_DATA is off by default and the first admin comes from `npm run admin:create`.
import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import { SUPER_ADMIN_ROLE } from '../../console/permissions.js';
import type { Database } from '../../db/database.js';
import { adminUsers } from '../../db/schema/index.js';
import { systemClock } from '../../platform/clock.js';
import { createAdminUser } from './service.js';

export const DEMO_ADMIN_EMAIL = 'admin@example.com';

/** Creates the demo admin when there is no admin user yet; returns its password (to show once), or null. */
export async function createDemoAdminOnFirstStart(cli: {
  config: { loadDemo: boolean };
  database: Database;
  out: (line: string) => void;
}): Promise<string | null> {
  if (!cli.config.loadDemo) return null;
  const [{ n }] = await cli.database.db.select({ n: count() }).from(adminUsers);
  if (Number(n) > 0) return null;
  const password = randomBytes(15).toString('base64url');
  await createAdminUser(
    { database: cli.database, clock: systemClock },
    { email: DEMO_ADMIN_EMAIL, name: 'Demo admin', password, roles: [SUPER_ADMIN_ROLE] },
  );
  cli.out(
    `\n  Back-office console: sign in at /admin/login as ${DEMO_ADMIN_EMAIL} with the password\n\n      ${password}\n\n` +
      '  It is shown only this once (stored as an argon2id hash). Change it in the console under Admin users.\n',
  );
  return password;
}
