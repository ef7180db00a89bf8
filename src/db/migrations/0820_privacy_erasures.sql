CREATE TABLE "privacy_erasures" (
	"id" serial PRIMARY KEY NOT NULL,
	"email_hash" varchar(64) NOT NULL,
	"counts" jsonb NOT NULL,
	"trigger" varchar(20) NOT NULL,
	"erased_at" timestamp with time zone NOT NULL
);

CREATE INDEX "privacy_erasures_email_hash_idx" ON "privacy_erasures" USING btree ("email_hash");
