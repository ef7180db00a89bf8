CREATE TABLE "deployments" (
	"id" serial PRIMARY KEY NOT NULL,
	"environment" varchar(50) NOT NULL,
	"version" varchar(100) NOT NULL,
	"commit" varchar(40) NOT NULL,
	"build_date" varchar(40) NOT NULL,
	"build_id" varchar(50),
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE "health_check_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch" uuid NOT NULL,
	"name" varchar(100) NOT NULL,
	"status" varchar(10) NOT NULL,
	"message" text,
	"meta" jsonb,
	"finished_at" timestamp with time zone NOT NULL
);

CREATE TABLE "ops_notification_throttles" (
	"key" varchar(100) PRIMARY KEY NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL
);

CREATE INDEX "deployments_recorded_at_idx" ON "deployments" USING btree ("recorded_at");

CREATE INDEX "health_check_results_finished_at_idx" ON "health_check_results" USING btree ("finished_at");
