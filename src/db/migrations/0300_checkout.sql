CREATE TABLE "api_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(100) NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"abilities" text[] NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "booking_step_visits" (
	"booking_id" integer NOT NULL,
	"step" varchar(20) NOT NULL,
	"first_visited_at" timestamp with time zone NOT NULL,
	CONSTRAINT "booking_step_visits_booking_id_step_pk" PRIMARY KEY("booking_id","step")
);

CREATE TABLE "bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"reference" varchar(20) NOT NULL,
	"status" varchar(40) DEFAULT 'checkout' NOT NULL,
	"offer_id" integer NOT NULL,
	"market_code" varchar(5) NOT NULL,
	"language" varchar(5) NOT NULL,
	"client_id" integer,
	"pax_count" integer NOT NULL,
	"actual_pax_count" integer NOT NULL,
	"actual_room_type" varchar(10) NOT NULL,
	"is_non_standard_pax" boolean DEFAULT false NOT NULL,
	"total_price" numeric(12, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"flight_selection" jsonb,
	"payment_method_code" varchar(50),
	"payment_gateway_code" varchar(50),
	"checkout_step" varchar(20),
	"current_step" varchar(20),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "checkout_sessions" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"visitor_id" varchar(64) NOT NULL,
	"booking_id" integer NOT NULL,
	"offer_id" integer NOT NULL,
	"market_code" varchar(5) NOT NULL,
	"data" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"first_name" varchar(100) NOT NULL,
	"last_name" varchar(100) NOT NULL,
	"email" varchar(255) NOT NULL,
	"phone" varchar(30) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE "booking_step_visits" ADD CONSTRAINT "booking_step_visits_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "bookings" ADD CONSTRAINT "bookings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;

ALTER TABLE "checkout_sessions" ADD CONSTRAINT "checkout_sessions_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

CREATE UNIQUE INDEX "api_tokens_hash" ON "api_tokens" USING btree ("token_hash");

CREATE UNIQUE INDEX "bookings_reference" ON "bookings" USING btree ("reference");

CREATE INDEX "bookings_status" ON "bookings" USING btree ("status");

CREATE INDEX "bookings_offer" ON "bookings" USING btree ("offer_id");

CREATE UNIQUE INDEX "checkout_sessions_visitor" ON "checkout_sessions" USING btree ("visitor_id");

CREATE INDEX "checkout_sessions_expiry" ON "checkout_sessions" USING btree ("expires_at");

CREATE INDEX "clients_email" ON "clients" USING btree (lower("email"));
