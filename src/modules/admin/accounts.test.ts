// Issue 26, admin accounts: manage_admin is not super_admin in disguise, nobody changes their own
// roles, one's own password or e-mail needs the current password, a password set by someone else
// signs its owner out and is e-mailed to them, the sign-in limit slows an account down instead of
// locking it out, and an admin lists and ends their own other sessions.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postLogin, type SignedIn, signIn, TEST_PASSWORD } from '../../../test/support/admin.js';
import { createTestApp, TEST_NOW, type TestApp } from '../../../test/support/app.js';
import { adminSessions, adminUsers, mailOutbox } from '../../db/schema/index.js';
import { rolesOfUser } from './repository.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const RUN = `${Date.now().toString(36)}${process.pid}`;

function postUser(by: SignedIn, id: number, values: Record<string, string | string[]>) {
  const body = new URLSearchParams({ _csrf: by.csrf });
  for (const [k, v] of Object.entries(values)) for (const x of [v].flat()) body.append(k, x);
  return t.app.inject({
    method: 'POST',
    url: `/admin/users/${id}`,
    headers: { cookie: by.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: body.toString(),
  });
}

const rolesOf = async (id: number) => (await rolesOfUser(t.database.db, id)).roles.sort();
const sessionCount = async (userId: number) =>
  (await t.database.db.select().from(adminSessions).where(eq(adminSessions.userId, userId))).length;

describe('who may change an admin user', () => {
  it('a manage_admin admin cannot give themselves super_admin, nor change a super admin', async () => {
    const boss = await signIn(t.app, { email: `boss-${RUN}@example.com` });
    const manager = await signIn(t.app, { permissions: ['manage_admin'], email: `mgr-${RUN}@example.com` });
    const [managerRole] = await rolesOf(manager.userId);

    const self = await postUser(manager, manager.userId, {
      email: manager.email,
      name: 'Manager',
      roles: [managerRole!, 'super_admin'],
    });
    expect(self.statusCode).toBe(403);
    expect(self.body).toContain('Only a super admin can grant super_admin or change a super admin.');
    expect(await rolesOf(manager.userId)).toEqual([managerRole]);

    const bossSessions = await sessionCount(boss.userId);
    const takeover = await postUser(manager, boss.userId, {
      email: boss.email,
      name: 'Boss',
      roles: 'super_admin',
      password: 'a brand new password',
    });
    expect(takeover.statusCode).toBe(403);
    expect(await sessionCount(boss.userId)).toBe(bossSessions);
    expect((await postLogin(t.app, boss.email, TEST_PASSWORD)).statusCode).toBe(303);

    const newSuper = await t.app.inject({
      method: 'POST',
      url: '/admin/users',
      headers: { cookie: manager.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        _csrf: manager.csrf,
        email: `sneaky-${RUN}@example.com`,
        name: 'Sneaky',
        password: 'a long password 9',
        roles: 'super_admin',
      }).toString(),
    });
    expect(newSuper.statusCode).toBe(403);
    expect(
      await t.database.db
        .select()
        .from(adminUsers)
        .where(eq(adminUsers.email, `sneaky-${RUN}@example.com`)),
    ).toEqual([]);
  });

  it('nobody changes their own roles, not even a super admin', async () => {
    const boss = await signIn(t.app, { email: `self-${RUN}@example.com` });
    const res = await postUser(boss, boss.userId, { email: boss.email, name: 'Self', roles: [] });
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('You cannot change your own roles.');
    expect(await rolesOf(boss.userId)).toEqual(['super_admin']);
    // the same roles: a name change goes through
    expect(
      (await postUser(boss, boss.userId, { email: boss.email, name: 'Self Renamed', roles: 'super_admin' })).statusCode,
    ).toBe(303);
  });

  it("changing one's own password or e-mail asks for the current password; the browser stays signed in", async () => {
    const me = await signIn(t.app, { email: `me-${RUN}@example.com` });
    const elsewhere = await me.again();
    const values = { email: me.email, name: 'Me', roles: 'super_admin', password: 'my next password 1' };
    const without = await postUser(me, me.userId, values);
    expect(without.statusCode).toBe(422);
    expect(without.body).toContain('give your current password');
    const wrong = await postUser(me, me.userId, { ...values, current_password: 'not my password' });
    expect(wrong.statusCode).toBe(422);
    const email = await postUser(me, me.userId, { email: `me2-${RUN}@example.com`, name: 'Me', roles: 'super_admin' });
    expect(email.statusCode).toBe(422);
    expect((await postLogin(t.app, me.email, TEST_PASSWORD)).statusCode).toBe(303);

    const ok = await postUser(me, me.userId, { ...values, current_password: TEST_PASSWORD });
    expect(ok.statusCode).toBe(303);
    expect((await t.app.inject({ url: '/admin', headers: { cookie: me.cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/admin', headers: { cookie: elsewhere.cookie } })).statusCode).toBe(303);
    expect((await postLogin(t.app, me.email, 'my next password 1')).statusCode).toBe(303);
    // no notice for one's own change
    expect(await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, me.email))).toEqual([]);
  });

  it("another admin's new password signs them out everywhere and e-mails them through the outbox", async () => {
    const boss = await signIn(t.app, { email: `setter-${RUN}@example.com` });
    const clerk = await signIn(t.app, { permissions: ['view_booking'], email: `clerk-${RUN}@example.com` });
    const [clerkRole] = await rolesOf(clerk.userId);
    const res = await postUser(boss, clerk.userId, {
      email: clerk.email,
      name: 'Clerk',
      roles: clerkRole!,
      password: 'set by the boss 1',
    });
    expect(res.statusCode).toBe(303);
    expect(await sessionCount(clerk.userId)).toBe(0);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, clerk.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      kind: 'admin_password_changed',
      status: 'pending',
      subject: 'Your itinera console password was changed',
      bookingId: null,
    });
    expect(mails[0]!.textBody).toContain(`Admin`);
    expect(mails[0]!.textBody).toContain(
      `(setter-${RUN}@example.com) set a new password for your itinera console account on 2026-06-15T10:00:00.000Z.`,
    );
  });
});

describe('the sign-in limit per account', () => {
  it('counts failures only, slows the account down with a growing delay and never locks out the right password', async () => {
    const email = `target-${RUN}@example.com`;
    await signIn(t.app, { email });
    const from = (n: number) => `198.51.100.${n}`;
    try {
      // five wrong passwords from five addresses: each an ordinary refusal
      for (let i = 1; i <= 5; i++)
        expect((await postLogin(t.app, email, 'wrong guess', { ip: from(i) })).statusCode).toBe(401);
      // now the account waits 1 s after its last failure: the attempt is not checked (nor counted)
      const early = await postLogin(t.app, email, TEST_PASSWORD, { ip: from(6) });
      expect(early.statusCode).toBe(429);
      expect(early.headers['retry-after']).toBe('1');
      t.clock.advance(1_000);
      expect((await postLogin(t.app, email, 'wrong guess', { ip: from(7) })).statusCode).toBe(401);
      // the sixth failure: 2 s
      expect((await postLogin(t.app, email, TEST_PASSWORD, { ip: from(8) })).headers['retry-after']).toBe('2');
      t.clock.advance(2_000);
      expect((await postLogin(t.app, email, 'wrong guess', { ip: from(9) })).statusCode).toBe(401);
      t.clock.advance(4_000);
      expect((await postLogin(t.app, email, 'wrong guess', { ip: from(10) })).statusCode).toBe(401);
      // eight failures: 8 s, and the owner's right password works once they have passed
      const waiting = await postLogin(t.app, email, TEST_PASSWORD, { ip: from(11) });
      expect(waiting.statusCode).toBe(429);
      expect(waiting.headers['retry-after']).toBe('8');
      t.clock.advance(8_000);
      expect((await postLogin(t.app, email, TEST_PASSWORD, { ip: from(11) })).statusCode).toBe(303);
      // the success reset the count: five more failures are ordinary refusals again
      for (let i = 12; i <= 16; i++)
        expect((await postLogin(t.app, email, 'wrong guess', { ip: from(i) })).statusCode).toBe(401);
      const [row] = await t.database.db.select().from(adminUsers).where(eq(adminUsers.email, email));
      expect(row!.failedSignIns).toBe(5);
    } finally {
      t.clock.set(TEST_NOW);
    }
  });

  it('the delay stops growing at 60 s, and failures are forgotten 15 minutes after the last one', async () => {
    const email = `capped-${RUN}@example.com`;
    await signIn(t.app, { email });
    try {
      for (let i = 1; i <= 20; i++) {
        expect((await postLogin(t.app, email, 'wrong guess', { ip: `198.51.100.${100 + i}` })).statusCode).toBe(401);
        t.clock.advance(60_000);
      }
      t.clock.advance(-60_000);
      expect((await postLogin(t.app, email, TEST_PASSWORD)).headers['retry-after']).toBe('60');
      t.clock.advance(15 * 60_000 + 1_000);
      expect((await postLogin(t.app, email, 'wrong guess')).statusCode).toBe(401);
      const [row] = await t.database.db.select().from(adminUsers).where(eq(adminUsers.email, email));
      expect(row!.failedSignIns).toBe(1);
    } finally {
      t.clock.set(TEST_NOW);
    }
  });
});

describe('own sessions', () => {
  it("lists the admin's sessions and ends one of the others, or all others, never someone else's", async () => {
    const me = await signIn(t.app);
    const laptop = await me.again();
    const phone = await me.again();
    const stranger = await signIn(t.app);
    const page = await t.app.inject({ url: '/admin/sessions', headers: { cookie: me.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Your sessions</h1>');
    expect(page.body).toContain('this browser');
    expect(page.body.match(/name="session" value="[0-9a-f]{64}"/g)).toHaveLength(2);
    expect(page.body).toContain('Sign out all other sessions');

    const [laptopRow] = await t.database.db
      .select()
      .from(adminSessions)
      .where(eq(adminSessions.userId, me.userId))
      .then(async (rows) => {
        const { createHash } = await import('node:crypto');
        const hash = createHash('sha256').update(laptop.cookie.split('=')[1]!).digest('hex');
        return rows.filter((r) => r.idHash === hash);
      });
    const end = (session?: string, by = me) =>
      t.app.inject({
        method: 'POST',
        url: '/admin/sessions/end',
        headers: { cookie: by.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: by.csrf, ...(session ? { session } : {}) }).toString(),
      });
    // someone else's session id is not theirs to end
    expect((await end(laptopRow!.idHash, stranger)).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/admin', headers: { cookie: laptop.cookie } })).statusCode).toBe(200);

    expect((await end(laptopRow!.idHash)).statusCode).toBe(303);
    expect((await t.app.inject({ url: '/admin', headers: { cookie: laptop.cookie } })).statusCode).toBe(303);
    expect((await t.app.inject({ url: '/admin', headers: { cookie: phone.cookie } })).statusCode).toBe(200);

    expect((await end()).statusCode).toBe(303);
    expect((await t.app.inject({ url: '/admin', headers: { cookie: phone.cookie } })).statusCode).toBe(303);
    expect((await t.app.inject({ url: '/admin', headers: { cookie: me.cookie } })).statusCode).toBe(200);
    expect(
      await t.database.db
        .select()
        .from(adminSessions)
        .where(and(eq(adminSessions.userId, stranger.userId))),
    ).toHaveLength(1);
  });
});
