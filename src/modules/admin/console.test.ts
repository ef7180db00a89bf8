// The console's access control over HTTP: sign-in (CSRF on the form, rate limits per IP and per
// account, a new session id at every sign-in), sessions (idle time-out, revocation), CSRF on every
// non-GET, permissions (403 page, hidden navigation), the audit log and API tokens.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postLogin, setCookies, signIn, TEST_PASSWORD } from '../../../test/support/admin.js';
import { createTestApp, TEST_NOW, type TestApp } from '../../../test/support/app.js';
import { insertPaidBooking } from '../../../test/support/flight-booking.js';
import { adminAuditLog, adminSessions } from '../../db/schema/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const cookiesOf = setCookies;
// e-mails unique per run: with REDIS_URL the per-IP sign-in windows outlive the test process
const RUN = `${Date.now().toString(36)}${process.pid}`;
const login = (email: string, password: string, opts: { ip?: string; cookie?: string } = {}) =>
  postLogin(t.app, email, password, opts);

const auditActions = async (userEmail: string) =>
  (await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.actor, userEmail))).map((r) => r.action);

describe('sign-in', () => {
  it('sends a visitor without a session to the sign-in form, which has Email, Password and Sign in', async () => {
    const res = await t.app.inject('/admin/audit-log?page=2');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/login?next=%2Fadmin%2Faudit-log%3Fpage%3D2');
    const form = await t.app.inject('/admin/login');
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<label for="email">Email</label>');
    expect(form.body).toContain('<label for="password">Password</label>');
    expect(form.body).toContain('<button type="submit">Sign in</button>');
    expect(form.headers['content-security-policy']).toContain("script-src 'self'");
    expect(form.body).not.toMatch(/<script>|<script [^>]*>[^<]/);
  });

  it('refuses a wrong password with one message, signs in with the right one and records both', async () => {
    const admin = await signIn(t.app, { email: `signin-${RUN}@example.com` });
    const wrong = await login(`signin-${RUN}@example.com`, 'not the password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('role="alert">The e-mail or password is not right.');
    const unknown = await login(`nobody-${RUN}@example.com`, TEST_PASSWORD);
    expect(unknown.statusCode).toBe(401);

    const ok = await login(`SignIn-${RUN}@example.com`, TEST_PASSWORD);
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/admin');
    const session = cookiesOf(ok).find((c) => c.startsWith('itinera_admin='))!;
    expect(String(ok.headers['set-cookie'])).toContain('HttpOnly');
    expect(String(ok.headers['set-cookie'])).toContain('SameSite=Lax');
    const home = await t.app.inject({ url: '/admin', headers: { cookie: session } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('The day at a glance');
    expect(await auditActions(`signin-${RUN}@example.com`)).toEqual(['login.failed', 'login']);
    expect(admin.userId).toBeGreaterThan(0);
  });

  it('gives a new session id at sign-in and ends the one the browser had', async () => {
    await signIn(t.app, { email: `regen-${RUN}@example.com` });
    const first = cookiesOf(await login(`regen-${RUN}@example.com`, TEST_PASSWORD)).find((c) =>
      c.startsWith('itinera_admin='),
    )!;
    const second = cookiesOf(await login(`regen-${RUN}@example.com`, TEST_PASSWORD, { cookie: first })).find((c) =>
      c.startsWith('itinera_admin='),
    )!;
    expect(second).not.toBe(first);
    expect((await t.app.inject({ url: '/admin', headers: { cookie: first } })).statusCode).toBe(303);
    expect((await t.app.inject({ url: '/admin', headers: { cookie: second } })).statusCode).toBe(200);
  });

  it('refuses a sign-in form posted without its token', async () => {
    await signIn(t.app, { email: `nocsrf-${RUN}@example.com` });
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: `nocsrf-${RUN}@example.com`, password: TEST_PASSWORD }).toString(),
    });
    expect(res.statusCode).toBe(403);
    expect(cookiesOf(res).some((c) => c.startsWith('itinera_admin='))).toBe(false);
  });

  it('limits failed attempts per IP (20 per 5 minutes); correct sign-ins are never counted', async () => {
    const run = `${Date.now()}-${process.pid}`;
    const ip = `2001:db8::${(Date.now() % 65_000).toString(16)}:${process.pid.toString(16)}`;
    const email = `often-${run}@example.com`;
    await signIn(t.app, { email });
    // the report: the 9th correct sign-in in a row got 429
    for (let i = 0; i < 12; i++) expect((await login(email, TEST_PASSWORD, { ip })).statusCode).toBe(303);
    for (let i = 0; i < 20; i++)
      expect((await login(`someone${i}-${run}@example.com`, 'x', { ip })).statusCode).toBe(401);
    const flood = await login(`other-${run}@example.com`, 'x', { ip });
    expect(flood.statusCode).toBe(429);
    expect(flood.body).toContain('Too many sign-in attempts');
    expect(Number(flood.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('sessions and CSRF', () => {
  it('signs out with the token, and refuses a POST without it', async () => {
    const admin = await signIn(t.app);
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/admin/logout',
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.body).toContain('Request refused');
    const wrongToken = await t.app.inject({
      method: 'POST',
      url: '/admin/logout',
      headers: { cookie: admin.cookie, 'x-csrf-token': 'guess' },
    });
    expect(wrongToken.statusCode).toBe(403);

    const out = await t.app.inject({
      method: 'POST',
      url: '/admin/logout',
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(admin.csrf)}`,
    });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/admin/login');
    expect((await t.app.inject({ url: '/admin', headers: { cookie: admin.cookie } })).statusCode).toBe(303);
    expect(await auditActions(admin.email)).toContain('logout');
  });

  it('ends a session idle for longer than ADMIN_SESSION_IDLE_MINUTES (30 by default)', async () => {
    const admin = await signIn(t.app);
    try {
      t.clock.set('2026-06-15T10:29:00Z');
      expect((await t.app.inject({ url: '/admin', headers: { cookie: admin.cookie } })).statusCode).toBe(200);
      t.clock.set('2026-06-15T11:00:00Z');
      expect((await t.app.inject({ url: '/admin', headers: { cookie: admin.cookie } })).statusCode).toBe(303);
    } finally {
      t.clock.set(TEST_NOW);
    }
  });

  it('a disabled user is signed out everywhere at once', async () => {
    const boss = await signIn(t.app);
    const victim = await signIn(t.app, { permissions: ['view_booking'] });
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/users/${victim.userId}`,
      headers: { cookie: boss.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: boss.csrf, email: victim.email, name: 'Victim', disabled: '1' }).toString(),
    });
    expect(res.statusCode).toBe(303);
    expect(await t.database.db.select().from(adminSessions).where(eq(adminSessions.userId, victim.userId))).toEqual([]);
    expect((await t.app.inject({ url: '/admin', headers: { cookie: victim.cookie } })).statusCode).toBe(303);
    expect((await login(victim.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect(await auditActions(boss.email)).toContain('admin_user.disable');
  });
});

describe('permissions', () => {
  it('shows only the pages a role allows, answers 403 for the others, and the services check again', async () => {
    const clerk = await signIn(t.app, { permissions: ['view_booking'] });
    const home = await t.app.inject({ url: '/admin', headers: { cookie: clerk.cookie } });
    expect(home.body).toContain('href="/admin/bookings"');
    expect(home.body).not.toContain('href="/admin/users"');
    expect(home.body).not.toContain('href="/pulse"');
    const users = await t.app.inject({ url: '/admin/users', headers: { cookie: clerk.cookie } });
    expect(users.statusCode).toBe(403);
    expect(users.body).toContain('manage_admin');
    expect((await t.app.inject({ url: '/pulse', headers: { cookie: clerk.cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/health-dashboard.json', headers: { cookie: clerk.cookie } })).statusCode).toBe(
      403,
    );
    const create = await t.app.inject({
      method: 'POST',
      url: '/admin/users',
      headers: {
        cookie: clerk.cookie,
        'x-csrf-token': clerk.csrf,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'email=x%40example.com&name=X&password=aaaaaaaaaaaaaa&roles=super_admin',
    });
    expect(create.statusCode).toBe(403);
    const { createAdminUser } = await import('./service.js');
    const actor = {
      userId: clerk.userId,
      email: clerk.email,
      name: 'c',
      roles: [],
      grant: { permissions: ['view_booking'] },
    };
    await expect(
      createAdminUser(t.app.ctx, { email: 'y@example.com', name: 'Y', password: 'aaaaaaaaaaaaaa', roles: [] }, actor),
    ).rejects.toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('puts the monitoring pages behind the sign-in (view_dashboard); /metrics keeps HTTP Basic only', async () => {
    expect((await t.app.inject('/pulse')).headers.location).toBe('/admin/login?next=%2Fpulse');
    expect((await t.app.inject('/health-dashboard.json')).statusCode).toBe(401);
    const ops = await signIn(t.app, { permissions: ['view_dashboard'] });
    for (const url of ['/health-dashboard', '/pulse', '/telescope', '/health-dashboard.json', '/pulse/deployments']) {
      expect((await t.app.inject({ url, headers: { cookie: ops.cookie } })).statusCode, url).toBe(200);
    }
    const pulse = await t.app.inject({ url: '/pulse', headers: { cookie: ops.cookie } });
    expect(pulse.body).toContain('hx-get="/pulse/deployments" hx-trigger="every 5s"');
    expect(pulse.body).toContain('<a href="/pulse" aria-current="page">Pulse</a>');
    expect(pulse.body).not.toContain('<script>');
    expect((await t.app.inject('/metrics')).statusCode).toBe(200);
  });
});

describe('admin users, API tokens and the audit log', () => {
  it('creates an admin user from the form and records who did it', async () => {
    const boss = await signIn(t.app);
    const form = (payload: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/admin/users',
        headers: { cookie: boss.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: boss.csrf, ...payload }).toString(),
      });
    const short = await form({ email: `new-${RUN}@example.com`, name: 'New', password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('A password has 12 to 200 characters.');
    const ok = await form({
      email: `new-${RUN}@example.com`,
      name: 'New Person',
      password: 'a long password 1',
      roles: 'super_admin',
    });
    expect(ok.statusCode).toBe(303);
    const list = await t.app.inject({ url: '/admin/users', headers: { cookie: boss.cookie } });
    expect(list.body).toContain(`new-${RUN}@example.com`);
    expect((await login(`new-${RUN}@example.com`, 'a long password 1')).statusCode).toBe(303);
    const [row] = await t.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.action, 'admin_user.create'))
      .then((rows) => rows.filter((r) => r.actor === boss.email));
    expect(row).toMatchObject({
      actor: boss.email,
      resourceType: 'admin_user',
      details: { email: `new-${RUN}@example.com`, roles: ['super_admin'] },
    });
    const audit = await t.app.inject({ url: '/admin/audit-log', headers: { cookie: boss.cookie } });
    expect(audit.body).toContain('admin_user.create');
  });

  it('creates an API token shown once, and revokes it so it stops working', async () => {
    const boss = await signIn(t.app);
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/api-tokens',
      headers: { cookie: boss.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: boss.csrf, name: 'ci', abilities: 'admin:bookings' }).toString(),
    });
    expect(created.statusCode).toBe(201);
    const token = /id="new-token" type="text" readonly value="([^"]+)"/.exec(created.body)![1]!;
    const b = await insertPaidBooking(t.database);
    const view = () =>
      t.app.inject({ url: `/api/internal/bookings/${b.id}`, headers: { authorization: `Bearer ${token}` } });
    expect((await view()).statusCode).toBe(200);
    const list = await t.app.inject({ url: '/admin/api-tokens', headers: { cookie: boss.cookie } });
    expect(list.body).not.toContain(token);
    const id = /href="\/admin\/api-tokens\/(\d+)\/revoke" aria-label="Revoke ci"/.exec(list.body)![1];
    const confirm = await t.app.inject({ url: `/admin/api-tokens/${id}/revoke`, headers: { cookie: boss.cookie } });
    expect(confirm.body).toContain('Revoke token');
    const revoke = await t.app.inject({
      method: 'POST',
      url: `/admin/api-tokens/${id}/revoke`,
      headers: { cookie: boss.cookie, 'x-csrf-token': boss.csrf },
    });
    expect(revoke.statusCode).toBe(303);
    expect((await view()).statusCode).toBe(401);
    expect(await auditActions(boss.email)).toEqual(expect.arrayContaining(['api_token.create', 'api_token.revoke']));
  });
});

describe('roles and ended sessions', () => {
  it('creates a role with ticked permissions, and its holders get exactly those', async () => {
    const boss = await signIn(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/roles',
      headers: { cookie: boss.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(boss.csrf)}&name=operations&label=Operations&permissions=view_booking&permissions=view_dashboard`,
    });
    expect(res.statusCode).toBe(303);
    const page = await t.app.inject({ url: '/admin/roles', headers: { cookie: boss.cookie } });
    expect(page.body).toContain('Operations <code>operations</code>');
    expect(page.body).toContain('value="view_dashboard" checked');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/admin/roles',
      headers: { cookie: boss.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${encodeURIComponent(boss.csrf)}&name=super_admin&permissions=view_booking`,
    });
    expect(bad.statusCode).toBe(409);
    const { createAdminUser } = await import('./service.js');
    await createAdminUser(t.app.ctx, {
      email: `ops-${RUN}@example.com`,
      name: 'Ops',
      password: 'a long password 2',
      roles: ['operations'],
    });
    const ok = await login(`ops-${RUN}@example.com`, 'a long password 2');
    const cookie = cookiesOf(ok).find((c) => c.startsWith('itinera_admin='))!;
    expect((await t.app.inject({ url: '/pulse', headers: { cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/admin/audit-log', headers: { cookie } })).statusCode).toBe(403);
    expect(await auditActions(boss.email)).toContain('admin_role.create');
  });

  it('admin.prune-sessions deletes ended sessions only', async () => {
    const { tasks } = await import('./tasks.js');
    const idle = await signIn(t.app);
    try {
      t.clock.set('2026-06-15T11:30:00Z');
      const live = await idle.again();
      const task = tasks(t.app.ctx)[0]!;
      const result = await task.run(t.app.ctx, { asOf: t.clock.now(), trigger: 'command', options: {}, out: () => {} });
      expect(result.ok).toBe(true);
      const left = await t.database.db.select().from(adminSessions).where(eq(adminSessions.userId, idle.userId));
      expect(left).toHaveLength(1);
      expect((await t.app.inject({ url: '/admin', headers: { cookie: live.cookie } })).statusCode).toBe(200);
    } finally {
      t.clock.set(TEST_NOW);
    }
  });
});
