// The content part of the catalog import document: top-level keys `regions`, `countries`,
// `region_labels` and `about_us`. Records are matched on their natural keys (slug; translations on
// (record, locale); labels on locale; About Us is a singleton) and change only the fields they name. Tours are named by product
// template code; the catalog section runs first, so the templates exist by then.
import { eq, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../db/database.js';
import {
  aboutUsPages,
  aboutUsTranslations,
  type ContentMedia,
  type CountryExperience,
  countries,
  countryProducts,
  countryTranslations,
  type RegionExperiences,
  regionLabels,
  regions,
  regionTranslations,
  type Trailer,
} from '../../db/schema/content.js';
import { mergeRows, namedColumns } from '../../import/rows.js';
import type { ImportContext, ImportProblem, ImportSection } from '../../import/section.js';
import { requireForNew } from '../catalog/import-section.js';
import { templateIdsByCode } from '../catalog/tours.js';
import {
  type AboutUsIn,
  type CountryIn,
  contentProperties,
  type LabelsIn,
  type Maybe,
  type MediaIn,
  type RegionIn,
} from './import-schema.js';

const n = <T>(v: Maybe<T>): T | null => v ?? null;
const media = (m: Maybe<MediaIn>): ContentMedia | null => (m ? { src: n(m.src), alt: n(m.alt) } : null);

function regionExperiences(e: NonNullable<RegionIn['translations']>[string]['experiences']): RegionExperiences | null {
  if (!e) return null;
  return {
    intro: {
      eyebrow: n(e.intro?.eyebrow),
      title: n(e.intro?.title),
      description: n(e.intro?.description),
      media: media(e.intro?.media),
      previewMedia: media(e.intro?.preview_media),
    },
    phases: (e.phases ?? []).map((p) => ({
      id: p.id,
      title: n(p.title),
      caption: n(p.caption),
      experienceName: n(p.experience_name),
      modalTitle: n(p.modal_title),
      triggerAriaLabel: n(p.trigger_aria_label),
      media: media(p.media),
      products: p.products ?? [],
    })),
  };
}

function duplicates(values: string[]): Set<string> {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const v of values) (seen.has(v) ? dup : seen).add(v);
  return dup;
}

/** Stored content records, so the check knows which records of the document are new. */
async function storedContent(db: DbOrTx) {
  const [r, rt, c, ct, a, at] = await Promise.all([
    db.select({ id: regions.id, slug: regions.slug }).from(regions),
    db.select({ id: regionTranslations.regionId, locale: regionTranslations.locale }).from(regionTranslations),
    db.select({ id: countries.id, slug: countries.slug }).from(countries),
    db.select({ id: countryTranslations.countryId, locale: countryTranslations.locale }).from(countryTranslations),
    db.select({ id: aboutUsPages.id }).from(aboutUsPages),
    db.select({ locale: aboutUsTranslations.locale }).from(aboutUsTranslations),
  ]);
  const slugOf = (rows: { id: number; slug: string }[]) => new Map(rows.map((x) => [x.id, x.slug]));
  const regionSlug = slugOf(r);
  const countrySlug = slugOf(c);
  return {
    regions: new Set(r.map((x) => x.slug)),
    regionTexts: new Set(rt.map((x) => `${regionSlug.get(x.id)}/${x.locale}`)),
    countries: new Set(c.map((x) => x.slug)),
    countryTexts: new Set(ct.map((x) => `${countrySlug.get(x.id)}/${x.locale}`)),
    aboutUs: a.length > 0,
    aboutUsTexts: new Set(at.map((x) => x.locale)),
  };
}

async function check(doc: Record<string, unknown>, ctx: ImportContext): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const add = (path: string, reason: string) => problems.push({ path, reason });
  const regionList = (doc.regions ?? []) as RegionIn[];
  const countryList = (doc.countries ?? []) as CountryIn[];
  const stored = await storedContent(ctx.db);

  const dupRegions = duplicates(regionList.map((r) => r.slug));
  regionList.forEach((r, i) => {
    if (dupRegions.has(r.slug)) add(`/regions/${i}/slug`, `duplicate region slug '${r.slug}'`);
    if (!stored.regions.has(r.slug)) requireForNew(add, `/regions/${i}`, r, ['status'], 'region');
    for (const [locale, t] of Object.entries(r.translations ?? {})) {
      const path = `/regions/${i}/translations/${locale}`;
      if (!stored.regionTexts.has(`${r.slug}/${locale}`)) requireForNew(add, path, t, ['name'], 'translation');
      const phases = t.experiences?.phases ?? [];
      const dupPhases = duplicates(phases.map((p) => p.id));
      phases.forEach((p, j) => {
        if (dupPhases.has(p.id)) add(`${path}/experiences/phases/${j}/id`, `duplicate phase id '${p.id}'`);
      });
    }
  });

  const dupCountries = duplicates(countryList.map((c) => c.slug));
  const regionSlugs = new Set([...stored.regions, ...regionList.map((r) => r.slug)]);
  countryList.forEach((c, i) => {
    if (dupCountries.has(c.slug)) add(`/countries/${i}/slug`, `duplicate country slug '${c.slug}'`);
    if (!stored.countries.has(c.slug)) requireForNew(add, `/countries/${i}`, c, ['region', 'status'], 'country');
    if (c.region !== undefined && !regionSlugs.has(c.region))
      add(`/countries/${i}/region`, `unknown region '${c.region}'`);
    const products = c.products ?? [];
    for (const code of duplicates(products)) add(`/countries/${i}/products`, `product '${code}' is listed twice`);
    for (const [locale, t] of Object.entries(c.translations ?? {})) {
      const path = `/countries/${i}/translations/${locale}`;
      if (!stored.countryTexts.has(`${c.slug}/${locale}`)) requireForNew(add, path, t, ['name'], 'translation');
      (t.experiences ?? []).forEach((e, j) => {
        // a country that leaves `products` out keeps its stored list, which the apply step checks
        if (e.product && c.products && !products.includes(e.product)) {
          add(`${path}/experiences/${j}/product`, `product '${e.product}' is not one of the country's products`);
        }
      });
    }
  });

  // tours are named by template code: an unknown code is reported where it stands
  const named = [
    ...regionList.flatMap((r, i) =>
      Object.entries(r.translations ?? {}).flatMap(([locale, t]) =>
        (t.experiences?.phases ?? []).flatMap((p, j) =>
          (p.products ?? []).map((code, k) => ({
            code,
            path: `/regions/${i}/translations/${locale}/experiences/phases/${j}/products/${k}`,
          })),
        ),
      ),
    ),
    ...countryList.flatMap((c, i) =>
      (c.products ?? []).map((code, k) => ({ code, path: `/countries/${i}/products/${k}` })),
    ),
  ];
  if (named.length) {
    const known = await templateIdsByCode(ctx.db, [...new Set(named.map((x) => x.code))]);
    // the catalog section of the same document may bring the template
    const inDoc = new Set(((doc.product_templates ?? []) as { code?: string }[]).map((t) => t.code));
    for (const x of named) {
      if (!known.has(x.code) && !inDoc.has(x.code)) add(x.path, `unknown product template '${x.code}'`);
    }
  }

  const about = doc.about_us as AboutUsIn | undefined;
  if (about) {
    if (!stored.aboutUs) requireForNew(add, '/about_us', about, ['status'], 'About Us page');
    for (const [locale, t] of Object.entries(about.translations ?? {})) {
      if (!stored.aboutUsTexts.has(locale))
        requireForNew(add, `/about_us/translations/${locale}`, t, ['title'], 'translation');
    }
  }
  return problems;
}

/** Template ids by code; an unknown code fails the import (the transaction rolls back). */
async function templateIds(tx: Tx, codes: Iterable<{ code: string; path: string }>): Promise<Map<string, number>> {
  const wanted = [...codes];
  const ids = await templateIdsByCode(tx, [...new Set(wanted.map((w) => w.code))]);
  const missing = wanted.find((w) => !ids.has(w.code));
  if (missing) throw new Error(`${missing.path}: unknown product template '${missing.code}'`);
  return ids;
}

/** Writes rows through mergeRows, counting them and reporting changed fields under `entity`. */
async function merge<T extends PgTable>(
  tx: Tx,
  ctx: ImportContext,
  entity: string,
  table: T,
  rows: Partial<T['$inferInsert']>[],
  key: PgColumn[],
  defaults: Partial<T['$inferInsert']>,
  label: (key: unknown[]) => string = (k) => k.join('/'),
): Promise<void> {
  const counts = await mergeRows(tx, table, rows, key, {
    complete: (r) => ({ ...defaults, ...r }) as T['$inferInsert'],
    changed: (k, changes) => ctx.changed(entity, label(k), changes),
  });
  ctx.count(entity, { total: rows.length, ...counts });
}

const TEXT_DEFAULTS = { description: null, status: 'active' };

async function applyRegions(tx: Tx, ctx: ImportContext, list: RegionIn[]): Promise<void> {
  await templateIds(
    tx,
    list.flatMap((r, i) =>
      Object.entries(r.translations ?? {}).flatMap(([locale, t]) =>
        (t.experiences?.phases ?? []).flatMap((p, j) =>
          (p.products ?? []).map((code, k) => ({
            code,
            path: `/regions/${i}/translations/${locale}/experiences/phases/${j}/products/${k}`,
          })),
        ),
      ),
    ),
  );
  await merge(
    tx,
    ctx,
    'regions',
    regions,
    list.map((r) => ({
      slug: r.slug,
      ...namedColumns(r, {
        image: 'image',
        full_width_image: 'fullWidthImage',
        sort_order: 'sortOrder',
        status: 'status',
      }),
    })),
    [regions.slug],
    { image: null, fullWidthImage: null, sortOrder: 0 },
  );
  const ids = await idsBySlug(
    tx,
    regions,
    list.map((r) => r.slug),
  );
  const slugOf = new Map([...ids].map(([slug, id]) => [id, slug]));
  await merge(
    tx,
    ctx,
    'region_translations',
    regionTranslations,
    list.flatMap((r) =>
      Object.entries(r.translations ?? {}).map(([locale, t]) => ({
        regionId: ids.get(r.slug)!,
        locale,
        ...namedColumns(t, {
          name: 'name',
          status: 'status',
          description: 'description',
          quote: 'quote',
          experiences: (v) => ({ experiences: regionExperiences(v) }),
          cta_heading: 'ctaHeading',
          cta_subheading: 'ctaSubheading',
          cta_button_text: 'ctaButtonText',
        }),
      })),
    ),
    [regionTranslations.regionId, regionTranslations.locale],
    { ...TEXT_DEFAULTS, quote: null, experiences: null, ctaHeading: null, ctaSubheading: null, ctaButtonText: null },
    ([id, locale]) => `${slugOf.get(id as number)}/${locale}`,
  );
}

async function idsBySlug(
  tx: Tx,
  table: typeof regions | typeof countries,
  slugs: string[],
): Promise<Map<string, number>> {
  if (slugs.length === 0) return new Map();
  const rows = await tx.select({ id: table.id, slug: table.slug }).from(table).where(inArray(table.slug, slugs));
  return new Map(rows.map((r) => [r.slug, r.id]));
}

async function applyCountries(tx: Tx, ctx: ImportContext, list: CountryIn[]): Promise<void> {
  const regionIds = await idsBySlug(tx, regions, [...new Set(list.flatMap((c) => (c.region ? [c.region] : [])))]);
  const templates = await templateIds(
    tx,
    list.flatMap((c, i) => (c.products ?? []).map((code, k) => ({ code, path: `/countries/${i}/products/${k}` }))),
  );
  list.forEach((c, i) => {
    if (c.region !== undefined && !regionIds.has(c.region)) {
      throw new Error(`/countries/${i}/region: unknown region '${c.region}'`);
    }
  });
  await merge(
    tx,
    ctx,
    'countries',
    countries,
    list.map((c) => ({
      slug: c.slug,
      ...namedColumns(c, {
        region: (v) => ({ regionId: regionIds.get(v)! }),
        image: 'image',
        images: 'images',
        sort_order: 'sortOrder',
        status: 'status',
      }),
    })),
    [countries.slug],
    { image: null, images: [], sortOrder: 0 },
  );
  const ids = await idsBySlug(
    tx,
    countries,
    list.map((c) => c.slug),
  );
  const slugOf = new Map([...ids].map(([slug, id]) => [id, slug]));
  // the association is the country's ordered list: a list in the document replaces it
  for (const c of list.filter((x) => x.products)) {
    const countryId = ids.get(c.slug)!;
    await tx.delete(countryProducts).where(eq(countryProducts.countryId, countryId));
    if (c.products!.length) {
      await tx
        .insert(countryProducts)
        .values(c.products!.map((code, k) => ({ countryId, templateId: templates.get(code)!, sortOrder: k })));
    }
  }
  await merge(
    tx,
    ctx,
    'country_translations',
    countryTranslations,
    list.flatMap((c) =>
      Object.entries(c.translations ?? {}).map(([locale, t]) => ({
        countryId: ids.get(c.slug)!,
        locale,
        ...namedColumns(t, {
          name: 'name',
          status: 'status',
          description: 'description',
          tagline: 'tagline',
          population: 'population',
          area: 'area',
          currency: 'currency',
          best_time: 'bestTime',
          languages: 'languages',
          population_label: 'populationLabel',
          area_label: 'areaLabel',
          currency_label: 'currencyLabel',
          best_time_label: 'bestTimeLabel',
          languages_label: 'languagesLabel',
          experiences: (v) => ({
            experiences: v.map(
              (e): CountryExperience => ({
                image: n(e.image),
                title: e.title,
                tag: n(e.tag),
                description: n(e.description),
                product: n(e.product),
              }),
            ),
          }),
        }),
      })),
    ),
    [countryTranslations.countryId, countryTranslations.locale],
    {
      ...TEXT_DEFAULTS,
      tagline: null,
      population: null,
      area: null,
      currency: null,
      bestTime: null,
      languages: null,
      populationLabel: null,
      areaLabel: null,
      currencyLabel: null,
      bestTimeLabel: null,
      languagesLabel: null,
      experiences: [],
    },
    ([id, locale]) => `${slugOf.get(id as number)}/${locale}`,
  );
}

const LABEL_FIELDS = {
  hero_button_primary: 'heroButtonPrimary',
  hero_button_secondary: 'heroButtonSecondary',
  newsletter_heading: 'newsletterHeading',
  newsletter_name_placeholder: 'newsletterNamePlaceholder',
  newsletter_email_placeholder: 'newsletterEmailPlaceholder',
  newsletter_button_text: 'newsletterButtonText',
} as const;

async function applyLabels(tx: Tx, ctx: ImportContext, labels: LabelsIn): Promise<void> {
  await merge(
    tx,
    ctx,
    'region_labels',
    regionLabels,
    Object.entries(labels).map(([locale, l]) => ({ locale, ...namedColumns(l, LABEL_FIELDS) })),
    [regionLabels.locale],
    Object.fromEntries(Object.values(LABEL_FIELDS).map((f) => [f, null])),
  );
}

async function applyAboutUs(tx: Tx, ctx: ImportContext, page: AboutUsIn): Promise<void> {
  await merge(
    tx,
    ctx,
    'about_us',
    aboutUsPages,
    [{ id: 1, ...namedColumns(page, { video_url: 'videoUrl', status: 'status' }) }],
    [aboutUsPages.id],
    { videoUrl: null },
  );
  await merge(
    tx,
    ctx,
    'about_us_translations',
    aboutUsTranslations,
    Object.entries(page.translations ?? {}).map(([locale, t]) => ({
      pageId: 1,
      locale,
      ...namedColumns(t, {
        title: 'title',
        status: 'status',
        lead_caption: 'leadCaption',
        supporting_caption: 'supportingCaption',
        description: 'description',
        trailers: (v) => ({
          trailers: v.map(
            (tr): Trailer => ({
              id: n(tr.id),
              posterImage: n(tr.poster_image),
              posterAlt: n(tr.poster_alt),
              href: n(tr.href),
              target: n(tr.target),
              ariaLabel: n(tr.aria_label),
            }),
          ),
        }),
      }),
    })),
    [aboutUsTranslations.pageId, aboutUsTranslations.locale],
    { ...TEXT_DEFAULTS, leadCaption: null, supportingCaption: null, trailers: [] },
    ([, locale]) => String(locale),
  );
}

export const contentSection: ImportSection = {
  name: 'content',
  properties: contentProperties,
  check,
  async apply(tx, doc, ctx) {
    if (doc.regions) await applyRegions(tx, ctx, doc.regions as RegionIn[]);
    if (doc.countries) await applyCountries(tx, ctx, doc.countries as CountryIn[]);
    if (doc.region_labels) await applyLabels(tx, ctx, doc.region_labels as LabelsIn);
    if (doc.about_us) await applyAboutUs(tx, ctx, doc.about_us as AboutUsIn);
  },
};
