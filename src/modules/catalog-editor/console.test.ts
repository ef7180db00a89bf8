// The catalog editor over HTTP: drafts created and edited with edit_catalog, live products and
// status changes refused without publish_catalog (no button, and 403 on a forged POST), problems
// of the importer shown beside their field (422, nothing written), the public API showing a save
// at once, offers, departure rules and markets, and an audit row for every save.
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedIn, signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { importFixture } from '../../../test/support/catalog-fixture.js';
import { encodeForm, fieldErrors, formValues } from '../../../test/support/console-form.js';
import { adminAuditLog, marketProducts, markets, offerRules, offers, productTemplates } from '../../db/schema/index.js';
import { catalogRevisionOf } from '../catalog/import.js';
import { productIdByKey } from './repository.js';
import { setProductStatus } from './service.js';

let t: TestApp;
let viewer: SignedIn;
let editor: SignedIn;
let publisher: SignedIn;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  await importFixture(t.database);
  viewer = await signIn(t.app, { permissions: ['view_catalog'] });
  editor = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog'] });
  publisher = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog', 'publish_catalog'] });
  const db = t.database.db;
  ids.esEs = (await productIdByKey(db, 'japan-essentials', 'es', 'es'))!;
  ids.esEn = (await productIdByKey(db, 'japan-essentials', 'es', 'en'))!;
  ids.peru = (await productIdByKey(db, 'peru-inca-trail', 'es', 'es'))!;
  ids.de = (await productIdByKey(db, 'japan-essentials', 'de', 'de'))!;
});
afterAll(() => t.close());

const get = (url: string, who?: SignedIn) => t.app.inject({ url, headers: who ? { cookie: who.cookie } : {} });
const post = (url: string, who: SignedIn, values: Record<string, string | string[]>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: encodeForm({ ...values, _csrf: who.csrf }),
  });
/** The form as the page shows it to `who`, with `changes` made. */
async function edited(page: string, action: string, who: SignedIn, changes: Record<string, string | string[]>) {
  const res = await get(page, who);
  expect(res.statusCode).toBe(200);
  return { ...formValues(res.body, action), ...changes };
}
const product = async (id: number) =>
  (await t.database.db.select().from(marketProducts).where(eq(marketProducts.id, id)))[0]!;
/** audit rows of `action`, newest first */
const auditRows = (action: string) =>
  t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, action)).orderBy(desc(adminAuditLog.id));

describe('product pages', () => {
  it('lists products to view_catalog, with no create, save or status buttons', async () => {
    const list = await get('/admin/catalog/products?market=es', viewer);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Japón esencial');
    expect(list.body).toContain('Perú y el Camino Inca');
    expect(list.body).not.toContain('Japan entdecken'); // the de market is filtered out
    expect(list.body).not.toContain('New product');
    const page = await get(`/admin/catalog/products/${ids.esEn}`, viewer);
    expect(page.statusCode).toBe(200);
    // the product's and the tour's forms on one page: every id once
    const pageIds = [...page.body.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(pageIds.filter((id, i) => pageIds.indexOf(id) !== i)).toEqual([]);
    expect(page.body).not.toMatch(/<button type="submit"[^>]*>(Save|Publish|Archive)/);
    expect(page.body).toContain('Preview');
    // the tour's texts in the market's other languages
    expect(page.body).toContain(`<a href="/admin/catalog/products/${ids.esEs}">es</a>`);
    expect(page.body).toContain('<strong>en</strong>');
    const editorPage = await get(`/admin/catalog/products/${ids.esEs}`, editor);
    expect(editorPage.body).toContain(`<a href="/admin/catalog/products/${ids.esEn}">en</a>`);
    // the console's navigation links the editor
    expect(page.body).toContain('<a href="/admin/catalog" aria-current="page">Products</a>');
    const refused = await post(`/admin/catalog/products/${ids.esEn}`, viewer, { title: 'Nope' });
    expect(refused.statusCode).toBe(403);
    expect((await get('/admin/catalog/products', await signIn(t.app, { permissions: ['view_lead'] }))).statusCode).toBe(
      403,
    );
  });

  it('creates a draft with edit_catalog (never public), and refuses a product that exists', async () => {
    const res = await post('/admin/catalog/products', editor, {
      template: 'peru-inca-trail',
      market: 'es',
      language: 'en',
      title: 'Peru and the Inca Trail',
      url_slug: 'peru-inca-trail',
      country_name: 'Peru',
      departure_airports: 'mad',
    });
    expect(res.statusCode).toBe(303);
    const id = (await productIdByKey(t.database.db, 'peru-inca-trail', 'es', 'en'))!;
    expect(res.headers.location).toBe(`/admin/catalog/products/${id}?done=created`);
    const row = await product(id);
    expect([row.status, row.title, row.sku.length > 0]).toEqual(['draft', 'Peru and the Inca Trail', true]);
    expect((await get(`/api/es/en/products/${id}`)).statusCode).toBe(404);
    const [audit] = await auditRows('product.create');
    expect([audit?.actor, audit?.resourceId]).toEqual([editor.email, String(id)]);

    // the other languages of the market link to a prefilled form
    const peruPage = await get(`/admin/catalog/products/${ids.peru}`, editor);
    expect(peruPage.body).toContain(
      '<a href="/admin/catalog/products/new?template=peru-inca-trail&amp;market=es&amp;language=ca">add ca</a>',
    );
    const prefilled = await get('/admin/catalog/products/new?template=peru-inca-trail&market=es&language=ca', editor);
    expect(formValues(prefilled.body, '/admin/catalog/products')).toMatchObject({
      template: 'peru-inca-trail',
      market: 'es',
      language: 'ca',
    });

    const again = await post('/admin/catalog/products', editor, {
      template: 'peru-inca-trail',
      market: 'es',
      language: 'en',
      title: 'Twice',
      url_slug: 'twice',
      country_name: 'Peru',
      departure_airports: 'MAD',
    });
    expect(again.statusCode).toBe(422);
    expect(fieldErrors(again.body, 'language')).toEqual(['a product of peru-inca-trail in es/en exists']);

    const wrong = await post('/admin/catalog/products', editor, {
      template: 'peru-inca-trail',
      market: 'de',
      language: 'es',
      title: 'Perú',
      url_slug: 'x',
      country_name: 'Peru',
      departure_airports: 'MAD',
    });
    expect(wrong.statusCode).toBe(422);
    expect(fieldErrors(wrong.body, 'language')).toEqual(["'es' is not a language of market 'de'"]);
    expect(fieldErrors(wrong.body, 'departure_airports')).toEqual([
      "line 1: 'MAD' is not a departure airport of market 'de'",
    ]);
  });

  it('shows every problem of a refused save beside its field (422) and writes nothing', async () => {
    const before = await product(ids.esEn);
    const revision = await catalogRevisionOf(t.database);
    const action = `/admin/catalog/products/${ids.esEn}`;
    const values = await edited(action, action, editor, {
      title: '',
      url_slug: 'Not A Slug',
      highlights: 'One\nTwo',
      'itinerary.0.day': '13',
      'itinerary.0.title': 'Too late',
      'itinerary.0.activities': 'tokyo-city-tour included\nno-such-activity extra\ntokyo-sumo-show sometimes',
    });
    const res = await post(action, editor, values);
    expect(res.statusCode).toBe(422);
    expect(fieldErrors(res.body, 'title')).toEqual(['must not be empty']);
    expect(fieldErrors(res.body, 'url_slug')[0]).toMatch(/^has an invalid format/);
    // a sentence for people, not the schema's regular expression
    expect(fieldErrors(res.body, 'url_slug')[0]).toMatch(
      /^has an invalid format\. Use lowercase letters, digits and single hyphens between them/,
    );
    expect(fieldErrors(res.body, 'url_slug')[0]).not.toMatch(/pattern|\^\[/);
    // one save shows every problem: the schema's, and the references of what the schema accepted
    expect(fieldErrors(res.body, 'itinerary.0.activities')).toEqual([
      "line 3 (tier): must be one of 'included', 'extra', 'substitution'",
      "line 2 (activity): unknown activity 'no-such-activity'",
    ]);
    expect(fieldErrors(res.body, 'itinerary.0.day')).toEqual(['day 13 is after the last day (12)']);
    // with the schema's problems fixed the references stay refused
    const second = await post(action, editor, {
      ...values,
      title: 'Fine',
      url_slug: 'fine',
      'itinerary.0.activities': 'tokyo-city-tour included\nno-such-activity extra',
    });
    expect(second.statusCode).toBe(422);
    expect(fieldErrors(second.body, 'itinerary.0.day')).toEqual(['day 13 is after the last day (12)']);
    expect(fieldErrors(second.body, 'itinerary.0.activities')).toEqual([
      "line 2 (activity): unknown activity 'no-such-activity'",
    ]);
    // what was typed stays in the form
    expect(second.body).toContain('value="Too late"');
    expect(second.body).toContain('Not saved: ');
    expect(await product(ids.esEn)).toEqual(before);
    expect(await catalogRevisionOf(t.database)).toBe(revision);
  });

  it('changes nothing when a form is saved as the page shows it', async () => {
    const forms = [
      [`/admin/catalog/products/${ids.esEs}`, `/admin/catalog/products/${ids.esEs}`],
      [`/admin/catalog/products/${ids.esEs}`, '/admin/catalog/templates/japan-essentials'],
      ['/admin/catalog/markets/es', '/admin/catalog/markets/es'],
    ];
    const offer = (await t.database.db.select().from(offers).where(eq(offers.code, 'JE-ES-2')))[0]!;
    forms.push([`/admin/catalog/offers/${offer.id}`, `/admin/catalog/offers/${offer.id}`]);
    for (const [page, action] of forms) {
      const res = await post(action!, publisher, await edited(page!, action!, publisher, {}));
      expect(res.statusCode).toBe(303);
    }
    const rows = await t.database.db.select().from(adminAuditLog);
    const saves = rows.filter((r) => /^(product|template|market|offer)\.update$/.test(r.action));
    expect(saves.map((r) => [r.action, (r.details as { changes: unknown[] }).changes])).toEqual([
      ['product.update', []],
      ['template.update', []],
      ['market.update', []],
      ['offer.update', []],
    ]);
  });

  it('saves a draft with edit_catalog; the preview shows it at once', async () => {
    const action = `/admin/catalog/products/${ids.esEn}`;
    const values = await edited(action, action, editor, {
      title: 'Japan Essentials, draft two',
      highlights: 'Kyoto temples\nBullet train',
      'itinerary.0.day': '1',
      'itinerary.0.title': 'Arrival in Tokyo',
      'itinerary.0.activities': 'tokyo-city-tour included',
      // fields the form does not have are not passed on: a status cannot be slipped in
      status: 'active',
      market: 'de',
    });
    const res = await post(action, editor, values);
    expect(res.statusCode).toBe(303);
    const row = await product(ids.esEn);
    expect([row.title, row.highlights, row.status]).toEqual([
      'Japan Essentials, draft two',
      ['Kyoto temples', 'Bullet train'],
      'draft',
    ]);
    const preview = await get(`/admin/catalog/products/${ids.esEn}/preview`, viewer);
    expect(preview.statusCode).toBe(303);
    // a readable page of the draft, the signed JSON link beside it
    const readable = await get(preview.headers.location as string, viewer);
    expect(readable.statusCode).toBe(200);
    expect(readable.body).toContain('<h1>Japan Essentials, draft two</h1>');
    expect(readable.body).toContain('<li>Kyoto temples</li><li>Bullet train</li>');
    const signed = readable.body.match(/<a href="([^"]+)">the signed JSON link<\/a>/)?.[1]?.replaceAll('&amp;', '&');
    expect(signed).toMatch(/^\/api\/es\/en\/products\/\d+\/preview\?expires=\d+&signature=[0-9a-f]+$/);
    const url = new URL(`http://api.test${signed}`);
    const detail = await get(url.pathname + url.search);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.title).toBe('Japan Essentials, draft two');
    const stops = detail.json().data.itinerary as { days: { title: string }[] }[];
    expect(stops.flatMap((s) => s.days.map((d) => d.title))).toEqual(['Arrival in Tokyo']);
    const [audit] = await auditRows('product.update');
    expect(audit?.details).toMatchObject({ product: 'japan-essentials/es/en' });
    expect((audit!.details as { changes: { field: string }[] }).changes.map((c) => c.field)).toContain('title');
  });

  it('refuses changes to a live product without publish_catalog; with it the public API shows them at once', async () => {
    const action = `/admin/catalog/products/${ids.peru}`;
    const page = await get(action, editor);
    expect(page.body).toContain('changing it needs the publish_catalog permission');
    expect(page.body).not.toMatch(/<button type="submit">Save<\/button>/);
    const values = await edited(action, action, publisher, { title: 'Perú, el Camino Inca' });
    expect((await post(action, editor, values)).statusCode).toBe(403);
    expect((await product(ids.peru)).title).toBe('Perú y el Camino Inca');

    // the public API has the product cached
    expect((await get(`/api/es/es/products/${ids.peru}`)).json().data.title).toBe('Perú y el Camino Inca');
    const revision = await catalogRevisionOf(t.database);
    expect((await post(action, publisher, values)).statusCode).toBe(303);
    expect((await get(`/api/es/es/products/${ids.peru}`)).json().data.title).toBe('Perú, el Camino Inca');
    const listing = (await get('/api/es/es/products')).json().data.map((p: { title: string }) => p.title);
    expect(listing).toContain('Perú, el Camino Inca');
    // other processes notice the bumped revision on their next read
    expect(await catalogRevisionOf(t.database)).toBe(revision + 1);
  });

  it('publishes only with publish_catalog: no button and 403 without it', async () => {
    const page = await get(`/admin/catalog/products/${ids.esEn}`, editor);
    expect(page.body).not.toContain('>Publish</button>');
    const refused = await post(`/admin/catalog/products/${ids.esEn}/status/publish`, editor, {});
    expect(refused.statusCode).toBe(403);
    expect((await product(ids.esEn)).status).toBe('draft');
    expect((await get(`/api/es/en/products/${ids.esEn}`)).statusCode).toBe(404);

    const own = await get(`/admin/catalog/products/${ids.esEn}`, publisher);
    expect(own.body).toContain('>Publish</button>');
    const res = await post(`/admin/catalog/products/${ids.esEn}/status/publish`, publisher, {});
    expect(res.statusCode).toBe(303);
    expect((await product(ids.esEn)).status).toBe('active');
    expect((await get(`/api/es/en/products/${ids.esEn}`)).json().data.title).toBe('Japan Essentials, draft two');
    expect((await auditRows('product.publish')).map((a) => [a.actor, a.resourceId])).toEqual([
      [publisher.email, String(ids.esEn)],
    ]);
    // a live product cannot be published again
    expect((await post(`/admin/catalog/products/${ids.esEn}/status/publish`, publisher, {})).statusCode).toBe(409);
  });

  it('checks publish_catalog in the use case too, whoever calls it', async () => {
    const actor = { userId: editor.userId, email: editor.email, name: 'Editor', roles: [], ip: '127.0.0.1' };
    const grant = { permissions: ['view_catalog', 'edit_catalog'] };
    await expect(setProductStatus(t.app.ctx, { ...actor, grant }, ids.peru, 'unpublish')).rejects.toMatchObject({
      status: 403,
    });
    expect((await product(ids.peru)).status).toBe('active');
  });

  it('archives after a confirmation step and restores as a draft (publish_catalog)', async () => {
    const confirm = await post(`/admin/catalog/products/${ids.esEn}/archive/confirm`, publisher, {});
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain(`action="/admin/catalog/products/${ids.esEn}/status/archive"`);
    expect((await post(`/admin/catalog/products/${ids.esEn}/status/archive`, editor, {})).statusCode).toBe(403);
    expect((await post(`/admin/catalog/products/${ids.esEn}/status/archive`, publisher, {})).statusCode).toBe(303);
    expect((await product(ids.esEn)).status).toBe('archived');
    expect((await get(`/api/es/en/products/${ids.esEn}`)).statusCode).toBe(404);
    expect((await post(`/admin/catalog/products/${ids.esEn}/status/restore`, publisher, {})).statusCode).toBe(303);
    expect((await product(ids.esEn)).status).toBe('draft');
    expect((await auditRows('product.archive')).length).toBe(1);
    expect((await auditRows('product.restore')).length).toBe(1);
  });

  it("edits the tour's hotels and transfers: publish_catalog while a product of the tour is live", async () => {
    const action = '/admin/catalog/templates/japan-essentials';
    const page = `/admin/catalog/products/${ids.esEs}`;
    const values = await edited(page, action, publisher, {
      'accommodations.0.day_end': '4',
    });
    expect((await post(action, editor, values)).statusCode).toBe(403);
    const wrong = await post(action, publisher, { ...values, 'accommodations.1.day_end': '40' });
    expect(wrong.statusCode).toBe(422);
    expect(fieldErrors(wrong.body, 'accommodations.1.day_end', 'tour')).toEqual(['day 40 is after the last day (12)']);
    const ok = await post(action, publisher, values);
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`${page}?done=saved`);
    const [tpl] = await t.database.db
      .select({ id: productTemplates.id })
      .from(productTemplates)
      .where(eq(productTemplates.code, 'japan-essentials'));
    const detail = (await get(`/api/es/es/products/${ids.esEs}`)).json().data;
    expect(JSON.stringify(detail)).toContain('Hotel Gracery Shinjuku');
    expect(tpl).toBeDefined();
    expect((await auditRows('template.update')).length).toBe(2); // the unchanged save above, this one
  });
});

describe('offers', () => {
  const offerId = async (code: string) => (await t.database.db.select().from(offers).where(eq(offers.code, code)))[0]!;

  it('edits prices and seats with edit_catalog; a bad price is shown beside its field', async () => {
    const o = await offerId('JE-DE-1');
    const action = `/admin/catalog/offers/${o.id}`;
    const bad = await post(action, editor, await edited(action, action, editor, { final_price: '4.990,00' }));
    expect(bad.statusCode).toBe(422);
    expect(fieldErrors(bad.body, 'final_price')[0]).toMatch(/^has an invalid format/);
    // the two price fields are one price: 2,222.00 x 2 = 4,444.00
    const odd = await post(action, editor, await edited(action, action, editor, { price_per_person: '2222.00' }));
    expect(odd.statusCode).toBe(422);
    expect(fieldErrors(odd.body, 'price_per_person')[0]).toMatch(
      /^price_per_person 2222\.00 x 2 travellers is 4444\.00, not the final_price 4990\.00/,
    );
    const values = await edited(action, action, editor, {
      price_per_person: '2222.00',
      final_price: '4444.00',
      allotment: '12',
    });
    expect((await post(action, viewer, values)).statusCode).toBe(403);
    const res = await post(action, editor, values);
    expect(res.statusCode).toBe(303);
    const after = await offerId('JE-DE-1');
    expect([after.pricePerPerson, after.allotment, after.finalPrice]).toEqual(['2222.00', 12, '4444.00']);
    const lead = (await get(`/api/de/de/products/${ids.de}/leading-price`)).json().data;
    expect(JSON.stringify(lead)).toContain('2222');
    const [audit] = await auditRows('offer.update');
    expect([audit?.resourceId, (audit!.details as { code: string }).code]).toEqual([String(o.id), 'JE-DE-1']);
  });

  it('creates an offer and archives it', async () => {
    const res = await post(`/admin/catalog/products/${ids.de}/offers`, editor, {
      code: 'JE-DE-NEW',
      departure_airport: 'FRA',
      departure_date: '2026-09-01',
      return_date: '2026-09-12',
      status: 'Draft',
      pax_count: '2',
      allotment: '8',
      land_base_price: '3000.00',
      flight_price: '800.00',
      margin_percent: '10',
      final_price: '4000.00',
      price_per_person: '2000.00',
    });
    expect(res.statusCode).toBe(303);
    const o = await offerId('JE-DE-NEW');
    expect([o.status, o.allotment, o.departureAirport]).toEqual(['Draft', 8, 'FRA']);
    const dup = await post(`/admin/catalog/products/${ids.de}/offers`, editor, { code: 'JE-DE-NEW' });
    expect(dup.statusCode).toBe(422);
    expect(fieldErrors(dup.body, 'code')).toEqual(["offer 'JE-DE-NEW' exists"]);
    expect((await post(`/admin/catalog/offers/${o.id}/archive`, editor, {})).statusCode).toBe(303);
    expect((await offerId('JE-DE-NEW')).status).toBe('Archived');
    expect((await auditRows('offer.create')).length).toBe(1);
    expect((await auditRows('offer.archive')).length).toBe(1);
  });

  it('creates and edits a departure rule', async () => {
    const res = await post(`/admin/catalog/products/${ids.de}/rules`, editor, {
      code: 'je-de-weekly',
      departure_airport: 'FRA',
      weekdays: ['1', '5'],
      dates: '',
      season_start: '2026-07-01',
      season_end: '2026-10-31',
      seats: '12',
      pax_count: '2',
      margin_percent: '15',
      active: '1',
    });
    expect(res.statusCode).toBe(303);
    const [rule] = await t.database.db.select().from(offerRules).where(eq(offerRules.code, 'je-de-weekly'));
    expect([rule?.weekdays, rule?.seats, rule?.active]).toEqual([[1, 5], 12, true]);
    const action = `/admin/catalog/rules/${rule!.id}`;
    const bad = await post(action, editor, await edited(action, action, editor, { season_end: '2026-06-01' }));
    expect(bad.statusCode).toBe(422);
    expect(fieldErrors(bad.body, 'season_end')).toEqual(['the season ends before it starts']);
    const ok = await post(action, editor, await edited(action, action, editor, { seats: '20' }));
    expect(ok.statusCode).toBe(303);
    const [after] = await t.database.db.select().from(offerRules).where(eq(offerRules.code, 'je-de-weekly'));
    expect([after?.seats, after?.weekdays]).toEqual([20, [1, 5]]);
    expect((await auditRows('offer_rule.update')).length).toBe(1);
    const dup = await post(`/admin/catalog/products/${ids.de}/rules`, editor, { code: 'je-de-weekly' });
    expect(dup.statusCode).toBe(422);
    expect(fieldErrors(dup.body, 'code')).toEqual(["rule 'je-de-weekly' exists"]);
  });
});

describe('markets', () => {
  const market = async (code: string) => (await t.database.db.select().from(markets).where(eq(markets.code, code)))[0]!;

  it('edits a market with edit_catalog; problems beside their fields', async () => {
    const action = '/admin/catalog/markets/it';
    const bad = await post(
      action,
      editor,
      await edited(action, action, editor, {
        timezone: 'Europe/Nowhere',
        airports: 'FCO, XYZ',
        default_language: 'fr',
      }),
    );
    expect(bad.statusCode).toBe(422);
    expect(fieldErrors(bad.body, 'default_language')).toEqual(["'fr' is not among the languages"]);
    const bad2 = await post(
      action,
      editor,
      await edited(action, action, editor, { timezone: 'Europe/Nowhere', airports: 'FCO, XYZ' }),
    );
    expect(fieldErrors(bad2.body, 'timezone')).toEqual(["unknown time zone 'Europe/Nowhere'"]);
    expect(fieldErrors(bad2.body, 'airports')).toEqual(["line 2: unknown airport 'XYZ'"]);

    const values = await edited(action, action, editor, {
      name: 'Italia!',
      languages: 'it, en',
      default_language: 'en',
      'tour_path_slugs.it': 'viaggi',
    });
    expect((await post(action, viewer, values)).statusCode).toBe(403);
    expect((await post(action, editor, values)).statusCode).toBe(303);
    const it_ = await market('it');
    expect([it_.name, it_.languages, it_.defaultLanguage, it_.tourPathSlugs, it_.isActive]).toEqual([
      'Italia!',
      ['en', 'it'],
      'en',
      { it: 'viaggi' },
      false,
    ]);
    const [audit] = await auditRows('market.update');
    expect(audit?.resourceId).toBe('it');
  });

  it('creates a market, inactive unless ticked', async () => {
    const res = await post('/admin/catalog/markets', editor, {
      code: 'fr',
      name: 'France',
      languages: 'fr',
      default_language: 'fr',
      'currency.code': 'EUR',
      'currency.name': 'Euro',
      'currency.symbol': '€',
      timezone: 'Europe/Paris',
      airports: 'MAD',
    });
    expect(res.statusCode).toBe(303);
    const fr = await market('fr');
    expect([fr.name, fr.isActive, fr.timezone]).toEqual(['France', false, 'Europe/Paris']);
    expect((await get('/api/fr/fr/products')).statusCode).not.toBe(200);
    const dup = await post('/admin/catalog/markets', editor, { code: 'fr', name: 'Encore' });
    expect(dup.statusCode).toBe(422);
    expect(fieldErrors(dup.body, 'code')).toEqual(["market 'fr' exists"]);
    const [audit] = await t.database.db
      .select()
      .from(adminAuditLog)
      .where(and(eq(adminAuditLog.action, 'market.create'), eq(adminAuditLog.resourceId, 'fr')));
    expect(audit?.actor).toBe(editor.email);
  });
});
