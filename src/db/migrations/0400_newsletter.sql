CREATE TABLE "newsletter_subscribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" varchar(255) NOT NULL,
	"name" varchar(255),
	"phone" varchar(50),
	"consent_given_at" timestamp with time zone NOT NULL,
	"privacy_policy_version" varchar(50) NOT NULL,
	"consent_ip" varchar(45),
	"crm_person_id" integer,
	"marketing_contact_id" integer,
	"market" varchar(5),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE UNIQUE INDEX "newsletter_subscribers_email_unique" ON "newsletter_subscribers" USING btree (lower("email"));
