// The content editor in the console (issue 18): regions, countries, About Us, region labels and the
// home carousel. Lists, a create form (new records are drafts), a record form, one form per locale
// for the texts, status buttons (publish, unpublish, archive, restore; a locale's texts archived
// or restored) and a Preview link per locale (a signed preview URL). Every save goes through the
// importer (editor.ts): a refused save re-renders the form with each problem beside its field (422).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type FieldErrors,
  type FieldSpec,
  fieldText,
  formField,
  formProblems,
  formRecord,
  problemsToFields,
} from '../../console/forms.js';
import { field, guard, pageOf, sendPage } from '../../console/http.js';
import { allows } from '../../console/permissions.js';
import { badge, csrfField, layout, notice, type PageContext, sectionTabs } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { type Html, html } from '../../platform/html.js';
import { actionsFrom, permissionToChange, STATUS_ACTIONS } from '../admin/lifecycle.js';
import { readablePreviewHref } from '../operations/preview.js';
import {
  type ContentSave,
  type EditorRecord,
  editorContent,
  editorLocales,
  editorRecord,
  FIELDS,
  LABEL_FIELDS,
  type RecordKind,
  saveContent,
} from './editor.js';
import { previewUrl } from './preview.js';
import { consoleName } from './rules.js';

const NAMES: Record<RecordKind, { one: string; many: string; path: string }> = {
  region: { one: 'Region', many: 'Regions', path: '/admin/content/regions' },
  country: { one: 'Country', many: 'Countries', path: '/admin/content/countries' },
  about_us: { one: 'About Us', many: 'About Us', path: '/admin/content/about-us' },
};
const recordPath = (kind: RecordKind, slug: string) =>
  kind === 'about_us' ? NAMES.about_us.path : `${NAMES[kind].path}/${encodeURIComponent(slug)}`;
const SLUG: FieldSpec = {
  name: 'slug',
  label: 'Slug',
  required: true,
  hint: 'lower-case words joined by -; fixed once created',
};

const can = (p: PageContext, permission: 'edit_content' | 'publish_content') => allows(p.actor.grant, permission);
/** May this admin change the record's fields? A draft with edit_content, anything else with publish_content. */
const mayChange = (p: PageContext, status: string) => allows(p.actor.grant, permissionToChange(status, 'content'));

const tabs = (p: PageContext) =>
  sectionTabs(p, 'Content', [
    ['/admin/content/regions', 'Regions'],
    ['/admin/content/countries', 'Countries'],
    ['/admin/content/about-us', 'About Us'],
    ['/admin/content/labels', 'Region labels'],
    ['/admin/content/home', 'Home'],
  ]);

function page(p: PageContext, title: string, body: Html): string {
  return layout(p, title, html`${tabs(p)}<h1>${title}</h1>${body}`);
}

function fieldsOf(specs: FieldSpec[], values: Record<string, string>, errors: FieldErrors, disabled: boolean): Html[] {
  return specs.map((s) => formField(s, values[s.name] ?? '', errors[s.name], { disabled }));
}

/** The problems above a form, each linking to its field by the field's label. */
const problemsOf = (specs: FieldSpec[], errors: FieldErrors) =>
  formProblems(errors, { label: (name) => specs.find((s) => s.name === name)?.label });

const texts = (specs: FieldSpec[], values: Record<string, unknown>) =>
  Object.fromEntries(specs.map((s) => [s.name, fieldText(s, values[s.name])]));

function saveForm(p: PageContext, action: string, inner: Html[], enabled: boolean, button = 'Save'): Html {
  return html`<form method="post" action="${action}" class="card">${csrfField(p.csrfToken)}${inner}
${enabled ? html`<div class="actions"><button type="submit">${button}</button></div>` : ''}</form>`;
}

function statusButtons(p: PageContext, r: EditorRecord): Html {
  if (!can(p, 'publish_content') || r.unsaved) return html``;
  return html`<div class="actions">${actionsFrom(r.status).map(
    (a) => html`<form method="post" action="${recordPath(r.kind, r.slug)}/status">${csrfField(p.csrfToken)}
<input type="hidden" name="status" value="${STATUS_ACTIONS[a].to}"><button type="submit"${a === 'archive' ? html` class="danger"` : ''}>${a === 'restore' ? 'Restore' : STATUS_ACTIONS[a].label}</button></form>`,
  )}</div>`;
}

/** A locale's text row: its state, Edit, Preview (a signed URL, new tab), Archive / Restore. */
function localeRows(
  ctx: AppContext,
  p: PageContext,
  r: EditorRecord,
  locales: { locale: string; market: string; lang: string }[],
) {
  const now = ctx.clock.now();
  const title = (t: { values: Record<string, unknown> } | undefined) =>
    (t?.values.name ?? t?.values.title ?? '') as string;
  return locales.map(({ locale, market, lang }) => {
    const t = r.texts[locale];
    const base = `${recordPath(r.kind, r.slug)}/texts/${locale}`;
    const preview = t
      ? html`<a href="${readablePreviewHref(previewUrl(ctx.config, { kind: r.kind, slug: r.slug, market, lang }, now, ''))}" target="_blank" rel="noopener">Preview<span class="sr-only"> ${locale}</span></a>`
      : '';
    const flip =
      t && can(p, 'publish_content')
        ? html`<form method="post" action="${base}/status">${csrfField(p.csrfToken)}<input type="hidden" name="status" value="${t.status === 'archived' ? 'active' : 'archived'}"><button type="submit" class="small secondary">${t.status === 'archived' ? 'Restore' : 'Archive'}<span class="sr-only"> ${locale} texts</span></button></form>`
        : '';
    return html`<tr><td>${locale}</td><td>${title(t) || html`<span class="muted">not translated</span>`}</td><td>${t ? badge(t.status) : ''}</td>
<td class="actions"><a href="${base}">${t ? 'Edit' : 'Add'}<span class="sr-only"> ${locale} texts</span></a> ${preview} ${flip}</td></tr>`;
  });
}

async function recordPageView(
  ctx: AppContext,
  p: PageContext,
  r: EditorRecord,
  form: { values?: Record<string, string>; errors?: FieldErrors; saved?: boolean } = {},
): Promise<string> {
  const specs = await recordSpecs(ctx, r.kind);
  const values = form.values ?? texts(specs, r.values);
  const errors = form.errors ?? {};
  const editable = mayChange(p, r.status);
  const locales = await editorLocales(ctx);
  const known = new Set(locales.map((l) => l.locale));
  const extra = Object.keys(r.texts)
    .filter((l) => !known.has(l))
    .map((locale) => ({ locale, market: locale.slice(3).toLowerCase(), lang: locale.slice(0, 2) }));
  const title = r.kind === 'about_us' ? 'About Us' : `${NAMES[r.kind].one}: ${r.slug}`;
  return page(
    p,
    title,
    html`${form.saved ? notice('Saved.') : ''}${problemsOf(specs, errors)}
<p>Status: ${badge(r.status)}${editable ? '' : html` <span class="muted">Changing a record that is not a draft needs the publish_content permission.</span>`}</p>
${statusButtons(p, r)}
${saveForm(p, recordPath(r.kind, r.slug), fieldsOf(specs, values, errors, !editable), editable)}
<div class="card table-wrap"><table><caption>Texts per market and language</caption>
<thead><tr><th scope="col">Locale</th><th scope="col">Name</th><th scope="col">State</th><th scope="col">Actions</th></tr></thead>
<tbody>${localeRows(ctx, p, r, [...locales, ...extra])}</tbody></table></div>`,
  );
}

async function recordSpecs(ctx: AppContext, kind: RecordKind): Promise<FieldSpec[]> {
  if (kind !== 'country') return FIELDS[kind].record;
  const { regions } = await editorContent(ctx);
  return FIELDS.country.record.map((s) =>
    s.name === 'region' ? { ...s, options: regions.map((r) => ({ value: r.slug, label: r.slug })) } : s,
  );
}

function textPageView(
  ctx: AppContext,
  p: PageContext,
  r: EditorRecord,
  locale: string,
  form: { values?: Record<string, string>; errors?: FieldErrors; saved?: boolean } = {},
): string {
  const specs = FIELDS[r.kind].text;
  const t = r.texts[locale];
  const values = form.values ?? texts(specs, t?.values ?? {});
  const errors = form.errors ?? {};
  const editable = mayChange(p, r.status);
  const [lang, market] = locale.split('_') as [string, string];
  const preview = t
    ? html`<p><a href="${readablePreviewHref(previewUrl(ctx.config, { kind: r.kind, slug: r.slug, market, lang }, ctx.clock.now(), ''))}" target="_blank" rel="noopener">Preview<span class="sr-only"> ${locale}</span></a></p>`
    : '';
  const title = `${r.kind === 'about_us' ? 'About Us' : `${NAMES[r.kind].one} ${r.slug}`}: ${locale} texts`;
  return page(
    p,
    title,
    html`<p><a href="${recordPath(r.kind, r.slug)}">Back to ${r.kind === 'about_us' ? 'About Us' : r.slug}</a></p>
${form.saved ? notice('Saved.') : ''}${problemsOf(specs, errors)}
<p>Record: ${badge(r.status)} Texts: ${t ? badge(t.status) : html`<span class="muted">not written yet</span>`}</p>${preview}
${saveForm(p, `${recordPath(r.kind, r.slug)}/texts/${locale}`, fieldsOf(specs, values, errors, !editable), editable)}`,
  );
}

const LOCALE = /^[a-z]{2}_[A-Z]{2}$/;
const localeParam = (request: FastifyRequest) => {
  const { locale } = request.params as { locale: string };
  if (!LOCALE.test(locale)) throw new AppError(404, 'locale_not_found', `No locale '${locale}'.`);
  return locale;
};
const slugParam = (request: FastifyRequest) => (request.params as { slug?: string }).slug ?? '';
const saved = (request: FastifyRequest) => (request.query as { saved?: string }).saved === '1';
const body = (request: FastifyRequest) => (name: string) => field(request.body, name);

/** Runs a save; a refusal answers the form again (422) with every problem next to its field. */
async function submit(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  specs: FieldSpec[],
  save: Omit<ContentSave, 'fields'>,
  done: string,
  again: (values: Record<string, string>, errors: FieldErrors) => Promise<string> | string,
) {
  const p = pageOf(request);
  const read = body(request);
  const { record, errors: unread } = formRecord(specs, read);
  const result = await saveContent(
    ctx,
    p.actor,
    { ...save, fields: record },
    { check: Object.keys(unread).length > 0 },
  );
  if (result.ok) return reply.redirect(done, 303);
  const errors = problemsToFields(result.problems, result.prefix, { fields: specs.map((s) => s.name) });
  for (const [k, list] of Object.entries(unread)) errors[k] = [...list, ...(errors[k] ?? [])];
  const values = Object.fromEntries(specs.map((s) => [s.name, read(s.name)]));
  return sendPage(reply, await again(values, errors), 422);
}

export async function contentConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const view = { schema: { hide: true }, preHandler: guard(ctx, 'view_content') };
  const edit = { schema: { hide: true }, preHandler: guard(ctx, 'edit_content') };
  const publish = { schema: { hide: true }, preHandler: guard(ctx, 'publish_content') };

  app.get('/admin/content', view, async (_request, reply) => reply.redirect('/admin/content/regions', 303));

  for (const kind of ['region', 'country'] as const) {
    const { one, many, path } = NAMES[kind];

    app.get(path, view, async (request, reply) => {
      const p = pageOf(request);
      const [all, markets] = await Promise.all([editorContent(ctx), ctx.markets.all()]);
      const list = kind === 'region' ? all.regions : all.countries;
      const named = (texts: (typeof list)[number]['texts']) => consoleName(texts, [...markets.values()]);
      const rows = list.map(
        (r) => html`<tr><td><a href="${recordPath(kind, r.slug)}">${r.slug}</a></td><td>${named(r.texts)}</td>
${kind === 'country' ? html`<td>${r.values.region as string}</td>` : ''}<td>${r.values.sort_order as number}</td><td>${badge(r.status)}</td><td>${Object.keys(r.texts).length}</td></tr>`,
      );
      return sendPage(
        reply,
        page(
          p,
          many,
          html`${can(p, 'edit_content') ? html`<p><a class="button" href="${path}/new">New ${one.toLowerCase()}</a></p>` : ''}
<div class="card table-wrap"><table><caption>${many} by sort order</caption><thead><tr><th scope="col">Slug</th><th scope="col">Name</th>
${kind === 'country' ? html`<th scope="col">Region</th>` : ''}<th scope="col">Sort order</th><th scope="col">Status</th><th scope="col">Languages</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="6" class="muted">None yet.</td></tr>`}</tbody></table></div>`,
        ),
      );
    });

    const newForm = async (p: PageContext, values: Record<string, string>, errors: FieldErrors) => {
      const specs = [SLUG, ...(await recordSpecs(ctx, kind))];
      return page(
        p,
        `New ${one.toLowerCase()}`,
        html`${problemsOf(specs, errors)}<p class="muted">A new ${one.toLowerCase()} is a draft: nobody sees it until it is published.</p>
${saveForm(p, path, fieldsOf(specs, values, errors, false), true, `Create ${one.toLowerCase()}`)}`,
      );
    };

    app.get(`${path}/new`, edit, async (request, reply) => sendPage(reply, await newForm(pageOf(request), {}, {})));

    app.post(path, edit, async (request, reply) => {
      const specs = [SLUG, ...(await recordSpecs(ctx, kind))];
      const slug = field(request.body, 'slug').trim();
      return submit(
        ctx,
        request,
        reply,
        specs,
        { kind, create: true },
        `${path}/${encodeURIComponent(slug)}?saved=1`,
        (v, e) => newForm(pageOf(request), v, e),
      );
    });
  }

  // a record's page and form, its texts per locale and the status actions (regions, countries, About Us)
  const recordRoutes = (kind: RecordKind, base: string) => {
    app.get(base, view, async (request, reply) => {
      const r = await editorRecord(ctx, kind, slugParam(request));
      return sendPage(reply, await recordPageView(ctx, pageOf(request), r, { saved: saved(request) }));
    });
    app.post(base, edit, async (request, reply) => {
      const r = await editorRecord(ctx, kind, slugParam(request));
      const specs = await recordSpecs(ctx, kind);
      return submit(
        ctx,
        request,
        reply,
        specs,
        { kind, slug: r.slug },
        `${recordPath(kind, r.slug)}?saved=1`,
        (values, errors) => recordPageView(ctx, pageOf(request), r, { values, errors }),
      );
    });
    app.post(`${base}/status`, publish, async (request, reply) => {
      const r = await editorRecord(ctx, kind, slugParam(request));
      const status = field(request.body, 'status');
      const result = await saveContent(ctx, pageOf(request).actor, { kind, slug: r.slug, fields: { status } });
      if (!result.ok) throw new AppError(422, 'invalid_status', result.problems.map((x) => x.reason).join('; '));
      return reply.redirect(`${recordPath(kind, r.slug)}?saved=1`, 303);
    });
    app.get(`${base}/texts/:locale`, view, async (request, reply) => {
      const r = await editorRecord(ctx, kind, slugParam(request));
      return sendPage(reply, textPageView(ctx, pageOf(request), r, localeParam(request), { saved: saved(request) }));
    });
    app.post(`${base}/texts/:locale`, edit, async (request, reply) => {
      const r = await editorRecord(ctx, kind, slugParam(request));
      const locale = localeParam(request);
      const done = `${recordPath(kind, r.slug)}/texts/${locale}?saved=1`;
      return submit(ctx, request, reply, FIELDS[kind].text, { kind, slug: r.slug, locale }, done, (values, errors) =>
        textPageView(ctx, pageOf(request), r, locale, { values, errors }),
      );
    });
    app.post(`${base}/texts/:locale/status`, publish, async (request, reply) => {
      const r = await editorRecord(ctx, kind, slugParam(request));
      const locale = localeParam(request);
      if (!r.texts[locale]) throw new AppError(404, 'translation_not_found', `No ${locale} texts to archive.`);
      const status = field(request.body, 'status');
      const result = await saveContent(ctx, pageOf(request).actor, { kind, slug: r.slug, locale, fields: { status } });
      if (!result.ok) throw new AppError(422, 'invalid_status', result.problems.map((x) => x.reason).join('; '));
      return reply.redirect(`${recordPath(kind, r.slug)}?saved=1`, 303);
    });
  };
  recordRoutes('region', '/admin/content/regions/:slug');
  recordRoutes('country', '/admin/content/countries/:slug');
  recordRoutes('about_us', '/admin/content/about-us');

  // region labels: one row per locale, no draft state (edit_content)
  app.get('/admin/content/labels', view, async (request, reply) => {
    const p = pageOf(request);
    const [{ labels }, locales] = await Promise.all([editorContent(ctx), editorLocales(ctx)]);
    const rows = locales.map(
      ({ locale }) =>
        html`<tr><td><a href="/admin/content/labels/${locale}">${locale}</a></td><td>${
          labels[locale] ? Object.values(labels[locale]).filter((v) => v !== null).length : 0
        } of ${LABEL_FIELDS.length}</td></tr>`,
    );
    return sendPage(
      reply,
      page(
        p,
        'Region labels',
        html`<p class="muted">Global UI strings per locale; a blank field uses the built-in default of the language.</p>
<div class="card table-wrap"><table><caption>Labels per locale</caption><thead><tr><th scope="col">Locale</th><th scope="col">Fields set</th></tr></thead>
<tbody>${rows}</tbody></table></div>`,
      ),
    );
  });
  const labelsForm = (
    p: PageContext,
    locale: string,
    values: Record<string, string>,
    errors: FieldErrors,
    done = false,
  ) =>
    page(
      p,
      `Region labels: ${locale}`,
      html`<p><a href="/admin/content/labels">All locales</a></p>${done ? notice('Saved.') : ''}${problemsOf(LABEL_FIELDS, errors)}
${saveForm(p, `/admin/content/labels/${locale}`, fieldsOf(LABEL_FIELDS, values, errors, !can(p, 'edit_content')), can(p, 'edit_content'))}`,
    );
  app.get('/admin/content/labels/:locale', view, async (request, reply) => {
    const locale = localeParam(request);
    const { labels } = await editorContent(ctx);
    return sendPage(
      reply,
      labelsForm(pageOf(request), locale, texts(LABEL_FIELDS, labels[locale] ?? {}), {}, saved(request)),
    );
  });
  app.post('/admin/content/labels/:locale', edit, async (request, reply) => {
    const locale = localeParam(request);
    return submit(
      ctx,
      request,
      reply,
      LABEL_FIELDS,
      { kind: 'region_labels', slug: locale },
      `/admin/content/labels/${locale}?saved=1`,
      (v, e) => labelsForm(pageOf(request), locale, v, e),
    );
  });

  // home: the regions carousel (/cms/home) is every active region by sort order with its active
  // countries, and the labels; this page orders the carousel (edit_content)
  const homeForm = async (p: PageContext, values: Record<string, string>, errors: FieldErrors, done = false) => {
    const { regions } = await editorContent(ctx);
    const editable = can(p, 'edit_content');
    const spec = (slug: string): FieldSpec => ({
      name: `order_${slug}`,
      label: `Sort order of ${slug}`,
      type: 'number',
    });
    const rows = regions.map(
      (r) =>
        html`<tr><td>${r.slug}</td><td>${badge(r.status)}</td><td>${formField(
          spec(r.slug),
          values[`order_${r.slug}`] ?? String(r.values.sort_order),
          errors[`order_${r.slug}`],
          { disabled: !editable },
        )}</td></tr>`,
    );
    return page(
      p,
      'Home',
      html`${done ? notice('Saved.') : ''}${formProblems(errors, { label: (name) => spec(name.slice('order_'.length)).label })}<p class="muted">The home page shows every active region translated in the locale, by sort order, with its active countries, and the <a href="/admin/content/labels">region labels</a>.</p>
<form method="post" action="/admin/content/home" class="card">${csrfField(p.csrfToken)}<table><caption>Regions carousel</caption>
<thead><tr><th scope="col">Region</th><th scope="col">Status</th><th scope="col">Sort order</th></tr></thead><tbody>${rows}</tbody></table>
${editable ? html`<div class="actions"><button type="submit">Save order</button></div>` : ''}</form>`,
    );
  };
  app.get('/admin/content/home', view, async (request, reply) =>
    sendPage(reply, await homeForm(pageOf(request), {}, {}, saved(request))),
  );
  app.post('/admin/content/home', edit, async (request, reply) => {
    const p = pageOf(request);
    const { regions } = await editorContent(ctx);
    const read = body(request);
    const list = regions.map((r) => {
      const raw = read(`order_${r.slug}`).trim();
      return { slug: r.slug, sort_order: /^-?\d{1,9}$/.test(raw) ? Number(raw) : raw };
    });
    const result = await saveContent(ctx, p.actor, { kind: 'home', fields: { regions: list } });
    if (result.ok) return reply.redirect('/admin/content/home?saved=1', 303);
    // the document's regions are the page's rows in order: `/regions/2/sort_order` is that row's field
    const byRow = problemsToFields(result.problems, result.prefix, {
      fields: regions.map((_, i) => `${i}.sort_order`),
    });
    const errors = Object.fromEntries(
      Object.entries(byRow).map(([k, list]) => [k ? `order_${regions[Number.parseInt(k, 10)]?.slug}` : k, list]),
    );
    const values = Object.fromEntries(regions.map((r) => [`order_${r.slug}`, read(`order_${r.slug}`)]));
    return sendPage(reply, await homeForm(p, values, errors), 422);
  });
}
