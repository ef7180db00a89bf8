CREATE TABLE "media_uploads" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"content_type" varchar(100) NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"original_name" varchar(255),
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE "media_uploads" ADD CONSTRAINT "media_uploads_uploaded_by_admin_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."admin_users"("id") ON DELETE set null ON UPDATE no action;
CREATE UNIQUE INDEX "media_uploads_name" ON "media_uploads" USING btree ("name");
CREATE INDEX "media_uploads_created" ON "media_uploads" USING btree ("created_at");
