// Issue 17 section 3: the daily ECB exchange rate sync against a local fake feed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeEcb, startFakeEcb } from '../../../test/fakes/ecb.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { runTaskCommand } from '../../../test/support/task-cli.js';
import { allTasks } from '../../tasks.js';
import { catalogRevisionOf } from '../catalog/import.js';
import { loadExchangeRates } from '../catalog/supply.js';
import { FeedError, parseEcbFeed } from './feed.js';
import { syncExchangeRates } from './service.js';

let t: TestApp;
let ecb: FakeEcb;
beforeAll(async () => {
  ecb = await startFakeEcb();
  t = await createTestApp({ env: { EXCHANGE_RATES_URL: ecb.url } });
});
afterAll(async () => {
  await t.close();
  await ecb.close();
});
beforeEach(async () => {
  ecb.answer = 'ok';
  await t.database.exec(
    `DELETE FROM exchange_rate_history; DELETE FROM exchange_rates; DELETE FROM ops_notification_throttles;`,
  );
});

const history = async () =>
  (
    await t.database.query<{ currency: string; rate_date: string; rate_per_eur: string }>(
      `SELECT currency, rate_date::text, rate_per_eur::text FROM exchange_rate_history ORDER BY rate_date, currency`,
    )
  ).rows;
const notified = async () =>
  (await t.database.query(`SELECT 1 FROM ops_notification_throttles WHERE key = 'exchange-rates:stale'`)).rows.length;

function command(asOf?: string) {
  return runTaskCommand(t, ['exchange-rates.sync', ...(asOf ? [`--as-of=${asOf}`] : [])]);
}

describe('the exchange-rates.sync task', () => {
  it('is registered to run daily', () => {
    const task = allTasks(t.app.ctx).find((x) => x.name === 'exchange-rates.sync');
    expect(task?.cron).toBe('30 16 * * *');
  });

  it('loads the feed into the current rates, keeps each date in the history and drops converted caches', async () => {
    const revision = await catalogRevisionOf(t.database);
    let events = 0;
    const count = () => events++;
    t.app.ctx.events.on('catalog:changed', count);
    ecb.publish('2026-06-11', { USD: '1.0800', JPY: '168.5' });
    expect(await command()).toEqual({
      code: 0,
      lines: [
        'loaded 2 rates of 2026-06-11 (2 changed)',
        'exchange-rates.sync: ok: loaded 2 rates of 2026-06-11 (2 changed)',
      ],
    });
    ecb.publish('2026-06-12', { USD: '1.0866', JPY: '168.5' });
    const second = await syncExchangeRates(t.app.ctx, new Date('2026-06-15T10:00:00Z'));
    expect(second).toEqual({ ok: true, message: 'loaded 2 rates of 2026-06-12 (1 changed)', changed: 1 });
    t.app.ctx.events.off('catalog:changed', count);

    expect(await history()).toEqual([
      { currency: 'JPY', rate_date: '2026-06-11', rate_per_eur: '168.50000000' },
      { currency: 'USD', rate_date: '2026-06-11', rate_per_eur: '1.08000000' },
      { currency: 'JPY', rate_date: '2026-06-12', rate_per_eur: '168.50000000' },
      { currency: 'USD', rate_date: '2026-06-12', rate_per_eur: '1.08660000' },
    ]);
    // what every conversion reads: the latest
    expect(Object.fromEntries(await loadExchangeRates(t.database.db))).toEqual({
      JPY: '168.50000000',
      USD: '1.08660000',
    });
    expect(await catalogRevisionOf(t.database)).toBe(revision + 2);
    expect(events).toBe(2);

    // the same rates again: nothing to drop
    expect((await syncExchangeRates(t.app.ctx, new Date('2026-06-15T10:00:00Z'))).changed).toBe(0);
    expect(await catalogRevisionOf(t.database)).toBe(revision + 2);
  });

  it('never goes back to an older date than the stored one', async () => {
    ecb.publish('2026-06-12', { USD: '1.0866' });
    await syncExchangeRates(t.app.ctx, new Date('2026-06-15T10:00:00Z'));
    ecb.publish('2026-06-10', { USD: '1.0500' });
    const r = await syncExchangeRates(t.app.ctx, new Date('2026-06-15T10:00:00Z'));
    expect(r).toEqual({
      ok: true,
      message: "the feed's 2026-06-10 is older than the stored 2026-06-12; nothing changed",
      changed: 0,
    });
    expect((await loadExchangeRates(t.database.db)).get('USD')).toBe('1.08660000');
  });

  for (const answer of ['truncated', 'html', 'bad-rate', { status: 503 }, 'hang'] as const) {
    it(`a failed download (${JSON.stringify(answer)}) keeps the last rates and exits 1`, async () => {
      ecb.publish('2026-06-12', { USD: '1.0866', GBP: '0.8539' });
      await syncExchangeRates(t.app.ctx, new Date('2026-06-15T10:00:00Z'));
      ecb.publish('2026-06-15', { USD: '2.0000', GBP: '0.9000' });
      ecb.answer = answer;
      const run =
        answer === 'hang'
          ? { code: (await syncExchangeRates(t.app.ctx, new Date('2026-06-15T10:00:00Z'), 300)).ok ? 0 : 1, lines: [] }
          : await command('2026-06-15');
      expect(run.code).toBe(1);
      if (answer !== 'hang')
        expect(run.lines.at(-1)).toMatch(/^ERR exchange-rates\.sync: failed: .*; kept the rates of 3 day\(s\) ago$/);
      expect(Object.fromEntries(await loadExchangeRates(t.database.db))).toEqual({
        GBP: '0.85390000',
        USD: '1.08660000',
      });
      expect(await history()).toHaveLength(2);
      // three days (Friday's rates on Monday) are not stale yet
      expect(await notified()).toBe(0);
    });
  }

  it('notifies the admins when the kept rates are older than 3 days', async () => {
    ecb.publish('2026-06-12', { USD: '1.0866' });
    await syncExchangeRates(t.app.ctx, new Date('2026-06-15T10:00:00Z'));
    ecb.answer = { status: 500 };
    const r = await command('2026-06-16');
    expect(r.code).toBe(1);
    expect(r.lines.at(-1)).toBe(
      'ERR exchange-rates.sync: failed: download failed: HTTP 500; kept the rates of 4 day(s) ago (admins notified)',
    );
    expect(await notified()).toBe(1);
  });
});

describe('reading the ECB document', () => {
  const doc = (body: string) =>
    `<?xml version="1.0"?><gesmes:Envelope xmlns:gesmes="g"><Cube>${body}</Cube></gesmes:Envelope>`;

  it('reads the date and each currency rate', () => {
    const r = parseEcbFeed(
      doc(`<Cube time='2026-06-12'><Cube currency='USD' rate='1.0866'/><Cube currency="HUF" rate="395.10"/></Cube>`),
    );
    expect(r.date).toBe('2026-06-12');
    expect(Object.fromEntries(r.rates)).toEqual({ USD: '1.0866', HUF: '395.10' });
  });

  it.each([
    ['no envelope', `<Cube time='2026-06-12'><Cube currency='USD' rate='1.0866'/></Cube>`],
    ['no date', doc(`<Cube currency='USD' rate='1.0866'/>`)],
    ['no rates', doc(`<Cube time='2026-06-12'></Cube>`)],
    ['a negative rate', doc(`<Cube time='2026-06-12'><Cube currency='USD' rate='-1'/></Cube>`)],
    [
      'an unreadable entry',
      doc(`<Cube time='2026-06-12'><Cube currency='USD' rate='1.1'/><Cube currency='usd' rate='1'/></Cube>`),
    ],
    [
      'a currency twice',
      doc(`<Cube time='2026-06-12'><Cube currency='USD' rate='1.1'/><Cube currency='USD' rate='1.2'/></Cube>`),
    ],
  ])('refuses %s', (_what, xml) => {
    expect(() => parseEcbFeed(xml)).toThrow(FeedError);
  });
});
