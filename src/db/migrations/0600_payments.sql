ALTER TABLE "booking_payments" ADD COLUMN "quote" jsonb;

ALTER TABLE "booking_payments" ADD COLUMN "fingerprint" varchar(64);

ALTER TABLE "booking_payments" ADD COLUMN "session_id" varchar(64);

ALTER TABLE "booking_payments" ADD COLUMN "customer_id" varchar(255);

ALTER TABLE "booking_payments" ADD COLUMN "payment_method_id" varchar(255);

ALTER TABLE "booking_payments" ADD COLUMN "confirmation" jsonb;

ALTER TABLE "booking_payments" ADD COLUMN "finalized_at" timestamp with time zone;

CREATE INDEX "booking_payments_open" ON "booking_payments" USING btree ("created_at") WHERE finalized_at IS NULL;

CREATE TABLE "seat_holds" (
	"booking_id" integer PRIMARY KEY NOT NULL,
	"offer_id" integer NOT NULL,
	"seats" integer NOT NULL,
	"intent_id" varchar(255),
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "payment_events" (
	"id" varchar(255) PRIMARY KEY NOT NULL,
	"type" varchar(100) NOT NULL,
	"intent_id" varchar(255),
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "sandbox_payment_intents" (
	"id" varchar(255) PRIMARY KEY NOT NULL,
	"amount" integer NOT NULL,
	"currency" varchar(3) NOT NULL,
	"status" varchar(40) NOT NULL,
	"client_secret" varchar(255) NOT NULL,
	"customer_id" varchar(255),
	"payment_method" varchar(255),
	"setup_future_usage" varchar(20),
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE "seat_holds" ADD CONSTRAINT "seat_holds_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

CREATE INDEX "seat_holds_offer" ON "seat_holds" USING btree ("offer_id");

CREATE INDEX "seat_holds_expiry" ON "seat_holds" USING btree ("expires_at");
