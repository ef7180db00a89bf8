// Content reads. Every query joins the translation of one locale, so a record without that
// translation is simply not found. The public reads see only active records with an active
// translation (an archived translation hides the record in its locale only); a preview
// (`preview = true`, behind a signed URL) sees the record and its translation in any status.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database.js';
import {
  aboutUsPages,
  aboutUsTranslations,
  countries,
  countryProducts,
  countryTranslations,
  regionLabels,
  regions,
  regionTranslations,
} from '../../db/schema/content.js';
import { templateCodes } from '../catalog/tours.js';

const ACTIVE = 'active';

/** The record's status condition: active, or none for a preview. */
const visible = (status: PgColumn, preview: boolean) => (preview ? undefined : eq(status, ACTIVE));

const regionColumns = {
  id: regions.id,
  slug: regions.slug,
  image: regions.image,
  fullWidthImage: regions.fullWidthImage,
  name: regionTranslations.name,
  description: regionTranslations.description,
  quote: regionTranslations.quote,
  experiences: regionTranslations.experiences,
  ctaHeading: regionTranslations.ctaHeading,
  ctaSubheading: regionTranslations.ctaSubheading,
  ctaButtonText: regionTranslations.ctaButtonText,
};

export type RegionRow = Awaited<ReturnType<typeof findRegions>>[number];

/** Active regions with their translation in `locale`, by sort_order; one region when `slug` is given. */
export async function findRegions(db: DbOrTx, locale: string, slug?: string, preview = false) {
  return db
    .select(regionColumns)
    .from(regions)
    .innerJoin(
      regionTranslations,
      and(
        eq(regionTranslations.regionId, regions.id),
        eq(regionTranslations.locale, locale),
        visible(regionTranslations.status, preview),
      ),
    )
    .where(and(visible(regions.status, preview), slug === undefined ? undefined : eq(regions.slug, slug)))
    .orderBy(asc(regions.sortOrder), asc(regions.slug));
}

const countryColumns = {
  id: countries.id,
  regionId: countries.regionId,
  slug: countries.slug,
  image: countries.image,
  images: countries.images,
  name: countryTranslations.name,
  description: countryTranslations.description,
  tagline: countryTranslations.tagline,
  population: countryTranslations.population,
  area: countryTranslations.area,
  currency: countryTranslations.currency,
  bestTime: countryTranslations.bestTime,
  languages: countryTranslations.languages,
  populationLabel: countryTranslations.populationLabel,
  areaLabel: countryTranslations.areaLabel,
  currencyLabel: countryTranslations.currencyLabel,
  bestTimeLabel: countryTranslations.bestTimeLabel,
  languagesLabel: countryTranslations.languagesLabel,
  experiences: countryTranslations.experiences,
};

export type CountryRow = Awaited<ReturnType<typeof findCountries>>[number];

/** Active countries of the given regions with their translation in `locale`, by sort_order. */
export async function findCountries(db: DbOrTx, locale: string, regionIds: number[]) {
  if (regionIds.length === 0) return [];
  return db
    .select(countryColumns)
    .from(countries)
    .innerJoin(
      countryTranslations,
      and(
        eq(countryTranslations.countryId, countries.id),
        eq(countryTranslations.locale, locale),
        eq(countryTranslations.status, ACTIVE),
      ),
    )
    .where(and(eq(countries.status, ACTIVE), inArray(countries.regionId, regionIds)))
    .orderBy(asc(countries.sortOrder), asc(countries.slug));
}

/** An active country by slug with its translation in `locale` (any status for a preview), or undefined. */
export async function findCountry(
  db: DbOrTx,
  locale: string,
  slug: string,
  preview = false,
): Promise<CountryRow | undefined> {
  const [row] = await db
    .select(countryColumns)
    .from(countries)
    .innerJoin(
      countryTranslations,
      and(
        eq(countryTranslations.countryId, countries.id),
        eq(countryTranslations.locale, locale),
        visible(countryTranslations.status, preview),
      ),
    )
    .where(and(visible(countries.status, preview), eq(countries.slug, slug)));
  return row;
}

/** The template codes of a country's tours, in the association's order (codes are the catalog's). */
export async function countryTemplateCodes(db: DbOrTx, countryId: number): Promise<string[]> {
  const rows = await db
    .select({ templateId: countryProducts.templateId })
    .from(countryProducts)
    .where(eq(countryProducts.countryId, countryId))
    .orderBy(asc(countryProducts.sortOrder));
  const codes = await templateCodes(db, [...new Set(rows.map((r) => r.templateId))]);
  return rows.flatMap((r) => codes.get(r.templateId) ?? []);
}

export async function findLabels(db: DbOrTx, locale: string) {
  const [row] = await db.select().from(regionLabels).where(eq(regionLabels.locale, locale));
  return row;
}

/** The active About Us page with its active translation in `locale` (any status for a preview), or undefined. */
export async function findAboutUs(db: DbOrTx, locale: string, preview = false) {
  const [row] = await db
    .select({
      videoUrl: aboutUsPages.videoUrl,
      title: aboutUsTranslations.title,
      leadCaption: aboutUsTranslations.leadCaption,
      supportingCaption: aboutUsTranslations.supportingCaption,
      description: aboutUsTranslations.description,
      trailers: aboutUsTranslations.trailers,
    })
    .from(aboutUsPages)
    .innerJoin(
      aboutUsTranslations,
      and(
        eq(aboutUsTranslations.pageId, aboutUsPages.id),
        eq(aboutUsTranslations.locale, locale),
        visible(aboutUsTranslations.status, preview),
      ),
    )
    .where(visible(aboutUsPages.status, preview));
  return row;
}

// ------------------------------------------------------------------ editor reads (the console)

/** Every region, country and About Us row with every translation, any status (content is small). */
export async function contentForEditor(db: DbOrTx) {
  const [r, rt, c, ct, cp, a, at, l] = await Promise.all([
    db.select().from(regions).orderBy(asc(regions.sortOrder), asc(regions.slug)),
    db.select().from(regionTranslations).orderBy(asc(regionTranslations.locale)),
    db.select().from(countries).orderBy(asc(countries.sortOrder), asc(countries.slug)),
    db.select().from(countryTranslations).orderBy(asc(countryTranslations.locale)),
    db.select().from(countryProducts).orderBy(asc(countryProducts.sortOrder)),
    db.select().from(aboutUsPages),
    db.select().from(aboutUsTranslations).orderBy(asc(aboutUsTranslations.locale)),
    db.select().from(regionLabels).orderBy(asc(regionLabels.locale)),
  ]);
  const codes = await templateCodes(db, [...new Set(cp.map((x) => x.templateId))]);
  return {
    regions: r,
    regionTexts: rt,
    countries: c,
    countryTexts: ct,
    countryCodes: (countryId: number) =>
      cp.filter((x) => x.countryId === countryId).flatMap((x) => codes.get(x.templateId) ?? []),
    aboutUs: a[0],
    aboutUsTexts: at,
    labels: l,
  };
}
