CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" varchar(200) NOT NULL,
	"kind" varchar(40) NOT NULL,
	"booking_id" integer,
	"to_address" varchar(255) NOT NULL,
	"language" varchar(5) NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text NOT NULL,
	"status" varchar(20) DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;

CREATE UNIQUE INDEX "mail_outbox_key" ON "mail_outbox" USING btree ("key");

CREATE INDEX "mail_outbox_pending" ON "mail_outbox" USING btree ("next_attempt_at") WHERE status = 'pending';
