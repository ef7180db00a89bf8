CREATE TABLE "booking_balance_attempts" (
	"booking_id" integer NOT NULL,
	"attempt" integer NOT NULL,
	"idempotency_key" varchar(100) NOT NULL,
	"intent_id" varchar(255),
	"outcome" varchar(30) NOT NULL,
	"code" varchar(100),
	"message" varchar(500),
	"amount" numeric(12, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_balance_attempts_booking_id_attempt_pk" PRIMARY KEY("booking_id","attempt")
);

CREATE TABLE "booking_balances" (
	"booking_id" integer PRIMARY KEY NOT NULL,
	"departure_date" date NOT NULL,
	"due_date" date NOT NULL,
	"total_price" numeric(12, 2) NOT NULL,
	"amount_paid" numeric(12, 2) NOT NULL,
	"remaining_price" numeric(12, 2) NOT NULL,
	"currency" varchar(3) NOT NULL,
	"status" varchar(20) NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"first_failed_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"charging_until" timestamp with time zone,
	"last_error" jsonb,
	"reminder_sent_at" timestamp with time zone,
	"link_intent_id" varchar(255),
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "booking_saved_cards" (
	"booking_id" integer PRIMARY KEY NOT NULL,
	"gateway_code" varchar(50) NOT NULL,
	"customer_id" varchar(255) NOT NULL,
	"payment_method_id" varchar(255) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE "booking_balance_attempts" ADD CONSTRAINT "booking_balance_attempts_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "booking_balances" ADD CONSTRAINT "booking_balances_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

ALTER TABLE "booking_saved_cards" ADD CONSTRAINT "booking_saved_cards_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;

CREATE INDEX "booking_balances_status_due" ON "booking_balances" USING btree ("status","due_date");
