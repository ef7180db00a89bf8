// The content keys of the catalog import document (`regions`, `countries`, `region_labels`,
// `about_us`): their JSON schema, which the importer validates first, and the shapes the content
// section (import.ts) reads once they passed.
import { Type } from 'typebox';

const LOCALE = '^[a-z]{2}_[A-Z]{2}$';
const SLUG = '^[a-z0-9]+(-[a-z0-9]+)*$';

const Nullable = <T extends Parameters<typeof Type.Optional>[0]>(t: T) => Type.Optional(Type.Union([t, Type.Null()]));
const Text = Nullable(Type.String());
const Slug = (description: string) => Type.String({ pattern: SLUG, description });
export type ContentStatus = 'active' | 'draft' | 'inactive' | 'archived';
const Status = Type.Optional(
  Type.Union([Type.Literal('active'), Type.Literal('draft'), Type.Literal('inactive'), Type.Literal('archived')], {
    description: 'required for a new record; a stored record keeps its status when left out',
  }),
);
export type TranslationStatus = 'active' | 'archived';
const TextStatus = Type.Optional(
  Type.Union([Type.Literal('active'), Type.Literal('archived')], {
    description:
      'archived hides the record in this locale only (kept for history); a new translation is active unless it says so; a stored one keeps its status when left out',
  }),
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
    name: Type.Optional(Type.String({ minLength: 1, description: 'required for a new translation' })),
    status: TextStatus,
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
    translations: Type.Optional(ByLocale(RegionTranslation, 'texts')),
  },
  { additionalProperties: false },
);

const CountryTranslation = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, description: 'required for a new translation' })),
    status: TextStatus,
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
    region: Type.Optional(Slug('slug of the region the country belongs to; required for a new country')),
    image: Text,
    images: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    sort_order: Type.Optional(Type.Integer()),
    status: Status,
    products: Type.Optional(TemplateCodes),
    translations: Type.Optional(ByLocale(CountryTranslation, 'texts')),
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
    translations: Type.Optional(
      ByLocale(
        Type.Object(
          {
            title: Type.Optional(Type.String({ minLength: 1, description: 'required for a new translation' })),
            status: TextStatus,
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
    ),
  },
  { additionalProperties: false },
);

export type Maybe<T> = T | null | undefined;
export interface MediaIn {
  src?: Maybe<string>;
  alt?: Maybe<string>;
}
export interface RegionIn {
  slug: string;
  image?: Maybe<string>;
  full_width_image?: Maybe<string>;
  sort_order?: number;
  status?: ContentStatus;
  translations?: Record<
    string,
    {
      name?: string;
      status?: TranslationStatus;
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
export interface CountryTextIn {
  name?: string;
  status?: TranslationStatus;
  description?: Maybe<string>;
  tagline?: Maybe<string>;
  population?: Maybe<string>;
  area?: Maybe<string>;
  currency?: Maybe<string>;
  best_time?: Maybe<string>;
  languages?: Maybe<string>;
  population_label?: Maybe<string>;
  area_label?: Maybe<string>;
  currency_label?: Maybe<string>;
  best_time_label?: Maybe<string>;
  languages_label?: Maybe<string>;
  experiences?: {
    image?: Maybe<string>;
    title: string;
    tag?: Maybe<string>;
    description?: Maybe<string>;
    product?: Maybe<string>;
  }[];
}
export interface CountryIn {
  slug: string;
  region?: string;
  image?: Maybe<string>;
  images?: string[];
  sort_order?: number;
  status?: ContentStatus;
  products?: string[];
  translations?: Record<string, CountryTextIn>;
}
export type LabelsIn = Record<string, Record<string, Maybe<string>>>;
export interface AboutUsIn {
  video_url?: Maybe<string>;
  status?: ContentStatus;
  translations?: Record<
    string,
    {
      title?: string;
      status?: TranslationStatus;
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

/** The content keys of the import document, as the catalog import validates them. */
export const contentProperties = {
  regions: Type.Array(Region, { description: 'editorial regions, upserted on slug' }),
  countries: Type.Array(Country, { description: 'editorial countries, upserted on slug' }),
  region_labels: ByLocale(Labels, 'global UI strings'),
  about_us: AboutUs,
};
