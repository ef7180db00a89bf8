// Issue 17 section 4: departure rules imported with the catalog, and offers.generate.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { catalogFixture, FIXTURE_TODAY, importFixture } from '../../../test/support/catalog-fixture.js';
import { runTaskCommand } from '../../../test/support/task-cli.js';
import { allTasks } from '../../tasks.js';
import { runImport } from '../catalog/import.js';
import type { CatalogDoc } from '../catalog/import-schema.js';
import { departureDates, priceDeparture } from './rules.js';
import { generateOffers } from './service.js';

let t: TestApp;
const asOf = new Date(`${FIXTURE_TODAY}T10:00:00Z`);

const rule = {
  code: 'JE-ES-MAD-SAT',
  product: { template: 'japan-essentials', market: 'es', language: 'es' },
  departure_airport: 'MAD',
  weekdays: [6],
  dates: ['2026-07-15'],
  season_start: '2026-06-16',
  season_end: '2026-07-15',
  seats: 8,
  margin_percent: '18.00',
};

function withRules(rules: unknown[]): CatalogDoc {
  return { ...catalogFixture(), offer_rules: rules } as CatalogDoc;
}

interface Row {
  code: string;
  status: string;
  departure_date: string;
  return_date: string;
  allotment: number;
  pax_count: number;
  land_base_price: string;
  flight_price: string;
  margin_percent: string;
  final_price: string;
  price_per_person: string;
}

async function generated(): Promise<Row[]> {
  return (
    await t.database.query<Row>(
      `SELECT o.code, o.status, o.departure_date::text, o.return_date::text, o.allotment, o.pax_count,
              o.land_base_price::text, o.flight_price::text, o.margin_percent::text, o.final_price::text,
              o.price_per_person::text
         FROM offers o JOIN generated_offers g ON g.offer_id = o.id ORDER BY o.departure_date`,
    )
  ).rows;
}

/** What a live search leaves: an offer of the same tour from MAD on `date` with a searched fare. */
async function cacheFare(code: string, date: string, perPerson: string) {
  await t.database.query(
    `UPDATE offers SET departure_date = $2, flight_price = $3,
            flight_data = '{"searched_at": "2026-06-14T08:00:00Z", "outbound": {"from": "MAD", "to": "NRT"}}'::jsonb
      WHERE code = $1`,
    [code, date, perPerson],
  );
}

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.exec(
    `DELETE FROM offers WHERE id IN (SELECT offer_id FROM generated_offers); DELETE FROM offer_rules;`,
  );
  await importFixture(t.database, withRules([rule]));
});

describe('departure rules in the import', () => {
  it('are upserted on their code and refused with a clear path when they refer to nothing', async () => {
    const rows = (
      await t.database.query<{ code: string; seats: number; weekdays: number[] }>(
        'SELECT code, seats, weekdays FROM offer_rules',
      )
    ).rows;
    expect(rows).toEqual([{ code: 'JE-ES-MAD-SAT', seats: 8, weekdays: [6] }]);
    const edited = await runImport(t.database, withRules([{ ...rule, seats: 12 }]), { today: FIXTURE_TODAY });
    expect(edited.ok && edited.summary.offer_rules).toEqual({ total: 1, inserted: 0, updated: 1 });

    const bad = await runImport(
      t.database,
      withRules([
        { ...rule, code: 'X1', product: { template: 'nowhere', market: 'es', language: 'es' } },
        { ...rule, code: 'X2', departure_airport: 'JFK', season_end: '2026-01-01' },
        { ...rule, code: 'X3', weekdays: [], dates: [] },
      ]),
      { today: FIXTURE_TODAY },
    );
    expect(bad.ok ? [] : bad.problems).toEqual([
      { path: '/offer_rules/0/product', reason: 'no market product nowhere/es/es' },
      { path: '/offer_rules/1/season_end', reason: 'the season ends before it starts' },
      { path: '/offer_rules/1/departure_airport', reason: 'unknown airport JFK' },
      { path: '/offer_rules/2', reason: 'a rule needs weekdays or dates' },
    ]);
  });
});

describe('offers.generate', () => {
  it('is registered every 15 minutes', () => {
    expect(allTasks(t.app.ctx).find((x) => x.name === 'offers.generate')?.cron).toBe('*/15 * * * *');
  });

  it('creates the missing departures, priced from land services and the cached fare, else Draft', async () => {
    await cacheFare('JE-CA-1', '2026-07-04', '700.00');
    const { code, lines } = await runTaskCommand(t, ['offers.generate', `--as-of=${FIXTURE_TODAY}`]);
    expect(code).toBe(0);
    expect(lines.at(-1)).toBe(
      'offers.generate: ok: 3 departure(s) created (2 Draft without a fare), 0 Draft(s) priced',
    );
    // Saturdays 20 Jun (JE-ES-EDGE departs then) and the listed 15 Jul (JE-ES-1) already exist.
    // Land: selection hotels in 2A, 3 nights x 160 + 8 nights x 150 = 1680.00 (the included
    // activity and transfer have no rate). 4 Jul: (1680 + 2 x 700) x 1.18 = 3634.40, 1817.20 a
    // person, marketing-rounded (next 5 units, minus 1 cent) to 1819.99. Without a fare:
    // 1680 x 1.18 / 2 = 991.20 -> 994.99.
    const common = { allotment: 8, pax_count: 2, land_base_price: '1680.00', margin_percent: '18.00' };
    expect(await generated()).toEqual([
      {
        ...common,
        code: 'JE-ES-MAD-SAT-20260627',
        status: 'Draft',
        departure_date: '2026-06-27',
        return_date: '2026-07-08',
        flight_price: '0.00',
        final_price: '1989.98',
        price_per_person: '994.99',
      },
      {
        ...common,
        code: 'JE-ES-MAD-SAT-20260704',
        status: 'Active',
        departure_date: '2026-07-04',
        return_date: '2026-07-15',
        flight_price: '700.00',
        final_price: '3639.98',
        price_per_person: '1819.99',
      },
      {
        ...common,
        code: 'JE-ES-MAD-SAT-20260711',
        status: 'Draft',
        departure_date: '2026-07-11',
        return_date: '2026-07-22',
        flight_price: '0.00',
        final_price: '1989.98',
        price_per_person: '994.99',
      },
    ]);
    // the generated flight cache is the searched route
    const [{ flight_data }] = (
      await t.database.query<{ flight_data: Record<string, unknown> }>(
        `SELECT flight_data FROM offers WHERE code = 'JE-ES-MAD-SAT-20260704'`,
      )
    ).rows;
    expect(flight_data).toMatchObject({ outbound: { from: 'MAD', to: 'NRT' } });

    // idempotent: nothing new on the next run
    expect(await generateOffers(t.app.ctx, asOf)).toEqual({ created: 0, priced: 0, drafts: 0, skipped: [] });
  });

  it('prices a Draft once a fare is cached, but never one that was edited or booked', async () => {
    await generateOffers(t.app.ctx, asOf);
    // 11 Jul edited by hand, 27 Jun booked: both keep what they have
    await t.database.query(
      `UPDATE offers SET final_price = 2500, price_per_person = 1250 WHERE code = 'JE-ES-MAD-SAT-20260711'`,
    );
    await t.database.query(`UPDATE offers SET allotment_used = 2 WHERE code = 'JE-ES-MAD-SAT-20260627'`);
    await cacheFare('JE-CA-1', '2026-07-11', '650.00');
    expect(await generateOffers(t.app.ctx, asOf)).toEqual({ created: 0, priced: 0, drafts: 0, skipped: [] });

    // the booked one is freed and a fare for it appears: still untouched (allotment_used)
    await t.database.query(`UPDATE offers SET allotment_used = 0 WHERE code = 'JE-ES-MAD-SAT-20260627'`);
    await cacheFare('JE-CA-1', '2026-06-27', '650.00');
    const r = await generateOffers(t.app.ctx, asOf);
    // freed, unchanged since generated: it is priced now: (1680 + 1300) x 1.18 / 2 = 1758.20 -> 1759.99
    expect(r).toEqual({ created: 0, priced: 1, drafts: 0, skipped: [] });
    const rows = await generated();
    expect(rows.map((o) => [o.code, o.status, o.price_per_person])).toEqual([
      ['JE-ES-MAD-SAT-20260627', 'Active', '1759.99'],
      ['JE-ES-MAD-SAT-20260704', 'Draft', '994.99'],
      ['JE-ES-MAD-SAT-20260711', 'Draft', '1250.00'],
    ]);
  });

  it('uses the fallback fare when no search cached one, and two runs side by side create each departure once', async () => {
    await importFixture(t.database, withRules([{ ...rule, fallback_flight_price: '800.00' }]));
    const [a, b] = await Promise.all([generateOffers(t.app.ctx, asOf), generateOffers(t.app.ctx, asOf)]);
    expect(a.created + b.created).toBe(3);
    const rows = await generated();
    expect(rows.map((o) => o.code)).toEqual([
      'JE-ES-MAD-SAT-20260627',
      'JE-ES-MAD-SAT-20260704',
      'JE-ES-MAD-SAT-20260711',
    ]);
    // (1680 + 1600) x 1.18 / 2 = 1935.20 -> 1939.99
    expect(rows.map((o) => [o.status, o.flight_price, o.price_per_person])).toEqual([
      ['Active', '800.00', '1939.99'],
      ['Active', '800.00', '1939.99'],
      ['Active', '800.00', '1939.99'],
    ]);
  });

  it('never brings back an archived departure, and gives an archived product no new ones', async () => {
    await generateOffers(t.app.ctx, asOf);
    const spanish = { template: 'japan-essentials', market: 'es', language: 'es' };
    const archived = {
      market_products: [{ ...spanish, offers: [{ code: 'JE-ES-MAD-SAT-20260704', status: 'Archived' }] }],
    };
    expect((await runImport(t.database, archived, { today: FIXTURE_TODAY })).ok).toBe(true);
    await cacheFare('JE-CA-1', '2026-07-04', '650.00'); // a fare that would price the Draft it was
    expect(await generateOffers(t.app.ctx, asOf)).toEqual({ created: 0, priced: 0, drafts: 0, skipped: [] });
    expect((await generated()).map((o) => [o.code, o.status])).toEqual([
      ['JE-ES-MAD-SAT-20260627', 'Draft'],
      ['JE-ES-MAD-SAT-20260704', 'Archived'],
      ['JE-ES-MAD-SAT-20260711', 'Draft'],
    ]);

    await t.database.exec('DELETE FROM offers WHERE id IN (SELECT offer_id FROM generated_offers)');
    const product = { market_products: [{ ...spanish, status: 'archived' }] };
    expect((await runImport(t.database, product, { today: FIXTURE_TODAY })).ok).toBe(true);
    expect(await generateOffers(t.app.ctx, asOf)).toEqual({ created: 0, priced: 0, drafts: 0, skipped: [] });
  });

  it('looks no further than OFFER_HORIZON_DAYS ahead', async () => {
    const near = await createTestApp({ env: { OFFER_HORIZON_DAYS: '14' } });
    try {
      await importFixture(near.database, withRules([rule]));
      expect((await generateOffers(near.app.ctx, asOf)).created).toBe(1); // 27 Jun only
    } finally {
      await near.close();
    }
  });
});

describe('rules', () => {
  it('gives the weekdays and listed dates inside the season and the window', () => {
    const r = {
      weekdays: [1, 5],
      dates: ['2026-07-01', '2026-09-01'],
      seasonStart: '2026-06-20',
      seasonEnd: '2026-07-10',
    };
    expect(departureDates(r, '2026-06-16', '2026-07-06')).toEqual([
      '2026-06-22',
      '2026-06-26',
      '2026-06-29',
      '2026-07-01',
      '2026-07-03',
      '2026-07-06',
    ]);
  });

  it('prices with the margin and the marketing rounding per person', () => {
    // (1000 + 2 x 500) x 1.10 = 2200, 1100.00 a person -> the next 5 units minus 1 cent
    expect(priceDeparture({ landCents: 100_000, flightPerPersonCents: 50_000, pax: 2, marginPercent: '10' })).toEqual({
      status: 'Active',
      flightPrice: '500.00',
      finalPrice: '2199.98',
      pricePerPerson: '1099.99',
    });
  });
});
