// The content editor over HTTP (issue 18): create a draft, field errors beside their fields (422),
// the publishing rule (edit_content for drafts, publish_content for status changes and live
// records) in the guard and the use case, a locale's texts archived, the public CMS showing a save
// at once, the audit rows, and the partial-import cases through the console.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../../../test/support/admin.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { fieldErrors } from '../../../test/support/console-form.js';
import { seedContentWorld } from '../../../test/support/content-doc.js';
import type { Permission } from '../../console/permissions.js';
import { catalogRevisionOf } from '../catalog/import.js';
import { saveContent } from './editor.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedContentWorld(t.database);
});
afterAll(() => t.close());

const VIEW: Permission[] = ['view_content'];
const EDIT: Permission[] = ['view_content', 'edit_content'];
const PUBLISH: Permission[] = ['view_content', 'edit_content', 'publish_content'];

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const post = (url: string, who: { cookie: string; csrf: string }, values: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: who.csrf, ...values }).toString(),
  });
const one = async (sql: string, params: unknown[] = []) => (await t.database.query(sql, params)).rows[0];
const audits = async (action: string) =>
  (
    await t.database.query<{ actor: string; resource_id: string; details: Record<string, unknown> }>(
      'SELECT actor, resource_id, details FROM admin_audit_log WHERE action = $1 ORDER BY id',
      [action],
    )
  ).rows;
/** the message shown beside a field of a refused form */
const fieldError = (body: string, name: string) => fieldErrors(body, name).join('; ') || undefined;
const REGION_TEXT = {
  name: '',
  description: '',
  quote: '',
  cta_heading: '',
  cta_subheading: '',
  cta_button_text: '',
  experiences: '',
};

describe('content console pages', () => {
  it('lists regions and countries for view_content, with no create button or save without edit_content', async () => {
    const a = await signIn(t.app, { permissions: VIEW });
    const regions = await get('/admin/content/regions', a.cookie);
    expect(regions.statusCode).toBe(200);
    expect(regions.body).toContain('href="/admin/content"');
    for (const slug of ['asia', 'americas', 'antarctica'])
      expect(regions.body).toContain(`/admin/content/regions/${slug}`);
    expect(regions.body).not.toContain('New region');
    const countries = await get('/admin/content/countries', a.cookie);
    for (const slug of ['japan', 'thailand', 'peru'])
      expect(countries.body).toContain(`/admin/content/countries/${slug}`);
    const asia = await get('/admin/content/regions/asia', a.cookie);
    expect(asia.body).toContain(
      '<input id="f-image" name="image" aria-describedby="f-image-hint" disabled type="text" value="regions/asia.jpg">',
    );
    expect(asia.body).not.toContain('>Save</button>');
    expect(asia.body).not.toContain('>Publish</button>');
    expect((await get('/admin/content/regions/new', a.cookie)).statusCode).toBe(403);
    const refused = await post('/admin/content/regions', a, { slug: 'oceania' });
    expect(refused.statusCode).toBe(403);
    expect(await one(`SELECT slug FROM regions WHERE slug = 'oceania'`)).toBeUndefined();
  });

  it('creates a draft with edit_content, hidden from the public CMS, and audits it', async () => {
    const a = await signIn(t.app, { permissions: EDIT });
    const res = await post('/admin/content/regions', a, {
      slug: 'oceania',
      image: 'regions/oceania.jpg',
      full_width_image: '',
      sort_order: '7',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/admin/content/regions/oceania?saved=1');
    expect(await one(`SELECT status, image, full_width_image, sort_order FROM regions WHERE slug = 'oceania'`)).toEqual(
      {
        status: 'draft',
        image: 'regions/oceania.jpg',
        full_width_image: null,
        sort_order: 7,
      },
    );
    const texts = await post('/admin/content/regions/oceania/texts/es_ES', a, { ...REGION_TEXT, name: 'Oceanía' });
    expect(texts.statusCode).toBe(303);
    expect((await get('/api/es/es/cms/regions/oceania')).statusCode).toBe(404);
    expect(await audits('region.create')).toEqual([
      { actor: a.email, resource_id: 'oceania', details: { status: 'draft', changes: [] } },
    ]);
    expect((await audits('region.update')).at(-1)).toMatchObject({
      resource_id: 'oceania',
      details: { status: 'draft', locale: 'es_ES' },
    });
    // the draft's page: editable, a preview link per written locale that opens the draft
    const page = await get('/admin/content/regions/oceania', a.cookie);
    expect(page.body).toContain('>Save</button>');
    expect(page.body).not.toContain('>Publish</button>');
    expect(page.body).not.toContain('>Archive');
    const link = page.body.match(/href="\/admin\/preview\?url=([^"]+)" target="_blank"/)?.[1];
    const href = decodeURIComponent(link!.replaceAll('&amp;', '&'));
    expect(href).toMatch(/^\/api\/es\/es\/cms\/regions\/oceania\/preview\?/);
    // the console's readable page of the draft, then its signed JSON
    const readable = await get(`/admin/preview?url=${encodeURIComponent(href)}`, a.cookie);
    expect(readable.statusCode).toBe(200);
    expect(readable.body).toContain('<h1>Oceanía</h1>');
    const preview = await get(href);
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data.name).toBe('Oceanía');
  });

  it('refuses a new record whose slug exists or is malformed, showing each problem beside its field (422)', async () => {
    const a = await signIn(t.app, { permissions: EDIT });
    const taken = await post('/admin/content/regions', a, { slug: 'asia', sort_order: '1' });
    expect(taken.statusCode).toBe(422);
    expect(fieldError(taken.body, 'slug')).toBe("a region 'asia' exists already");
    const bad = await post('/admin/content/countries', a, {
      slug: 'Bad Slug',
      region: 'asia',
      sort_order: 'first',
      products: 'japan-essentials\nno-such-tour',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Not saved: 2 problem(s)');
    expect(fieldError(bad.body, 'slug')).toMatch(/^has an invalid format/);
    // a sentence for people, not the schema's regular expression
    expect(fieldError(bad.body, 'slug')).toMatch(
      /^has an invalid format\. Use lowercase letters, digits and single hyphens between them/,
    );
    expect(fieldError(bad.body, 'slug')).not.toMatch(/pattern|\^\[/);
    expect(fieldError(bad.body, 'sort_order')).toBe('must be a whole number');
    // the form keeps what was typed
    expect(bad.body).toContain('value="Bad Slug"');
    // references are checked once the fields have the right form
    const unknown = await post('/admin/content/countries', a, {
      slug: 'fiji',
      region: 'asia',
      products: 'japan-essentials\nno-such-tour',
    });
    expect(unknown.statusCode).toBe(422);
    expect(fieldError(unknown.body, 'products')).toBe("line 2: unknown product template 'no-such-tour'");
    expect(await one(`SELECT count(*)::int AS n FROM countries WHERE slug = 'fiji'`)).toEqual({ n: 0 });
    expect(await one(`SELECT count(*)::int AS n FROM countries WHERE slug = 'bad slug'`)).toEqual({ n: 0 });
  });

  it('refuses texts with field errors (422), JSON and import rules alike, writing nothing', async () => {
    const a = await signIn(t.app, { permissions: EDIT });
    const broken = await post('/admin/content/regions/oceania/texts/es_ES', a, {
      ...REGION_TEXT,
      name: '',
      experiences: '{"phases": [',
    });
    expect(broken.statusCode).toBe(422);
    expect(fieldError(broken.body, 'name')).toBe('must not be empty');
    expect(fieldError(broken.body, 'experiences')).toMatch(/^is not valid JSON/);
    const dup = await post('/admin/content/regions/oceania/texts/es_ES', a, {
      ...REGION_TEXT,
      name: 'Oceanía',
      experiences: JSON.stringify({ phases: [{ id: 'p' }, { id: 'p', products: ['nope'] }] }),
    });
    expect(dup.statusCode).toBe(422);
    expect(fieldError(dup.body, 'experiences')).toBe(
      "/phases/0/id: duplicate phase id 'p'; /phases/1/id: duplicate phase id 'p'; /phases/1/products/0: unknown product template 'nope'",
    );
    expect(
      await one(
        `SELECT rt.name, rt.experiences FROM region_translations rt JOIN regions r ON r.id = rt.region_id WHERE r.slug = 'oceania' AND rt.locale = 'es_ES'`,
      ),
    ).toEqual({ name: 'Oceanía', experiences: null });
  });

  it('refuses publishing without publish_content, in the guard and in the use case', async () => {
    const a = await signIn(t.app, { permissions: EDIT });
    const res = await post('/admin/content/regions/oceania/status', a, { status: 'active' });
    expect(res.statusCode).toBe(403);
    const actor = { email: a.email, userId: a.userId, grant: { permissions: EDIT } };
    await expect(
      saveContent(t.app.ctx, actor as never, { kind: 'region', slug: 'oceania', fields: { status: 'active' } }),
    ).rejects.toMatchObject({ status: 403, code: 'forbidden' });
    // a live record is not changed with edit_content either
    const live = await post('/admin/content/regions/asia', a, {
      image: 'x.jpg',
      full_width_image: '',
      sort_order: '2',
    });
    expect(live.statusCode).toBe(403);
    expect(await one(`SELECT status FROM regions WHERE slug = 'oceania'`)).toEqual({ status: 'draft' });
    expect(await one(`SELECT image FROM regions WHERE slug = 'asia'`)).toEqual({ image: 'regions/asia.jpg' });
  });

  it('publishes with publish_content: the public CMS shows it at once, and the audit says region.publish', async () => {
    const a = await signIn(t.app, { permissions: PUBLISH });
    expect((await get('/api/es/es/cms/regions')).json().data.map((r: { slug: string }) => r.slug)).toEqual([
      'americas',
      'asia',
    ]);
    const page = await get('/admin/content/regions/oceania', a.cookie);
    expect(page.body).toContain('>Publish</button>');
    const res = await post('/admin/content/regions/oceania/status', a, { status: 'active' });
    expect(res.statusCode).toBe(303);
    expect((await get('/api/es/es/cms/regions')).json().data.map((r: { slug: string }) => r.slug)).toEqual([
      'americas',
      'asia',
      'oceania',
    ]);
    expect((await audits('region.publish')).at(-1)).toMatchObject({
      actor: a.email,
      resource_id: 'oceania',
      details: { from: 'draft', to: 'active' },
    });
  });

  it('a save shows at once on the public CMS (cached body dropped, revision bumped for other processes)', async () => {
    const a = await signIn(t.app, { permissions: PUBLISH });
    expect((await get('/api/es/es/cms/regions/asia')).json().data.name).toBe('Asia');
    const revision = await catalogRevisionOf(t.database);
    const current = await get('/admin/content/regions/asia/texts/es_ES', a.cookie);
    const value = (name: string) =>
      current.body.match(new RegExp(`<textarea id="f-${name}" name="${name}"[^>]*>([^<]*)</textarea>`))?.[1] ?? '';
    const res = await post('/admin/content/regions/asia/texts/es_ES', a, {
      ...REGION_TEXT,
      name: 'Asia y Oriente',
      description: 'Asia: templos, arrozales y ciudades de neón.',
      quote: 'El viaje es el destino.',
      cta_heading: 'Diseña tu viaje',
      cta_subheading: 'Hablamos contigo',
      cta_button_text: 'Contactar',
      experiences: value('experiences').replaceAll('&quot;', '"'),
    });
    expect(res.statusCode).toBe(303);
    const region = (await get('/api/es/es/cms/regions/asia')).json().data;
    expect(region.name).toBe('Asia y Oriente');
    expect(region.experiences.phases[0].relatedTrips.length).toBe(2);
    expect(await catalogRevisionOf(t.database)).toBe(revision + 1);
    expect((await audits('region.update')).at(-1)).toMatchObject({
      resource_id: 'asia',
      details: {
        status: 'active',
        locale: 'es_ES',
        changes: [
          { entity: 'region_translations', key: 'asia/es_ES', field: 'name', from: '"Asia"', to: '"Asia y Oriente"' },
        ],
      },
    });
  });

  it("archives and restores one locale's texts: hidden there only", async () => {
    const a = await signIn(t.app, { permissions: PUBLISH });
    const res = await post('/admin/content/regions/asia/texts/es_ES/status', a, { status: 'archived' });
    expect(res.statusCode).toBe(303);
    expect((await get('/api/es/es/cms/regions/asia')).statusCode).toBe(404);
    expect((await get('/api/de/de/cms/regions/asia')).json().data.name).toBe('Asien');
    expect((await audits('region.translation.archive')).at(-1)).toMatchObject({
      resource_id: 'asia',
      details: { locale: 'es_ES', from: 'active', to: 'archived' },
    });
    const e = await signIn(t.app, { permissions: EDIT });
    expect((await post('/admin/content/regions/asia/texts/es_ES/status', e, { status: 'active' })).statusCode).toBe(
      403,
    );
    await post('/admin/content/regions/asia/texts/es_ES/status', a, { status: 'active' });
    expect((await get('/api/es/es/cms/regions/asia')).statusCode).toBe(200);
  });

  it("saving only an inactive country's Spanish texts keeps it inactive, in its place (the Nepal case)", async () => {
    const a = await signIn(t.app, { permissions: PUBLISH });
    const before = await one(
      `SELECT status, sort_order, image, images, region_id FROM countries WHERE slug = 'thailand'`,
    );
    const res = await post('/admin/content/countries/thailand/texts/es_ES', a, {
      name: 'Tailandia (nuevo)',
      experiences: '',
    });
    expect(res.statusCode).toBe(303);
    expect(
      await one(`SELECT status, sort_order, image, images, region_id FROM countries WHERE slug = 'thailand'`),
    ).toEqual(before);
    expect((await get('/api/es/es/cms/countries/thailand')).statusCode).toBe(404);
  });

  it('saving the About Us texts of one language keeps the video and the other languages (the About Us case)', async () => {
    const a = await signIn(t.app, { permissions: PUBLISH });
    const de = await one(`SELECT title, trailers FROM about_us_translations WHERE locale = 'de_DE'`);
    const res = await post('/admin/content/about-us/texts/es_ES', a, { title: 'Sobre nosotros', trailers: '' });
    expect(res.statusCode).toBe(303);
    expect(await one('SELECT status, video_url FROM about_us_pages')).toEqual({
      status: 'active',
      video_url: 'videos/about-us.mp4',
    });
    expect(await one(`SELECT title, trailers FROM about_us_translations WHERE locale = 'de_DE'`)).toEqual(de);
    const page = (await get('/api/es/es/cms/about-us')).json().data;
    expect(page.headerSection).toMatchObject({
      title: 'Sobre nosotros',
      media: { src: 'http://api.test/storage/videos/about-us.mp4' },
    });
    expect((await audits('about_us.update')).at(-1)).toMatchObject({
      resource_id: 'about_us',
      details: { locale: 'es_ES' },
    });
  });

  it('saves region labels and the home order with edit_content (no draft state)', async () => {
    const a = await signIn(t.app, { permissions: EDIT });
    const labels = await post('/admin/content/labels/es_ES', a, {
      hero_button_primary: 'Descubre el mundo',
      hero_button_secondary: '',
      newsletter_heading: 'Newsletter',
      newsletter_name_placeholder: 'Nombre',
      newsletter_email_placeholder: 'Email',
      newsletter_button_text: 'Enviar',
    });
    expect(labels.statusCode).toBe(303);
    expect((await get('/api/es/es/cms/region-labels')).json().data).toMatchObject({
      hero_button_primary: 'Descubre el mundo',
    });
    expect((await audits('region_labels.update')).at(-1)).toMatchObject({ actor: a.email, resource_id: 'es_ES' });
    const home = await post('/admin/content/home', a, {
      order_antarctica: '0',
      order_americas: '9',
      order_asia: '1',
      order_oceania: '5',
    });
    expect(home.statusCode).toBe(303);
    expect((await get('/api/es/es/cms/home')).json().data.regions.map((r: { slug: string }) => r.slug)).toEqual([
      'asia',
      'oceania',
      'americas',
    ]);
    expect((await audits('home.update')).length).toBe(1);
    const bad = await post('/admin/content/home', a, { order_asia: 'x' });
    expect(bad.statusCode).toBe(422);
    const v = await signIn(t.app, { permissions: VIEW });
    expect((await post('/admin/content/labels/es_ES', v, { hero_button_primary: 'x' })).statusCode).toBe(403);
  });

  it('creates the About Us page as a draft on its first save when there is none', async () => {
    await t.database.query('DELETE FROM about_us_pages');
    const a = await signIn(t.app, { permissions: EDIT });
    const page = await get('/admin/content/about-us', a.cookie);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('>Save</button>');
    const res = await post('/admin/content/about-us/texts/es_ES', a, { title: 'Quiénes somos', trailers: '' });
    expect(res.statusCode).toBe(303);
    expect(await one('SELECT status, video_url FROM about_us_pages')).toEqual({ status: 'draft', video_url: null });
    expect((await get('/api/es/es/cms/about-us')).json().data).toBeNull();
    expect((await audits('about_us.create')).at(-1)).toMatchObject({ actor: a.email, resource_id: 'about_us' });
  });
});
