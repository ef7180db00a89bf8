CREATE TABLE "crm_sync_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"model_type" varchar(40) NOT NULL,
	"model_id" integer NOT NULL,
	"remote_id" text,
	"status" varchar(10) DEFAULT 'Pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crm_sync_records_status_check" CHECK ("crm_sync_records"."status" IN ('Pending', 'Synced', 'Failed', 'Ignored')),
	CONSTRAINT "crm_sync_records_model_type_check" CHECK ("crm_sync_records"."model_type" IN ('newsletter_subscriber', 'lead', 'client'))
);

CREATE TABLE "leads" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"email" varchar(255) NOT NULL,
	"phone" varchar(50),
	"region" varchar(255),
	"destinations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"preferred_call_time" varchar(255),
	"source" varchar(50) NOT NULL,
	"consent_given_at" timestamp with time zone NOT NULL,
	"privacy_policy_version" varchar(50) NOT NULL,
	"consent_ip" varchar(45),
	"crm_person_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE UNIQUE INDEX "crm_sync_records_model_unique" ON "crm_sync_records" USING btree ("model_type","model_id");

CREATE INDEX "crm_sync_records_status_idx" ON "crm_sync_records" USING btree ("model_type","status");

CREATE INDEX "leads_email_idx" ON "leads" USING btree (lower("email"));

CREATE INDEX "leads_created_at_idx" ON "leads" USING btree ("created_at");
