// Console pages "Supply texts": the translations of activities, hotels, transfers and airports per
// language (view_catalog to read, edit_catalog to save). A save goes through the importer
// (saveSupplyTexts): the same validation, problems shown next to their fields, caches dropped,
// an audit row written.
import type { FastifyInstance } from 'fastify';
import { type FieldErrors, type FieldSpec, formField, formProblems, problemsToFields } from '../../console/forms.js';
import { field, guard, pageOf, sendPage } from '../../console/http.js';
import { allows } from '../../console/permissions.js';
import { csrfField, layout, notice, type PageContext, pager } from '../../console/views.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/errors.js';
import { type Html, html } from '../../platform/html.js';
import {
  isSupplyKind,
  SUPPLY_KINDS,
  type SupplyField,
  type SupplyKindName,
  type SupplyRecord,
  saveSupplyTexts,
  supplyPage,
  supplyRecord,
  type Texts,
} from './supply-texts.js';

const PER_PAGE = 50;
const FIELD_LABELS: Record<SupplyField, string> = {
  name: 'Name',
  description: 'Description',
  city: 'City',
  country: 'Country',
  reasons: 'Reasons (one a line)',
  amenities: 'Amenities (one a line: icon | label | description)',
};
const FIELD_TYPES: Partial<Record<SupplyField, FieldSpec['type']>> = {
  description: 'textarea',
  reasons: 'lines',
  amenities: 'textarea',
};
const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });
const languageName = (code: string) => {
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
};

type Amenity = { icon: string; label: string; description: string };

/** A stored or submitted value as the form shows it. */
function shown(f: SupplyField, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (f === 'reasons') return (value as string[]).join('\n');
  if (f === 'amenities') return (value as Amenity[]).map((a) => `${a.icon} | ${a.label} | ${a.description}`).join('\n');
  return String(value);
}

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * The form's values as translation entries: an empty field is null (it falls back), a language
 * left all empty is removed when stored and skipped otherwise. Amenity lines that do not split in
 * three are reported against their field.
 */
export function entriesOf(
  body: unknown,
  fields: readonly SupplyField[],
  languages: string[],
  stored: Record<string, Texts>,
): { entries: Record<string, Texts | null>; values: Record<string, string>; errors: FieldErrors } {
  const entries: Record<string, Texts | null> = {};
  const values: Record<string, string> = {};
  const errors: FieldErrors = {};
  for (const lang of languages) {
    const entry: Texts = {};
    for (const f of fields) {
      const raw = field(body, `${lang}.${f}`).slice(0, 10_000);
      values[`${lang}.${f}`] = raw;
      const text = raw.trim();
      if (text === '') entry[f] = null;
      else if (f === 'reasons') entry[f] = lines(text);
      else if (f === 'amenities') {
        const parsed = lines(text).map((l) => l.split('|').map((p) => p.trim()));
        if (parsed.some((p) => p.length !== 3 || p.some((x) => x === ''))) {
          errors[`${lang}.${f}`] = ['each line needs an icon, a label and a description separated by |'];
        }
        entry[f] = parsed.map(([icon, label, description]) => ({ icon, label, description }));
      } else entry[f] = text;
    }
    const empty = fields.every((f) => entry[f] === null);
    if (!empty) entries[lang] = entry;
    else if (stored[lang]) entries[lang] = null;
  }
  return { entries, values, errors };
}

function tabs(kind: SupplyKindName): Html {
  return html`<nav class="tabs" aria-label="Kinds of supply"><ul>${(Object.keys(SUPPLY_KINDS) as SupplyKindName[]).map(
    (k) =>
      html`<li><a href="/admin/supply-texts?kind=${k}"${k === kind ? html` aria-current="page"` : ''}>${SUPPLY_KINDS[k].label}</a></li>`,
  )}</ul></nav>`;
}

function listPage(
  p: PageContext,
  kind: SupplyKindName,
  q: string,
  page: number,
  data: Awaited<ReturnType<typeof supplyPage>>,
): string {
  const k = SUPPLY_KINDS[kind];
  const pages = Math.max(1, Math.ceil(data.total / PER_PAGE));
  const href = (n: number) =>
    `/admin/supply-texts?${new URLSearchParams({ kind, ...(q ? { q } : {}), page: String(n) })}`;
  const rows = data.rows.length
    ? data.rows.map(
        (r) => html`<tr><td><a href="/admin/supply-texts/${kind}/${r.key}">${r.key}</a></td><td>${r.name}</td>
<td>${r.city ?? ''}</td><td>${r.languages || html`<span class="muted">none</span>`}</td></tr>`,
      )
    : html`<tr><td colspan="4" class="muted">Nothing matches.</td></tr>`;
  return layout(
    p,
    'Supply texts',
    html`<h1>Supply texts</h1>
<p>Names, descriptions and places of the supply every market shares, per language. A text left empty falls back to the market's default language, then English, then the base text.</p>
${tabs(kind)}
<form method="get" action="/admin/supply-texts" class="card filters" role="search" aria-label="Find ${k.label.toLowerCase()}">
<input type="hidden" name="kind" value="${kind}">
<div><label for="q">Search</label><input id="q" name="q" type="search" value="${q}" placeholder="Code or name"></div>
<div><button type="submit">Search</button></div></form>
<div class="card table-wrap"><table><caption>${k.label}</caption>
<thead><tr><th scope="col">Code</th><th scope="col">Name (base)</th><th scope="col">City (base)</th><th scope="col">Translated into</th></tr></thead>
<tbody>${rows}</tbody></table>${pager({ page, pages, href, total: data.total })}</div>`,
  );
}

function editPage(
  p: PageContext,
  kind: SupplyKindName,
  record: SupplyRecord,
  languages: string[],
  canEdit: boolean,
  state: { values?: Record<string, string>; errors?: FieldErrors; done?: string } = {},
): string {
  const k = SUPPLY_KINDS[kind];
  const value = (lang: string, f: SupplyField) =>
    state.values?.[`${lang}.${f}`] ?? shown(f, record.translations[lang]?.[f]);
  const errors = state.errors ?? {};
  const spec = (lang: string, f: SupplyField): FieldSpec => ({
    name: `${lang}.${f}`,
    label: `${FIELD_LABELS[f]} (${lang})`,
    type: FIELD_TYPES[f],
  });
  const input = (lang: string, f: SupplyField) =>
    formField(spec(lang, f), value(lang, f), errors[`${lang}.${f}`], { disabled: !canEdit });
  const base = k.fields.map(
    (f) => html`<tr><th scope="row">${FIELD_LABELS[f]}</th><td>${shown(f, record.base[f])}</td></tr>`,
  );
  return layout(
    p,
    `Texts of ${k.one} ${record.key}`,
    html`<h1>Texts of ${k.one} ${record.key}</h1><p><a href="/admin/supply-texts?kind=${kind}">All ${k.label.toLowerCase()}</a></p>
${notice(state.done)}${formProblems(errors, {
  label: (name) => {
    const [lang = '', f = ''] = name.split('.');
    return (k.fields as readonly string[]).includes(f) ? spec(lang, f as SupplyField).label : undefined;
  },
})}
<div class="card"><table><caption>Base text (English, the last fallback)</caption><tbody>${base}</tbody></table></div>
<form method="post" action="/admin/supply-texts/${kind}/${record.key}">${csrfField(p.csrfToken)}
${languages.map(
  (lang) =>
    html`<fieldset class="card"><legend>${languageName(lang)} (${lang})</legend>${k.fields.map((f) => input(lang, f))}</fieldset>`,
)}
${canEdit ? html`<div class="actions"><button type="submit">Save texts</button></div>` : ''}</form>`,
  );
}

/** Languages of every market but English (the base text), and any already stored. */
async function languagesFor(ctx: AppContext, record: SupplyRecord): Promise<string[]> {
  const markets = [...(await ctx.markets.all()).values()];
  const all = new Set([...markets.flatMap((m) => m.languages), ...Object.keys(record.translations)]);
  all.delete('en');
  return [...all].sort();
}

function target(params: unknown): { kind: SupplyKindName; key: string } {
  const { kind, key } = params as { kind: string; key: string };
  if (!isSupplyKind(kind) || !/^[A-Za-z0-9-]{1,100}$/.test(key)) {
    throw new AppError(404, 'not_found', 'No such supply record.');
  }
  return { kind, key };
}

export async function supplyTextsConsoleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const view = { schema: { hide: true }, preHandler: guard(ctx, 'view_catalog') };
  const edit = { schema: { hide: true }, preHandler: guard(ctx, 'edit_catalog') };

  app.get('/admin/supply-texts', view, async (request, reply) => {
    const query = request.query as { kind?: string; q?: string; page?: string };
    const kind = query.kind && isSupplyKind(query.kind) ? query.kind : 'activities';
    const q = (query.q ?? '').trim().slice(0, 100);
    const page = Math.max(1, Math.min(10_000, Number.parseInt(query.page ?? '1', 10) || 1));
    const data = await supplyPage(ctx, kind, q, page, PER_PAGE);
    return sendPage(reply, listPage(pageOf(request), kind, q, page, data));
  });

  app.get('/admin/supply-texts/:kind/:key', view, async (request, reply) => {
    const { kind, key } = target(request.params);
    const record = await supplyRecord(ctx, kind, key);
    if (!record) throw new AppError(404, 'not_found', 'No such supply record.');
    const p = pageOf(request);
    const saved = (request.query as { saved?: string }).saved;
    return sendPage(
      reply,
      editPage(p, kind, record, await languagesFor(ctx, record), allows(p.actor.grant, 'edit_catalog'), {
        done: saved !== undefined ? 'Texts saved.' : undefined,
      }),
    );
  });

  app.post('/admin/supply-texts/:kind/:key', edit, async (request, reply) => {
    const { kind, key } = target(request.params);
    const record = await supplyRecord(ctx, kind, key);
    if (!record) throw new AppError(404, 'not_found', 'No such supply record.');
    const p = pageOf(request);
    const languages = await languagesFor(ctx, record);
    const form = entriesOf(request.body, SUPPLY_KINDS[kind].fields, languages, record.translations);
    let errors = form.errors;
    if (Object.keys(errors).length === 0) {
      const result = await saveSupplyTexts(ctx, p.actor, kind, key, form.entries);
      if (result.ok) return reply.redirect(`/admin/supply-texts/${kind}/${key}?saved=1`, 303);
      const fields = languages.flatMap((lang) => SUPPLY_KINDS[kind].fields.map((f) => `${lang}.${f}`));
      errors = problemsToFields(result.problems, `/${SUPPLY_KINDS[kind].table}/0/translations`, { fields });
    }
    return sendPage(reply, editPage(p, kind, record, languages, true, { values: form.values, errors }), 422);
  });
}
