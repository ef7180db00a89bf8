CREATE TABLE "pulse_request_aggregates" (
	"id" serial PRIMARY KEY NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"method" varchar(10) NOT NULL,
	"route" varchar(300) NOT NULL,
	"status" smallint NOT NULL,
	"count" integer NOT NULL,
	"duration_sum_ms" double precision NOT NULL,
	"duration_max_ms" double precision NOT NULL,
	"duration_buckets" integer[] NOT NULL
);

CREATE TABLE "telescope_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" varchar(100) NOT NULL,
	"method" varchar(10) NOT NULL,
	"path" varchar(500) NOT NULL,
	"route" varchar(300),
	"status" smallint NOT NULL,
	"duration_ms" double precision NOT NULL,
	"headers" jsonb NOT NULL,
	"error_name" varchar(100),
	"error_message" text,
	"recorded_at" timestamp with time zone NOT NULL
);

CREATE INDEX "pulse_request_aggregates_minute_idx" ON "pulse_request_aggregates" USING btree ("minute");

CREATE INDEX "telescope_requests_recorded_at_idx" ON "telescope_requests" USING btree ("recorded_at");

CREATE INDEX "telescope_requests_request_id_idx" ON "telescope_requests" USING btree ("request_id");
