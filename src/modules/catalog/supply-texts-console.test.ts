// The console's "Supply texts" pages over HTTP: list and search per kind, the edit form per
// language, saving through the importer (the public catalog shows it at once; an audit row),
// clearing a language, a malformed amenity shown next to its field, and the permissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { importFixture } from '../../../test/support/catalog-fixture.js';
import { createTestDatabase } from '../../../test/support/db.js';

let t: TestApp;
let japanEs = 0;
beforeAll(async () => {
  const database = await createTestDatabase();
  await importFixture(database);
  const { rows } = await database.query<{ id: number }>(
    `SELECT mp.id FROM market_products mp JOIN product_templates t ON t.id = mp.template_id
      WHERE t.code = 'japan-essentials' AND mp.locale = 'es_ES'`,
  );
  japanEs = rows[0]!.id;
  t = await createTestApp({ database });
});
afterAll(async () => {
  await t.close();
  await t.database.close();
});

const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
const post = (url: string, who: { cookie: string; csrf: string }, values: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ _csrf: who.csrf, ...values }),
  });
const page = (url: string, cookie: string) => t.app.inject({ url, headers: { cookie } });
const firstActivityName = async () => {
  const detail = (await t.app.inject(`/api/es/es/products/${japanEs}`)).json().data;
  return detail.itinerary[0].days[0].activities[0].name as string;
};

describe('/admin/supply-texts', () => {
  it('lists each kind with its translated languages, finds by code or name, and shows a read-only form', async () => {
    const viewer = await signIn(t.app, { permissions: ['view_catalog'] });
    const list = await page('/admin/supply-texts', viewer.cookie);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('href="/admin/supply-texts/activities/tokyo-city-tour"');
    expect(list.body).toContain('Sumo morning practice');
    const found = await page('/admin/supply-texts?kind=activities&q=sumo', viewer.cookie);
    expect(found.body).toContain('tokyo-sumo-show');
    expect(found.body).not.toContain('tokyo-city-tour');
    const airports = await page('/admin/supply-texts?kind=airports', viewer.cookie);
    expect(airports.body).toContain('href="/admin/supply-texts/airports/MAD"');
    // the navigation has the page
    expect(list.body).toContain('<a href="/admin/supply-texts" aria-current="page">Supply texts</a>');

    const one = await page('/admin/supply-texts/activities/tokyo-city-tour', viewer.cookie);
    expect(one.statusCode).toBe(200);
    // one fieldset per language of the markets but English: es, ca (es), de (de), it (it)
    expect([...one.body.matchAll(/<legend>([^<]+)<\/legend>/g)].map((m) => m[1])).toEqual([
      'Catalan (ca)',
      'German (de)',
      'Spanish (es)',
      'Italian (it)',
    ]);
    expect(one.body).toContain('<label for="f-de-name">Name (de)</label>');
    // a viewer's fields are disabled
    expect(one.body).toContain('id="f-de-name" name="de.name" disabled');
    expect(one.body).toContain('Asakusa, Meiji shrine and Shibuya with a local guide.');
    expect(one.body).not.toContain('Save texts');
    const refused = await post('/admin/supply-texts/activities/tokyo-city-tour', viewer, { 'es.name': 'x' });
    expect(refused.statusCode).toBe(403);
    expect((await page('/admin/supply-texts/activities/nope', viewer.cookie)).statusCode).toBe(404);
  });

  it('saves a translation through the importer: the catalog shows it at once, the audit log has it', async () => {
    const editor = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog'] });
    expect(await firstActivityName()).toBe('Tokyo city tour');
    const saved = await post('/admin/supply-texts/activities/tokyo-city-tour', editor, {
      'es.name': '  Visita de Tokio ',
      'es.city': 'Tokio',
      'es.reasons': 'El Tokio antiguo y el moderno\n\nEn un día',
      'es.amenities': 'guide | Guía | Guía de habla hispana',
      'de.name': '',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/admin/supply-texts/activities/tokyo-city-tour?saved=1');
    const rows = await t.database.query(
      `SELECT tr.language, tr.name, tr.description, tr.city, tr.reasons, tr.amenities
         FROM activity_translations tr JOIN activities a ON a.id = tr.activity_id WHERE a.code = 'tokyo-city-tour'`,
    );
    // German was left empty and had no row: none is made
    expect(rows.rows).toEqual([
      {
        language: 'es',
        name: 'Visita de Tokio',
        description: null,
        city: 'Tokio',
        reasons: ['El Tokio antiguo y el moderno', 'En un día'],
        amenities: [{ icon: 'guide', label: 'Guía', description: 'Guía de habla hispana' }],
      },
    ]);
    expect(await firstActivityName()).toBe('Visita de Tokio');
    const audit = await t.database.query(
      `SELECT action, resource_type, resource_id, details FROM admin_audit_log WHERE actor = $1`,
      [editor.email],
    );
    expect(audit.rows).toEqual([
      {
        action: 'catalog.supply_texts.update',
        resource_type: 'activity',
        resource_id: 'tokyo-city-tour',
        details: { languages: ['es'], changes: [] },
      },
    ]);
    const again = await page('/admin/supply-texts/activities/tokyo-city-tour?saved=1', editor.cookie);
    expect(again.body).toContain('Texts saved.');
    expect(again.body).toContain('value="Visita de Tokio"');

    // emptying every field of the language removes its translation: the base text shows again
    const cleared = await post('/admin/supply-texts/activities/tokyo-city-tour', editor, {});
    expect(cleared.statusCode).toBe(303);
    expect(await firstActivityName()).toBe('Tokyo city tour');
    const left = await t.database.query(`SELECT count(*)::int AS n FROM activity_translations`);
    expect(left.rows[0]).toEqual({ n: 0 });
  });

  it('shows a malformed amenity next to its field and writes nothing', async () => {
    const editor = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog'] });
    const res = await post('/admin/supply-texts/activities/tokyo-city-tour', editor, {
      'ca.name': 'Visita de Tòquio',
      'ca.amenities': 'guide | Guia',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(
      'id="f-ca-amenities" name="ca.amenities" aria-invalid="true" aria-describedby="f-ca-amenities-error"',
    );
    expect(res.body).toContain(
      '<ul class="field-error" id="f-ca-amenities-error"><li>each line needs an icon, a label and a description separated by |</li></ul>',
    );
    expect(res.body).toContain('Not saved: 1 problem(s), shown next to their fields.');
    // the form keeps what was typed
    expect(res.body).toContain('value="Visita de Tòquio"');
    const rows = await t.database.query(`SELECT count(*)::int AS n FROM activity_translations`);
    expect(rows.rows[0]).toEqual({ n: 0 });
  });

  it('edits airports (name, city, country) too', async () => {
    const editor = await signIn(t.app, { permissions: ['view_catalog', 'edit_catalog'] });
    const res = await post('/admin/supply-texts/airports/MAD', editor, {
      'ca.name': 'Aeroport Adolfo Suárez Madrid-Barajas',
      'ca.country': 'Espanya',
    });
    expect(res.statusCode).toBe(303);
    const config = (await t.app.inject('/api/es/config?lang=ca')).json().data;
    expect(config.departure_airports[0]).toEqual({
      iata_code: 'MAD',
      name: 'Aeroport Adolfo Suárez Madrid-Barajas',
      city: 'Madrid',
      is_primary: true,
    });
  });
});
