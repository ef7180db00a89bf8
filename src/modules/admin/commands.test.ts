// `npm run admin:create`: the password from ADMIN_PASSWORD (or stdin), hashed in the operator's
// process; no password, no user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { parseArgs } from '../../platform/cli.js';
import { commands } from './commands.js';
import { findUserByEmail, rolesOfUser } from './repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  delete process.env.ADMIN_PASSWORD;
});

async function run(argv: string[]) {
  const lines: string[] = [];
  const errs: string[] = [];
  const cmd = commands['admin:create']!;
  const prepared = await cmd.prepare!(argv, { err: (l) => errs.push(l) });
  const code = await cmd.run(parseArgs(cmd, prepared), {
    config: t.config,
    database: t.database,
    log: t.app.log,
    out: (l) => lines.push(l),
    err: (l) => errs.push(l),
  });
  return { code, lines, errs, prepared };
}

describe('admin:create', () => {
  it('creates a super_admin from ADMIN_PASSWORD, passing only the argon2id hash on', async () => {
    process.env.ADMIN_PASSWORD = 'a very long secret';
    const r = await run(['--email', 'First@Example.com', '--name', 'First Admin', '--role', 'super_admin']);
    expect(r.code).toBe(0);
    expect(r.lines[0]).toMatch(/^admin user \d+ <first@example.com> created with role super_admin$/);
    expect(r.prepared.join(' ')).not.toContain('a very long secret');
    const user = await findUserByEmail(t.database.db, 'first@example.com');
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await rolesOfUser(t.database.db, user!.id)).roles).toEqual(['super_admin']);
    expect((await run(['--email', 'first@example.com', '--name', 'Again', '--role', 'super_admin'])).code).toBe(1);
  });

  it('refuses a short password and an unknown role', async () => {
    process.env.ADMIN_PASSWORD = 'short';
    await expect(run(['--email', 'x@example.com', '--name', 'X', '--role', 'super_admin'])).rejects.toThrow(
      'A password has 12 to 200 characters.',
    );
    process.env.ADMIN_PASSWORD = 'a very long secret';
    const r = await run(['--email', 'x@example.com', '--name', 'X', '--role', 'nobody']);
    expect(r.code).toBe(1);
    expect(r.errs).toContain('There is no role named "nobody".');
  });
});
