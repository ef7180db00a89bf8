CREATE TABLE "activity_translations" (
	"activity_id" integer NOT NULL,
	"language" text NOT NULL,
	"name" text,
	"description" text,
	"city" text,
	"country" text,
	"reasons" jsonb,
	"amenities" jsonb,
	CONSTRAINT "activity_translations_activity_id_language_pk" PRIMARY KEY("activity_id","language")
);

CREATE TABLE "airport_translations" (
	"iata_code" text NOT NULL,
	"language" text NOT NULL,
	"name" text,
	"city" text,
	"country" text,
	CONSTRAINT "airport_translations_iata_code_language_pk" PRIMARY KEY("iata_code","language")
);

CREATE TABLE "hotel_translations" (
	"hotel_id" integer NOT NULL,
	"language" text NOT NULL,
	"name" text,
	"description" text,
	"city" text,
	"country" text,
	CONSTRAINT "hotel_translations_hotel_id_language_pk" PRIMARY KEY("hotel_id","language")
);

CREATE TABLE "transfer_translations" (
	"transfer_id" integer NOT NULL,
	"language" text NOT NULL,
	"name" text,
	"description" text,
	"city" text,
	"country" text,
	CONSTRAINT "transfer_translations_transfer_id_language_pk" PRIMARY KEY("transfer_id","language")
);

ALTER TABLE "activity_translations" ADD CONSTRAINT "activity_translations_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "airport_translations" ADD CONSTRAINT "airport_translations_iata_code_airports_iata_code_fk" FOREIGN KEY ("iata_code") REFERENCES "public"."airports"("iata_code") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "hotel_translations" ADD CONSTRAINT "hotel_translations_hotel_id_hotels_id_fk" FOREIGN KEY ("hotel_id") REFERENCES "public"."hotels"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "transfer_translations" ADD CONSTRAINT "transfer_translations_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;
