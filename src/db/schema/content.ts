// Editorial content: regions, countries (with their ordered tours), global region labels and the
// About Us singleton. Records hold language-neutral fields; texts live in one translation row per
// (record, locale). Natural keys (slug, locale) are unique so the import can upsert on them.
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { productTemplates } from './catalog.js';
import { timestamps } from './columns.js';

/** A storage path (joined to ASSET_BASE_URL when served) or an absolute URL, with its alt text. */
export interface ContentMedia {
  src: string | null;
  alt: string | null;
}

/** Structured region experiences; phases name tours by product template code. */
export interface RegionExperiences {
  intro: {
    eyebrow: string | null;
    title: string | null;
    description: string | null;
    media: ContentMedia | null;
    previewMedia: ContentMedia | null;
  };
  phases: {
    id: string;
    title: string | null;
    caption: string | null;
    experienceName: string | null;
    modalTitle: string | null;
    triggerAriaLabel: string | null;
    media: ContentMedia | null;
    /** product template codes, in display order */
    products: string[];
  }[];
}

export interface CountryExperience {
  image: string | null;
  title: string;
  tag: string | null;
  description: string | null;
  /** product template code (one of the country's tours), or null for an experience without a tour */
  product: string | null;
}

export interface Trailer {
  id: string | null;
  posterImage: string | null;
  posterAlt: string | null;
  href: string | null;
  target: '_self' | '_blank' | null;
  ariaLabel: string | null;
}

export const regions = pgTable('regions', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  image: text('image'),
  fullWidthImage: text('full_width_image'),
  sortOrder: integer('sort_order').notNull().default(0),
  /** draft | active | inactive | archived; only active is public */
  status: text('status').notNull().default('active'),
  ...timestamps,
});

export const regionTranslations = pgTable(
  'region_translations',
  {
    id: serial('id').primaryKey(),
    regionId: integer('region_id')
      .notNull()
      .references(() => regions.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    quote: text('quote'),
    experiences: jsonb('experiences').$type<RegionExperiences | null>(),
    ctaHeading: text('cta_heading'),
    ctaSubheading: text('cta_subheading'),
    ctaButtonText: text('cta_button_text'),
    /** active | archived (hidden in this locale only) */
    status: text('status').notNull().default('active'),
    ...timestamps,
  },
  (t) => [uniqueIndex('region_translations_natural_key').on(t.regionId, t.locale)],
);

export const countries = pgTable('countries', {
  id: serial('id').primaryKey(),
  regionId: integer('region_id')
    .notNull()
    .references(() => regions.id),
  slug: text('slug').notNull().unique(),
  image: text('image'),
  images: jsonb('images').$type<string[]>().notNull().default([]),
  sortOrder: integer('sort_order').notNull().default(0),
  /** draft | active | inactive | archived; only active is public */
  status: text('status').notNull().default('active'),
  ...timestamps,
});

export const countryTranslations = pgTable(
  'country_translations',
  {
    id: serial('id').primaryKey(),
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    tagline: text('tagline'),
    population: text('population'),
    area: text('area'),
    currency: text('currency'),
    bestTime: text('best_time'),
    languages: text('languages'),
    populationLabel: text('population_label'),
    areaLabel: text('area_label'),
    currencyLabel: text('currency_label'),
    bestTimeLabel: text('best_time_label'),
    languagesLabel: text('languages_label'),
    experiences: jsonb('experiences').$type<CountryExperience[]>().notNull().default([]),
    /** active | archived (hidden in this locale only) */
    status: text('status').notNull().default('active'),
    ...timestamps,
  },
  (t) => [uniqueIndex('country_translations_natural_key').on(t.countryId, t.locale)],
);

/**
 * The ordered association of a country with its tours. It names the product template: the market
 * product shown is the template's product in the request's market and language.
 */
export const countryProducts = pgTable(
  'country_products',
  {
    countryId: integer('country_id')
      .notNull()
      .references(() => countries.id, { onDelete: 'cascade' }),
    templateId: integer('template_id')
      .notNull()
      .references(() => productTemplates.id, { onDelete: 'cascade' }),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.countryId, t.templateId] })],
);

/** Global UI strings per locale; a null field falls back to the built-in default of the language. */
export const regionLabels = pgTable('region_labels', {
  locale: text('locale').primaryKey(),
  heroButtonPrimary: text('hero_button_primary'),
  heroButtonSecondary: text('hero_button_secondary'),
  newsletterHeading: text('newsletter_heading'),
  newsletterNamePlaceholder: text('newsletter_name_placeholder'),
  newsletterEmailPlaceholder: text('newsletter_email_placeholder'),
  newsletterButtonText: text('newsletter_button_text'),
  ...timestamps,
});

/** The About Us page: a singleton row (id 1). */
export const aboutUsPages = pgTable(
  'about_us_pages',
  {
    id: integer('id').primaryKey().default(1),
    videoUrl: text('video_url'),
    /** draft | active | inactive | archived; only active is public */
    status: text('status').notNull().default('active'),
    ...timestamps,
  },
  (t) => [check('about_us_pages_singleton', sql`${t.id} = 1`)],
);

export const aboutUsTranslations = pgTable(
  'about_us_translations',
  {
    id: serial('id').primaryKey(),
    pageId: integer('page_id')
      .notNull()
      .references(() => aboutUsPages.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    title: text('title').notNull(),
    leadCaption: text('lead_caption'),
    supportingCaption: text('supporting_caption'),
    description: text('description'),
    trailers: jsonb('trailers').$type<Trailer[]>().notNull().default([]),
    /** active | archived (hidden in this locale only) */
    status: text('status').notNull().default('active'),
    ...timestamps,
  },
  (t) => [uniqueIndex('about_us_translations_natural_key').on(t.pageId, t.locale)],
);
