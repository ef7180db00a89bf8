// Private data (issue 20, item 6): what the log and Telescope keep, the erasure task, and the API
// documentation in production.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/database.js';
import { parseArgs } from '../../src/platform/cli.js';
import { fixedClock } from '../../src/platform/clock.js';
import { scrubText, urlWithoutQueryValues } from '../../src/platform/privacy.js';
import { allTasks, runTask } from '../../src/tasks.js';
import { taskCommand } from '../../src/tasks-command.js';
import { signIn } from '../support/admin.js';
import { PRODUCTION_ENV, TEST_NOW, testConfig } from '../support/app.js';
import { createTestDatabase } from '../support/db.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** the real app, its log captured, plus a route whose query fails in the database with personal data */
async function loggedApp(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app: App = await buildApp({
    config: testConfig({ LOG_LEVEL: 'info', ...env }),
    database,
    clock: fixedClock(TEST_NOW),
    logStream,
  });
  app.get('/test/failing-insert', async () => {
    // a real failing statement through Drizzle, as a repository would run it (the value is not an integer)
    const { sql } = await import('drizzle-orm');
    await app.ctx.database.db.execute(
      sql`SELECT ${'PAA123456'}::text AS passport, ${'ana.garcia@example.com'}::text AS email, ${'Ana Garcia'}::int AS name`,
    );
    return {};
  });
  await app.ready();
  return { app, log: () => lines.join('') };
}

const PERSONAL = ['ana.garcia@example.com', 'PAA123456', 'Ana Garcia', '+34 600 111 222', 'sig-secret-value'];

describe('the log and Telescope keep no personal data', () => {
  it('a 500 from a failed query logs and stores no parameters, e-mails or passport numbers', async () => {
    const { app, log } = await loggedApp();
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/test/failing-insert?signature=sig-secret-value',
        headers: { 'x-session': 'session-secret', 'x-jwt': 'jwt-secret', 'user-agent': 'probe' },
      });
      expect(res.statusCode).toBe(500);
      await app.requestRecorder.flush();
      const text = log();
      expect(text).toContain('unhandled error');
      for (const value of PERSONAL) expect(text).not.toContain(value);
      const { rows } = await database.query<{ path: string; headers: Record<string, string>; error_message: string }>(
        `SELECT path, headers, error_message FROM telescope_requests WHERE path LIKE '/test/failing-insert%'`,
      );
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row.path).toBe('/test/failing-insert?signature');
      expect(row.headers).toEqual({ host: 'localhost:80', 'user-agent': 'probe' });
      const stored = JSON.stringify(row);
      for (const value of [...PERSONAL, 'session-secret', 'jwt-secret']) expect(stored).not.toContain(value);
    } finally {
      await app.close();
    }
  });

  it('logs request URLs with the names of query parameters only', async () => {
    const { app, log } = await loggedApp();
    try {
      await app.inject({ method: 'GET', url: '/api/es/es/products/1/preview?expires=99&signature=sig-secret-value' });
      expect(log()).toContain('/api/es/es/products/1/preview?expires&signature');
      expect(log()).not.toContain('sig-secret-value');
    } finally {
      await app.close();
    }
  });

  it('scrubs e-mails, phones, passport numbers and SQL parameters from text', () => {
    expect(
      scrubText('Failed query: insert into leads values ($1, $2)\nparams: Ana Garcia,ana@example.com,+34 600 111 222'),
    ).toBe('Failed query: insert into leads values ($1, $2)\nparams: [redacted]');
    expect(scrubText('invalid input syntax for type integer: "Ana Garcia"')).toBe(
      'invalid input syntax for type integer: "[redacted]"',
    );
    expect(scrubText('duplicate: Key (email)=(ana@example.com) already exists')).toBe(
      'duplicate: Key (email)=([redacted]) already exists',
    );
    expect(scrubText('mail eva@example.org, call +34 600 111 222 or 0034600111222, passport PAA123456')).toBe(
      'mail [email], call [phone] or [phone], passport [document]',
    );
    // dates, times and short numbers stay readable
    expect(scrubText('at 2026-06-15T10:00:00Z booking 4211 offer 17')).toBe(
      'at 2026-06-15T10:00:00Z booking 4211 offer 17',
    );
    expect(urlWithoutQueryValues('/p?token=abc&period=1h&flag')).toBe('/p?token&period&flag');
  });
});

describe('privacy:erase', () => {
  it('removes or anonymizes a person everywhere and records the run without the e-mail', async () => {
    const { app } = await loggedApp();
    const q = (text: string, params: unknown[] = []) => database.query<Record<string, unknown>>(text, params);
    try {
      const E = 'Erase.Me@Example.com';
      const at = new Date(TEST_NOW);
      await q(
        `INSERT INTO newsletter_subscribers (email, name, phone, consent_given_at, privacy_policy_version, consent_ip)
         VALUES ($1, 'Erase Me', '+34 611 222 333', $2, 'v1.0', '192.0.2.1'), ('keep@example.com', 'Keep', null, $2, 'v1.0', null)`,
        ['erase.me@example.com', at],
      );
      await q(
        `INSERT INTO leads (name, email, phone, source, consent_given_at, privacy_policy_version)
         VALUES ('Erase Me', $1, '600', 'contact_form', $2, 'v1.0')`,
        ['ERASE.ME@example.com', at],
      );
      const client = await q(
        `INSERT INTO clients (first_name, last_name, email, phone) VALUES ('Erase', 'Me', $1, '+34 611 222 333') RETURNING id`,
        ['erase.me@example.com'],
      );
      const clientId = client.rows[0]!.id as number;
      await q(
        `INSERT INTO passengers (client_id, first_name, last_name, nationality, passport_number, passport_expiry, birth_date, phone, email)
         VALUES ($1, 'Erase', 'Me', 'ES', 'PAA123456', '2031-01-01', '1985-01-01', '600', 'erase.me@example.com'),
                (null, 'Travel', 'Mate', 'ES', 'PBB654321', '2031-01-01', '1990-01-01', '601', 'mate@example.com')`,
        [clientId],
      );
      const subscriber = await q(`SELECT id FROM newsletter_subscribers WHERE email = 'erase.me@example.com'`);
      await q(
        `INSERT INTO crm_sync_records (model_type, model_id, status) VALUES ('newsletter_subscriber', $1, 'Synced')`,
        [subscriber.rows[0]!.id],
      );
      await q(
        `INSERT INTO telescope_requests (request_id, method, path, status, duration_ms, headers, error_message, recorded_at)
         VALUES ('r1', 'GET', '/x', 500, 1, '{}', 'failed for erase.me@example.com', $1)`,
        [at],
      );

      const task = allTasks(app.ctx).find((t) => t.name === 'privacy:erase')!;
      const result = await runTask(app.ctx, task, {
        asOf: at,
        trigger: 'command',
        options: { email: E },
        out: () => {},
      });
      expect(result).toEqual({
        ok: true,
        message:
          'erased: newsletter_subscribers 1, leads 1, clients 1, passengers 1, crm_sync_records 1, ' +
          'checkout_sessions 0, telescope_requests 1, admin_notifications 0',
      });

      // nothing of the person is left in any table
      const tables = ['newsletter_subscribers', 'leads', 'clients', 'passengers', 'telescope_requests', 'task_runs'];
      const everything = await q(
        `SELECT ${[...tables, 'privacy_erasures'].map((t) => `coalesce((SELECT json_agg(t) FROM ${t} t)::text, '')`).join(' || ')} AS dump`,
      );
      const dump = String(everything.rows[0]!.dump).toLowerCase();
      for (const value of ['erase.me@example.com', 'paa123456', '611 222 333', '"erase"', '"me"']) {
        expect(dump).not.toContain(value);
      }
      // the others are untouched, the booking's contact is still there (anonymized)
      expect(dump).toContain('keep@example.com');
      expect(dump).toContain('pbb654321');
      const anonymized = await q('SELECT first_name, email FROM clients WHERE id = $1', [clientId]);
      expect(anonymized.rows[0]).toEqual({
        first_name: 'Erased',
        email: expect.stringMatching(/^erased-[0-9a-f]{16}@erased\.invalid$/),
      });
      const record = await q('SELECT email_hash, trigger FROM privacy_erasures');
      expect(record.rows).toEqual([{ email_hash: expect.stringMatching(/^[0-9a-f]{64}$/), trigger: 'command' }]);

      const missing = await runTask(app.ctx, task, { asOf: at, trigger: 'command', options: {}, out: () => {} });
      expect(missing.ok).toBe(false);

      // as an operator types it: npm run task -- privacy:erase --email E
      const lines: string[] = [];
      const cli = {
        config: app.ctx.config,
        database,
        log: app.log,
        out: (l: string) => lines.push(l),
        err: (l: string) => lines.push(`ERR ${l}`),
        app: app.ctx,
      };
      const code = await taskCommand.run(parseArgs(taskCommand, ['privacy:erase', '--email', 'keep@example.com']), cli);
      expect(code).toBe(0);
      expect(lines.at(-1)).toContain('privacy:erase: ok: erased: newsletter_subscribers 1,');
      expect(lines.join('\n')).not.toContain('keep@example.com');
    } finally {
      await app.close();
    }
  });
});

describe('API documentation in production', () => {
  const prod = { ...PRODUCTION_ENV, DASHBOARD_PASSWORD: 'pw' };

  it('hides internal and ops endpoints from the public document by default', async () => {
    const { app } = await loggedApp(prod);
    try {
      const doc = await app.inject('/openapi.json');
      expect(doc.statusCode).toBe(200);
      const paths = Object.keys(doc.json().paths);
      expect(paths).toContain('/api/leads');
      for (const p of paths) {
        expect(p.startsWith('/api/internal/'), p).toBe(false);
        expect(['/api/deployments', '/health', '/pulse', '/telescope'].includes(p), p).toBe(false);
      }
    } finally {
      await app.close();
    }
  });

  it('API_DOCS=off serves neither /docs nor /openapi.json; login puts them behind the console sign-in', async () => {
    const off = await loggedApp({ ...prod, API_DOCS: 'off' });
    try {
      expect((await off.app.inject('/openapi.json')).statusCode).toBe(404);
      expect((await off.app.inject('/docs/')).statusCode).toBe(404);
    } finally {
      await off.app.close();
    }
    const login = await loggedApp({ ...prod, API_DOCS: 'login' });
    try {
      expect((await login.app.inject('/openapi.json')).statusCode).toBe(401);
      const page = await login.app.inject({ url: '/docs/', headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toBe('/admin/login?next=%2Fdocs%2F');
      const viewer = await signIn(login.app, { permissions: ['view_booking'] });
      expect((await login.app.inject({ url: '/openapi.json', headers: { cookie: viewer.cookie } })).statusCode).toBe(
        403,
      );
      const ops = await signIn(login.app, { permissions: ['view_dashboard'] });
      const doc = await login.app.inject({ url: '/openapi.json', headers: { cookie: ops.cookie } });
      expect(doc.statusCode).toBe(200);
      expect(Object.keys(doc.json().paths)).toContain('/api/internal/bookings/{id}');
    } finally {
      await login.app.close();
    }
  });
});
