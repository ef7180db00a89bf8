CREATE TABLE "marketing_sync_states" (
	"subscriber_id" integer PRIMARY KEY NOT NULL,
	"status" varchar(10) NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"updated_at" timestamp with time zone NOT NULL
);

ALTER TABLE "marketing_sync_states" ADD CONSTRAINT "marketing_sync_states_subscriber_id_newsletter_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."newsletter_subscribers"("id") ON DELETE cascade ON UPDATE no action;
