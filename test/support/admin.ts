// Signed-in console sessions for HTTP tests: an admin user with the given roles or permissions
// and a session made by the real service (no password round trip per test).
import CSRF from '@fastify/csrf';
import type { App } from '../../src/app.js';
import { sessionCookieName } from '../../src/console/http.js';
import type { Permission } from '../../src/console/permissions.js';
import { insertRole, setRolePermissions } from '../../src/modules/admin/repository.js';
import { createAdminUser, startSession } from '../../src/modules/admin/service.js';

let seq = 0;
const tokens = CSRF();
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
    // a token as the pages carry it: made from the session's secret by @fastify/csrf (the engine
    // of @fastify/csrf-protection, default options as the app registers it)
    return { cookie: `${sessionCookieName(ctx)}=${s.id}`, csrf: tokens.create(s.csrfToken) };
  };
  return { userId: user.id, email: user.email, ...(await again()), again };
}

type Injected = Awaited<ReturnType<App['inject']>>;

/** the name=value pairs a response sets */
export function setCookies(res: Injected): string[] {
  const raw = res.headers['set-cookie'];
  return (Array.isArray(raw) ? raw : raw ? [raw] : []).map((c) => c.split(';')[0]!);
}

let ipSeq = 10;

/** GET the sign-in form, then POST it as a browser would (login cookie + hidden token) */
export async function postLogin(
  app: App,
  email: string,
  password: string,
  opts: { ip?: string; cookie?: string } = {},
): Promise<Injected> {
  const remoteAddress = opts.ip ?? `203.0.113.${ipSeq++ % 250}`;
  const form = await app.inject({ url: '/admin/login', remoteAddress });
  const token = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
  const loginCookie = setCookies(form).find((c) => c.startsWith('itinera_login='))!;
  return app.inject({
    method: 'POST',
    url: '/admin/login',
    remoteAddress,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: [loginCookie, opts.cookie].filter(Boolean).join('; '),
    },
    payload: new URLSearchParams({ _csrf: token, email, password }).toString(),
  });
}
