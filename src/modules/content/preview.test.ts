// Signed content previews (issue 18): a draft region, country or About Us page in one market and
// language, a market not active yet included; a wrong, foreign or expired signature answers 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { seedContentWorld } from '../../../test/support/content-doc.js';
import { applyContent } from '../../../test/support/content-fixture.js';
import type { CliContext } from '../../platform/cli.js';
import { commands } from './commands.js';
import { contentPreviewPath, type PreviewTarget, previewUrl, signContentPreview } from './preview.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedContentWorld(t.database);
  await applyContent(t.database, {
    regions: [
      {
        slug: 'oceania',
        status: 'draft',
        sort_order: 5,
        translations: { es_ES: { name: 'Oceanía' }, fr_FR: { name: 'Océanie' } },
      },
    ],
    countries: [
      {
        slug: 'fiji',
        region: 'oceania',
        status: 'draft',
        translations: { es_ES: { name: 'Fiyi', tagline: 'Islas' }, fr_FR: { name: 'Fidji' } },
      },
    ],
    about_us: { status: 'draft' },
  });
});
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });
/** the signed URL's path and query (the app answers them whatever APP_URL is) */
const signed = (target: PreviewTarget) =>
  previewUrl(t.app.ctx.config, target, t.app.ctx.clock.now()).slice('http://api.test'.length);

describe('content preview', () => {
  it('signs a URL under APP_URL with the market, language and record', () => {
    const url = previewUrl(
      t.app.ctx.config,
      { kind: 'region', slug: 'Oceania', market: 'ES', lang: 'es' },
      t.app.ctx.clock.now(),
    );
    expect(url).toMatch(
      /^http:\/\/api\.test\/api\/es\/es\/cms\/regions\/oceania\/preview\?expires=\d+&signature=[0-9a-f]{64}$/,
    );
    expect(contentPreviewPath({ kind: 'about_us', market: 'de', lang: 'de' })).toBe('/api/de/de/cms/about-us/preview');
    expect(contentPreviewPath({ kind: 'country', slug: 'fiji', market: 'es', lang: 'es' })).toBe(
      '/api/es/es/cms/countries/fiji/preview',
    );
  });

  it('shows a draft region that the public endpoint does not', async () => {
    expect((await get('/api/es/es/cms/regions/oceania')).statusCode).toBe(404);
    const res = await get(signed({ kind: 'region', slug: 'oceania', market: 'es', lang: 'es' }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    // its countries are listed as the public sees them: the draft fiji is not
    expect(res.json().data).toMatchObject({ slug: 'oceania', name: 'Oceanía', countries: [] });
  });

  it('shows a draft country inside its draft region', async () => {
    expect((await get('/api/es/es/cms/countries/fiji')).statusCode).toBe(404);
    const res = await get(signed({ kind: 'country', slug: 'fiji', market: 'es', lang: 'es' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      slug: 'fiji',
      name: 'Fiyi',
      tagline: 'Islas',
      region: { slug: 'oceania', name: 'Oceanía' },
      relatedCountries: [],
    });
  });

  it('shows a draft About Us page', async () => {
    expect((await get('/api/es/es/cms/about-us')).json().data).toBeNull();
    const res = await get(signed({ kind: 'about_us', market: 'es', lang: 'es' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.headerSection).toMatchObject({ title: 'Quiénes somos', leadCaption: 'Viajamos desde 1998' });
  });

  it('works for a market that is not active yet', async () => {
    expect((await get('/api/fr/fr/cms/regions')).json().error).toBe('market_inactive');
    const res = await get(signed({ kind: 'region', slug: 'oceania', market: 'fr', lang: 'fr' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe('Océanie');
    const country = await get(signed({ kind: 'country', slug: 'fiji', market: 'fr', lang: 'fr' }));
    expect(country.json().data).toMatchObject({ name: 'Fidji', region: { name: 'Océanie' } });
  });

  it('shows an archived translation too', async () => {
    await applyContent(t.database, { countries: [{ slug: 'fiji', translations: { es_ES: { status: 'archived' } } }] });
    const res = await get(signed({ kind: 'country', slug: 'fiji', market: 'es', lang: 'es' }));
    expect(res.json().data.name).toBe('Fiyi');
  });

  it('answers 403 invalid_signature for a missing, tampered, foreign or expired signature', async () => {
    const ok = signed({ kind: 'region', slug: 'oceania', market: 'es', lang: 'es' });
    const refused = async (url: string) => {
      const res = await get(url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({ success: false, error: 'invalid_signature' });
    };
    await refused('/api/es/es/cms/regions/oceania/preview');
    await refused(ok.replace(/signature=(.)/, (_m, c) => `signature=${c === 'a' ? 'b' : 'a'}`));
    // the same signature does not open another record, language, market or kind
    await refused(ok.replace('/regions/oceania/', '/regions/asia/'));
    await refused(ok.replace('/api/es/es/', '/api/es/ca/'));
    await refused(ok.replace('/api/es/es/', '/api/fr/es/'));
    await refused(ok.replace('/regions/', '/countries/'));
    const past = signContentPreview(
      t.app.ctx.config.appKey,
      { kind: 'region', slug: 'oceania', market: 'es', lang: 'es' },
      new Date(t.app.ctx.clock.now().getTime() - 2 * 3600_000),
      60,
    );
    await refused(`/api/es/es/cms/regions/oceania/preview?expires=${past.expires}&signature=${past.signature}`);
  });

  it('answers 404 for a record that does not exist or is not translated in the language', async () => {
    expect((await get(signed({ kind: 'region', slug: 'nowhere', market: 'es', lang: 'es' }))).statusCode).toBe(404);
    expect((await get(signed({ kind: 'region', slug: 'oceania', market: 'de', lang: 'de' }))).json().error).toBe(
      'region_not_found',
    );
  });

  it('prints a preview URL from the command line, whose link opens the record', async () => {
    const run = async (...positional: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const cli = { config: t.app.ctx.config, out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
      const code = await commands['content:preview-url']!.run(
        { positional, options: {} },
        cli as unknown as CliContext,
      );
      return { code, out, err };
    };
    const country = await run('country', 'fiji', 'es', 'es');
    expect(country.code).toBe(0);
    expect(country.out[0]).toMatch(
      /^http:\/\/api\.test\/api\/es\/es\/cms\/countries\/fiji\/preview\?expires=\d+&signature=/,
    );
    // the command signs with the wall clock; the link is valid for the test app's fixed clock too
    expect((await get(country.out[0]!.slice('http://api.test'.length))).statusCode).toBe(200);
    expect((await run('about-us', 'de', 'de')).out[0]).toMatch(/\/api\/de\/de\/cms\/about-us\/preview\?/);
    expect((await run('region', 'es', 'es')).code).toBe(2);
    expect((await run('tour', 'x', 'es', 'es')).err[0]).toMatch(/^usage: /);
  });
});
