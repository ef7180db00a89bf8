CREATE TABLE "accommodations" (
	"id" serial PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"hotel_id" integer NOT NULL,
	"tier" text NOT NULL,
	"day_start" integer NOT NULL,
	"day_end" integer NOT NULL
);

CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"city" text,
	"country" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reasons" jsonb,
	"amenities" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activities_code_unique" UNIQUE("code")
);

CREATE TABLE "activity_rates" (
	"activity_id" integer PRIMARY KEY NOT NULL,
	"price_per_person" numeric(12, 2) NOT NULL,
	"currency" text NOT NULL
);

CREATE TABLE "airports" (
	"iata_code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL
);

CREATE TABLE "exchange_rates" (
	"currency" text PRIMARY KEY NOT NULL,
	"rate_per_eur" numeric(18, 8) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "hotel_rates" (
	"hotel_id" integer NOT NULL,
	"room_type" text NOT NULL,
	"price_per_night" numeric(12, 2) NOT NULL,
	"currency" text NOT NULL,
	CONSTRAINT "hotel_rates_hotel_id_room_type_pk" PRIMARY KEY("hotel_id","room_type")
);

CREATE TABLE "hotels" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"city" text,
	"country" text,
	"description" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stars" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hotels_code_unique" UNIQUE("code")
);

CREATE TABLE "itinerary_day_activities" (
	"itinerary_day_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"tier" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "itinerary_day_activities_itinerary_day_id_activity_id_pk" PRIMARY KEY("itinerary_day_id","activity_id")
);

CREATE TABLE "itinerary_days" (
	"id" serial PRIMARY KEY NOT NULL,
	"market_product_id" integer NOT NULL,
	"day_number" integer NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"city" text,
	"country" text
);

CREATE TABLE "market_airports" (
	"market_id" integer NOT NULL,
	"iata_code" text NOT NULL,
	"is_primary" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "market_airports_market_id_iata_code_pk" PRIMARY KEY("market_id","iata_code")
);

CREATE TABLE "market_product_airports" (
	"market_product_id" integer NOT NULL,
	"iata_code" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "market_product_airports_market_product_id_iata_code_pk" PRIMARY KEY("market_product_id","iata_code")
);

CREATE TABLE "market_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"market_id" integer NOT NULL,
	"language" text NOT NULL,
	"locale" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"sku" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"title" text NOT NULL,
	"subtitle" text DEFAULT '' NOT NULL,
	"short_description" text DEFAULT '' NOT NULL,
	"long_description" text DEFAULT '' NOT NULL,
	"highlights" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"destination_info" text DEFAULT '' NOT NULL,
	"url_slug" text NOT NULL,
	"country_name" text NOT NULL,
	"hero_image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_products_sku_unique" UNIQUE("sku")
);

CREATE TABLE "markets" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"default_language" text NOT NULL,
	"languages" text[] NOT NULL,
	"tour_path_slugs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"currency_code" text NOT NULL,
	"currency_name" text NOT NULL,
	"currency_symbol" text NOT NULL,
	"timezone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "markets_code_unique" UNIQUE("code")
);

CREATE TABLE "offers" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"market_product_id" integer NOT NULL,
	"departure_airport" text NOT NULL,
	"departure_date" date NOT NULL,
	"return_date" date,
	"status" text DEFAULT 'Active' NOT NULL,
	"pax_count" integer DEFAULT 2 NOT NULL,
	"allotment" integer DEFAULT 0 NOT NULL,
	"allotment_used" integer DEFAULT 0 NOT NULL,
	"land_base_price" numeric(12, 2) NOT NULL,
	"flight_price" numeric(12, 2) NOT NULL,
	"margin_percent" numeric(6, 2) DEFAULT '0' NOT NULL,
	"final_price" numeric(12, 2) NOT NULL,
	"price_per_person" numeric(12, 2) NOT NULL,
	"flight_data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offers_code_unique" UNIQUE("code")
);

CREATE TABLE "product_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"trip_duration_days" integer NOT NULL,
	"country_slug" text NOT NULL,
	"hero_image" text,
	"package_service_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_templates_code_unique" UNIQUE("code"),
	CONSTRAINT "product_templates_slug_unique" UNIQUE("slug")
);

CREATE TABLE "tour_day_transfers" (
	"template_id" integer NOT NULL,
	"day_number" integer NOT NULL,
	"transfer_id" integer NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "tour_day_transfers_template_id_day_number_transfer_id_pk" PRIMARY KEY("template_id","day_number","transfer_id")
);

CREATE TABLE "transfer_rates" (
	"transfer_id" integer PRIMARY KEY NOT NULL,
	"price_per_trip" numeric(12, 2) NOT NULL,
	"currency" text NOT NULL
);

CREATE TABLE "transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"city" text,
	"country" text,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"vehicle_type" text,
	"duration_minutes" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfers_code_unique" UNIQUE("code")
);

ALTER TABLE "accommodations" ADD CONSTRAINT "accommodations_template_id_product_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."product_templates"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "accommodations" ADD CONSTRAINT "accommodations_hotel_id_hotels_id_fk" FOREIGN KEY ("hotel_id") REFERENCES "public"."hotels"("id") ON DELETE no action ON UPDATE no action;

ALTER TABLE "activity_rates" ADD CONSTRAINT "activity_rates_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "hotel_rates" ADD CONSTRAINT "hotel_rates_hotel_id_hotels_id_fk" FOREIGN KEY ("hotel_id") REFERENCES "public"."hotels"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "itinerary_day_activities" ADD CONSTRAINT "itinerary_day_activities_itinerary_day_id_itinerary_days_id_fk" FOREIGN KEY ("itinerary_day_id") REFERENCES "public"."itinerary_days"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "itinerary_day_activities" ADD CONSTRAINT "itinerary_day_activities_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE no action ON UPDATE no action;

ALTER TABLE "itinerary_days" ADD CONSTRAINT "itinerary_days_market_product_id_market_products_id_fk" FOREIGN KEY ("market_product_id") REFERENCES "public"."market_products"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "market_airports" ADD CONSTRAINT "market_airports_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "market_airports" ADD CONSTRAINT "market_airports_iata_code_airports_iata_code_fk" FOREIGN KEY ("iata_code") REFERENCES "public"."airports"("iata_code") ON DELETE no action ON UPDATE no action;

ALTER TABLE "market_product_airports" ADD CONSTRAINT "market_product_airports_market_product_id_market_products_id_fk" FOREIGN KEY ("market_product_id") REFERENCES "public"."market_products"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "market_product_airports" ADD CONSTRAINT "market_product_airports_iata_code_airports_iata_code_fk" FOREIGN KEY ("iata_code") REFERENCES "public"."airports"("iata_code") ON DELETE no action ON UPDATE no action;

ALTER TABLE "market_products" ADD CONSTRAINT "market_products_template_id_product_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."product_templates"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "market_products" ADD CONSTRAINT "market_products_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "offers" ADD CONSTRAINT "offers_market_product_id_market_products_id_fk" FOREIGN KEY ("market_product_id") REFERENCES "public"."market_products"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "offers" ADD CONSTRAINT "offers_departure_airport_airports_iata_code_fk" FOREIGN KEY ("departure_airport") REFERENCES "public"."airports"("iata_code") ON DELETE no action ON UPDATE no action;

ALTER TABLE "tour_day_transfers" ADD CONSTRAINT "tour_day_transfers_template_id_product_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."product_templates"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "tour_day_transfers" ADD CONSTRAINT "tour_day_transfers_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE no action ON UPDATE no action;

ALTER TABLE "transfer_rates" ADD CONSTRAINT "transfer_rates_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;

CREATE UNIQUE INDEX "accommodations_natural_key" ON "accommodations" USING btree ("template_id","tier","day_start","hotel_id");

CREATE UNIQUE INDEX "itinerary_days_natural_key" ON "itinerary_days" USING btree ("market_product_id","day_number");

CREATE UNIQUE INDEX "market_products_natural_key" ON "market_products" USING btree ("market_id","template_id","language");

CREATE UNIQUE INDEX "market_products_locale_slug" ON "market_products" USING btree ("locale","url_slug");

CREATE INDEX "market_products_listing" ON "market_products" USING btree ("locale","status","sort_order");

CREATE INDEX "offers_product_departure" ON "offers" USING btree ("market_product_id","departure_date");

CREATE INDEX "offers_bookable" ON "offers" USING btree ("status","departure_date") WHERE status = 'Active';
