// Partial imports (issue 18): a record updates only the fields it names, a new record must name
// its required fields, lists are replaced only when present, and a dry run writes nothing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/app.js';
import { catalogFixture, FIXTURE_TODAY, importFixture } from '../../../test/support/catalog-fixture.js';
import { createTestDatabase } from '../../../test/support/db.js';
import type { Database } from '../../db/database.js';
import { commands } from './commands.js';
import { catalogRevisionOf, runImport } from './import.js';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await importFixture(database, catalogFixture());
});
afterAll(() => database.close());

const one = async <T>(sql: string, params: unknown[] = []) => (await database.query<T>(sql, params)).rows[0];
const run = (doc: Record<string, unknown>, dryRun = false) =>
  runImport(database, doc, { today: FIXTURE_TODAY, dryRun });

describe('an import updates only the fields a record names', () => {
  it('a market left without is_active keeps its state (the inactive market stays inactive)', async () => {
    const result = await run({ markets: [{ code: 'it', name: 'Italia (in preparazione)' }] });
    expect(result).toMatchObject({ ok: true, summary: { markets: { total: 1, inserted: 0, updated: 1 } } });
    expect(await one('SELECT name, is_active, timezone, languages FROM markets WHERE code = $1', ['it'])).toEqual({
      name: 'Italia (in preparazione)',
      is_active: false,
      timezone: 'Europe/Rome',
      languages: ['it'],
    });
    // its airports were not named: they stay
    expect(
      (
        await database.query(
          `SELECT iata_code FROM market_airports ma JOIN markets m ON m.id = ma.market_id WHERE m.code = 'it'`,
        )
      ).rows,
    ).toEqual([{ iata_code: 'FCO' }]);
  });

  it('a market product left without version keeps its version and SKU, and its other fields', async () => {
    const before = await one<Record<string, unknown>>(
      `SELECT mp.* FROM market_products mp JOIN product_templates t ON t.id = mp.template_id
        WHERE t.code = 'japan-essentials' AND mp.locale = 'es_ES'`,
    );
    await database.query('UPDATE market_products SET version = 3, sku = $2 WHERE id = $1', [
      before.id,
      'ES-1MAD12-ES3',
    ]);
    const result = await run({
      market_products: [
        { template: 'japan-essentials', market: 'es', language: 'es', title: 'Japón esencial (nuevo)' },
      ],
    });
    expect(result.ok).toBe(true);
    const after = await one<Record<string, unknown>>('SELECT * FROM market_products WHERE id = $1', [before.id]);
    expect(after).toMatchObject({
      title: 'Japón esencial (nuevo)',
      version: 3,
      sku: 'ES-1MAD12-ES3',
      status: before.status,
      subtitle: before.subtitle,
      highlights: before.highlights,
      hero_image: before.hero_image,
      url_slug: before.url_slug,
      sort_order: before.sort_order,
    });
    const days = await one<{ n: number }>(
      'SELECT count(*)::int AS n FROM itinerary_days WHERE market_product_id = $1',
      [before.id],
    );
    expect(days.n).toBe(3);
    const airports = await database.query(
      'SELECT iata_code FROM market_product_airports WHERE market_product_id = $1 ORDER BY sort_order',
      [before.id],
    );
    expect(airports.rows).toEqual([{ iata_code: 'MAD' }, { iata_code: 'BCN' }]);
  });

  it('an explicit null clears a nullable field; a list is replaced only when present', async () => {
    const result = await run({
      hotels: [
        { code: 'tokyo-selection', stars: null },
        { code: 'tokyo-grand', images: [] },
      ],
      activities: [{ code: 'tokyo-city-tour', reasons: null }],
    });
    expect(result.ok).toBe(true);
    expect(await one('SELECT name, stars, images FROM hotels WHERE code = $1', ['tokyo-selection'])).toEqual({
      name: 'Hotel Gracery Shinjuku',
      stars: null,
      images: ['hotels/gracery.jpg'],
    });
    expect(await one('SELECT stars, images FROM hotels WHERE code = $1', ['tokyo-grand'])).toEqual({
      stars: 5,
      images: [],
    });
    expect(
      await one('SELECT description, reasons, images FROM activities WHERE code = $1', ['tokyo-city-tour']),
    ).toEqual({
      description: 'Asakusa, Meiji shrine and Shibuya with a local guide.',
      reasons: null,
      images: ['activities/tokyo-city-tour.jpg', 'activities/tokyo-2.jpg'],
    });
    // the hotel's room rates were not named: all five stay
    const rates = await one<{ n: number }>(
      `SELECT count(*)::int AS n FROM hotel_rates r JOIN hotels h ON h.id = r.hotel_id WHERE h.code = 'tokyo-selection'`,
    );
    expect(rates.n).toBe(5);
  });

  it('an offer update names only its price: status, dates and seats stay', async () => {
    const code = catalogFixture().market_products![0].offers![0].code;
    const before = await one<Record<string, unknown>>('SELECT * FROM offers WHERE code = $1', [code]);
    // per person x 2 travellers must be the final price: 1,500.00 x 2 = 3,000.00
    const offer = { code, price_per_person: '1500.00', final_price: '3000.00' };
    const result = await run({
      market_products: [{ template: 'japan-essentials', market: 'es', language: 'es', offers: [offer] }],
    });
    expect(result.ok).toBe(true);
    const after = await one<Record<string, unknown>>('SELECT * FROM offers WHERE code = $1', [code]);
    expect(after).toEqual({
      ...before,
      price_per_person: '1500.00',
      final_price: '3000.00',
      updated_at: after.updated_at,
    });
  });

  it('refuses a price per person that is not the final price shared by the travellers', async () => {
    const code = catalogFixture().market_products![0].offers![0].code;
    const result = await run({
      market_products: [
        { template: 'japan-essentials', market: 'es', language: 'es', offers: [{ code, price_per_person: '1.00' }] },
      ],
    });
    expect(result).toMatchObject({
      ok: false,
      problems: [
        {
          path: '/market_products/0/offers/0/price_per_person',
          reason: expect.stringMatching(/^price_per_person 1\.00 x 2 travellers is 2\.00, not the final_price /),
        },
      ],
    });
  });
});

describe('a new record must name its required fields', () => {
  it('lists every missing field of a new market, product and offer, and writes nothing', async () => {
    const result = await run({
      markets: [{ code: 'pt', name: 'Portugal' }],
      market_products: [
        {
          template: 'japan-essentials',
          market: 'de',
          language: 'en',
          title: 'Japan Essentials',
          offers: [{ code: 'NEW-OFFER-1', departure_date: '2026-09-01' }],
        },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => `${p.path} ${p.reason}`).sort()).toEqual(
      [
        '/markets/0/is_active is required for a new market',
        '/markets/0/languages is required for a new market',
        '/markets/0/currency is required for a new market',
        '/markets/0/timezone is required for a new market',
        '/markets/0/airports is required for a new market',
        '/market_products/0/status is required for a new market product',
        '/market_products/0/url_slug is required for a new market product',
        '/market_products/0/country_name is required for a new market product',
        '/market_products/0/departure_airports is required for a new market product',
        '/market_products/0/offers/0/departure_airport is required for a new offer',
        '/market_products/0/offers/0/status is required for a new offer',
        '/market_products/0/offers/0/allotment is required for a new offer',
        '/market_products/0/offers/0/land_base_price is required for a new offer',
        '/market_products/0/offers/0/flight_price is required for a new offer',
        '/market_products/0/offers/0/final_price is required for a new offer',
        '/market_products/0/offers/0/price_per_person is required for a new offer',
      ].sort(),
    );
    expect(await one('SELECT count(*)::int AS n FROM markets WHERE code = $1', ['pt'])).toEqual({ n: 0 });
  });
});

describe('a dry run', () => {
  it('reports counts and the changed fields of updated records, and writes nothing', async () => {
    const revision = await catalogRevisionOf(database);
    const result = await run(
      {
        airports: [
          { iata_code: 'MAD', city: 'Madrid (Barajas)' },
          { iata_code: 'OPO', name: 'Francisco Sá Carneiro', city: 'Porto', country: 'Portugal' },
          { iata_code: 'BCN' },
        ],
      },
      true,
    );
    expect(result).toEqual({
      ok: true,
      dryRun: true,
      summary: { airports: { total: 3, inserted: 1, updated: 1 } },
      changes: [
        { entity: 'airports', key: 'MAD', changes: [{ field: 'city', from: 'Madrid', to: 'Madrid (Barajas)' }] },
      ],
    });
    expect(await one('SELECT city FROM airports WHERE iata_code = $1', ['MAD'])).toEqual({ city: 'Madrid' });
    expect(await one('SELECT count(*)::int AS n FROM airports WHERE iata_code = $1', ['OPO'])).toEqual({ n: 0 });
    expect(await catalogRevisionOf(database)).toBe(revision);
  });
});

describe('supply translations merge like the records they belong to', () => {
  const texts = async (code: string) =>
    (
      await database.query<Record<string, unknown>>(
        `SELECT tr.language, tr.name, tr.description, tr.city, tr.country, tr.reasons
           FROM activity_translations tr JOIN activities a ON a.id = tr.activity_id
          WHERE a.code = $1 ORDER BY tr.language`,
        [code],
      )
    ).rows;

  it('an entry updates only the fields it names; other languages and the base row stay', async () => {
    const first = await run({
      activities: [
        {
          code: 'tokyo-sumo-show',
          translations: {
            de: { name: 'Sumo-Morgentraining', description: 'Training im Stall.', city: 'Tokio' },
            fr: { name: 'Entraînement de sumo', city: 'Tokyo' },
          },
        },
      ],
    });
    expect(first).toMatchObject({
      ok: true,
      summary: { activities: { total: 1, updated: 0 }, activity_translations: { total: 2, inserted: 2, updated: 0 } },
    });
    // a partial document: one field of one language, nothing else named
    const second = await run({
      activities: [{ code: 'tokyo-sumo-show', translations: { de: { description: 'Morgentraining in Ryogoku.' } } }],
    });
    expect(second).toMatchObject({
      ok: true,
      summary: { activity_translations: { total: 1, inserted: 0, updated: 1 } },
      changes: [
        {
          entity: 'activity_translations',
          key: 'tokyo-sumo-show/de',
          changes: [{ field: 'description', from: 'Training im Stall.', to: 'Morgentraining in Ryogoku.' }],
        },
      ],
    });
    expect(await texts('tokyo-sumo-show')).toEqual([
      {
        language: 'de',
        name: 'Sumo-Morgentraining',
        description: 'Morgentraining in Ryogoku.',
        city: 'Tokio',
        country: null,
        reasons: null,
      },
      { language: 'fr', name: 'Entraînement de sumo', description: null, city: 'Tokyo', country: null, reasons: null },
    ]);
    expect(await one('SELECT name, city FROM activities WHERE code = $1', ['tokyo-sumo-show'])).toEqual({
      name: 'Sumo morning practice',
      city: 'Tokyo',
    });
    // the record without translations keeps them all
    await run({ activities: [{ code: 'tokyo-sumo-show', name: 'Sumo practice at dawn' }] });
    expect((await texts('tokyo-sumo-show')).map((r) => r.language)).toEqual(['de', 'fr']);
  });

  it('null clears a translated field (it falls back again); a null language removes the translation', async () => {
    const result = await run({
      activities: [{ code: 'tokyo-sumo-show', translations: { de: { city: null }, fr: null } }],
    });
    expect(result).toMatchObject({ ok: true, summary: { activity_translations: { total: 2, updated: 2 } } });
    expect(await texts('tokyo-sumo-show')).toEqual([
      {
        language: 'de',
        name: 'Sumo-Morgentraining',
        description: 'Morgentraining in Ryogoku.',
        city: null,
        country: null,
        reasons: null,
      },
    ]);
  });

  it('hotels, transfers and airports take translations too; a language code must be two letters', async () => {
    const ok = await run({
      hotels: [{ code: 'tokyo-selection', translations: { fr: { description: 'Hôtel moderne à Shinjuku.' } } }],
      transfers: [{ code: 'narita-hotel-shared', translations: { fr: { name: 'Navette de Narita' } } }],
      airports: [{ iata_code: 'FRA', translations: { fr: { name: 'Aéroport de Francfort', city: 'Francfort' } } }],
    });
    expect(ok).toMatchObject({
      ok: true,
      summary: {
        hotel_translations: { total: 1, inserted: 1 },
        transfer_translations: { total: 1, inserted: 1 },
        airport_translations: { total: 1, inserted: 1 },
      },
    });
    expect(
      await one(`SELECT name, city, country FROM airport_translations WHERE iata_code = 'FRA' AND language = 'fr'`),
    ).toEqual({ name: 'Aéroport de Francfort', city: 'Francfort', country: null });
    const bad = await run({
      hotels: [{ code: 'tokyo-selection', translations: { fra: { name: 'x' }, de: { stars: 3 } } as never }],
    });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    // the entry is an object or null: the union reports itself, then the unknown field
    expect(bad.problems.map((p) => p.path).sort()).toEqual([
      '/hotels/0/translations/de',
      '/hotels/0/translations/de/stars',
      '/hotels/0/translations/fra',
    ]);
  });
});

describe('one round shows every problem it can', () => {
  const JAPAN = { template: 'japan-essentials', market: 'es', language: 'es' };
  // an update of the Spanish Japan product: two values the schema refuses, two unknown references
  const doc = () => ({
    market_products: [
      {
        ...JAPAN,
        url_slug: 'Not a slug',
        itinerary: [
          { day: 'one', title: 'Llegada' },
          { day: 2, title: 'Tokio', activities: [{ activity: 'tokyo-tea-ceremony', tier: 'included' }] },
          { day: 3, title: 'Kioto', activities: [{ activity: 'no-such-activity', tier: 'included' }] },
        ],
      },
    ],
    product_templates: [
      { code: 'japan-essentials', accommodations: [{ hotel: 'nowhere', tier: 'selection', day_start: 1, day_end: 2 }] },
    ],
  });

  it('checks the references of the parts the schema accepted, at their paths in the document', async () => {
    const result = await run(doc());
    if (result.ok) throw new Error('expected problems');
    expect(result.problems).toEqual([
      { path: '/market_products/0/url_slug', reason: expect.stringMatching(/^has an invalid format/) },
      { path: '/market_products/0/itinerary/0/day', reason: 'must be a whole number' },
      // the day the schema refused is left out of the checks; the next days keep their index
      { path: '/product_templates/0/accommodations/0/hotel', reason: "unknown hotel 'nowhere'" },
      { path: '/market_products/0/itinerary/2/activities/0/activity', reason: "unknown activity 'no-such-activity'" },
    ]);
  });

  it('a record the schema refuses as a whole (its key) leaves the references unchecked: other records may name it', async () => {
    const result = await run({
      markets: [{ code: 'Portugal!', name: 'Portugal' }],
      market_products: [{ template: 'no-such-tour', market: 'es', language: 'es' }],
    });
    if (result.ok) throw new Error('expected problems');
    expect(result.problems).toEqual([
      { path: '/markets/0/code', reason: expect.stringMatching(/^has an invalid format/) },
    ]);
  });

  it('the import command reports the schema problem and the unknown reference of one file together', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'itinera-import-')), 'doc.json');
    writeFileSync(
      file,
      JSON.stringify({
        market_products: [
          {
            ...JAPAN,
            url_slug: 'Not a slug',
            itinerary: [{ day: 3, title: 'Kioto', activities: [{ activity: 'no-such-activity', tier: 'included' }] }],
          },
        ],
      }),
    );
    const lines: string[] = [];
    const cli = {
      config: testConfig(),
      database,
      log: pino({ level: 'silent' }),
      out: (l: string) => lines.push(l),
      err: (l: string) => lines.push(`ERR ${l}`),
    };
    expect(await commands.import.run({ positional: [file], options: {} }, cli)).toBe(1);
    expect(lines).toEqual([
      `ERR ${file}: 2 problem(s), nothing was imported:`,
      expect.stringMatching(/^ERR {3}\/market_products\/0\/url_slug: has an invalid format/),
      "ERR   /market_products/0/itinerary/0/activities/0/activity: unknown activity 'no-such-activity'",
    ]);
  });
});
