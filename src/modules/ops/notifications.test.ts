import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { type FakeSmtp, readMail, startFakeSmtp } from '../../../test/support/fake-smtp.js';
import type { AppContext } from '../../context.js';
import { connectPostgres } from '../../db/database.js';
import { opsNotificationThrottles } from '../../db/schema/index.js';
import { allTasks, runTask } from '../../tasks.js';
import { HealthNotifier } from './notifications.js';
import type { HealthReport } from './rules.js';

const MINUTE = 60_000;

let smtp: FakeSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await createTestApp({
    env: {
      SMTP_URL: smtp.url,
      HEALTH_NOTIFY_EMAIL: 'ops@example.test',
      MAIL_FROM: 'health@itinera.test',
      HEALTH_MAX_AGE_SECONDS: '0',
    },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
beforeEach(async () => {
  smtp.received.length = 0;
  smtp.rejectData = false;
  t.app.health.probes.diskUsage = async () => 95;
  await t.database.db.delete(opsNotificationThrottles);
});

async function failingRun(app = t.app) {
  const res = await app.inject({ method: 'GET', url: '/health' });
  expect(res.statusCode).toBe(503);
  await app.health.settled();
}

describe('health failure notifications over SMTP', () => {
  it('e-mails HEALTH_NOTIFY_EMAIL when a check failed, listing every check', async () => {
    await failingRun();
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.from).toBe('health@itinera.test');
    expect(mail.to).toEqual(['ops@example.test']);
    const { headers, body } = readMail(mail);
    expect(headers).toContain('Subject: [itinera test] Health checks failed: UsedDiskSpace');
    expect(body).toContain('- Database: ok');
    expect(body).toContain('- Cache: ok');
    expect(body).toContain('- UsedDiskSpace: failed (The disk is almost full (95% used).)');
    expect(body).toContain('finished at 2026-06-15T10:00:00.000Z');
  });

  it('e-mails a failure found by the scheduled task, with nobody calling /health', async () => {
    const task = allTasks(t.app.ctx).find((k) => k.name === 'ops.health-check')!;
    await runTask(t.app.ctx, task, { asOf: t.clock.now(), trigger: 'schedule', options: {}, out: () => {} });
    // the task waits for the e-mail: no settled() needed
    expect(smtp.received).toHaveLength(1);
    expect(readMail(smtp.received[0]!).headers).toContain('Health checks failed: UsedDiskSpace');
  });

  it('sends nothing for warnings only', async () => {
    t.app.health.probes.diskUsage = async () => 80;
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    await t.app.health.settled();
    expect(smtp.received).toHaveLength(0);
  });

  it('sends at most one message per 60 minutes, across processes sharing the database', async () => {
    const other = await createTestApp({
      database: t.database,
      clock: t.clock,
      env: { SMTP_URL: smtp.url, HEALTH_NOTIFY_EMAIL: 'ops@example.test', HEALTH_MAX_AGE_SECONDS: '0' },
    });
    try {
      other.app.health.probes.diskUsage = async () => 95;
      await failingRun();
      await failingRun();
      await failingRun(other.app);
      t.clock.advance(59 * MINUTE);
      await failingRun(other.app);
      expect(smtp.received).toHaveLength(1);
      t.clock.advance(1 * MINUTE);
      await failingRun(other.app);
      await failingRun();
      expect(smtp.received).toHaveLength(2);
    } finally {
      await other.close();
    }
  });

  it('only one of several simultaneous failing runs sends', async () => {
    await Promise.all([1, 2, 3, 4].map(() => t.app.inject({ method: 'GET', url: '/health' })));
    await t.app.health.settled();
    expect(smtp.received).toHaveLength(1);
  });

  it('gives the hour back when the server refuses the message, so the next failure is sent', async () => {
    smtp.rejectData = true;
    await failingRun();
    expect(smtp.received).toHaveLength(0);
    expect(await t.database.db.select().from(opsNotificationThrottles)).toHaveLength(0);
    smtp.rejectData = false;
    t.clock.advance(MINUTE);
    await failingRun();
    expect(smtp.received).toHaveLength(1);
  });
});

describe('health failure notifications without SMTP', () => {
  function capturingContext(database = t.database) {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const ctx = {
      ...t.app.ctx,
      database,
      log,
      config: { ...t.app.ctx.config, health: { ...t.app.ctx.config.health, smtpUrl: undefined } },
    } as AppContext;
    return { ctx, lines };
  }
  const report: HealthReport = {
    batch: '00000000-0000-4000-8000-000000000000',
    finishedAt: new Date('2026-06-15T10:00:00Z'),
    checkResults: [{ name: 'Database', status: 'failed', message: 'Could not connect to the database: ECONNREFUSED.' }],
  };

  it('writes the message to the log, throttled like an e-mail', async () => {
    const { ctx, lines } = capturingContext();
    const notifier = new HealthNotifier(ctx);
    try {
      expect(await notifier.notifyFailure(report)).toBe('logged');
      expect(await notifier.notifyFailure(report)).toBe('throttled');
      const entry = lines.find((l) => l.msg === 'health notification (no SMTP configured)');
      expect(entry?.level).toBe(50);
      const mail = entry?.mail as { subject: string; text: string };
      expect(mail.subject).toBe('[itinera test] Health checks failed: Database');
      expect(mail.text).toContain('- Database: failed (Could not connect to the database: ECONNREFUSED.)');
      expect(smtp.received).toHaveLength(0);
    } finally {
      notifier.close();
    }
  });

  it('throttles in process when the database cannot be asked', async () => {
    const down = connectPostgres('postgres://postgres@127.0.0.1:1/none', 1);
    const { ctx } = capturingContext(down);
    const notifier = new HealthNotifier(ctx);
    try {
      expect(await notifier.notifyFailure(report)).toBe('logged');
      expect(await notifier.notifyFailure(report)).toBe('throttled');
      t.clock.advance(60 * MINUTE);
      expect(await notifier.notifyFailure(report)).toBe('logged');
    } finally {
      notifier.close();
      await down.close();
    }
  });
});
