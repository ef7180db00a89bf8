CREATE TABLE "booking_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"payment_id" integer NOT NULL,
	"sequence" integer NOT NULL,
	"idempotency_key" varchar(100) NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"status" varchar(20) NOT NULL,
	"kind" varchar(30) NOT NULL,
	"reason" varchar(500),
	"gateway_refund_id" varchar(255),
	"failure_reason" varchar(100),
	"requested_by" varchar(255) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "sandbox_refunds" (
	"id" varchar(255) PRIMARY KEY NOT NULL,
	"idempotency_key" varchar(255) NOT NULL,
	"intent_id" varchar(255) NOT NULL,
	"amount" integer NOT NULL,
	"currency" varchar(3) NOT NULL,
	"status" varchar(20) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_refunds_idempotency_key_unique" UNIQUE("idempotency_key")
);

ALTER TABLE "booking_refunds" ADD CONSTRAINT "booking_refunds_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "booking_refunds" ADD CONSTRAINT "booking_refunds_payment_id_booking_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."booking_payments"("id") ON DELETE cascade ON UPDATE no action;

CREATE UNIQUE INDEX "booking_refunds_key" ON "booking_refunds" USING btree ("idempotency_key");

CREATE UNIQUE INDEX "booking_refunds_sequence" ON "booking_refunds" USING btree ("booking_id","sequence");

CREATE INDEX "booking_refunds_pending" ON "booking_refunds" USING btree ("created_at") WHERE status IN ('pending', 'requires_action');
