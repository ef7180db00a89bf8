// The content editor's use cases (issue 18): read regions, countries, About Us, region labels and
// the home carousel in the import format, and save one record at a time through the importer
// (validateImport/runImport with the content section), so a save follows the import's rules and
// merge semantics (only the fields a form names change) and drops every cache in every process
// (catalog revision + 'catalog:changed'). Each save checks the publishing rule and is audited.

import type { FieldSpec } from '../../console/forms.js';
import { assertAllowed, type Permission } from '../../console/permissions.js';
import type { AppContext } from '../../context.js';
import type { RegionExperiences, Trailer } from '../../db/schema/content.js';
import type { ImportProblem } from '../../import/section.js';
import { AppError } from '../../platform/errors.js';
import { permissionToChange } from '../admin/lifecycle.js';
import type { AdminActor } from '../admin/service.js';
import { validateImport } from '../catalog/import.js';
import { auditChanges, importAndAudit, importDay } from '../catalog/import-save.js';
import { localeOf } from '../markets/rules.js';
import type { ContentStatus } from './import-schema.js';
import { contentForEditor } from './repository.js';

export type RecordKind = 'region' | 'country' | 'about_us';
export type EditorKind = RecordKind | 'region_labels' | 'home';

// ------------------------------------------------------------------ the forms' fields

const text = (name: string, label: string, hint?: string): FieldSpec => ({ name, label, hint });
const area = (name: string, label: string): FieldSpec => ({ name, label, type: 'textarea' });
const IMAGE_HINT = 'a storage path (regions/asia.jpg) or an absolute URL';

export const FIELDS: Record<RecordKind, { record: FieldSpec[]; text: FieldSpec[] }> = {
  region: {
    record: [
      text('image', 'Image', IMAGE_HINT),
      text('full_width_image', 'Full-width image', IMAGE_HINT),
      { name: 'sort_order', label: 'Sort order', type: 'number' },
    ],
    text: [
      { name: 'name', label: 'Name', required: true },
      area('description', 'Description'),
      area('quote', 'Quote'),
      text('cta_heading', 'Call-to-action heading'),
      text('cta_subheading', 'Call-to-action subheading'),
      text('cta_button_text', 'Call-to-action button text'),
      {
        name: 'experiences',
        label: 'Experiences (JSON)',
        type: 'json',
        blank: null,
        hint: 'as in the import file: {"intro": {...}, "phases": [{"id": ..., "products": [tour codes]}]}; blank for none',
      },
    ],
  },
  country: {
    record: [
      { name: 'region', label: 'Region', type: 'select' },
      text('image', 'Image', IMAGE_HINT),
      { name: 'images', label: 'Gallery images', type: 'lines', hint: `one a line; ${IMAGE_HINT}` },
      { name: 'sort_order', label: 'Sort order', type: 'number' },
      { name: 'products', label: 'Tours', type: 'lines', hint: 'product template codes, one a line, in display order' },
    ],
    text: [
      { name: 'name', label: 'Name', required: true },
      area('description', 'Description'),
      text('tagline', 'Tagline'),
      text('population', 'Population'),
      text('area', 'Area'),
      text('currency', 'Currency'),
      text('best_time', 'Best time'),
      text('languages', 'Languages'),
      text('population_label', 'Population label'),
      text('area_label', 'Area label'),
      text('currency_label', 'Currency label'),
      text('best_time_label', 'Best time label'),
      text('languages_label', 'Languages label'),
      {
        name: 'experiences',
        label: 'Experiences (JSON)',
        type: 'json',
        blank: [],
        hint: 'a list as in the import file: [{"title": ..., "image": ..., "tag": ..., "description": ..., "product": tour code}]',
      },
    ],
  },
  about_us: {
    record: [text('video_url', 'Video', 'a storage path or an absolute URL')],
    text: [
      { name: 'title', label: 'Title', required: true },
      text('lead_caption', 'Lead caption'),
      text('supporting_caption', 'Supporting caption'),
      area('description', 'Description'),
      {
        name: 'trailers',
        label: 'Trailers (JSON)',
        type: 'json',
        blank: [],
        hint: 'a list as in the import file: [{"poster_image": ..., "poster_alt": ..., "href": ..., "target": "_blank", "aria_label": ...}]',
      },
    ],
  },
};

export const LABEL_FIELDS: FieldSpec[] = [
  text('hero_button_primary', 'Hero button (primary)'),
  text('hero_button_secondary', 'Hero button (secondary)'),
  text('newsletter_heading', 'Newsletter heading'),
  text('newsletter_name_placeholder', 'Newsletter name placeholder'),
  text('newsletter_email_placeholder', 'Newsletter e-mail placeholder'),
  text('newsletter_button_text', 'Newsletter button text'),
];

// ------------------------------------------------------------------ reads, in the import format

export interface EditorText {
  status: string;
  values: Record<string, unknown>;
}
export interface EditorRecord {
  kind: RecordKind;
  /** '' for About Us */
  slug: string;
  status: ContentStatus;
  values: Record<string, unknown>;
  texts: Record<string, EditorText>;
  /** About Us before its first save: the first save creates it as a draft */
  unsaved?: true;
}

const media = (m: { src: string | null; alt: string | null } | null) => (m ? { src: m.src, alt: m.alt } : null);
const experiencesOut = (e: RegionExperiences | null) =>
  e && {
    intro: {
      eyebrow: e.intro.eyebrow,
      title: e.intro.title,
      description: e.intro.description,
      media: media(e.intro.media),
      preview_media: media(e.intro.previewMedia),
    },
    phases: e.phases.map((p) => ({
      id: p.id,
      title: p.title,
      caption: p.caption,
      experience_name: p.experienceName,
      modal_title: p.modalTitle,
      trigger_aria_label: p.triggerAriaLabel,
      media: media(p.media),
      products: p.products,
    })),
  };
const trailersOut = (list: Trailer[]) =>
  list.map((t) => ({
    id: t.id,
    poster_image: t.posterImage,
    poster_alt: t.posterAlt,
    href: t.href,
    target: t.target,
    aria_label: t.ariaLabel,
  }));

/** Every region, country and the About Us page (any status), and the labels, as the forms show them. */
export async function editorContent(ctx: AppContext) {
  const c = await contentForEditor(ctx.database.db);
  const texts = <T extends { locale: string; status: string }>(rows: T[], values: (t: T) => Record<string, unknown>) =>
    Object.fromEntries(rows.map((t) => [t.locale, { status: t.status, values: values(t) }]));
  const regionSlug = new Map(c.regions.map((r) => [r.id, r.slug]));
  const regions: EditorRecord[] = c.regions.map((r) => ({
    kind: 'region',
    slug: r.slug,
    status: r.status as ContentStatus,
    values: { image: r.image, full_width_image: r.fullWidthImage, sort_order: r.sortOrder },
    texts: texts(
      c.regionTexts.filter((t) => t.regionId === r.id),
      (t) => ({
        name: t.name,
        description: t.description,
        quote: t.quote,
        cta_heading: t.ctaHeading,
        cta_subheading: t.ctaSubheading,
        cta_button_text: t.ctaButtonText,
        experiences: experiencesOut(t.experiences),
      }),
    ),
  }));
  const countries: EditorRecord[] = c.countries.map((x) => ({
    kind: 'country',
    slug: x.slug,
    status: x.status as ContentStatus,
    values: {
      region: regionSlug.get(x.regionId),
      image: x.image,
      images: x.images,
      sort_order: x.sortOrder,
      products: c.countryCodes(x.id),
    },
    texts: texts(
      c.countryTexts.filter((t) => t.countryId === x.id),
      (t) => ({
        name: t.name,
        description: t.description,
        tagline: t.tagline,
        population: t.population,
        area: t.area,
        currency: t.currency,
        best_time: t.bestTime,
        languages: t.languages,
        population_label: t.populationLabel,
        area_label: t.areaLabel,
        currency_label: t.currencyLabel,
        best_time_label: t.bestTimeLabel,
        languages_label: t.languagesLabel,
        experiences: t.experiences,
      }),
    ),
  }));
  const aboutUs: EditorRecord | undefined = c.aboutUs && {
    kind: 'about_us',
    slug: '',
    status: c.aboutUs.status as ContentStatus,
    values: { video_url: c.aboutUs.videoUrl },
    texts: texts(c.aboutUsTexts, (t) => ({
      title: t.title,
      lead_caption: t.leadCaption,
      supporting_caption: t.supportingCaption,
      description: t.description,
      trailers: trailersOut(t.trailers),
    })),
  };
  const labels = Object.fromEntries(
    c.labels.map((l) => [
      l.locale,
      {
        hero_button_primary: l.heroButtonPrimary,
        hero_button_secondary: l.heroButtonSecondary,
        newsletter_heading: l.newsletterHeading,
        newsletter_name_placeholder: l.newsletterNamePlaceholder,
        newsletter_email_placeholder: l.newsletterEmailPlaceholder,
        newsletter_button_text: l.newsletterButtonText,
      } as Record<string, unknown>,
    ]),
  );
  return { regions, countries, aboutUs, labels };
}

export async function editorRecord(ctx: AppContext, kind: RecordKind, slug: string): Promise<EditorRecord> {
  const all = await editorContent(ctx);
  if (kind === 'about_us') {
    return all.aboutUs ?? { kind, slug: '', status: 'draft', values: { video_url: null }, texts: {}, unsaved: true };
  }
  const found = (kind === 'region' ? all.regions : all.countries).find((r) => r.slug === slug);
  if (!found) throw new AppError(404, `${kind}_not_found`, `No ${kind.replace('_', ' ')} '${slug}'.`);
  return found;
}

/** Every locale an editor can write: each language of each market (active or being prepared). */
export async function editorLocales(ctx: AppContext): Promise<{ locale: string; market: string; lang: string }[]> {
  const markets = [...(await ctx.markets.all()).values()].sort((a, b) => a.code.localeCompare(b.code));
  return markets.flatMap((m) => m.languages.map((lang) => ({ locale: localeOf(lang, m.code), market: m.code, lang })));
}

// ------------------------------------------------------------------ saves

/** One save of the editor: a record's fields, or one locale's texts, as import keys. */
export interface ContentSave {
  kind: EditorKind;
  /** region or country slug; the locale of region labels */
  slug?: string;
  /** the translation the fields belong to */
  locale?: string;
  /** a new region or country: `fields` holds its slug; it is saved as a draft */
  create?: boolean;
  fields: Record<string, unknown>;
}

const SECTION: Record<RecordKind, string> = { region: 'regions', country: 'countries', about_us: 'about_us' };

/** The import document of one save, and the JSON path of the fields in it. */
export function saveDocument(s: ContentSave): { doc: Record<string, unknown>; prefix: string } {
  if (s.kind === 'region_labels')
    return { doc: { region_labels: { [s.slug!]: s.fields } }, prefix: `/region_labels/${s.slug}` };
  if (s.kind === 'home') return { doc: { regions: s.fields.regions }, prefix: '/regions' };
  const texts = s.locale ? { translations: { [s.locale]: s.fields } } : s.fields;
  const suffix = s.locale ? `/translations/${s.locale}` : '';
  if (s.kind === 'about_us') {
    return { doc: { about_us: s.create ? { ...texts, status: 'draft' } : texts }, prefix: `/about_us${suffix}` };
  }
  const record = s.create ? { ...s.fields, status: 'draft' } : { slug: s.slug, ...texts };
  return { doc: { [SECTION[s.kind]]: [record] }, prefix: `/${SECTION[s.kind]}/0${suffix}` };
}

interface Decision {
  permission: Permission;
  action: string;
  details: Record<string, unknown>;
}

/**
 * The publishing rule: new records are drafts (edit_content); a draft is changed with edit_content;
 * a status change (publish, unpublish, archive, restore; a translation's archive and restore) and
 * any change of a record that is not a draft need publish_content. Labels and home: edit_content.
 */
export function decide(s: ContentSave, stored: EditorRecord | undefined): Decision {
  if (s.kind === 'region_labels' || s.kind === 'home') {
    return { permission: 'edit_content', action: `${s.kind}.update`, details: s.slug ? { locale: s.slug } : {} };
  }
  if (s.create) return { permission: 'edit_content', action: `${s.kind}.create`, details: { status: 'draft' } };
  if (!stored) throw new AppError(404, `${s.kind}_not_found`, `No ${s.kind.replace('_', ' ')} '${s.slug ?? ''}'.`);
  const to = s.fields.status as string | undefined;
  if (s.locale && to !== undefined) {
    const from = stored.texts[s.locale]?.status;
    const verb = to === 'archived' ? 'archive' : 'restore';
    return {
      permission: 'publish_content',
      action: `${s.kind}.translation.${verb}`,
      details: { locale: s.locale, from, to },
    };
  }
  if (to !== undefined && to !== stored.status) {
    const verb =
      to === 'active'
        ? 'publish'
        : to === 'archived'
          ? 'archive'
          : stored.status === 'archived'
            ? 'restore'
            : 'unpublish';
    return { permission: 'publish_content', action: `${s.kind}.${verb}`, details: { from: stored.status, to } };
  }
  const details = { status: stored.status, ...(s.locale ? { locale: s.locale } : {}) };
  return {
    permission: permissionToChange(stored.status, 'content'),
    action: `${s.kind}.update`,
    details,
  };
}

async function storedFor(ctx: AppContext, s: ContentSave): Promise<EditorRecord | undefined> {
  if (s.kind === 'region_labels' || s.kind === 'home') return undefined;
  const all = await editorContent(ctx);
  if (s.kind === 'about_us') return all.aboutUs;
  const slug = s.create ? (s.fields.slug as string | undefined) : s.slug;
  return (s.kind === 'region' ? all.regions : all.countries).find((r) => r.slug === slug);
}

export type SaveResult = { ok: true } | { ok: false; problems: ImportProblem[]; prefix: string };

/**
 * Saves through the importer as `actor`. `check` only validates (a form with fields that could not
 * be read still gets every other problem). Refused saves write nothing and no audit row.
 */
export async function saveContent(
  ctx: AppContext,
  actor: AdminActor,
  input: ContentSave,
  opts: { check?: boolean } = {},
): Promise<SaveResult> {
  const stored = await storedFor(ctx, input);
  // the About Us page is a singleton: its first save creates it, as a draft
  const s = input.kind === 'about_us' && !stored ? { ...input, create: true } : input;
  const decision = decide(s, s.create ? undefined : stored);
  assertAllowed(actor.grant, decision.permission);
  const { doc, prefix } = saveDocument(s);
  if (s.create && stored) {
    return {
      ok: false,
      prefix,
      problems: [{ path: `${prefix}/slug`, reason: `a ${s.kind} '${stored.slug}' exists already` }],
    };
  }
  if (opts.check)
    return { ok: false, prefix, problems: await validateImport(ctx.database, doc, { today: importDay(ctx) }) };
  const result = await importAndAudit(ctx, actor, doc, (changes) => ({
    action: decision.action,
    resourceType: s.kind,
    resourceId: s.kind === 'about_us' ? 'about_us' : s.create ? (s.fields.slug as string) : (s.slug ?? s.kind),
    details: {
      ...decision.details,
      changes: auditChanges(changes),
    },
  }));
  if (!result.ok) return { ok: false, prefix, problems: result.problems };
  return { ok: true };
}
