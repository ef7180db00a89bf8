-- Issue 18: a translation of a region, a country or the About Us page can be archived per market
-- and language (hidden in that locale only, kept for history). Existing rows stay active.
ALTER TABLE "region_translations" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;
ALTER TABLE "country_translations" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;
ALTER TABLE "about_us_translations" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;
