CREATE TABLE "offer_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"market_product_id" integer NOT NULL,
	"departure_airport" text NOT NULL,
	"weekdays" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dates" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"season_start" date NOT NULL,
	"season_end" date NOT NULL,
	"pax_count" integer DEFAULT 2 NOT NULL,
	"seats" integer NOT NULL,
	"margin_percent" numeric(6, 2) DEFAULT '0' NOT NULL,
	"fallback_flight_price" numeric(12, 2),
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_rules_code_unique" UNIQUE("code")
);

CREATE TABLE "generated_offers" (
	"offer_id" integer PRIMARY KEY NOT NULL,
	"rule_id" integer NOT NULL,
	"fingerprint" text NOT NULL,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE "offer_rules" ADD CONSTRAINT "offer_rules_market_product_id_market_products_id_fk" FOREIGN KEY ("market_product_id") REFERENCES "public"."market_products"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "offer_rules" ADD CONSTRAINT "offer_rules_departure_airport_airports_iata_code_fk" FOREIGN KEY ("departure_airport") REFERENCES "public"."airports"("iata_code") ON DELETE no action ON UPDATE no action;
ALTER TABLE "generated_offers" ADD CONSTRAINT "generated_offers_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "generated_offers" ADD CONSTRAINT "generated_offers_rule_id_offer_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."offer_rules"("id") ON DELETE cascade ON UPDATE no action;
CREATE INDEX "offer_rules_product_idx" ON "offer_rules" USING btree ("market_product_id");
