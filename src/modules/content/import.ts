// The content part of the catalog import document: top-level keys `regions`, `countries`,
// `region_labels` and `about_us`. Records are upserted on their natural keys (slug; translations on
// (record, locale); labels on locale; About Us is a singleton). Tours are named by product
// template code; the catalog section runs first, so the templates exist by then.
import { eq, inArray, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { Tx } from '../../db/database.js';
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
import type { ImportContext, ImportProblem, ImportSection } from '../../import/section.js';
import { templateIdsByCode } from '../catalog/tours.js';

const LOCALE = '^[a-z]{2}_[A-Z]{2}$';
const SLUG = '^[a-z0-9]+(-[a-z0-9]+)*$';

const Nullable = <T extends Parameters<typeof Type.Optional>[0]>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
const Text = Nullable(Type.String());
const Slug = (description: string) => Type.String({ pattern: SLUG, description });
const Status = Type.Optional(
  Type.Union([Type.Literal('active'), Type.Literal('inactive')], { description: 'default active' }),
);
const ByLocale = <T extends Parameters<typeof Type.Record>[1]>(t: T, description: string) =>
  Type.Record(Type.String({ pattern: LOCALE }), t, {
    additionalProperties: false,
    description: `${description}, keyed by locale (<lang>_<MARKET>, e.g. ca_ES)`,
  });

const Media = Nullable(
  Type.Object(
    { src: Text, alt: Text },
    { additionalProperties: false, description: 'src: storage path or absolute URL' },
  ),
);
const TemplateCodes = Type.Array(Type.String({ minLength: 1 }), {
  description: 'product template codes (product_templates.code), in display order',
});

const RegionTranslation = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Text,
    quote: Text,
    cta_heading: Text,
    cta_subheading: Text,
    cta_button_text: Text,
    experiences: Nullable(
      Type.Object(
        {
          intro: Nullable(
            Type.Object(
              { eyebrow: Text, title: Text, description: Text, media: Media, preview_media: Media },
              { additionalProperties: false },
            ),
          ),
          phases: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  id: Type.String({ minLength: 1 }),
                  title: Text,
                  caption: Text,
                  experience_name: Text,
                  modal_title: Text,
                  trigger_aria_label: Text,
                  media: Media,
                  products: Type.Optional(TemplateCodes),
                },
                { additionalProperties: false },
              ),
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const Region = Type.Object(
  {
    slug: Slug('natural key'),
    image: Text,
    full_width_image: Text,
    sort_order: Type.Optional(Type.Integer()),
    status: Status,
    translations: ByLocale(RegionTranslation, 'texts'),
  },
  { additionalProperties: false },
);

const CountryTranslation = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Text,
    tagline: Text,
    population: Text,
    area: Text,
    currency: Text,
    best_time: Text,
    languages: Text,
    population_label: Text,
    area_label: Text,
    currency_label: Text,
    best_time_label: Text,
    languages_label: Text,
    experiences: Type.Optional(
      Type.Array(
        Type.Object(
          {
            image: Text,
            title: Type.String({ minLength: 1 }),
            tag: Text,
            description: Text,
            product: Nullable(Type.String({ minLength: 1, description: "a template code of the country's products" })),
          },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

const Country = Type.Object(
  {
    slug: Slug('natural key'),
    region: Slug('slug of the region the country belongs to'),
    image: Text,
    images: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    sort_order: Type.Optional(Type.Integer()),
    status: Status,
    products: Type.Optional(TemplateCodes),
    translations: ByLocale(CountryTranslation, 'texts'),
  },
  { additionalProperties: false },
);

const Labels = Type.Object(
  {
    hero_button_primary: Text,
    hero_button_secondary: Text,
    newsletter_heading: Text,
    newsletter_name_placeholder: Text,
    newsletter_email_placeholder: Text,
    newsletter_button_text: Text,
  },
  { additionalProperties: false, description: 'missing or null fields use the built-in default' },
);

const AboutUs = Type.Object(
  {
    video_url: Text,
    status: Status,
    translations: ByLocale(
      Type.Object(
        {
          title: Type.String({ minLength: 1 }),
          lead_caption: Text,
          supporting_caption: Text,
          description: Text,
          trailers: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  id: Text,
                  poster_image: Text,
                  poster_alt: Text,
                  href: Text,
                  target: Nullable(Type.Union([Type.Literal('_self'), Type.Literal('_blank')])),
                  aria_label: Text,
                },
                {
                  additionalProperties: false,
                  description: 'entries lacking href, poster_image or poster_alt are stored but not served',
                },
              ),
            ),
          ),
        },
        { additionalProperties: false },
      ),
      'texts',
    ),
  },
  { additionalProperties: false },
);

type Maybe<T> = T | null | undefined;
interface MediaIn {
  src?: Maybe<string>;
  alt?: Maybe<string>;
}
interface RegionIn {
  slug: string;
  image?: Maybe<string>;
  full_width_image?: Maybe<string>;
  sort_order?: number;
  status?: 'active' | 'inactive';
  translations: Record<
    string,
    {
      name: string;
      description?: Maybe<string>;
      quote?: Maybe<string>;
      cta_heading?: Maybe<string>;
      cta_subheading?: Maybe<string>;
      cta_button_text?: Maybe<string>;
      experiences?: Maybe<{
        intro?: Maybe<{
          eyebrow?: Maybe<string>;
          title?: Maybe<string>;
          description?: Maybe<string>;
          media?: Maybe<MediaIn>;
          preview_media?: Maybe<MediaIn>;
        }>;
        phases?: {
          id: string;
          title?: Maybe<string>;
          caption?: Maybe<string>;
          experience_name?: Maybe<string>;
          modal_title?: Maybe<string>;
          trigger_aria_label?: Maybe<string>;
          media?: Maybe<MediaIn>;
          products?: string[];
        }[];
      }>;
    }
  >;
}
type CountryTextIn = Record<string, Maybe<string>> & {
  name: string;
  experiences?: {
    image?: Maybe<string>;
    title: string;
    tag?: Maybe<string>;
    description?: Maybe<string>;
    product?: Maybe<string>;
  }[];
};
interface CountryIn {
  slug: string;
  region: string;
  image?: Maybe<string>;
  images?: string[];
  sort_order?: number;
  status?: 'active' | 'inactive';
  products?: string[];
  translations: Record<string, CountryTextIn>;
}
type LabelsIn = Record<string, Record<string, Maybe<string>>>;
interface AboutUsIn {
  video_url?: Maybe<string>;
  status?: 'active' | 'inactive';
  translations: Record<
    string,
    {
      title: string;
      lead_caption?: Maybe<string>;
      supporting_caption?: Maybe<string>;
      description?: Maybe<string>;
      trailers?: {
        id?: Maybe<string>;
        poster_image?: Maybe<string>;
        poster_alt?: Maybe<string>;
        href?: Maybe<string>;
        target?: Maybe<'_self' | '_blank'>;
        aria_label?: Maybe<string>;
      }[];
    }
  >;
}

const n = <T>(v: Maybe<T>): T | null => v ?? null;
const media = (m: Maybe<MediaIn>): ContentMedia | null => (m ? { src: n(m.src), alt: n(m.alt) } : null);

function regionExperiences(e: RegionIn['translations'][string]['experiences']): RegionExperiences | null {
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

function check(doc: Record<string, unknown>, _ctx: ImportContext): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const regionList = (doc.regions ?? []) as RegionIn[];
  const countryList = (doc.countries ?? []) as CountryIn[];

  const dupRegions = duplicates(regionList.map((r) => r.slug));
  regionList.forEach((r, i) => {
    if (dupRegions.has(r.slug))
      problems.push({ path: `/regions/${i}/slug`, reason: `duplicate region slug '${r.slug}'` });
    for (const [locale, t] of Object.entries(r.translations)) {
      const phases = t.experiences?.phases ?? [];
      const dupPhases = duplicates(phases.map((p) => p.id));
      phases.forEach((p, j) => {
        if (dupPhases.has(p.id)) {
          problems.push({
            path: `/regions/${i}/translations/${locale}/experiences/phases/${j}/id`,
            reason: `duplicate phase id '${p.id}'`,
          });
        }
      });
    }
  });

  const dupCountries = duplicates(countryList.map((c) => c.slug));
  const regionSlugs = new Set(regionList.map((r) => r.slug));
  countryList.forEach((c, i) => {
    if (dupCountries.has(c.slug)) {
      problems.push({ path: `/countries/${i}/slug`, reason: `duplicate country slug '${c.slug}'` });
    }
    // a region absent from this document may already be stored: apply() looks it up
    if (doc.regions !== undefined && !regionSlugs.has(c.region)) {
      problems.push({ path: `/countries/${i}/region`, reason: `unknown region '${c.region}'` });
    }
    const products = c.products ?? [];
    for (const code of duplicates(products)) {
      problems.push({ path: `/countries/${i}/products`, reason: `product '${code}' is listed twice` });
    }
    for (const [locale, t] of Object.entries(c.translations)) {
      (t.experiences ?? []).forEach((e, j) => {
        if (e.product && !products.includes(e.product)) {
          problems.push({
            path: `/countries/${i}/translations/${locale}/experiences/${j}/product`,
            reason: `product '${e.product}' is not one of the country's products`,
          });
        }
      });
    }
  });
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

const touched = { updatedAt: sql`now()` };

async function applyRegions(tx: Tx, list: RegionIn[]): Promise<void> {
  await templateIds(
    tx,
    list.flatMap((r, i) =>
      Object.entries(r.translations).flatMap(([locale, t]) =>
        (t.experiences?.phases ?? []).flatMap((p, j) =>
          (p.products ?? []).map((code, k) => ({
            code,
            path: `/regions/${i}/translations/${locale}/experiences/phases/${j}/products/${k}`,
          })),
        ),
      ),
    ),
  );
  for (const r of list) {
    const values = {
      slug: r.slug,
      image: n(r.image),
      fullWidthImage: n(r.full_width_image),
      sortOrder: r.sort_order ?? 0,
      status: r.status ?? 'active',
    };
    const [row] = await tx
      .insert(regions)
      .values(values)
      .onConflictDoUpdate({ target: regions.slug, set: { ...values, ...touched } })
      .returning({ id: regions.id });
    for (const [locale, t] of Object.entries(r.translations)) {
      const text = {
        name: t.name,
        description: n(t.description),
        quote: n(t.quote),
        experiences: regionExperiences(t.experiences),
        ctaHeading: n(t.cta_heading),
        ctaSubheading: n(t.cta_subheading),
        ctaButtonText: n(t.cta_button_text),
      };
      await tx
        .insert(regionTranslations)
        .values({ regionId: row!.id, locale, ...text })
        .onConflictDoUpdate({
          target: [regionTranslations.regionId, regionTranslations.locale],
          set: { ...text, ...touched },
        });
    }
  }
}

async function applyCountries(tx: Tx, list: CountryIn[]): Promise<void> {
  const slugs = [...new Set(list.map((c) => c.region))];
  const regionRows = slugs.length
    ? await tx.select({ id: regions.id, slug: regions.slug }).from(regions).where(inArray(regions.slug, slugs))
    : [];
  const regionIds = new Map(regionRows.map((r) => [r.slug, r.id]));
  const templates = await templateIds(
    tx,
    list.flatMap((c, i) => (c.products ?? []).map((code, k) => ({ code, path: `/countries/${i}/products/${k}` }))),
  );
  for (const [i, c] of list.entries()) {
    const regionId = regionIds.get(c.region);
    if (regionId === undefined) throw new Error(`/countries/${i}/region: unknown region '${c.region}'`);
    const values = {
      regionId,
      slug: c.slug,
      image: n(c.image),
      images: c.images ?? [],
      sortOrder: c.sort_order ?? 0,
      status: c.status ?? 'active',
    };
    const [row] = await tx
      .insert(countries)
      .values(values)
      .onConflictDoUpdate({ target: countries.slug, set: { ...values, ...touched } })
      .returning({ id: countries.id });
    const countryId = row!.id;
    // the association is the country's ordered list: the document's list replaces it
    await tx.delete(countryProducts).where(eq(countryProducts.countryId, countryId));
    const products = c.products ?? [];
    if (products.length) {
      await tx
        .insert(countryProducts)
        .values(products.map((code, k) => ({ countryId, templateId: templates.get(code)!, sortOrder: k })));
    }
    for (const [locale, t] of Object.entries(c.translations)) {
      const experiences: CountryExperience[] = (t.experiences ?? []).map((e) => ({
        image: n(e.image),
        title: e.title,
        tag: n(e.tag),
        description: n(e.description),
        product: n(e.product),
      }));
      const text = {
        name: t.name,
        description: n(t.description),
        tagline: n(t.tagline),
        population: n(t.population),
        area: n(t.area),
        currency: n(t.currency),
        bestTime: n(t.best_time),
        languages: n(t.languages),
        populationLabel: n(t.population_label),
        areaLabel: n(t.area_label),
        currencyLabel: n(t.currency_label),
        bestTimeLabel: n(t.best_time_label),
        languagesLabel: n(t.languages_label),
        experiences,
      };
      await tx
        .insert(countryTranslations)
        .values({ countryId, locale, ...text })
        .onConflictDoUpdate({
          target: [countryTranslations.countryId, countryTranslations.locale],
          set: { ...text, ...touched },
        });
    }
  }
}

async function applyLabels(tx: Tx, labels: LabelsIn): Promise<void> {
  for (const [locale, l] of Object.entries(labels)) {
    const values = {
      heroButtonPrimary: n(l.hero_button_primary),
      heroButtonSecondary: n(l.hero_button_secondary),
      newsletterHeading: n(l.newsletter_heading),
      newsletterNamePlaceholder: n(l.newsletter_name_placeholder),
      newsletterEmailPlaceholder: n(l.newsletter_email_placeholder),
      newsletterButtonText: n(l.newsletter_button_text),
    };
    await tx
      .insert(regionLabels)
      .values({ locale, ...values })
      .onConflictDoUpdate({ target: regionLabels.locale, set: { ...values, ...touched } });
  }
}

async function applyAboutUs(tx: Tx, page: AboutUsIn): Promise<void> {
  const values = { id: 1, videoUrl: n(page.video_url), status: page.status ?? 'active' };
  await tx
    .insert(aboutUsPages)
    .values(values)
    .onConflictDoUpdate({ target: aboutUsPages.id, set: { ...values, ...touched } });
  for (const [locale, t] of Object.entries(page.translations)) {
    const trailers: Trailer[] = (t.trailers ?? []).map((tr) => ({
      id: n(tr.id),
      posterImage: n(tr.poster_image),
      posterAlt: n(tr.poster_alt),
      href: n(tr.href),
      target: n(tr.target),
      ariaLabel: n(tr.aria_label),
    }));
    const text = {
      title: t.title,
      leadCaption: n(t.lead_caption),
      supportingCaption: n(t.supporting_caption),
      description: n(t.description),
      trailers,
    };
    await tx
      .insert(aboutUsTranslations)
      .values({ pageId: 1, locale, ...text })
      .onConflictDoUpdate({
        target: [aboutUsTranslations.pageId, aboutUsTranslations.locale],
        set: { ...text, ...touched },
      });
  }
}

export const contentSection: ImportSection = {
  name: 'content',
  properties: {
    regions: Type.Array(Region, { description: 'editorial regions, upserted on slug' }),
    countries: Type.Array(Country, { description: 'editorial countries, upserted on slug' }),
    region_labels: ByLocale(Labels, 'global UI strings'),
    about_us: AboutUs,
  },
  check,
  async apply(tx, doc) {
    if (doc.regions) await applyRegions(tx, doc.regions as RegionIn[]);
    if (doc.countries) await applyCountries(tx, doc.countries as CountryIn[]);
    if (doc.region_labels) await applyLabels(tx, doc.region_labels as LabelsIn);
    if (doc.about_us) await applyAboutUs(tx, doc.about_us as AboutUsIn);
  },
};
