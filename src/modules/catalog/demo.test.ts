import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createTestDatabase } from '../../../test/support/db.js';
import type { ImportSection } from '../../import/section.js';
import { generateOffers } from '../offer-generation/service.js';
import { commands } from './commands.js';
import { DEMO_DIR, loadDemo, mergeDocuments, resolveRelativeDates } from './demo.js';
import { defaultSections } from './import.js';
import { previewUrlFor } from './preview.js';

describe('demo document helpers', () => {
  it('resolves relative dates anywhere in the document', () => {
    expect(
      resolveRelativeDates({ a: ['today', 'today+20', 'today-3'], b: { c: 'today+1x', d: 3 } }, '2026-12-30'),
    ).toEqual({ a: ['2026-12-30', '2027-01-19', '2026-12-27'], b: { c: 'today+1x', d: 3 } });
  });
  it('merges files by top-level key', () => {
    expect(
      mergeDocuments([
        { a: [1], b: { x: 1 }, c: 1 },
        { a: [2], b: { y: 2 }, d: [3] },
      ]),
    ).toEqual({
      a: [1, 2],
      b: { x: 1, y: 2 },
      c: 1,
      d: [3],
    });
  });
});

describe('loadDemo', () => {
  let t: TestApp;
  const seen: unknown[] = [];
  // a section the catalog does not know receives its own keys (as the content module's will)
  const probe: ImportSection = {
    name: 'probe',
    properties: {},
    check: (doc) => {
      seen.push(Object.keys(doc).sort());
      return [];
    },
    apply: async () => {},
  };

  beforeAll(async () => {
    const database = await createTestDatabase();
    const result = await loadDemo(database, { today: '2026-06-15', sections: [...defaultSections, probe] });
    if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 10)));
    t = await createTestApp({ database });
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await t.database.close();
  });

  it('re-imports each demo file as it stands with the import command (dry run, then for real)', async () => {
    const lines: string[] = [];
    const cli = {
      config: t.config,
      database: t.database,
      log: t.app.log,
      out: (l: string) => lines.push(l),
      err: (l: string) => lines.push(`ERR ${l}`),
    };
    const file = `${DEMO_DIR}/catalog.json`;
    expect(await commands.import.run({ positional: [file], options: { 'dry-run': true } }, cli)).toBe(0);
    expect(lines[0]).toBe(`${file}: dry run, nothing was written`);
    expect(lines.filter((l) => l.startsWith('ERR'))).toEqual([]);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}markets +6 in file: 0 new, 0 changed, 6 unchanged$/));
    lines.length = 0;
    expect(await commands.import.run({ positional: [`${DEMO_DIR}/content.json`], options: {} }, cli)).toBe(0);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}regions +4 in file: 0 new, 0 changed, 4 unchanged$/));
  }, 120_000);

  it('imports the demo catalog: markets, tours in every active market and language, offers', async () => {
    expect(seen[0]).toEqual(expect.arrayContaining(['markets', 'market_products']));
    const counts = await t.database.query<{ markets: number; tours: number; products: number; offers: number }>(
      `SELECT (SELECT count(*)::int FROM markets) AS markets, (SELECT count(*)::int FROM product_templates) AS tours,
              (SELECT count(*)::int FROM market_products) AS products, (SELECT count(*)::int FROM offers) AS offers`,
    );
    expect(counts.rows[0].markets).toBe(6);
    expect(counts.rows[0].tours).toBeGreaterThanOrEqual(12);
    expect(counts.rows[0].offers).toBeGreaterThan(1000);
    expect((await t.app.inject('/api/it/it/products')).statusCode).toBe(403);
    const ca = (await t.app.inject('/api/ca/fr/products')).json();
    expect(ca.meta).toEqual({ market: 'ca', locale: 'fr_CA' });
    expect(ca.data.length).toBe(11); // one French-Canadian product is inactive
    const es = (await t.app.inject('/api/es/es/products')).json().data;
    expect(es).toHaveLength(12);
    const japan = es.find((p: { country_slug: string }) => p.country_slug === 'japan');
    const conf = (await t.app.inject(`/api/es/es/products/${japan.id}/configurator`)).json().data;
    expect(conf.months.length).toBeGreaterThanOrEqual(10);
    expect(conf.room_types.map((r: { code: string }) => r.code)).toEqual(['1A', '2A', '3A', '4A']);
    const lead = (await t.app.inject(`/api/us/en/products/${japan.id}/leading-price`)).statusCode;
    expect(lead).toBe(404); // an es product is not a us product
    // every airport of the offers' flights is named, so a booking's flight_selection is enriched
    const unnamed = await t.database.query<{ code: string }>(
      `SELECT DISTINCT c.code FROM offers o,
         LATERAL (SELECT o.flight_data->'outbound'->>'departure_airport' UNION SELECT o.flight_data->'outbound'->>'arrival_airport'
                  UNION SELECT o.flight_data->'inbound'->>'departure_airport' UNION SELECT o.flight_data->'inbound'->>'arrival_airport'
                  UNION SELECT l->>'origin' FROM jsonb_array_elements(coalesce(o.flight_data->'legs', '[]')) l
                  UNION SELECT l->>'destination' FROM jsonb_array_elements(coalesce(o.flight_data->'legs', '[]')) l) AS c(code)
        WHERE c.code IS NOT NULL AND NOT EXISTS (SELECT 1 FROM airports a WHERE a.iata_code = c.code)`,
    );
    expect(unnamed.rows.map((r) => r.code)).toEqual([]);
    // the checkout's hotel step has a stay without upgrades to show (Casablanca, Morocco)
    const morocco = es.find((p: { country_slug: string }) => p.country_slug === 'morocco');
    const mconf = (await t.app.inject(`/api/es/es/products/${morocco.id}/configurator`)).json().data;
    const offerId = mconf.months[0].dates[0].offer_id;
    const hotels = (await t.app.inject(`/api/es/es/checkout/${offerId}/hotels`)).json().data.hotels;
    type Entry = { tier: string; nights: { start: number; end: number } };
    const standalone = hotels.filter(
      (h: Entry) =>
        h.tier === 'selection' &&
        !hotels.some((u: Entry) => u.tier !== 'selection' && u.nights.start === h.nights.start),
    );
    expect(standalone).toHaveLength(1);
  });

  it('caches the route of each offer with times, carrier and stops: the flight card before any search', async () => {
    const es = (await t.app.inject('/api/es/es/products')).json().data;
    const japan = es.find((p: { country_slug: string }) => p.country_slug === 'japan');
    const conf = (await t.app.inject(`/api/es/es/products/${japan.id}/configurator`)).json().data;
    type Day = { offer_id: number; available: boolean; departure_airport: string };
    const days: Day[] = conf.months.flatMap((m: { dates: Day[] }) => m.dates).filter((d: Day) => d.available);
    const card = async (port: string) => {
      const offer = days.find((d) => d.departure_airport === port)!;
      const res = await t.app.inject(`/api/es/es/checkout/${offer.offer_id}/flights`);
      expect(res.statusCode).toBe(200);
      return res.json().data.outbound_options[0];
    };
    // from the carrier's hub nonstop; from another airport of the market one stop through the hub
    const fromHub = await card('MAD');
    expect(fromHub).toMatchObject({
      departure_airport: 'MAD',
      arrival_airport: 'NRT',
      stops: 0,
      stopover_airports: [],
    });
    expect(fromHub.airlines).toEqual([{ code: 'IB', name: 'Iberia' }]);
    expect(fromHub.departureTime).toMatch(/^\d\d:\d\d$/);
    expect(fromHub.arrivalTime).toMatch(/^\d\d:\d\d$/);
    expect(fromHub.duration).toBeGreaterThan(600);
    expect(fromHub.arrivalDayOffset).toBe(1);
    expect(fromHub.flight_numbers).toHaveLength(1);
    const viaHub = await card('BCN');
    expect(viaHub).toMatchObject({ departure_airport: 'BCN', stops: 1, stopover_airports: ['MAD'] });
    expect(viaHub.flight_numbers).toHaveLength(2);
    expect(viaHub.duration).toBe(fromHub.duration + 150);
  });

  it('gives every catalog rule something to show: unavailable dates, a product with nothing bookable', async () => {
    const es = (await t.app.inject('/api/es/es/products')).json().data;
    const japan = es.find((p: { country_slug: string }) => p.country_slug === 'japan');
    const conf = (await t.app.inject(`/api/es/es/products/${japan.id}/configurator`)).json().data;
    const dates = conf.months.flatMap((m: { dates: { available: boolean }[] }) => m.dates);
    expect(dates.some((d: { available: boolean }) => !d.available)).toBe(true);
    const uk = (await t.app.inject('/api/uk/en/products')).json().data;
    const mexico = uk.find((p: { country_slug: string }) => p.country_slug === 'mexico');
    const price = (await t.app.inject(`/api/uk/en/products/${mexico.id}/leading-price`)).json().data;
    expect(price).toMatchObject({ price_from: null, offers_count: 0 });
    expect((await t.app.inject(`/api/uk/en/products/${mexico.id}/configurator`)).json().data.months).toEqual([]);
  });

  it('previews the Italian draft of the market still being prepared, whose public pages answer 403', async () => {
    const [{ id }] = (
      await t.database.query<{ id: number }>(
        `SELECT mp.id FROM market_products mp JOIN markets m ON m.id = mp.market_id WHERE m.code = 'it'`,
      )
    ).rows;
    const url = await previewUrlFor(t.database, t.config, id, t.clock.now());
    const res = await t.app.inject(url!.replace(t.config.appUrl, ''));
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ id, status: 'draft', locale: 'it_IT', title: 'Marocco: le città imperiali' });
    // 15 Active departures every 24 days from today+9; the cheapest (low season, 2026-06-24 from
    // FCO): land 890 + flight 760 = 1650 EUR a person, +18% = 1947.00, up to the next 5 less 1 cent
    expect(d.leading_price).toEqual({
      product_by_market_id: id,
      price_from: '1949.99',
      currency: 'EUR',
      offers_count: 15,
    });
    expect(d.configurator.departure_airports).toEqual([
      { iata_code: 'FCO', city: 'Roma' },
      { iata_code: 'MXP', city: 'Milano' },
    ]);
    expect(d.configurator.months[0]).toMatchObject({
      year: 2026,
      month: 6,
      label: 'Giugno',
      min_price: '3899.98',
      min_price_per_person: '1949.99',
      dates: [expect.objectContaining({ date: '2026-06-24', departure_airport: 'FCO', available: true })],
    });
    // the Italian texts of the supply: activities, cities and departure airports
    type Day = { day_number: number; title: string; city: string; activities: { name: string; tier: string }[] };
    const day3 = d.itinerary.flatMap((s: { days: Day[] }) => s.days).find((x: Day) => x.day_number === 3);
    expect(day3.title).toBe('Fès: medina di Fès el-Bali e concerie');
    expect(day3.city).toBe('Fès, Marocco');
    expect(day3.activities.map((a: Day['activities'][number]) => `${a.tier}: ${a.name}`)).toEqual([
      'included: Medina di Fès el-Bali e concerie',
      'extra: Corso di cucina marocchina',
    ]);
    expect(d.departure_airports).toEqual([
      { iata_code: 'FCO', name: 'Aeroporto di Roma-Fiumicino Leonardo da Vinci', city: 'Roma', country: 'Italia' },
      { iata_code: 'MXP', name: 'Aeroporto di Milano Malpensa', city: 'Milano', country: 'Italia' },
    ]);
    for (const path of ['/api/it/it/products', `/api/it/it/products/${id}`, `/api/it/it/products/${id}/configurator`]) {
      const r = await t.app.inject(path);
      expect(r.statusCode, path).toBe(403);
      expect(r.json().error, path).toBe('market_inactive');
    }
  });

  it('hides the archived product and the archived, draft and sold-out departures from the public API', async () => {
    // the Peru tour is archived on the US Spanish site (its offers kept): 11 of the 12 tours listed
    const usEs = (await t.app.inject('/api/us/es/products')).json().data;
    expect(usEs).toHaveLength(11);
    expect(usEs.some((p: { country_slug: string }) => p.country_slug === 'peru')).toBe(false);
    const [peru] = (
      await t.database.query<{ id: number; status: string; offers: number }>(
        `SELECT mp.id, mp.status, (SELECT count(*)::int FROM offers o WHERE o.market_product_id = mp.id) AS offers
           FROM market_products mp JOIN markets m ON m.id = mp.market_id
          WHERE m.code = 'us' AND mp.language = 'es' AND mp.url_slug = 'peru-y-el-camino-inca'`,
      )
    ).rows;
    expect(peru).toMatchObject({ status: 'archived' });
    expect(peru.offers).toBeGreaterThan(0);
    for (const path of [`/api/us/es/products/${peru.id}`, '/api/us/es/products/slug/peru-y-el-camino-inca']) {
      expect((await t.app.inject(path)).statusCode, path).toBe(404);
    }
    expect((await t.app.inject('/api/us/en/products')).json().data).toHaveLength(12);
    // the Peru country page still answers in us/es, without the archived tour; us/en keeps its own
    const page = async (lang: string) => (await t.app.inject(`/api/us/${lang}/cms/countries/peru`)).body;
    expect(JSON.parse(await page('es')).data.slug).toBe('peru');
    expect(await page('es')).not.toContain('peru-y-el-camino-inca');
    expect(await page('en')).toContain('peru-and-the-inca-trail');
    // Japan Essentials keeps its other departures; its Archived (today+58), Draft (today+72) and
    // SoldOut (today+86) ones are not offered
    const hidden = (
      await t.database.query<{ id: number; status: string; departure_date: string }>(
        `SELECT id, status, departure_date::text FROM offers
          WHERE code IN ('japan-essentials-es-es-archived', 'japan-essentials-es-es-draft', 'japan-essentials-es-es-sold-out')
          ORDER BY departure_date`,
      )
    ).rows;
    expect(hidden.map((o) => [o.status, o.departure_date])).toEqual([
      ['Archived', '2026-08-12'],
      ['Draft', '2026-08-26'],
      ['SoldOut', '2026-09-09'],
    ]);
    const es = (await t.app.inject('/api/es/es/products')).json().data;
    const japan = es.find((p: { country_slug: string }) => p.country_slug === 'japan');
    const conf = (await t.app.inject(`/api/es/es/products/${japan.id}/configurator`)).json().data;
    type Day = { offer_id: number; date: string };
    const dates: Day[] = conf.months.flatMap((m: { dates: Day[] }) => m.dates);
    expect(dates.length).toBeGreaterThan(20);
    const ids = hidden.map((o) => o.id);
    expect(dates.filter((x) => ids.includes(x.offer_id) || hidden.some((o) => o.departure_date === x.date))).toEqual(
      [],
    );
    for (const o of hidden) {
      const start = await t.app.inject({ method: 'POST', url: `/api/es/es/checkout/${o.id}`, payload: {} });
      expect(start.statusCode, o.status).toBe(404);
    }
  });

  it('shows activities, hotels and day titles in the page language (German Japan page, worked by hand)', async () => {
    const detail = (await t.app.inject('/api/de/de/products/slug/japan-entdecken')).json().data;
    type Day = { day_number: number; title: string; city: string; activities: { name: string; tier: string }[] };
    const days: Day[] = detail.itinerary.flatMap((s: { days: Day[] }) => s.days);
    const day2 = days.find((d) => d.day_number === 2)!;
    expect(day2.title).toBe('Tokio: Spaziergang durch Asakusa zum Senso-ji-Tempel');
    expect(day2.city).toBe('Tokio, Japan');
    expect(day2.activities.map((a) => `${a.tier}: ${a.name}`)).toEqual([
      'included: Spaziergang durch Asakusa zum Senso-ji-Tempel',
      'extra: Morgentraining der Sumoringer',
      'substitution: Teezeremonie in Yanaka',
    ]);
    expect(day2.activities[0]).toMatchObject({
      city: 'Tokio, Japan',
      reasons: ['Einer der Höhepunkte von Tokio', 'Kleine Gruppen mit örtlicher Reiseleitung'],
      amenities: [
        { icon: 'guide', label: 'Örtliche Reiseleitung', description: 'Auf Englisch und Spanisch' },
        { icon: 'clock', label: 'Halber Tag', description: 'Etwa 4 Stunden' },
      ],
    });
    const selection = detail.accommodations.find((a: { tier: string }) => a.tier === 'selection').stays[0].hotel;
    expect(selection).toMatchObject({
      name: 'Hotel Gracery Shinjuku',
      description: 'Komfortabler 4-Sterne-Aufenthalt in Tokio.',
      city: 'Tokio, Japan',
    });
    expect(detail.departure_airports[0]).toEqual({
      iata_code: 'FRA',
      name: 'Flughafen Frankfurt am Main',
      city: 'Frankfurt',
      country: 'Deutschland',
    });
  });

  it('no active page of a non-English language shows an English activity name that has a translation', async () => {
    const demo = JSON.parse(readFileSync(`${DEMO_DIR}/catalog.json`, 'utf8')) as {
      markets: { code: string; is_active: boolean; languages: string[] }[];
      activities: { name: string; translations?: Record<string, { name?: string }> }[];
    };
    // every activity is translated into every non-English language of an active market
    const languages = [...new Set(demo.markets.filter((m) => m.is_active).flatMap((m) => m.languages))];
    expect(languages.sort()).toEqual(['ca', 'de', 'en', 'es', 'fr']);
    const untranslated = demo.activities.flatMap((a) =>
      languages.filter((l) => l !== 'en' && !a.translations?.[l]?.name).map((l) => `${a.name} (${l})`),
    );
    expect(untranslated).toEqual([]);
    // English name -> its translated names by language, where they differ
    const english = new Map(demo.activities.map((a) => [a.name, a.translations ?? {}]));
    const leaks: string[] = [];
    let checked = 0;
    for (const market of demo.markets.filter((m) => m.is_active)) {
      for (const lang of market.languages.filter((l) => l !== 'en')) {
        const list = (await t.app.inject(`/api/${market.code}/${lang}/products`)).json().data as { id: number }[];
        for (const p of list) {
          const detail = (await t.app.inject(`/api/${market.code}/${lang}/products/${p.id}`)).json().data;
          for (const stop of detail.itinerary) {
            for (const day of stop.days as { title: string; activities: { name: string }[] }[]) {
              for (const a of day.activities) {
                checked++;
                const own = english.get(a.name)?.[lang]?.name;
                if (own && own !== a.name) leaks.push(`${market.code}/${lang} #${p.id}: ${a.name}`);
              }
              for (const [name, translations] of english) {
                const own = translations[lang]?.name;
                if (own && own !== name && day.title.includes(name)) leaks.push(`${market.code}/${lang}: ${day.title}`);
              }
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(leaks).toEqual([]);
  }, 120_000);

  // last: it adds departures to the demo
  it('includes departure rules, so offers.generate keeps the calendar moving forward', async () => {
    const rules = await t.database.query<{ n: number }>('SELECT count(*)::int AS n FROM offer_rules');
    expect(rules.rows[0].n).toBeGreaterThan(0);
    const now = await generateOffers(t.app.ctx, new Date('2026-06-15T10:00:00Z'));
    expect(now.skipped).toEqual([]);
    expect(now.created).toBeGreaterThan(0);
    // a year on, the rules still give departures a year ahead
    const later = await generateOffers(t.app.ctx, new Date('2027-06-15T10:00:00Z'));
    expect(later.created).toBeGreaterThan(0);
    const last = await t.database.query<{ d: string }>(
      'SELECT max(o.departure_date)::text AS d FROM offers o JOIN generated_offers g ON g.offer_id = o.id',
    );
    expect(last.rows[0].d > '2028-06-01').toBe(true);
  }, 120_000);
});
