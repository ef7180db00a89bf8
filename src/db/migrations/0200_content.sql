CREATE TABLE "about_us_pages" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"video_url" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "about_us_pages_singleton" CHECK ("about_us_pages"."id" = 1)
);

CREATE TABLE "about_us_translations" (
	"id" serial PRIMARY KEY NOT NULL,
	"page_id" integer NOT NULL,
	"locale" text NOT NULL,
	"title" text NOT NULL,
	"lead_caption" text,
	"supporting_caption" text,
	"description" text,
	"trailers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "countries" (
	"id" serial PRIMARY KEY NOT NULL,
	"region_id" integer NOT NULL,
	"slug" text NOT NULL,
	"image" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "countries_slug_unique" UNIQUE("slug")
);

CREATE TABLE "country_products" (
	"country_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "country_products_country_id_template_id_pk" PRIMARY KEY("country_id","template_id")
);

CREATE TABLE "country_translations" (
	"id" serial PRIMARY KEY NOT NULL,
	"country_id" integer NOT NULL,
	"locale" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"tagline" text,
	"population" text,
	"area" text,
	"currency" text,
	"best_time" text,
	"languages" text,
	"population_label" text,
	"area_label" text,
	"currency_label" text,
	"best_time_label" text,
	"languages_label" text,
	"experiences" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "region_labels" (
	"locale" text PRIMARY KEY NOT NULL,
	"hero_button_primary" text,
	"hero_button_secondary" text,
	"newsletter_heading" text,
	"newsletter_name_placeholder" text,
	"newsletter_email_placeholder" text,
	"newsletter_button_text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "region_translations" (
	"id" serial PRIMARY KEY NOT NULL,
	"region_id" integer NOT NULL,
	"locale" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"quote" text,
	"experiences" jsonb,
	"cta_heading" text,
	"cta_subheading" text,
	"cta_button_text" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "regions" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"image" text,
	"full_width_image" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "regions_slug_unique" UNIQUE("slug")
);

ALTER TABLE "about_us_translations" ADD CONSTRAINT "about_us_translations_page_id_about_us_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."about_us_pages"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "countries" ADD CONSTRAINT "countries_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE no action ON UPDATE no action;

ALTER TABLE "country_products" ADD CONSTRAINT "country_products_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "country_products" ADD CONSTRAINT "country_products_template_id_product_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."product_templates"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "country_translations" ADD CONSTRAINT "country_translations_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "region_translations" ADD CONSTRAINT "region_translations_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE cascade ON UPDATE no action;

CREATE UNIQUE INDEX "about_us_translations_natural_key" ON "about_us_translations" USING btree ("page_id","locale");

CREATE UNIQUE INDEX "country_translations_natural_key" ON "country_translations" USING btree ("country_id","locale");

CREATE UNIQUE INDEX "region_translations_natural_key" ON "region_translations" USING btree ("region_id","locale");
