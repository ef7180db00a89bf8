// Signed-in console sessions for HTTP tests: an admin user with the given roles or permissions
// and a session made by the real service (no password round trip per test).
import type { App } from '../../src/app.js';
import { sessionCookieName } from '../../src/console/http.js';
import type { Permission } from '../../src/modules/admin/permissions.js';
import { insertRole, setRolePermissions } from '../../src/modules/admin/repository.js';
import { createAdminUser, startSession } from '../../src/modules/admin/service.js';

let seq = 0;
// one argon2id hash of TEST_PASSWORD, computed once per file (hashing costs ~200 ms)
export const TEST_PASSWORD = 'correct horse battery staple';
let testHash: Promise<string> | undefined;

export interface SignedIn {
  userId: number;
  email: string;
  cookie: string;
  csrf: string;
  /** a fresh session of the same user (the clock may have moved past the idle time-out) */
  again(): Promise<{ cookie: string; csrf: string }>;
}

/** An admin holding `permissions` (through a role of its own), or super_admin when none are given. */
export async function signIn(app: App, opts: { permissions?: Permission[]; email?: string } = {}): Promise<SignedIn> {
  const ctx = app.ctx;
  const n = ++seq;
  let role = 'super_admin';
  if (opts.permissions) {
    role = `test_role_${n}_${process.pid}`;
    const created = await insertRole(ctx.database.db, role, role);
    await setRolePermissions(ctx.database.db, created!.id, opts.permissions);
  }
  testHash ??= import('../../src/modules/admin/passwords.js').then((m) => m.hashPassword(TEST_PASSWORD));
  const email = opts.email ?? `admin${n}-${Date.now()}@example.com`;
  const user = await createAdminUser(ctx, { email, name: `Admin ${n}`, passwordHash: await testHash, roles: [role] });
  const again = async () => {
    const s = await startSession(ctx, user.id, { ip: '127.0.0.1' });
    return { cookie: `${sessionCookieName(ctx)}=${s.id}`, csrf: s.csrfToken };
  };
  return { userId: user.id, email: user.email, ...(await again()), again };
}
