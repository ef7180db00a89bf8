CREATE TABLE "admin_notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" varchar(50) NOT NULL,
	"booking_id" integer,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "booking_passengers" (
	"booking_id" integer NOT NULL,
	"passenger_id" integer NOT NULL,
	"position" integer NOT NULL,
	"is_lead" boolean DEFAULT false NOT NULL,
	CONSTRAINT "booking_passengers_booking_id_passenger_id_pk" PRIMARY KEY("booking_id","passenger_id")
);

CREATE TABLE "booking_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"intent_id" varchar(255) NOT NULL,
	"gateway_code" varchar(50) NOT NULL,
	"method_code" varchar(50) NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"total_price" numeric(12, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"status" varchar(30) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "booking_status_transitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"from_status" varchar(40),
	"to_status" varchar(40) NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "booking_upsells" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"type" varchar(30) NOT NULL,
	"item_id" integer,
	"name" text,
	"day_number" integer,
	"nights_start" integer,
	"nights_end" integer,
	"unit_price" numeric(12, 2) NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"total_price" numeric(12, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "flight_bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"leg_index" integer NOT NULL,
	"flight_type" varchar(20) NOT NULL,
	"cabin_class" varchar(10) NOT NULL,
	"provider" varchar(30) NOT NULL,
	"fare_id" text NOT NULL,
	"flow_id" text,
	"reservation_id" text NOT NULL,
	"pnr" varchar(20),
	"status" varchar(30) NOT NULL,
	"total_price" numeric(12, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"flight_numbers" text[] NOT NULL,
	"details" jsonb,
	"retrieved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "flight_leg_attempts" (
	"booking_id" integer NOT NULL,
	"leg_index" integer NOT NULL,
	"no_match_count" integer DEFAULT 0 NOT NULL,
	"last_error" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flight_leg_attempts_booking_id_leg_index_pk" PRIMARY KEY("booking_id","leg_index")
);

CREATE TABLE "passengers" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer,
	"first_name" varchar(57) NOT NULL,
	"last_name" varchar(57) NOT NULL,
	"nationality" varchar(2) NOT NULL,
	"passport_number" varchar(50) NOT NULL,
	"passport_expiry" date NOT NULL,
	"birth_date" date NOT NULL,
	"phone" varchar(30) NOT NULL,
	"email" varchar(255) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE "admin_notifications" ADD CONSTRAINT "admin_notifications_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "booking_passengers" ADD CONSTRAINT "booking_passengers_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "booking_passengers" ADD CONSTRAINT "booking_passengers_passenger_id_passengers_id_fk" FOREIGN KEY ("passenger_id") REFERENCES "public"."passengers"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "booking_payments" ADD CONSTRAINT "booking_payments_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "booking_status_transitions" ADD CONSTRAINT "booking_status_transitions_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "booking_upsells" ADD CONSTRAINT "booking_upsells_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "flight_bookings" ADD CONSTRAINT "flight_bookings_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "flight_leg_attempts" ADD CONSTRAINT "flight_leg_attempts_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "passengers" ADD CONSTRAINT "passengers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;

CREATE INDEX "admin_notifications_unread" ON "admin_notifications" USING btree ("created_at") WHERE read_at IS NULL;

CREATE UNIQUE INDEX "booking_passengers_lead" ON "booking_passengers" USING btree ("booking_id") WHERE is_lead;

CREATE UNIQUE INDEX "booking_payments_intent" ON "booking_payments" USING btree ("intent_id");

CREATE INDEX "booking_payments_booking" ON "booking_payments" USING btree ("booking_id");

CREATE INDEX "booking_status_transitions_booking" ON "booking_status_transitions" USING btree ("booking_id","created_at");

CREATE INDEX "booking_upsells_booking" ON "booking_upsells" USING btree ("booking_id");

CREATE UNIQUE INDEX "flight_bookings_booking_leg" ON "flight_bookings" USING btree ("booking_id","leg_index");

CREATE INDEX "passengers_client" ON "passengers" USING btree ("client_id");
