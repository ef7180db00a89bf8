CREATE TABLE "booking_amendments" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"kind" text NOT NULL,
	"changes" jsonb NOT NULL,
	"price_difference" numeric(12, 2) DEFAULT '0' NOT NULL,
	"currency" text NOT NULL,
	"actor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "booking_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"author" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "supplier_confirmations" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"service_type" text NOT NULL,
	"service_id" integer NOT NULL,
	"service_name" text NOT NULL,
	"day_start" integer NOT NULL,
	"day_end" integer NOT NULL,
	"service_date" text NOT NULL,
	"end_date" text,
	"room_type" text,
	"tier" text,
	"supplier_email" text,
	"supplier_name" text,
	"status" text DEFAULT 'requested' NOT NULL,
	"supplier_reference" text,
	"decline_reason" text,
	"answered_by" text,
	"answered_at" timestamp with time zone,
	"requested_at" timestamp with time zone NOT NULL,
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE "booking_amendments" ADD CONSTRAINT "booking_amendments_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "booking_notes" ADD CONSTRAINT "booking_notes_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "supplier_confirmations" ADD CONSTRAINT "supplier_confirmations_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

CREATE INDEX "booking_amendments_booking" ON "booking_amendments" USING btree ("booking_id");

CREATE INDEX "booking_notes_booking" ON "booking_notes" USING btree ("booking_id");

CREATE INDEX "supplier_confirmations_booking" ON "supplier_confirmations" USING btree ("booking_id");

CREATE INDEX "supplier_confirmations_open" ON "supplier_confirmations" USING btree ("status");

ALTER TABLE "bookings" ADD COLUMN "land_requested_at" timestamp with time zone;
